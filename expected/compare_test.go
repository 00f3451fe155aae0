package expected

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// compareIn compares got with the golden file dir/NAME.txt, as a lab's own
// test does, keeping the output in keepDir.
func compareIn(dir, keepDir, name string, got []byte) error {
	return goldenIn(dir, keepDir, "expected", "expected", name, false).compare(got)
}

// writeFile writes a file the test needs, and ends the test if it cannot.
func writeFile(t *testing.T, path, text string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
}

// wantKept checks that the file path holds the output want, kept for
// diff -u.
func wantKept(t *testing.T, path, want string) {
	t.Helper()
	kept, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(kept) != want {
		t.Errorf("%s holds %q, want the output, %q, kept for diff -u", path, kept, want)
	}
}

// wantNoFile checks that no file is at path, after a match removed the
// stale output.
func wantNoFile(t *testing.T, path string) {
	t.Helper()
	if info, err := os.Lstat(path); err == nil && !info.IsDir() {
		t.Errorf("%s exists, want it removed: a match removes the stale output", path)
	}
}

// mismatchOf returns err as a *MismatchError, and ends the test if it is
// not one; what says what returned it.
func mismatchOf(t *testing.T, what string, err error) *MismatchError {
	t.Helper()
	var mismatch *MismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("%s: error %v, want a *MismatchError", what, err)
	}
	return mismatch
}

func TestCompareReportsTheFirstDifferingLine(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lab.txt"), "one\ntwo\nthree\n", 0o644)

	err := compareIn(dir, dir, "lab", []byte("one\ntwo \nthree\n"))
	mismatch := mismatchOf(t, "compare", err)
	if mismatch.Line != 2 {
		t.Errorf("Line = %d, want 2", mismatch.Line)
	}
	if want := `"two\n"`; mismatch.Want != want {
		t.Errorf("Want = %s, want %s", mismatch.Want, want)
	}
	if want := `"two \n"`; mismatch.Got != want {
		t.Errorf("Got = %s, want %s: quoting shows the trailing space", mismatch.Got, want)
	}
	wantContains(t, "the diff", mismatch.Diff, "-")
	wantContains(t, "the error", err.Error(), "output differs from expected/lab.txt at line 2")
	wantContains(t, "the error", err.Error(), "diff -u expected/lab.txt expected/lab.txt.got")
	wantContains(t, "the error", err.Error(), RegenerateCommand)

	wantKept(t, filepath.Join(dir, "lab.txt.got"), "one\ntwo \nthree\n")

	if err := compareIn(dir, dir, "lab", []byte("one\ntwo\nthree\n")); err != nil {
		t.Fatalf("compare of the same output: %v", err)
	}
	wantNoFile(t, filepath.Join(dir, "lab.txt.got"))
}

func TestCompareReportsMissingAndExtraLines(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lab.txt"), "one\n", 0o644)

	mismatch := mismatchOf(t, "compare of a line more", compareIn(dir, dir, "lab", []byte("one\nmore\n")))
	if mismatch.Line != 2 {
		t.Errorf("a line more: Line = %d, want 2", mismatch.Line)
	}
	if want := "(end of file)"; mismatch.Want != want {
		t.Errorf("a line more: Want = %s, want %s", mismatch.Want, want)
	}
	if want := `"more\n"`; mismatch.Got != want {
		t.Errorf("a line more: Got = %s, want %s", mismatch.Got, want)
	}

	mismatch = mismatchOf(t, "compare without the final newline", compareIn(dir, dir, "lab", []byte("one")))
	if mismatch.Line != 1 {
		t.Errorf("without the final newline: Line = %d, want 1: a missing final newline is a difference", mismatch.Line)
	}
	if want := `"one"`; mismatch.Got != want {
		t.Errorf("without the final newline: Got = %s, want %s", mismatch.Got, want)
	}
}

func TestCompareWithoutAGoldenFile(t *testing.T) {
	dir := t.TempDir()
	err := compareIn(dir, dir, "nothing", []byte("x"))
	if err == nil {
		t.Fatal("compare without a golden file: no error, want one")
	}
	wantContains(t, "the error", err.Error(), "golden file expected/nothing.txt does not exist")
	wantContains(t, "the error", err.Error(), RegenerateCommand)
}

