package expected

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareReportsTheFirstDifferingLine(t *testing.T) {
	dir := t.TempDir()
	want := filepath.Join(dir, "lab.txt")
	require.NoError(t, os.WriteFile(want, []byte("one\ntwo\nthree\n"), 0o644))

	err := compare(dir, "lab", []byte("one\ntwo \nthree\n"))
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

	require.NoError(t, compare(dir, "lab", []byte("one\ntwo\nthree\n")))
	assert.NoFileExists(t, filepath.Join(dir, "lab.txt.got"), "a match removes the stale output")
}

func TestCompareReportsMissingAndExtraLines(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lab.txt"), []byte("one\n"), 0o644))

	var mismatch *MismatchError
	require.ErrorAs(t, compare(dir, "lab", []byte("one\nmore\n")), &mismatch)
	assert.Equal(t, 2, mismatch.Line)
	assert.Equal(t, "(end of file)", mismatch.Want)
	assert.Equal(t, `"more\n"`, mismatch.Got)

	require.ErrorAs(t, compare(dir, "lab", []byte("one")), &mismatch)
	assert.Equal(t, 1, mismatch.Line, "a missing final newline is a difference")
	assert.Equal(t, `"one"`, mismatch.Got)
}

func TestCompareWithoutAGoldenFile(t *testing.T) {
	err := compare(t.TempDir(), "nothing", []byte("x"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "golden file expected/nothing.txt does not exist")
	assert.Contains(t, err.Error(), RegenerateCommand)
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
	labs, err := filepath.Glob(filepath.Join(d, "..", "labs", "*"))
	require.NoError(t, err)
	for _, lab := range labs {
		cases, err := LabCases(filepath.Base(lab))
		require.NoError(t, err)
		assert.NotEmpty(t, cases, "%s has no golden case", filepath.Base(lab))
	}
	files, err := filepath.Glob(filepath.Join(d, "*.txt"))
	require.NoError(t, err)
	for _, f := range files {
		name := filepath.Base(f)
		assert.True(t, names[name[:len(name)-len(".txt")]], "%s belongs to no case: delete it or add its case", name)
	}
}

func TestCommand(t *testing.T) {
	c := Case{Name: "03-maxturns.max-turns-1", Lab: "03-maxturns", Args: []string{"-max-turns", "1"}}
	assert.Equal(t, "go run ./labs/03-maxturns -max-turns 1", c.Command())
}
