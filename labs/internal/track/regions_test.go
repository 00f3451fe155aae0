package track

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const withRegions = `package main

func f() int {
	// exercise: one
	x := 1
	return x
	// end of exercise: one
}

func g() {
		// exercise: two
		println()
		// end of exercise: two
}
`

func TestFindRegions(t *testing.T) {
	regions, err := findRegions([]byte(withRegions))
	if err != nil {
		t.Fatal(err)
	}
	want := []region{
		{id: "one", indent: "\t", begin: 3, end: 6},
		{id: "two", indent: "\t\t", begin: 10, end: 12},
	}
	if diff := cmp.Diff(want, regions, cmp.AllowUnexported(region{})); diff != "" {
		t.Errorf("the regions (-want +got):\n%s", diff)
	}
}

func TestFindRegionsRefusesMalformedMarkers(t *testing.T) {
	tests := []struct{ name, src, err string }{
		{"nested", "// exercise: a\n// exercise: b\n// end of exercise: b\n// end of exercise: a", "line 2: region b begins inside region a"},
		{"an end without a beginning", "// end of exercise: a", "line 1: the end of region a has no beginning"},
		{"the wrong end", "// exercise: a\n// end of exercise: b", "line 2: the end of region b has no beginning"},
		{"no end", "// exercise: a\nx", "region a has no end"},
		{"twice", "// exercise: a\n// end of exercise: a\n// exercise: a\n// end of exercise: a", "line 3: region a occurs twice"},
		{"misspelt", "//exercise: a", `line 1: a malformed region marker: "//exercise: a"`},
		{"upper case", "// exercise: A", `line 1: a malformed region marker: "// exercise: A"`},
		{"indented differently", "\t// exercise: a\n// end of exercise: a", "line 2: the end of region a is indented differently from its beginning"},
	}
	for _, tt := range tests {
		if _, err := findRegions([]byte(tt.src)); errText(err) != tt.err {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestStarterReplacesOnlyTheBodies(t *testing.T) {
	src := []byte(withRegions)
	regions, err := findRegions(src)
	if err != nil {
		t.Fatal(err)
	}
	r := Region{TODO: Text{EN: "TODO: write f.\n\nSee README.md."}, Code: "return 0"}
	got := string(replaceRegions(src, regions, map[string][]string{"one": r.starterLines(English)}))
	want := `package main

func f() int {
	// exercise: one
	// TODO: write f.
	//
	// See README.md.
	return 0
	// end of exercise: one
}

func g() {
		// exercise: two
		println()
		// end of exercise: two
}
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the starter differs, and region two is not cut: it keeps its body (-want +got):\n%s", diff)
	}

	after, err := findRegions([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outside(src, regions), outside([]byte(got), after)); diff != "" {
		t.Errorf("outside the regions, the starter differs from the source, want nothing changed (-source +starter):\n%s", diff)
	}
}

func TestStarterLinesTakeTheLanguage(t *testing.T) {
	r := Region{TODO: Text{EN: "write it", ZH: "写出它"}}
	if got, want := r.starterLines(Chinese), []string{"// 写出它"}; !slices.Equal(got, want) {
		t.Errorf("the starter's lines in Chinese are %q, want %q", got, want)
	}
	if got, want := r.starterLines(English), []string{"// write it"}; !slices.Equal(got, want) {
		t.Errorf("the starter's lines in English are %q, want %q", got, want)
	}
	r.TODO.ZH = ""
	if got, want := r.starterLines(Chinese), []string{"// write it"}; !slices.Equal(got, want) {
		t.Errorf("the starter's lines in Chinese, of an untranslated text, are %q, want the English %q", got, want)
	}
}

func TestStarterOfAnUnknownRegionIsAnError(t *testing.T) {
	lab := &Lab{Name: "xx-lab", Exercises: []Exercise{{ID: "e", Regions: []Region{{File: "a.go", ID: "missing"}}}}}
	_, err := starter(lab, files{"a.go": []byte(withRegions)}, lab.allExercises(), English)
	wantErrorContaining(t, err, "labs/xx-lab/a.go has no region missing", "the starter of an exercise whose region is not in its file")
}

func TestEveryLabsExercisesAreRead(t *testing.T) {
	wb := openedWorkbook(t)
	if len(wb.tracks) == 0 {
		t.Fatal("no lab has exercises, want some")
	}
	for _, name := range wb.labs {
		lab := wb.lab(name)
		_, err := os.Stat(filepath.Join(wb.labDir(name), exercisesFile))
		if (err == nil) != (lab != nil) {
			t.Errorf("%s: it has exercises: %t; it has %s: %t; want both or neither: a lab has exercises when it has %s", name, lab != nil, exercisesFile, err == nil, exercisesFile)
			continue
		}
		if lab != nil && lab.Name != name {
			t.Errorf("the lab read from labs/%s is named %q, want %q", name, lab.Name, name)
		}
	}
}

// aLab is a small valid exercises.json.
const aLab = `{
  "idea": {"en": "an idea", "zh": "一个概念"},
  "section": {"en": "Build it yourself", "zh": "自己动手写（Build it yourself）"},
  "exercises": [{
    "id": "e",
    "title": {"en": "t", "zh": "题"},
    "regions": [{"file": "a.go", "id": "e", "todo": {"en": ["TODO:", "write it"], "zh": "TODO：写出来"},
      "code": ["return nil"], "hints": [{"en": "h", "zh": "提示"}]}],
    "rules": [{"test": "TestA", "text": {"en": "rule", "zh": "规则"}, "hints": [{"en": "h", "zh": "提示"}]}]
  }],
  "mistakes": [{"name": "m", "file": "a.go", "old": ["x", "y"], "new": "z", "rule": "TestA",
    "seen": ["want: 2"], "hints": [{"en": "mh", "zh": "错误提示"}]}]
}`

func TestExercisesAreData(t *testing.T) {
	l, err := parseLab("99-x", []byte(aLab), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "99-x" {
		t.Errorf("the lab is named %q, want %q", l.Name, "99-x")
	}
	todo := l.Exercises[0].Regions[0].TODO
	if want := "TODO:\nwrite it"; todo.EN != want {
		t.Errorf("the TODO is %q, want %q: a list of lines is one text", todo.EN, want)
	}
	if want := "TODO：写出来"; todo.ZH != want {
		t.Errorf("the Chinese TODO is %q, want %q", todo.ZH, want)
	}
	if m := l.Mistakes[0]; m.Old != "x\ny" || m.New != "z" {
		t.Errorf("the mistake changes %q to %q, want %q to %q", m.Old, m.New, "x\ny", "z")
	}
	if m := l.Mistakes[0]; len(m.Seen) != 1 || len(m.Hints) != 1 || m.Hints[0].ZH != "错误提示" {
		t.Errorf("the mistake is seen as %q, with the hints %v, want one of each", m.Seen, m.Hints)
	}

	for name, tt := range map[string]struct{ from, to, err string }{
		"a misspelt field":    {`"idea"`, `"ideas"`, `unknown field "ideas"`},
		"a misspelt language": {`"zh": "一个概念"`, `"cn": "一个概念"`, `line 2, column 29: idea: unknown field "cn"`},
		"a number for a text": {`"h", "zh": "提示"}]}],
    "rules"`, `1, "zh": "提示"}]}],
    "rules"`, "line 8, column 48: exercise e: region e in a.go: hint 1: en: must be a string or a list of strings, not a number"},
		"broken JSON": {`"mistakes": [`, `"mistakes": [,`, "line 11, column 16: mistakes: not valid JSON: invalid character ','"},
		"two values": {`"hints": [{"en": "mh", "zh": "错误提示"}]}]
}`, `"hints": [{"en": "mh", "zh": "错误提示"}]}]
} {}`, "line 13, column 3: not valid JSON: more data after the closing brace"},
		"no Chinese":              {`"zh": "规则"`, `"zh": ""`, "exercise e: rule TestA: text: needs an English text (en) and a Chinese one (zh)"},
		"a rule without hints":    {`"text": {"en": "rule", "zh": "规则"}, "hints": [{"en": "h", "zh": "提示"}]`, `"text": {"en": "rule", "zh": "规则"}, "hints": []`, "line 9, column 78: exercise e: rule TestA: hints: needs at least one hint"},
		"code without hints":      {`"code": ["return nil"], "hints": [{"en": "h", "zh": "提示"}]`, `"code": ["return nil"]`, "line 7, column 17: exercise e: region e in a.go: hints: needs at least one hint"},
		"a bad ID":                {`"id": "e",`, `"id": "Bad ID",`, `exercises[0]: id: "Bad ID" is not an ID`},
		"a golden test":           {`"test": "TestA"`, `"test": "TestProgram/x"`, "the golden tests are every lab's last rule"},
		"a mistake's rule":        {`"rule": "TestA"`, `"rule": "TestB"`, `mistake "m": rule: needs a rule of the lab, or race`},
		"a mistake unseen":        {`"seen": ["want: 2"]`, `"seen": []`, `mistake "m": seen: needs what check shows of it (seen)`},
		"a mistake's hints":       {`"hints": [{"en": "mh", "zh": "错误提示"}]`, `"hints": [{"en": "mh"}]`, `mistake "m": hint 1: needs an English text (en) and a Chinese one (zh)`},
		"a race and a rule":       {`"rule": "TestA"`, `"rule": "TestA", "race": true`, `mistake "m": a mistake that races breaks no rule`},
		"a race in a lab without": {`"rule": "TestA"`, `"race": true`, `mistake "m": race: races, and the lab does not run the race detector`},
		"an untranslated title":   {`"title": {"en": "t", "zh": "题"}`, `"title": {"en": "t"}`, "exercise e: title: needs"},
	} {
		if !strings.Contains(aLab, tt.from) {
			t.Fatalf("%s: aLab does not hold %q", name, tt.from)
		}
		_, err := parseLab("99-x", []byte(strings.Replace(aLab, tt.from, tt.to, 1)), nil)
		wantErrorContaining(t, err, tt.err, "%s", name)
	}
}

func TestTextsAndLinesWriteWhatTheyRead(t *testing.T) {
	for _, text := range []Text{{EN: "one line", ZH: "一行"}, {EN: "two\nlines", ZH: "两\n行"}} {
		data, err := json.Marshal(text)
		if err != nil {
			t.Fatal(err)
		}
		var back Text
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if back != text {
			t.Errorf("%+v, written as %s, reads back as %+v", text, data, back)
		}
	}
	data, err := json.Marshal(Text{EN: "a\nb", ZH: "c"})
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	if err := json.Unmarshal([]byte(`{"en": ["a", "b"], "zh": "c"}`), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a text of two lines is written as %s, want %s", data, `{"en": ["a", "b"], "zh": "c"}`)
	}
}

func TestRuleTestsAreTopLevelAndOnce(t *testing.T) {
	lab := &Lab{Exercises: []Exercise{
		{Rules: []Rule{{Test: "TestA/one"}, {Test: "TestB"}}},
		{Rules: []Rule{{Test: "TestA/two"}}},
	}}
	if got, want := lab.ruleTests(), []string{"TestA", "TestB"}; !slices.Equal(got, want) {
		t.Errorf("the rules' tests are %q, want %q", got, want)
	}
	if got, want := anyOf(lab.ruleTests()), "^(TestA|TestB)$"; got != want {
		t.Errorf("the pattern of the rules' tests is %q, want %q", got, want)
	}
	if got, want := runPattern("TestA/one_(x)"), "^TestA$/^one_\\(x\\)$"; got != want {
		t.Errorf("the pattern of TestA/one_(x) is %q, want %q", got, want)
	}
	if got := anyOf([]string{"TestZ", "TestA"}); !strings.HasPrefix(got, "^(TestA|") {
		t.Errorf("the pattern of TestZ and TestA is %q, want them sorted", got)
	}
}
