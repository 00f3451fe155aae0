package track

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestALabFileIsReadStrictly checks that exercises.json is as strict as the
// package documentation says, and that each mistake is reported in one line
// that a maintainer can act on: the line and column, then the exercise,
// region, rule or mistake, and the field, then the problem.
func TestALabFileIsReadStrictly(t *testing.T) {
	for name, tt := range map[string]struct{ from, to, want string }{
		// A value of the wrong type, where it is.
		"a number for a text, deep inside": {`"hints": [{"en": "h", "zh": "提示"}]}]
  }]`, `"hints": [{"en": "h", "zh": 7}]}]
  }]`, "line 9, column 97: exercise e: rule TestA: hint 1: zh: must be a string or a list of strings, not a number"},
		"a number in a list of lines": {`["TODO:", "write it"]`, `["TODO:", 5]`, "line 7, column 60: exercise e: region e in a.go: todo.en: must be a string or a list of strings, and [1] is a number"},
		"a string for a boolean":      {`"idea":`, `"race": "yes", "idea":`, "line 2, column 11: race: must be a boolean, not a string"},
		"a string for a list":         {`"seen": ["want: 2"]`, `"seen": "want: 2"`, `line 12, column 13: mistake "m": seen: must be an array, not a string`},
		"a string for a text":         {`"title": {"en": "t", "zh": "题"}`, `"title": "t"`, "line 6, column 14: exercise e: title: must be an object, not a string"},

		// Keys are spelt exactly: encoding/json alone would let "IDEA"
		// fill idea.
		"an upper-case key":        {`"idea"`, `"IDEA"`, `line 2, column 3: unknown field "IDEA" at the top level`},
		"a capital letter":         {`"exercises"`, `"Exercises"`, `line 4, column 3: unknown field "Exercises" at the top level`},
		"a capital in an exercise": {`"title"`, `"Title"`, `line 6, column 5: exercise e: unknown field "Title"`},
		"a language in capitals":   {`"en": "an idea"`, `"EN": "an idea"`, `line 2, column 12: idea: unknown field "EN"`},
		"a capital in a mistake":   {`"seen"`, `"Seen"`, `line 12, column 5: mistake "m": unknown field "Seen"`},

		// A key twice: encoding/json alone would keep the last.
		"a field twice":           {`  "section":`, `  "idea": {"en": "x", "zh": "x"}, "section":`, `line 3, column 3: field "idea" appears twice at the top level`},
		"a language twice":        {`{"en": "mh", "zh": "错误提示"}`, `{"en": "mh", "en": "mh2", "zh": "错误提示"}`, `line 12, column 49: mistake "m": hint 1: field "en" appears twice`},
		"an exercise's ID twice":  {"\"id\": \"e\",\n    \"title\"", "\"id\": \"e\", \"id\": \"f\",\n    \"title\"", `line 5, column 16: exercise e: field "id" appears twice`},
		"a byte that is no UTF-8": {`"en": "t",`, "\"en\": \"t\xff\",", "line 6, column 23: exercise e: title.en: not valid UTF-8 (byte 0xFF); save the file as UTF-8"},

		// Every text reaches a terminal: none may hold a character that
		// does not print as itself.
		"a colour code in the idea":      {`"an idea"`, `"an \u001b[31midea"`, "line 2, column 18: idea.en: must not hold U+001B, which a terminal does not print as itself"},
		"a terminal title in a title":    {`"题"`, `"题\u001b]0;owned\u0007"`, "line 6, column 32: exercise e: title.zh: must not hold U+001B, which a terminal does not print as itself"},
		"a raw escape in the idea":       {`"an idea"`, "\"an \x1b[31midea\"", `line 2, column 18: idea.en: not valid JSON: invalid character '\x1b' in string literal`},
		"a raw C1 control in the idea":   {`"an idea"`, "\"an \u009b31midea\"", "line 2, column 18: idea.en: must not hold U+009B, which a terminal does not print as itself"},
		"an override in a rule":          {`"rule"`, `"rule \u202e"`, "line 9, column 48: exercise e: rule TestA: text.en: must not hold U+202E, which a terminal does not print as itself"},
		"a carriage return in code":      {`"return nil"`, `"return nil\r"`, "line 8, column 16: exercise e: region e in a.go: code[0]: must not hold U+000D, which a terminal does not print as itself"},
		"an escape in a mistake's name":  {`"name": "m"`, `"name": "m\u001b"`, `line 11, column 25: mistakes[0]: name: must not hold U+001B, which a terminal does not print as itself`},
		"a line break inside one string": {`"en": "mh"`, `"en": "m\nh"`, `line 12, column 43: mistake "m": hint 1: en: must not hold a line break: write a text of many lines as a list of lines`},

		// A starter line that reads as a marker would cut the region short.
		"a TODO that ends the region":    {`["TODO:", "write it"]`, `["TODO:", "end of exercise: e"]`, `line 7, column 60: exercise e: region e in a.go: todo.en: line 2 would be a region marker in the starter: "// end of exercise: e"`},
		"a Chinese TODO that begins one": {`"zh": "TODO：写出来"`, `"zh": "exercise: e"`, `line 7, column 89: exercise e: region e in a.go: todo.zh: line 1 would be a region marker in the starter: "// exercise: e"`},
		"code that ends the region":      {`"code": ["return nil"]`, `"code": ["// end of exercise: e", "return nil"]`, `line 8, column 15: exercise e: region e in a.go: code: line 1 would be a region marker in the starter: "// end of exercise: e"`},

		// What is checked after decoding is placed too.
		"no Chinese":       {`"zh": "规则"`, `"zh": ""`, "line 9, column 41: exercise e: rule TestA: text: needs an English text (en) and a Chinese one (zh)"},
		"a mistake's rule": {`"rule": "TestA"`, `"rule": "TestB"`, `line 11, column 85: mistake "m": rule: needs a rule of the lab, or race`},
		"a bad ID":         {"\"id\": \"e\",\n    \"title\"", "\"id\": \"Bad ID\",\n    \"title\"", `line 5, column 11: exercises[0]: id: "Bad ID" is not an ID: use lower-case letters, digits and '-'`},
	} {
		if !strings.Contains(aLab, tt.from) {
			t.Fatalf("%s: aLab does not hold %q", name, tt.from)
		}
		_, err := parseLab("99-x", []byte(strings.Replace(aLab, tt.from, tt.to, 1)), nil)
		if got := errText(err); got != tt.want {
			t.Errorf("%s: error\n  %s\nwant\n  %s", name, got, tt.want)
		}
	}
}

