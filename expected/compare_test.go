package expected

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compareIn compares got with the golden file dir/NAME.txt, as a lab's own
// test does, keeping the output in keepDir.
func compareIn(dir, keepDir, name string, got []byte) error {
	return goldenIn(dir, keepDir, "expected", "expected", name, false).compare(got)
}

func TestCompareReportsTheFirstDifferingLine(t *testing.T) {
	dir := t.TempDir()
	want := filepath.Join(dir, "lab.txt")
	require.NoError(t, os.WriteFile(want, []byte("one\ntwo\nthree\n"), 0o644))

	err := compareIn(dir, dir, "lab", []byte("one\ntwo \nthree\n"))
	var mismatch *MismatchError
	require.True(t, errors.As(err, &mismatch), "got %v", err)
	assert.Equal(t, 2, mismatch.Line)
	assert.Equal(t, `"two\n"`, mismatch.Want)
	assert.Equal(t, `"two \n"`, mismatch.Got, "quoting shows the trailing space")
	assert.Contains(t, mismatch.Diff, `-`)
	assert.Contains(t, err.Error(), "output differs from expected/lab.txt at line 2")
	assert.Contains(t, err.Error(), "diff -u expected/lab.txt expected/lab.txt.got")
	assert.Contains(t, err.Error(), RegenerateCommand)

	kept, err := os.ReadFile(filepath.Join(dir, "lab.txt.got"))
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo \nthree\n", string(kept), "the output is kept for diff -u")

	require.NoError(t, compareIn(dir, dir, "lab", []byte("one\ntwo\nthree\n")))
	assert.NoFileExists(t, filepath.Join(dir, "lab.txt.got"), "a match removes the stale output")
}

func TestCompareReportsMissingAndExtraLines(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lab.txt"), []byte("one\n"), 0o644))

	var mismatch *MismatchError
	require.ErrorAs(t, compareIn(dir, dir, "lab", []byte("one\nmore\n")), &mismatch)
	assert.Equal(t, 2, mismatch.Line)
	assert.Equal(t, "(end of file)", mismatch.Want)
	assert.Equal(t, `"more\n"`, mismatch.Got)

	require.ErrorAs(t, compareIn(dir, dir, "lab", []byte("one")), &mismatch)
	assert.Equal(t, 1, mismatch.Line, "a missing final newline is a difference")
	assert.Equal(t, `"one"`, mismatch.Got)
}

func TestCompareWithoutAGoldenFile(t *testing.T) {
	dir := t.TempDir()
	err := compareIn(dir, dir, "nothing", []byte("x"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "golden file expected/nothing.txt does not exist")
	assert.Contains(t, err.Error(), RegenerateCommand)
}

// TestALearnersCopyComparesWithTheLabs checks the report in a copy of a lab,
// such as mywork/02-loop: it names the lab's output, keeps the learner's in
// the copy, and never advises regenerating the golden files, which would
// overwrite the answer.
func TestALearnersCopyComparesWithTheLabs(t *testing.T) {
	goldenDir, copyDir := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(goldenDir, "02-loop.txt"), []byte("a\nb\nc\n"), 0o644))
	g := goldenIn(goldenDir, filepath.Join(copyDir, "testdata"), "expected", "mywork/02-loop/testdata", "02-loop", true)

	err := g.compare([]byte("a\nB\nc\n"))
	require.Error(t, err)
	assert.Equal(t, `your output differs from the lab's at line 2
  the lab's: "b\n"
  yours:     "B\n"
line diff (-the lab's +yours):
@@ -1,3 +1,3 @@
 a
-b
+B
 c
your output is in mywork/02-loop/testdata/02-loop.txt.got; compare with: diff -u expected/02-loop.txt mywork/02-loop/testdata/02-loop.txt.got`, err.Error())
	assert.NotContains(t, err.Error(), "regenerate")
	kept, err := os.ReadFile(filepath.Join(copyDir, "testdata", "02-loop.txt.got"))
	require.NoError(t, err)
	assert.Equal(t, "a\nB\nc\n", string(kept))

	require.NoError(t, g.compare([]byte("a\nb\nc\n")))
	assert.NoFileExists(t, filepath.Join(copyDir, "testdata", "02-loop.txt.got"))
}

// TestCheckingWorksWhereNothingCanBeWritten is issue 14's read-only
// checkout: a match must pass, and a mismatch must be reported even though
// the output cannot be kept. The output's directory is a path under a
// regular file, which no one can create, root included.
func TestCheckingWorksWhereNothingCanBeWritten(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lab.txt"), []byte("one\n"), 0o644))
	file := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, inCopy := range []bool{false, true} {
		g := goldenIn(dir, filepath.Join(file, "testdata"), "expected", "expected", "lab", inCopy)
		require.NoError(t, g.compare([]byte("one\n")), "a match passes")

		var mismatch *MismatchError
		require.ErrorAs(t, g.compare([]byte("two\n")), &mismatch, "a mismatch is reported")
		assert.Equal(t, 1, mismatch.Line)
		assert.Error(t, mismatch.KeepErr)
		assert.Empty(t, mismatch.GotPath)
		assert.Contains(t, mismatch.Error(), "could not be kept")
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
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lab.txt"), []byte("one\n"), 0o644))
	// A read-only checkout: the directory and every file in it, a stale
	// output from before included.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lab.txt.got"), []byte("old\n"), 0o444))
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })

	require.NoError(t, compareIn(dir, dir, "lab", []byte("one\n")), "a stale output that cannot be removed does not fail a match")
	var mismatch *MismatchError
	require.ErrorAs(t, compareIn(dir, dir, "lab", []byte("two\n")), &mismatch)
	assert.Error(t, mismatch.KeepErr)
}

