package track

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/google/go-cmp/cmp"
)

// grade's tests that run no go command: its command line, how it reads
// the learners' folders, its copy of the workbook, and what it writes.
// grade_run_test.go grades real classes, as part of the workbook's proof.

// inTemp is an environment in English, without colour, whose TMPDIR is dir:
// grade makes its folder there.
func inTemp(dir string) func(string) string {
	return func(name string) string {
		if name == "TMPDIR" {
			return dir
		}
		return english(name)
	}
}

// gradeSession returns a session of the front door on the repository, in
// lang, whose standard output and error go to out and errOut.
func gradeSession(t *testing.T, lang Lang, out, errOut io.Writer, tmp string) *session {
	t.Helper()
	return &session{
		wb:     openedWorkbook(t),
		out:    newPrinter(out, lang, false),
		errOut: newPrinter(errOut, lang, false),
		getenv: inTemp(tmp),
	}
}

// wantEmptyDir checks that dir holds nothing: grade removed what it made.
func wantEmptyDir(t *testing.T, dir, format string, args ...any) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s: %s holds %q, want nothing: grade removes its folder", fmt.Sprintf(format, args...), dir, names)
	}
}

func TestGradeRefusesBadCommandLines(t *testing.T) {
	wb := testWorkbook(t, false)
	dir := t.TempDir()
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"grade"}, "grade needs the learners' folders, as in: go run ./labs grade class/*\n"},
		{[]string{"grade", "-json", "-classroom", dir}, "-json and -classroom are two formats of the same grades: give one\n"},
		{[]string{"grade", "-classroom", dir, dir}, "-classroom grades one learner's checkout, as GitHub Classroom does: give one folder, not 2\n"},
		{[]string{"check", "02", "-json"}, "-json, -classroom and -labs are only for grade\n"},
		{[]string{"-labs", "02"}, "-json, -classroom and -labs are only for grade\n"},
		{[]string{"grade", "-labs", "99", dir}, `no lab is named "99"` + "\n"},
		{[]string{"grade", "-labs", "0", dir}, `"0" names more than one lab`},
		{[]string{"grade", "-force", dir}, "-force is only for reset\n"},
		{[]string{"grade", "-json", "-json", dir}, "flag given twice: -json\n"},
	} {
		res := runIn(t, wb, inTemp(dir), c.args...)
		wantStatus(t, res, 2)
		wantContains(t, res.stderr, c.stderr, "%s: standard error", res)
		if res.stdout != "" {
			t.Errorf("%s: standard output %q, want none", res, res.stdout)
		}
	}
	wantEmptyDir(t, dir, "after the bad command lines")
}

func TestGradeWithoutCopiesGradesNobody(t *testing.T) {
	wb := testWorkbook(t, false)
	dir := t.TempDir()
	tmp := t.TempDir()
	notADir := filepath.Join(dir, "notes.txt")
	writeFile(t, notADir, []byte("hi"), 0o644)
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	res := runIn(t, wb, inTemp(tmp), "grade", filepath.Join(dir, "nobody"), notADir, empty)
	wantStatus(t, res, 1)
	want := filepath.Join(dir, "nobody") + ": no such folder\n" +
		notADir + ": not a folder\n" +
		empty + ": no copies of the labs: neither a _mywork folder nor a folder named after a lab, such as _mywork/01-no-loop\n" +
		"grade: none of the folders holds copies of the labs to grade\n"
	if res.stderr != want {
		t.Errorf("%s: standard error\n%s\nwant\n%s", res, res.stderr, want)
	}
	wantEmptyDir(t, tmp, "%s", res)
}