// TestARuleNamesATestOfTheLab checks that a rule whose test the lab does not
// declare is the data's mistake, reported as the lab is read, and not a
// learner's deleted test, reported by check.
func TestARuleNamesATestOfTheLab(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "99-x")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, exercisesFile), []byte(aLab), 0o644)
	tests := func(src string) {
		writeFile(t, filepath.Join(dir, "a_test.go"), []byte("package main\n\nimport \"testing\"\n\n"+src), 0o644)
	}

	tests("func TestA(t *testing.T) {}\n")
	if _, err := readLab(dir, "99-x"); err != nil {
		t.Fatalf("a lab that declares its rule's test: %v", err)
	}

	tests("// func TestA(t *testing.T) {}\n\ntype s struct{}\n\nfunc (s) TestA(t *testing.T) {}\n\nfunc TestAB(t *testing.T) {}\n")
	_, err := readLab(dir, "99-x")
	want := "labs/99-x/exercises.json: line 9, column 24: exercise e: rule TestA: test: no _test.go file of labs/99-x declares TestA"
	if got := errText(err); got != want {
		t.Errorf("a misspelt test: error\n  %s\nwant\n  %s", got, want)
	}

	// A subtest's own name is known only once its test runs: its test
	// must be declared.
	tests("func TestA(t *testing.T) {}\n")
	writeFile(t, filepath.Join(dir, exercisesFile), []byte(strings.ReplaceAll(aLab, `"TestA"`, `"TestZ/case"`)), 0o644)
	_, err = readLab(dir, "99-x")
	wantErrorContaining(t, err, "exercise e: rule TestZ/case: test: no _test.go file of labs/99-x declares TestZ", "a subtest of a test the lab lacks")
}