// TestAScenarioNameMustBePlain: a scenario file's name names its golden
// files and shows in golden's messages, so a name that holds a line break,
// an escape sequence or a bidirectional override is refused, quoted.
func TestAScenarioNameMustBePlain(t *testing.T) {
	cases, err := scenarioCases([]string{"/x/b.json", "/x/a-2.json"})
	require.NoError(t, err)
	assert.Equal(t, []string{"06-steering.scenario-a-2", "06-steering.scenario-a-2.trace", "06-steering.scenario-b", "06-steering.scenario-b.trace"},
		[]string{cases[0].Name, cases[1].Name, cases[2].Name, cases[3].Name})
	for _, name := range []string{"x\x1b[31my\nz.json", "pay-\u202egnp.json", "Mixed.json", "-flag.json", "a b.json"} {
		_, err := scenarioCases([]string{"/x/ok.json", "/x/" + name})
		require.Error(t, err, "%q", name)
		assert.Contains(t, err.Error(), strconv.Quote("labs/06-steering/scenarios/"+name))
		assert.False(t, strings.ContainsFunc(err.Error(), func(r rune) bool { return r == '\n' || r == 0x1b || r == 0x202e }), "%q", err)
	}
}

func TestCasesHaveAGoldenFileEach(t *testing.T) {
	cases, err := Cases()
	require.NoError(t, err)
	d, err := dir()
	require.NoError(t, err)
	names := map[string]bool{}
	for _, c := range cases {
		assert.False(t, names[c.Name], "case %s is listed twice", c.Name)
		names[c.Name] = true
		assert.FileExists(t, filepath.Join(d, c.Name+".txt"))
		assert.DirExists(t, filepath.Join(d, "..", "labs", c.Lab))
	}
	labs, err := Labs()
	require.NoError(t, err)
	require.NotEmpty(t, labs)
	for _, lab := range labs {
		cases, err := LabCases(lab)
		require.NoError(t, err)
		assert.NotEmpty(t, cases, "%s has no golden case", lab)
	}
	files, err := filepath.Glob(filepath.Join(d, "*.txt"))
	require.NoError(t, err)
	for _, f := range files {
		name := filepath.Base(f)
		assert.True(t, names[name[:len(name)-len(".txt")]], "%s belongs to no case: delete it or add its case", name)
	}
}

func TestLabsAreTheNumberedDirectories(t *testing.T) {
	labs, err := Labs()
	require.NoError(t, err)
	assert.Contains(t, labs, "02-loop")
	for _, lab := range labs {
		assert.Regexp(t, `^[0-9]{2}-`, lab)
	}
	assert.IsIncreasing(t, labs)
}

func TestALabIsNotACopy(t *testing.T) {
	root := filepath.FromSlash("/repo")
	assert.False(t, isCopy(root, filepath.Join(root, "labs", "02-loop")))
	assert.True(t, isCopy(root, filepath.Join(root, "mywork", "02-loop")))
	assert.True(t, isCopy(root, filepath.Join(root, "_track-verify-1", "starter", "02-loop")))
}

func TestCommand(t *testing.T) {
	c := Case{Name: "03-maxturns.max-turns-1", Lab: "03-maxturns", Args: []string{"-max-turns", "1"}}
	assert.Equal(t, "go run ./labs/03-maxturns -max-turns 1", c.Command())
}

// TestCheckReportsADifferenceOnce: TestProgram finds in the real program's
// output the difference TestOutputMatchesGoldenFile found in run's; it says
// so in one line instead of a second report.
func TestCheckReportsADifferenceOnce(t *testing.T) {
	// This test is no lab's: Check takes it for a copy of lab 02, and keeps
	// the output in testdata/.
	t.Cleanup(func() {
		os.Remove(filepath.Join("testdata", "02-loop.txt.got"))
		os.Remove("testdata") // if the test made it
	})
	var first, second *recordingT
	t.Run("first", func(t *testing.T) {
		first = &recordingT{TB: t}
		Check(first, "02-loop", []byte("not the lab's output\n"))
	})
	t.Run("second", func(t *testing.T) {
		second = &recordingT{TB: t}
		Check(second, "02-loop", []byte("not the lab's output\n"))
		Check(second, "02-loop", []byte("another output\n"))
	})
	require.Len(t, first.failures, 1)
	assert.Contains(t, first.failures[0], "your output differs from the lab's at line 1\n")
	require.Len(t, second.failures, 2)
	assert.Equal(t, "02-loop: the same difference as in "+t.Name()+"/first, above", second.failures[0])
	assert.Contains(t, second.failures[1], "your output differs from the lab's at line 1\n", "another difference gets a report of its own")
}
