package track

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenRuleReport is a report of a copy of lab whose first rule is broken.
func brokenRuleReport(t *testing.T, wb *workbook, lab *Lab) *report {
	t.Helper()
	r := &report{lab: lab, dir: wb.copyDir(lab.Name), rel: wb.rel(wb.copyDir(lab.Name))}
	for i := range lab.Exercises {
		broken := -1
		if i == 0 {
			broken = 0
		}
		r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: broken, finding: &finding{why: msgNoMessage}})
	}
	return r
}

// TestHintSurvivesAnyStateFile checks that hint counts from a state file
// whatever it holds: a count that is negative, or so large that one more
// would overflow, gives the first hint or the last, and is saved as such.
func TestHintSurvivesAnyStateFile(t *testing.T) {
	wb := testWorkbook(t, false)
	lab := labOf(t, "02-loop")
	rule := lab.Exercises[0].Rules[0]
	for _, tt := range []struct {
		stored int
		want   int
	}{{-1, 1}, {math.MinInt, 1}, {math.MaxInt, len(rule.Hints) + 1}, {len(rule.Hints) + 5, len(rule.Hints) + 1}} {
		require.NoError(t, os.MkdirAll(wb.work, 0o755))
		data, err := json.Marshal(state{Hints: map[string]map[string]int{lab.Name: {rule.Test: tt.stored}}})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(wb.statePath(), data, 0o644))
		var out bytes.Buffer
		s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
		require.NotPanics(t, func() { require.NoError(t, s.hintFor(lab, brokenRuleReport(t, wb, lab))) }, "stored %d", tt.stored)
		assert.True(t, strings.HasPrefix(out.String(), "Hint "+itoa(tt.want)+" of "+itoa(len(rule.Hints)+1)+","), "stored %d:\n%s", tt.stored, out.String())
		assert.Equal(t, tt.want, wb.loadState().Hints[lab.Name][rule.Test], "stored %d: saved", tt.stored)
	}
}

// itoa writes n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }

// TestResetKeepsHiddenFilesAndBackups checks that reset without -force
// counts every file the learner made as work, the hidden ones and an
// editor's backups too, and names them, quoted where a name would not
// print as itself.
func TestResetKeepsHiddenFilesAndBackups(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	dir := wb.copyDir("02-loop")
	for _, name := range []string{".notes.md", "loop.go~", "x\x1b]0;title\a\x1b[2J.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("mine"), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "testdata"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "testdata", "02-loop.txt.got"), []byte("a golden test's"), 0o644))
	res := runCommand(t, wb, "reset", "02")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, `reset would discard: .notes.md, loop.go~, "x\x1b]0;title\a\x1b[2J.go".`)
	assert.NotContains(t, res.stdout, "\x1b")
	assert.NotContains(t, res.stdout, ".got", "a golden test's output is not work")
	assert.FileExists(t, filepath.Join(dir, ".notes.md"))
}

// TestSolutionQuotesNamesAndSkipsWhatIsNotCode checks solution's lines for
// files that are not the lab's: a name that would not print as itself is
// quoted, and a program that go build left is named as one.
func TestSolutionQuotesNamesAndSkipsWhatIsNotCode(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	dir := wb.copyDir("02-loop")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x\x1b[2J.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "02-loop"), []byte("\x7fELF\x02\x01\x01\x00\x00"), 0o755))
	res := runCommand(t, wb, "solution", "02")
	assert.Equal(t, 0, res.status, res.stderr)
	assert.NotContains(t, res.stdout, "\x1b")
	assert.Contains(t, res.stdout, `"`+wb.rel(dir)+`/x\x1b[2J.go" is yours alone`)
	assert.Contains(t, res.stdout, wb.rel(dir)+"/02-loop is a program, as go build makes, which the lab does not have; it is not compared.")
	assert.NotContains(t, res.stdout, "-// TODO", "the starter's TODO is no difference")
}

// TestACopyMayBeALink checks that a copy that is a symbolic link to a
// directory is a copy, and that one that points to nothing is named so.
func TestACopyMayBeALink(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	elsewhere := filepath.Join(t.TempDir(), "02-loop")
	require.NoError(t, os.Rename(wb.copyDir("02-loop"), elsewhere))
	if err := os.Symlink(elsewhere, wb.copyDir("02-loop")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	res := runCommand(t, wb, "solution", "02")
	assert.Equal(t, 0, res.status, res.stdout)
	assert.NotContains(t, res.stdout, "is a file")

	require.NoError(t, os.RemoveAll(elsewhere))
	res = runCommand(t, wb, "solution", "02")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, "is a symbolic link to nothing")
}

// TestAStartThatLosesTheRaceSaysTheCopyIsThere checks what start says when
// another start, in another terminal, made the copy while it wrote its own.
func TestAStartThatLosesTheRaceSaysTheCopyIsThere(t *testing.T) {
	wb := testWorkbook(t, false)
	lab := labOf(t, "02-loop")
	require.NoError(t, os.MkdirAll(filepath.Join(wb.copyDir(lab.Name), "loop.go"), 0o755))
	var out bytes.Buffer
	s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
	err := s.writeStarter(lab, wb.copyDir(lab.Name))
	assert.ErrorIs(t, err, errFailed)
	assert.Contains(t, out.String(), "You have started 02-loop already")
	entries, err := os.ReadDir(wb.work)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary directory is left")
}

// TestAMissingReturnIsInTheRegionAboveIt checks that the compiler's
// "missing return", which it puts on the function's closing brace, right
// after a region's end marker, counts as an error in that region's code.
func TestAMissingReturnIsInTheRegionAboveIt(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nfunc f() int {\n\t// exercise: a\n\t// end of exercise: a\n}\n\nfunc g() {\n\t// exercise: b\n\t// end of exercise: b\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644))
	lab := &Lab{Exercises: []Exercise{
		{ID: "a", Regions: []Region{{File: "a.go", ID: "a"}}},
		{ID: "b", Regions: []Region{{File: "a.go", ID: "b"}}},
	}}
	at := firstError(lab, dir, []string{"_mywork/01-no-loop/a.go:6:1: missing return"})
	require.NotNil(t, at.region)
	assert.Equal(t, "a", at.region.ID)
	assert.Equal(t, insideRegion, at.at)
	at = firstError(lab, dir, []string{"_mywork/01-no-loop/a.go:8:1: something"})
	assert.Equal(t, outsideRegion, at.at, "a line further is outside")
}