// TestALearnersCopyComparesWithTheLabs checks the report in a copy of a lab,
// such as mywork/02-loop: it names the lab's output, keeps the learner's in
// the copy, and never advises regenerating the golden files, which would
// overwrite the answer.
func TestALearnersCopyComparesWithTheLabs(t *testing.T) {
	goldenDir, copyDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(goldenDir, "02-loop.txt"), "a\nb\nc\n", 0o644)
	g := goldenIn(goldenDir, filepath.Join(copyDir, "testdata"), "expected", "mywork/02-loop/testdata", "02-loop", true)

	err := g.compare([]byte("a\nB\nc\n"))
	if err == nil {
		t.Fatal("compare of another output: no error, want one")
	}
	if want := `your output differs from the lab's at line 2
  the lab's: "b\n"
  yours:     "B\n"
line diff (-the lab's +yours):
@@ -1,3 +1,3 @@
 a
-b
+B
 c
your output is in mywork/02-loop/testdata/02-loop.txt.got; compare with: diff -u expected/02-loop.txt mywork/02-loop/testdata/02-loop.txt.got`; err.Error() != want {
		t.Errorf("the error is\n%s\nwant\n%s", err, want)
	}
	if strings.Contains(err.Error(), "regenerate") {
		t.Errorf("the error advises regenerating the golden files, which would overwrite the answer; it is:\n%s", err)
	}
	wantKept(t, filepath.Join(copyDir, "testdata", "02-loop.txt.got"), "a\nB\nc\n")

	if err := g.compare([]byte("a\nb\nc\n")); err != nil {
		t.Fatalf("compare of the lab's output: %v", err)
	}
	wantNoFile(t, filepath.Join(copyDir, "testdata", "02-loop.txt.got"))
}

// TestCheckingWorksWhereNothingCanBeWritten is issue 14's read-only
// checkout: a match must pass, and a mismatch must be reported even though
// the output cannot be kept. The output's directory is a path under a
// regular file, which no one can create, root included.
func TestCheckingWorksWhereNothingCanBeWritten(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lab.txt"), "one\n", 0o644)
	file := filepath.Join(dir, "a-file")
	writeFile(t, file, "", 0o644)
	for _, inCopy := range []bool{false, true} {
		where := "in a lab"
		if inCopy {
			where = "in a copy"
		}
		g := goldenIn(dir, filepath.Join(file, "testdata"), "expected", "expected", "lab", inCopy)
		if err := g.compare([]byte("one\n")); err != nil {
			t.Fatalf("%s, compare of the same output: %v, want none: a match passes", where, err)
		}

		mismatch := mismatchOf(t, where+", compare of another output (a mismatch is reported)", g.compare([]byte("two\n")))
		if mismatch.Line != 1 {
			t.Errorf("%s: Line = %d, want 1", where, mismatch.Line)
		}
		if mismatch.KeepErr == nil {
			t.Errorf("%s: KeepErr = nil, want the error that kept the output from being written", where)
		}
		if mismatch.GotPath != "" {
			t.Errorf("%s: GotPath = %q, want none", where, mismatch.GotPath)
		}
		wantContains(t, where+", the error", mismatch.Error(), "could not be kept")
	}
}

// TestCheckingWorksInAReadOnlyDirectory is the same on a directory without
// write permission, with a stale output file in it. Root ignores the
// permission, so the test skips there.
func TestCheckingWorksInAReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write anywhere; TestCheckingWorksWhereNothingCanBeWritten covers this")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lab.txt"), "one\n", 0o644)
	// A read-only checkout: the directory and every file in it, a stale
	// output from before included.
	writeFile(t, filepath.Join(dir, "lab.txt.got"), "old\n", 0o444)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })

	if err := compareIn(dir, dir, "lab", []byte("one\n")); err != nil {
		t.Fatalf("compare of the same output: %v, want none: a stale output that cannot be removed does not fail a match", err)
	}
	mismatch := mismatchOf(t, "compare of another output", compareIn(dir, dir, "lab", []byte("two\n")))
	if mismatch.KeepErr == nil {
		t.Errorf("KeepErr = nil, want the error that kept the output from being written")
	}
}