// TestAMissingSubtestIsNotBlamedOnTheLearner checks what check says of a
// rule's subtest that did not run: its test's failure when the test failed
// before it, the data's mistake when the copy has the lab's tests as they
// are, and a test the learner deleted or renamed only otherwise.
func TestAMissingSubtestIsNotBlamedOnTheLearner(t *testing.T) {
	labDir, copyDir := t.TempDir(), t.TempDir()
	const src = "package main\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tt.Run(\"one\", func(t *testing.T) {})\n}\n"
	writeFile(t, filepath.Join(labDir, "a_test.go"), []byte(src), 0o644)
	writeFile(t, filepath.Join(copyDir, "a_test.go"), []byte(src), 0o644)
	lab := &Lab{Name: "99-x", dir: labDir, Section: Text{EN: "Build it yourself", ZH: "自己动手写"},
		Exercises: []Exercise{{ID: "e", Title: Text{EN: "t", ZH: "题"}, Regions: []Region{{File: "a.go", ID: "e"}},
			Rules: []Rule{{Test: "TestA/two", Text: Text{EN: "rule", ZH: "规则"}}}}}}
	run := newPkgRun()
	run.built = true
	run.test("TestA").status = passed
	run.test("TestA/one").status = passed
	r := &report{lab: lab, dir: copyDir, rel: "mywork/99-x"}

	f := r.findingOf(run, "TestA/two")
	if f == nil {
		t.Fatal("a subtest that did not run is no finding")
	}
	wantWhy(t, f, msgNoSuchTest, "a subtest that the lab's own tests do not have")
	r.exercises = []exerciseResult{{exercise: &lab.Exercises[0], broken: 0, finding: f}}
	text := writeReport(r, English)
	wantContains(t, text, "the test TestA/two did not run, and the lab's own tests do not have it: labs/99-x/exercises.json names a test that does not exist\n", "the report")
	wantContains(t, text, "Next: this is a mistake of the workbook, not of your code: report it to the workbook's maintainers.\n", "the report")
	wantNotContains(t, text, "did you delete or rename it", "the report")
	wantNotContains(t, text, "Next: write exercise", "the report")
	wantNotContains(t, text, "Next: restore", "the report")

	writeFile(t, filepath.Join(copyDir, "a_test.go"), []byte(strings.Replace(src, `"one"`, `"uno"`, 1)), 0o644)
	wantWhy(t, r.findingOf(run, "TestA/two"), msgMissingTest, "a subtest missing from a copy whose tests changed")
	if err := os.Remove(filepath.Join(copyDir, "a_test.go")); err != nil {
		t.Fatal(err)
	}
	wantWhy(t, r.findingOf(run, "TestA/two"), msgMissingTest, "a subtest missing from a copy whose test file is gone")

	// A test that failed before it ran the subtest: its failure is the
	// finding.
	early := newPkgRun()
	early.built = true
	early.test("TestA").status = failed
	early.tests["TestA"].output = []string{"    a_test.go:6: the loop returned an error"}
	if f := r.findingOf(early, "TestA/two"); f == nil || f.test != "TestA" {
		t.Errorf("the finding of a subtest whose test failed first is %+v, want the test's own", f)
	}
}

// FuzzParseLab feeds parseLab any bytes: each is a lab, or an error of one
// line that says where, then what, and that a terminal prints as it is.
func FuzzParseLab(f *testing.F) {
	files, err := filepath.Glob("../../*/exercises.json")
	if err != nil {
		f.Fatal(err)
	}
	if len(files) == 0 {
		f.Fatal("no lab has an exercises.json")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{aLab, "", "null", "[]", `{"IDEA": 1}`, "{\"idea\": \"\xff\"}", strings.Repeat("[", 100)} {
		f.Add([]byte(seed))
	}
	oneLine := regexp.MustCompile(`\Aline [1-9][0-9]*, column [1-9][0-9]*: [^\n]+\z`)
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseLab("99-x", data, nil)
		if err != nil {
			if !oneLine.MatchString(err.Error()) {
				t.Errorf("error %q, want it to match %s", err, oneLine)
			}
			if !utf8.ValidString(err.Error()) || strings.IndexFunc(err.Error(), func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
				t.Errorf("error %q holds a character that does not print as itself", err)
			}
			return
		}
		if len(l.Exercises) == 0 {
			t.Error("a lab without exercises was read")
		}
	})
}