// solutionOf returns the files of the lab, as a learner's copy that is done.
func solutionOf(t *testing.T, name string) files {
	t.Helper()
	f, err := openedWorkbook(t).labFiles(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// codeOf returns the lab's Go code, tests left out: what grade reads of a
// copy that is done.
func codeOf(t *testing.T, name string) files {
	t.Helper()
	out := files{}
	for n, data := range solutionOf(t, name) {
		if isCode(n) {
			out[n] = data
		}
	}
	return out
}

func TestGradeReadsOnlyTheLearnersGoCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lab02 := solutionOf(t, "02-loop")

	// alice is done with lab 02, and keeps more in her copy than grade
	// reads: a module, a huge testdata, her own test, notes, a link to a
	// file outside it, a package below it, the track's state, an old copy.
	alice := filepath.Join(dir, "alice")
	writeCopy(t, alice, "02-loop", lab02)
	copy02 := filepath.Join(alice, workDir, "02-loop")
	writeFile(t, filepath.Join(copy02, "go.mod"), []byte("module mine\n"), 0o644)
	writeFile(t, filepath.Join(copy02, "mine_test.go"), []byte("package main\n\nimport \"testing\"\n\nfunc TestMine(t *testing.T) { t.Fatal(\"mine\") }\n"), 0o644)
	writeFile(t, filepath.Join(copy02, "notes.md"), []byte("notes"), 0o644)
	if err := os.MkdirAll(filepath.Join(copy02, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(copy02, "testdata", "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(1 << 30); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	huge.Close()
	outside := filepath.Join(dir, "secret.go")
	writeFile(t, outside, []byte("package main\n\nvar secret = 1\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(copy02, "helper.go")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	writeFiles(filepath.Join(copy02, "util"), files{"util.go": []byte("package util\n")})
	writeFiles(filepath.Join(alice, workDir), files{".track.json": []byte("{}"), "02-loop-old/loop.go": []byte("old")})

	// bob has a copy of no lab, and a copy that is a link.
	bob := filepath.Join(dir, "bob")
	writeCopy(t, bob, "07-bonus", files{"main.go": []byte("package main\n")})
	if err := os.Symlink(copy02, filepath.Join(bob, workDir, "02-loop")); err != nil {
		t.Fatal(err)
	}
	// carol's copy was made by a workbook whose exercise was named
	// otherwise; dan's holds more code than a learner writes; erin hands
	// in her _mywork itself.
	carol := filepath.Join(dir, "carol")
	older := files{}
	for name, data := range lab02 {
		older[name] = bytes.ReplaceAll(data, []byte("exercise: run-loop"), []byte("exercise: loop-body"))
	}
	writeCopy(t, carol, "02-loop", older)
	f := files{}
	for name, data := range lab02 {
		f[name] = data
	}
	f["big.go"] = bytes.Repeat([]byte("// a line of a file too large to be a learner's\n"), 100_000)
	dan := filepath.Join(dir, "dan")
	writeCopy(t, dan, "02-loop", f)
	erin := filepath.Join(dir, "erin")
	writeCopy(t, erin, "02-loop", lab02)
	// A second alice, elsewhere, and alice again.
	otherAlice := filepath.Join(dir, "other", "alice")
	writeCopy(t, otherAlice, "02-loop", lab02)

	var errOut bytes.Buffer
	s := gradeSession(t, English, io.Discard, &errOut, t.TempDir())
	labs, err := s.gradedLabs("")
	if err != nil {
		t.Fatal(err)
	}
	class := s.readClass([]string{erin + "/" + workDir, dan, carol, bob, alice, otherAlice, alice}, labs, false)

	want := strings.Join([]string{
		"dan: " + dan + "/_mywork/02-loop: its Go files hold more than 4 MiB; not graded",
		"carol: " + carol + "/_mywork/02-loop: made by another version of the workbook: its loop.go marks loop-body, which the lab no longer has (its exercises: run-loop); not graded. Grade it with the workbook that made it, or have the learner move their code into a new copy.",
		"bob: " + bob + "/_mywork/02-loop: a symbolic link, which grade does not follow; not graded",
		"bob: " + bob + "/_mywork/07-bonus: no lab is named 07-bonus; not graded",
		"alice: " + alice + "/_mywork/02-loop/helper.go: a symbolic link, which grade does not follow; graded without it",
		otherAlice + ": the same learner as " + alice + " (alice); graded once",
		alice + ": given twice; graded once",
	}, "\n") + "\n"
	if diff := cmp.Diff(want, errOut.String()); diff != "" {
		t.Errorf("the lines about the folders (-want +got):\n%s", diff)
	}
	var names []string
	for _, l := range class {
		names = append(names, l.name)
	}
	if diff := cmp.Diff([]string{"alice", "bob", "carol", "dan", "erin"}, names); diff != "" {
		t.Fatalf("the learners, by name (-want +got):\n%s", diff)
	}
	lab := func(l *learner, name string) *learnerLab {
		t.Helper()
		i := slices.IndexFunc(l.labs, func(ll *learnerLab) bool { return ll.lab.Name == name })
		if i < 0 {
			t.Fatalf("%s has no %s", l.name, name)
		}
		return l.labs[i]
	}
	for _, l := range class {
		if len(l.labs) != len(labs) {
			t.Errorf("%s has %d labs, want one for each lab graded, %d", l.name, len(l.labs), len(labs))
		}
		if ll := lab(l, "01-no-loop"); ll.started {
			t.Errorf("%s has started 01-no-loop, want it not started", l.name)
		}
	}
	for _, c := range []struct {
		learner *learner
		skip    Text
	}{{class[0], Text{}}, {class[1], msgGradeWhyLink}, {class[2], msgGradeWhyOlder}, {class[3], msgGradeWhyLarge}, {class[4], Text{}}} {
		if ll := lab(c.learner, "02-loop"); !ll.started || ll.skip != c.skip {
			t.Errorf("%s's 02-loop: started %v, skipped for %q, want started, skipped for %q", c.learner.name, ll.started, ll.skip.EN, c.skip.EN)
		}
	}
	for _, l := range []*learner{class[0], class[4]} {
		if diff := cmp.Diff(codeOf(t, "02-loop"), lab(l, "02-loop").code); diff != "" {
			t.Errorf("%s's code, as grade reads it: want the Go files of the copy, not its tests, links, module or folders (-want +got):\n%s", l.name, diff)
		}
	}

	// GitHub Classroom grades a checkout that holds no copies yet.
	errOut.Reset()
	class = s.readClass([]string{t.TempDir()}, labs, true)
	if len(class) != 1 || slices.ContainsFunc(class[0].labs, func(ll *learnerLab) bool { return ll.started }) {
		t.Errorf("-classroom on a checkout without copies: %d learners, want one who has started no lab", len(class))
	}
	wantContains(t, errOut.String(), ": no copies of the labs", "-classroom on a checkout without copies")
}

// aWorkbook writes a small workbook into a temporary directory, with what
// grade copies and what it leaves out, and returns its root: its tree
// tests need no real one, whose copy takes seconds on a busy disk.
func aWorkbook(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(root, files{
		"go.mod":                       []byte("module " + "github.com/agent-loop-lab/agent-loop-lab" + "\n"),
		"go.sum":                       []byte("sums\n"),
		"README.md":                    []byte("# readme\n"),
		"expected/02-loop.txt":         []byte("the lab's output\n"),
		"expected/02-loop.txt.got":     []byte("an output kept\n"),
		"fakemodel/model.go":           []byte("package fakemodel\n"),
		"labs/02-loop/loop.go":         []byte("package main\n\n// the lab's own code\n"),
		"labs/02-loop/main_test.go":    []byte("package main\n"),
		"labs/02-loop/exercises.json":  []byte("{}"),
		"labs/02-loop/README.md":       []byte("# lab 02\n"),
		"labs/02-loop/testdata/in.txt": []byte("data\n"),
		"_mywork/02-loop/loop.go":      []byte("package main\n"),
		".git/HEAD":                    []byte("ref\n"),
	})
	return root
}

// treeClass returns a class of two learners of lab 02, and the tree grade
// makes for them in tmp from the workbook at root. The test removes the
// tree.
func treeClass(t *testing.T, root, tmp string) ([]*learner, *classTree) {
	t.Helper()
	labs := []*Lab{labOf(t, "02-loop")}
	var class []*learner
	for _, name := range []string{"alice", "bob"} {
		code := files{"loop.go": []byte("package main\n\n// " + name + "'s code\n")}
		class = append(class, &learner{name: name, labs: []*learnerLab{{lab: labs[0], started: true, code: code}}})
	}
	tree, err := newClassTree(tmp, root, class, labs)
	if tree != nil {
		t.Cleanup(func() { tree.remove() })
	}
	if err != nil {
		t.Fatal(err)
	}
	return class, tree
}

func TestTheClassTreeIsACopyOutsideTheRepository(t *testing.T) {
	t.Parallel()
	root, tmp := aWorkbook(t), t.TempDir()
	class, tree := treeClass(t, root, tmp)
	if !strings.HasPrefix(tree.root, tmp+string(filepath.Separator)) {
		t.Errorf("grade's copy of the workbook is %s, want it in TMPDIR, %s", tree.root, tmp)
	}
	got, err := readFiles(tree.root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{
		"_class/1/02-loop/README.md", "_class/1/02-loop/loop.go", "_class/1/02-loop/main_test.go", "_class/1/02-loop/testdata/in.txt",
		"_class/2/02-loop/README.md", "_class/2/02-loop/loop.go", "_class/2/02-loop/main_test.go", "_class/2/02-loop/testdata/in.txt",
		"expected/02-loop.txt", "fakemodel/model.go", "go.mod", "go.sum",
		"labs/02-loop/README.md", "labs/02-loop/exercises.json", "labs/02-loop/loop.go", "labs/02-loop/main_test.go", "labs/02-loop/testdata/in.txt",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("the tree's files: the workbook's packages, go.mod and go.sum, and each learner's copy (-want +got):\n%s", diff)
	}
	if mine := string(got["_class/2/02-loop/loop.go"]); mine != "package main\n\n// bob's code\n" {
		t.Errorf("bob's loop.go in the tree is %q, want his code, not the lab's", mine)
	}
	if copy02, want := tree.copyDir(class[1], labOf(t, "02-loop")), filepath.Join(tree.root, "_class", "2", "02-loop"); copy02 != want {
		t.Errorf("bob's copy of 02-loop is %s, want %s", copy02, want)
	}
	tree.remove()
	wantEmptyDir(t, tmp, "after remove")
}

func TestTheClassTreeSeesWhatALearnerChangesOutsideTheirCopies(t *testing.T) {
	t.Parallel()
	class, tree := treeClass(t, aWorkbook(t), t.TempDir())
	alice, bob := class[0], class[1]
	at := func(rel string) string { return filepath.Join(tree.root, filepath.FromSlash(rel)) }
	for _, c := range []struct {
		what   string
		change func()
		want   string // what changedOutside(alice) says; "" for nothing
	}{
		{"nothing", func() {}, ""},
		{"a golden file rewritten", func() { writeFile(t, at("expected/02-loop.txt"), []byte("mine\n"), 0o644) }, "expected/02-loop.txt"},
		{"a file added to the workbook", func() { writeFile(t, at("fakemodel/zz.go"), []byte("package fakemodel\n"), 0o644) }, "fakemodel/zz.go"},
		{"a file of the workbook removed", func() { os.Remove(at("go.sum")) }, "go.sum"},
		{"a file replaced by a link", func() { os.Remove(at("expected/02-loop.txt")); os.Symlink(at("go.mod"), at("expected/02-loop.txt")) }, "expected/02-loop.txt"},
		{"another learner's code changed", func() { writeFile(t, at("_class/2/02-loop/loop.go"), []byte("package main\n"), 0o644) }, "_class/2/02-loop/loop.go"},
		{"a file added to another learner's copy", func() { writeFile(t, at("_class/2/02-loop/zz.go"), []byte("package main\n"), 0o644) }, "_class/2/02-loop/zz.go"},
		{"another learner's test removed", func() { os.Remove(at("_class/2/02-loop/main_test.go")) }, "_class/2/02-loop/main_test.go"},
		{"another learner's output kept by a golden test", func() { writeFiles(at("_class/2/02-loop/testdata"), files{"02-loop.txt.got": []byte("x")}) }, ""},
		{"their own copy changed", func() { writeFile(t, at("_class/1/02-loop/loop.go"), []byte("package main\n"), 0o644) }, ""},
		{"their own files added", func() { writeFiles(at("_class/1/02-loop"), files{"zz.go": []byte("x"), "sub/zz": []byte("x")}) }, ""},
	} {
		c.change()
		got, err := tree.changedOutside(alice)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: changedOutside is %q, want %q", c.what, got, c.want)
		}
		if err := tree.rebuild(class); err != nil {
			t.Fatal(err)
		}
		if got, _ := tree.changedOutside(alice); got != "" {
			t.Errorf("%s, then rebuild: changedOutside is %q, want nothing", c.what, got)
		}
	}
	// Alice's own copy is outside bob's.
	writeFile(t, at("_class/1/02-loop/loop.go"), []byte("package main\n"), 0o644)
	if got, _ := tree.changedOutside(bob); got != "_class/1/02-loop/loop.go" {
		t.Errorf("alice's code changed: changedOutside(bob) is %q, want her loop.go", got)
	}
	g := &grader{class: class}
	if got, want := g.shownPath("_class/1/02-loop/loop.go"), "alice/02-loop/loop.go"; got != want {
		t.Errorf("a learner's file is shown as %q, want %q", got, want)
	}
}

// aReport returns a report of a copy of the lab in _class/1, whose
// exercises all pass, and which checked all.
func aReport(lab *Lab) *report {
	r := &report{lab: lab, dir: "/tmp/g/workbook/_class/1/" + lab.Name, rel: "_class/1/" + lab.Name, checkedAll: true}
	for i := range lab.Exercises {
		r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	return r
}

func TestGradeSaysWhyInOneLine(t *testing.T) {
	lab := labOf(t, "04-tool-errors")
	rules := lab.Exercises[0].Rules
	p := newPrinter(io.Discard, English, false)
	for _, c := range []struct {
		what   string
		change func(l *learner, ll *learnerLab, r *report)
		want   []string // each test's output: the exercises', then the lab's output's
	}{
		{"a copy that passes", func(*learner, *learnerLab, *report) {}, []string{"", "", ""}},
		{"a copy not started", func(_ *learner, ll *learnerLab, _ *report) { ll.started = false }, []string{"not started", "not started", "not started"}},
		{"an older copy", func(_ *learner, ll *learnerLab, _ *report) { ll.skip = msgGradeWhyOlder }, []string{"not graded: made by another version of the workbook", "not graded: made by another version of the workbook", "not graded: made by another version of the workbook"}},
		{"a learner who wrote outside", func(l *learner, _ *learnerLab, _ *report) { l.outside = "expected/04-tool-errors.txt" },
			[]string{"not graded: the learner's code changed expected/04-tool-errors.txt, outside their copies", "not graded: the learner's code changed expected/04-tool-errors.txt, outside their copies", "not graded: the learner's code changed expected/04-tool-errors.txt, outside their copies"}},
		{"code that does not compile", func(_ *learner, _ *learnerLab, r *report) {
			r.build = []string{"_class/1/04-tool-errors/loop.go:47:2: undefined: x", "more"}
		}, []string{"does not compile: loop.go:47:2: undefined: x", "does not compile: loop.go:47:2: undefined: x", "does not compile: loop.go:47:2: undefined: x"}},
		{"code that go vet finds a mistake in", func(_ *learner, _ *learnerLab, r *report) {
			r.build, r.vet = []string{"_class/1/04-tool-errors/loop.go:9:2: fmt.Printf format %d has arg x of wrong type string"}, true
		}, []string{"go vet finds a mistake: loop.go:9:2: fmt.Printf format %d has arg x of wrong type string", "go vet finds a mistake: loop.go:9:2: fmt.Printf format %d has arg x of wrong type string", "go vet finds a mistake: loop.go:9:2: fmt.Printf format %d has arg x of wrong type string"}},
		{"a panic as the package starts", func(_ *learner, _ *learnerLab, r *report) {
			r.panicked = []string{"  panic: boom", "  at _class/1/04-tool-errors/loop.go:12"}
		}, slices.Repeat([]string{"panics as the package starts, before any test runs: panic: boom at loop.go:12"}, 3)},
		{"an exit as the package starts", func(_ *learner, _ *learnerLab, r *report) { r.exited = true },
			slices.Repeat([]string{"ends the test program as the package starts, before any test runs"}, 3)},
		{"a hang as the package starts", func(_ *learner, _ *learnerLab, r *report) {
			r.hung = []string{"  at _class/1/04-tool-errors/loop.go:3"}
		},
			slices.Repeat([]string{"never gets to its tests: none had begun after 10s at loop.go:3"}, 3)},
		{"a rule broken, as the test reported it", func(_ *learner, _ *learnerLab, r *report) {
			r.exercises[0].broken = 1
			r.exercises[0].finding = &finding{test: rules[1].Test, found: []reported{{at: "tools_test.go:40", Finding: expected.Finding{Message: "the result says the tool is unknown", Want: `"unknown"`, Got: `""`}}}}
		}, []string{fmt.Sprintf(`rule 2 of %d broken: %s (%s): the result says the tool is unknown (want "unknown", got "")`, len(rules), rules[1].Text.EN, rules[1].Test), "", "not checked: the output is checked once every exercise passes"}},
		{"a test that did not finish", func(_ *learner, _ *learnerLab, r *report) {
			r.exercises[0].broken = 0
			r.exercises[0].finding = &finding{test: rules[0].Test, why: msgTimeout, whyArgs: []any{testTimeout}, lines: []string{"  at _class/1/04-tool-errors/tools.go:60"}}
			r.exercises[1].broken = 0
			r.exercises[1].finding = &finding{test: lab.Exercises[1].Rules[0].Test, why: msgNotRun}
		}, []string{fmt.Sprintf("rule 1 of %d broken: %s (%s): did not finish within 10s at tools.go:60", len(rules), rules[0].Text.EN, rules[0].Test), msgNotRun.EN, "not checked: the output is checked once every exercise passes"}},
		{"a test that printed its own failure", func(_ *learner, _ *learnerLab, r *report) {
			r.exercises[0].broken = 0
			r.exercises[0].finding = &finding{test: rules[0].Test, lines: []string{"  mine_test.go:9: it broke", "  more"}}
		}, []string{fmt.Sprintf("rule 1 of %d broken: %s (%s): it broke", len(rules), rules[0].Text.EN, rules[0].Test), "", "not checked: the output is checked once every exercise passes"}},
		{"output that is not the lab's", func(_ *learner, _ *learnerLab, r *report) {
			r.golden = &finding{test: "TestOutputMatchesGoldenFile/04-tool-errors", lines: []string{
				"  main_test.go:80: your output differs from the lab's at line 7",
				`      the lab's: "answer: 391\n"`,
				`      yours:     "answer:  391\n"`,
			}}
		}, []string{"", "", `your output differs from the lab's at line 7: the lab's "answer: 391\n", yours "answer:  391\n"`}},
		{"a data race", func(_ *learner, _ *learnerLab, r *report) {
			r.race = &finding{test: rules[0].Test + "/one_call", why: msgRace, lines: []string{
				"  write at _class/1/04-tool-errors/tools.go:9 in run.func1: done = append(done, o)",
				"  previous write at _class/1/04-tool-errors/tools.go:9 in run.func1: done = append(done, o)",
				"  read at _class/1/04-tool-errors/loop.go:30 in runLoop: n := len(done)",
			}}
		}, []string{"a data race: write at tools.go:9 in run.func1: done = append(done, o) previous write at tools.go:9 in run.func1: done = append(done, o)", "", ""}},
		{"a data race as the test program ends", func(_ *learner, _ *learnerLab, r *report) {
			r.race = &finding{why: msgRace, lines: []string{"  write at _class/1/04-tool-errors/tools.go:9 in run.func1: x = 1"}}
		}, []string{"", "", "a data race: write at tools.go:9 in run.func1: x = 1"}},
		{"a test outside the exercises", func(_ *learner, _ *learnerLab, r *report) {
			r.other = &finding{test: "TestCalculate/divide", found: []reported{{at: "calculate_test.go:20", Finding: expected.Finding{Message: "dividing by zero is an error"}}}}
		}, []string{"", "", "a test outside the exercises fails: TestCalculate/divide: dividing by zero is an error"}},
	} {
		l := &learner{name: "alice"}
		ll := &learnerLab{lab: lab, started: true, report: aReport(lab)}
		l.labs = []*learnerLab{ll}
		c.change(l, ll, ll.report)
		tests := labTests(p, l, ll)
		var got []string
		score := 0
		for _, test := range tests {
			got = append(got, test.Output)
			score += test.Score
			if (test.Output == "") != (test.Status == testPassed) || test.MaxScore != 1 || test.Score != map[bool]int{true: 1}[test.Status == testPassed] {
				t.Errorf("%s: test %s is %s with %d of %d points and output %q: want passed, 1 point and no output, or failed, 0 points and a reason", c.what, test.Name, test.Status, test.Score, test.MaxScore, test.Output)
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: each test's output (-want +got):\n%s", c.what, diff)
		}
		names := []string{"04-tool-errors/execute", "04-tool-errors/loop", "04-tool-errors/output"}
		if got := []string{tests[0].Name, tests[1].Name, tests[2].Name}; !slices.Equal(got, names) {
			t.Errorf("%s: the tests are %q, want %q: the lab's exercises in order, then its output", c.what, got, names)
		}
	}
	long := shortReason(strings.Repeat("a long reason ", 100) + "\x1b[31m")
	if n := len([]rune(long)); n > maxReason || strings.ContainsAny(long, "\n\x1b") {
		t.Errorf("a long reason is %d characters, or holds a line break or an escape: want one printable line of at most %d", n, maxReason)
	}
}

// aClass is a class of four learners of labs 01 and 02 with their
// grades, as writeTable and the JSON see them.
func aClass(t *testing.T, p *printer) ([]*learner, []gradeEntry, []*Lab) {
	t.Helper()
	labs := []*Lab{labOf(t, "01-no-loop"), labOf(t, "02-loop")}
	done := func() *report { return aReport(labs[1]) }
	failing := aReport(labs[1])
	failing.exercises[0].broken = 0
	failing.exercises[0].finding = &finding{test: labs[1].Exercises[0].Rules[0].Test, why: msgTimeout, whyArgs: []any{testTimeout}, lines: []string{"  at _class/1/02-loop/loop.go:60"}}
	class := []*learner{
		{name: "ada", labs: []*learnerLab{{lab: labs[0]}, {lab: labs[1], started: true, report: done()}}},
		{name: "a learner whose name is much too long for the table", labs: []*learnerLab{{lab: labs[0]}, {lab: labs[1], started: true, report: failing}}},
		{name: "李雷", labs: []*learnerLab{{lab: labs[0], started: true, skip: msgGradeWhyOlder}, {lab: labs[1], started: true, report: done()}}},
		{name: "zoe", outside: "expected/02-loop.txt", labs: []*learnerLab{{lab: labs[0]}, {lab: labs[1], started: true, report: done()}}},
	}
	return class, gradeEntries(p, class), labs
}

func TestGradeTableFitsATerminal(t *testing.T) {
	var out bytes.Buffer
	p := newPrinter(&out, English, false)
	class, entries, labs := aClass(t, p)
	writeTable(p, class, entries, labs)
	rule := labs[1].Exercises[0].Rules[0]
	want := `learner                   01   02  total
ada                        –  2/2    2/4
a learner whose name is…   –  0/2    0/4
李雷                       ?  2/2    2/4
zoe                        !    !    0/4

Each cell is a lab's points: one for each exercise that passes, and one for output that is the
lab's, byte for byte. – not started, ? not graded (see the note above), ! their code changed files
outside their copies.
Labs: 01 01-no-loop, 02 02-loop.

Where a started lab loses points, its first test that fails:
` + wrapWant("  a learner whose name is… · 02-loop/run-loop: rule 1 of 9 broken: "+rule.Text.EN+" ("+rule.Test+"): did not finish within 10s at loop.go:60") + `
  李雷 · 01-no-loop/one-request: not graded: made by another version of the workbook
  zoe · not graded: the learner's code changed expected/02-loop.txt, outside their copies
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("the table (-want +got):\n%s", diff)
	}
	for _, lang := range []Lang{English, Chinese} {
		out.Reset()
		p := newPrinter(&out, lang, false)
		class, entries, labs := aClass(t, p)
		writeTable(p, class, entries, labs)
		for _, line := range strings.Split(out.String(), "\n") {
			if cli.Columns(line) > tableWidth {
				t.Errorf("in %s, a line of the table takes %d columns, want at most %d:\n%s", lang, cli.Columns(line), tableWidth, line)
			}
		}
	}
	wantContains(t, out.String(), "学员", "the table in Chinese")
	wantContains(t, out.String(), "每格是一个实验的得分", "the legend in Chinese")
}

// wrapWant is a line of the table's reasons as writeTable wraps it: 100
// columns, then indented.
func wrapWant(line string) string {
	first, rest := cutLine(line, tableWidth)
	lines := []string{first}
	for _, l := range wrap(rest, tableWidth-4) {
		lines = append(lines, "    "+l)
	}
	return strings.Join(lines, "\n")
}

func TestGradeJSONIsGradescopesShape(t *testing.T) {
	p := newPrinter(io.Discard, English, false)
	_, entries, _ := aClass(t, p)
	var out bytes.Buffer
	if err := writeJSON(&out, entries); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("-json writes %v:\n%s", err, out.String())
	}
	if len(got) != 4 {
		t.Fatalf("-json writes %d entries, want one for each of the 4 learners", len(got))
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for i, e := range got {
		if diff := cmp.Diff([]string{"max_score", "score", "student", "tests"}, keys(e)); diff != "" {
			t.Errorf("entry %d's fields (-want +got):\n%s", i, diff)
		}
		tests, _ := e["tests"].([]any)
		if len(tests) != 4 || e["max_score"] != 4.0 {
			t.Errorf("entry %d has %d tests and %v points at most, want 4 and 4: two labs, one exercise and the output each", i, len(tests), e["max_score"])
		}
		var names []string
		for _, test := range tests {
			m := test.(map[string]any)
			if diff := cmp.Diff([]string{"max_score", "name", "output", "score", "status"}, keys(m)); diff != "" {
				t.Errorf("entry %d, a test's fields (-want +got):\n%s", i, diff)
			}
			names = append(names, m["name"].(string))
		}
		if want := []string{"01-no-loop/one-request", "01-no-loop/output", "02-loop/run-loop", "02-loop/output"}; !slices.Equal(names, want) {
			t.Errorf("entry %d's tests are %q, want %q: by lab, then exercise, then output", i, names, want)
		}
	}
	first := got[0]
	if first["student"] != "ada" || first["score"] != 2.0 {
		t.Errorf("the first entry is %v with %v points, want ada with 2", first["student"], first["score"])
	}
	again := new(bytes.Buffer)
	writeJSON(again, gradeEntries(p, func() []*learner { c, _, _ := aClass(t, p); return c }()))
	if again.String() != out.String() {
		t.Error("-json writes other bytes for the same grades, want the same")
	}
}

func TestGradeClassroomIsWhatTheReporterReads(t *testing.T) {
	p := newPrinter(io.Discard, English, false)
	_, entries, _ := aClass(t, p)
	var out bytes.Buffer
	if err := writeClassroom(&out, entries[1]); err != nil {
		t.Fatal(err)
	}
	line, ok := strings.CutPrefix(out.String(), "result=")
	if !ok || !strings.HasSuffix(line, "\n") || strings.Count(line, "\n") != 1 {
		t.Fatalf("-classroom writes %q, want one line result=BASE64 for $GITHUB_OUTPUT", out.String())
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(line, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Version  int    `json:"version"`
		Status   string `json:"status"`
		MaxScore int    `json:"max_score"`
		Tests    []struct {
			Name, Status, Message string
			Score                 int
		} `json:"tests"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Version != 1 || res.Status != "fail" || res.MaxScore != 4 || len(res.Tests) != 4 {
		t.Errorf("the result is version %d, %s, %d points at most, %d tests; want version 1, fail, 4, 4", res.Version, res.Status, res.MaxScore, len(res.Tests))
	}
	rule := labOf(t, "02-loop").Exercises[0]
	if got := res.Tests[2]; got.Name != "02-loop/run-loop: exercise 1: "+rule.Title.EN || got.Status != "fail" || got.Score != 0 || !strings.Contains(got.Message, "did not finish within 10s") {
		t.Errorf("the test of 02-loop's exercise: %+v, want its name and title, fail, 0 points and the reason", got)
	}
	out.Reset()
	writeClassroom(&out, entries[0])
	data, _ = base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(out.String(), "result="), "\n"))
	wantContains(t, string(data), `"status":"fail","max_score":4`, "ada has not started lab 01")
}

func TestTheHelpDocumentsGrade(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, lang := range []string{"en", "zh"} {
		res := runCommand(t, wb, "-lang", lang, "-h")
		for _, part := range []string{"go run ./labs [", "grade DIR...", "-json", "-classroom", "-labs LIST", "$GITHUB_OUTPUT"} {
			wantContains(t, res.stdout, part, "%s", res)
		}
	}
}

// A workflowStep is a step of .github/workflows/classroom.yml.
type workflowStep struct {
	name, id, uses, run string
	with                map[string]string
	env                 map[string]string
}

// A workflow is classroom.yml's steps: all of them, those that grade a lab,
// and the reporter.
type workflow struct {
	text     string
	steps    []*workflowStep
	labs     []*workflowStep
	reporter *workflowStep
}

// workflowPath is the workflow GitHub Classroom runs.
const workflowPath = ".github/workflows/classroom.yml"

// readWorkflow reads classroom.yml's steps: each "- name:" starts one, and
// its id, uses, run, and with and env's keys follow it, one a line, as the
// file writes them.
func readWorkflow(t *testing.T) *workflow {
	t.Helper()
	text := string(readFile(t, filepath.Join(openedWorkbook(t).root, filepath.FromSlash(workflowPath))))
	wf := &workflow{text: text}
	var step *workflowStep
	section := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(trimmed, "- name: "); ok {
			step = &workflowStep{name: name, with: map[string]string{}, env: map[string]string{}}
			wf.steps = append(wf.steps, step)
			section = ""
			continue
		}
		if step == nil {
			continue
		}
		key, value, _ := strings.Cut(trimmed, ": ")
		switch {
		case trimmed == "with:" || trimmed == "env:":
			section = strings.TrimSuffix(trimmed, ":")
		case key == "id":
			step.id, section = value, ""
		case key == "uses":
			step.uses, section = value, ""
		case key == "run":
			step.run, section = value, ""
		case section == "with":
			step.with[key] = value
		case section == "env":
			step.env[key] = strings.Trim(value, `"`)
		}
	}
	for _, s := range wf.steps {
		if strings.Contains(s.run, " grade ") {
			wf.labs = append(wf.labs, s)
		}
		if strings.Contains(s.uses, "autograding-grading-reporter") {
			wf.reporter = s
		}
	}
	return wf
}

func TestTheClassroomWorkflowGradesEachLabAndReportsItsPoints(t *testing.T) {
	wf := readWorkflow(t)
	wb := openedWorkbook(t)
	for _, part := range []string{"\nname: Autograding Tests\n", "\n  checks: write\n", "\n  push:\n"} {
		wantContains(t, wf.text, part, "%s, as GitHub Classroom's own", workflowPath)
	}
	var names []string
	for _, s := range wf.steps {
		names = append(names, s.name)
	}
	want := []string{"Checkout code", "Set up Go"}
	var labs []string
	for _, name := range wb.labs {
		if wb.lab(name) != nil {
			want = append(want, name)
			labs = append(labs, name)
		}
	}
	want = append(want, "Autograding Reporter")
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("%s's steps: checkout, Go, one for each lab with exercises, the reporter (-want +got):\n%s", workflowPath, diff)
	}
	if s := wf.steps[0]; s.uses != "actions/checkout@v4" {
		t.Errorf("the first step uses %q, want actions/checkout@v4", s.uses)
	}
	if s := wf.steps[1]; s.uses != "actions/setup-go@v5" || s.with["go-version-file"] != "go.mod" {
		t.Errorf("the second step uses %q with %v, want actions/setup-go@v5 with the Go of go.mod", s.uses, s.with)
	}
	var ids []string
	for i, s := range wf.labs {
		number, _, _ := strings.Cut(labs[i], "-")
		ids = append(ids, "lab"+number)
		if s.id != "lab"+number {
			t.Errorf("step %s's id is %q, want lab%s", s.name, s.id, number)
		}
		if want := `go run ./labs grade -classroom -labs ` + labs[i] + ` . >> "$GITHUB_OUTPUT"`; s.run != want {
			t.Errorf("step %s runs %q, want %q: the result of its lab, for the reporter", s.name, s.run, want)
		}
	}
	r := wf.reporter
	if r == nil || r.uses != "classroom-resources/autograding-grading-reporter@v1" {
		t.Fatalf("the last step is %+v, want GitHub Classroom's reporter", r)
	}
	if got := r.with["runners"]; got != strings.Join(ids, ",") {
		t.Errorf("the reporter's runners are %q, want each lab's step, %q", got, strings.Join(ids, ","))
	}
	for _, id := range ids {
		// The reporter reads RUNNER_RESULTS, RUNNER in upper case.
		if got, want := r.env[strings.ToUpper(id)+"_RESULTS"], "${{ steps."+id+".outputs.result }}"; got != want {
			t.Errorf("the reporter's %s_RESULTS is %q, want %q", strings.ToUpper(id), got, want)
		}
	}
	if len(r.env) != len(ids) {
		t.Errorf("the reporter has %d variables, want one for each lab's step, %d", len(r.env), len(ids))
	}
}