// TestAScenarioNameMustBePlain: a scenario file's name names its golden
// files and shows in golden's messages, so a name that holds a line break,
// an escape sequence or a bidirectional override is refused, quoted.
func TestAScenarioNameMustBePlain(t *testing.T) {
	cases, err := scenarioCases([]string{"/x/b.json", "/x/a-2.json"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := []string{cases[0].Name, cases[1].Name, cases[2].Name, cases[3].Name},
		[]string{"06-steering.scenario-a-2", "06-steering.scenario-a-2.trace", "06-steering.scenario-b", "06-steering.scenario-b.trace"}; !slices.Equal(got, want) {
		t.Errorf("the cases are %q, want %q", got, want)
	}
	for _, name := range []string{"x\x1b[31my\nz.json", "pay-\u202egnp.json", "Mixed.json", "-flag.json", "a b.json"} {
		_, err := scenarioCases([]string{"/x/ok.json", "/x/" + name})
		if err == nil {
			t.Fatalf("the scenario %q: no error, want one", name)
		}
		wantContains(t, "the error", err.Error(), strconv.Quote("labs/06-steering/scenarios/"+name))
		if strings.ContainsFunc(err.Error(), func(r rune) bool { return r == '\n' || r == 0x1b || r == 0x202e }) {
			t.Errorf("the scenario %q: error %q, want it without a line break, an escape or an override", name, err)
		}
	}
}

func TestCasesHaveAGoldenFileEach(t *testing.T) {
	cases, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	d, err := dir()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("case %s is listed twice", c.Name)
		}
		names[c.Name] = true
		if info, err := os.Lstat(filepath.Join(d, FileName(c.Name))); err != nil || info.IsDir() {
			t.Errorf("case %s has no golden file %s", c.Name, FileName(c.Name))
		}
		if info, err := os.Lstat(filepath.Join(d, "..", "labs", c.Lab)); err != nil || !info.IsDir() {
			t.Errorf("case %s runs labs/%s, which is no directory", c.Name, c.Lab)
		}
	}
	labs, err := Labs()
	if err != nil {
		t.Fatal(err)
	}
	if len(labs) == 0 {
		t.Fatal("Labs() found no lab")
	}
	for _, lab := range labs {
		cases, err := LabCases(lab)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Errorf("%s has no golden case", lab)
		}
	}
	files, err := filepath.Glob(filepath.Join(d, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(d, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, pages...) {
		name := filepath.Base(f)
		if !names[strings.TrimSuffix(name, ".txt")] {
			t.Errorf("%s belongs to no case: delete it or add its case", name)
		}
	}
}

func TestLabsAreTheNumberedDirectories(t *testing.T) {
	labs, err := Labs()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(labs, "02-loop") {
		t.Errorf("Labs() = %q, want it to hold 02-loop", labs)
	}
	numbered := regexp.MustCompile(`^[0-9]{2}-`)
	for _, lab := range labs {
		if !numbered.MatchString(lab) {
			t.Errorf("the lab %q does not start with a number of two digits and -", lab)
		}
	}
	for i := 1; i < len(labs); i++ {
		if labs[i-1] >= labs[i] {
			t.Errorf("Labs() = %q, want them in order, each once", labs)
			break
		}
	}
}

func TestALabIsNotACopy(t *testing.T) {
	root := filepath.FromSlash("/repo")
	for _, tt := range []struct {
		dir  string
		copy bool
	}{
		{filepath.Join(root, "labs", "02-loop"), false},
		{filepath.Join(root, "mywork", "02-loop"), true},
		{filepath.Join(root, "_track-verify-1", "starter", "02-loop"), true},
	} {
		if got := isCopy(root, tt.dir); got != tt.copy {
			t.Errorf("isCopy(%q, %q) = %v, want %v", root, tt.dir, got, tt.copy)
		}
	}
}

func TestCommand(t *testing.T) {
	c := Case{Name: "03-maxturns.max-turns-1", Lab: "03-maxturns", Args: []string{"-max-turns", "1"}}
	if got, want := c.Command(), "go run ./labs/03-maxturns -max-turns 1"; got != want {
		t.Errorf("Command() = %q, want %q", got, want)
	}
}

// TestCheckReportsADifferenceOnce: TestProgram finds in the real program's
// output the difference TestOutputMatchesGoldenFile found in run's; it says
// so in one line instead of a second report.
func TestCheckReportsADifferenceOnce(t *testing.T) {
	// As in a copy of lab 02, whose output is kept beside the copy: here,
	// in a folder of the test's own, for no test writes inside the
	// repository.
	d, err := dir()
	if err != nil {
		t.Fatal(err)
	}
	g := goldenIn(d, t.TempDir(), "expected", "_mywork/02-loop/testdata", "02-loop", true)
	var first, second *recordingT
	t.Run("first", func(t *testing.T) {
		first = &recordingT{TB: t}
		check(first, g, nil, []byte("not the lab's output\n"))
	})
	t.Run("second", func(t *testing.T) {
		second = &recordingT{TB: t}
		check(second, g, nil, []byte("not the lab's output\n"))
		check(second, g, nil, []byte("another output\n"))
	})
	wantFindingCount(t, first, 1)
	wantContains(t, "the first test's finding", first.failures[0], "your output differs from the lab's at line 1\n")
	wantFindingCount(t, second, 2)
	if want := "02-loop: the same difference as in " + t.Name() + "/first, above"; second.failures[0] != want {
		t.Errorf("the second test's first finding is %q, want %q", second.failures[0], want)
	}
	wantContains(t, "the second finding (another difference gets a report of its own)", second.failures[1], "your output differs from the lab's at line 1\n")
}
