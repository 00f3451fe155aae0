package track

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
		if err := os.MkdirAll(wb.work, 0o755); err != nil {
			t.Fatal(err)
		}
		key := choose(lab, brokenRuleReport(t, wb, lab)).Key
		data, err := json.Marshal(state{Hints: map[string]map[string]int{lab.Name: {key: tt.stored}}})
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, wb.statePath(), data, 0o644)
		var out bytes.Buffer
		s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("stored %d: hint panics: %v", tt.stored, p)
				}
			}()
			if err := s.hintFor(lab, brokenRuleReport(t, wb, lab)); err != nil {
				t.Fatalf("stored %d: hint: %v", tt.stored, err)
			}
		}()
		if want := "Hint " + itoa(tt.want) + " of " + itoa(len(rule.Hints)+1) + ","; !strings.HasPrefix(out.String(), want) {
			t.Errorf("stored %d: hint prints\n%s\nwant it to begin %q", tt.stored, out.String(), want)
		}
		if got := wb.loadState().Hints[lab.Name][key]; got != tt.want {
			t.Errorf("stored %d: the count saved is %d, want %d", tt.stored, got, tt.want)
		}
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
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	for _, name := range []string{".notes.md", "loop.go~", "x\x1b]0;title\a\x1b[2J.go"} {
		writeFile(t, filepath.Join(dir, name), []byte("mine"), 0o644)
	}
	if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "testdata", "02-loop.txt.got"), []byte("a golden test's"), 0o644)
	res := runCommand(t, wb, "reset", "02")
	wantStatus(t, res, 1)
	// The output is quoted in the messages, for it may hold escapes.
	if want := `reset would discard: .notes.md, loop.go~, "x\x1b]0;title\a\x1b[2J.go".`; !strings.Contains(res.stdout, want) {
		t.Errorf("%s: standard output does not hold %q:\n%q", res, want, res.stdout)
	}
	if strings.Contains(res.stdout, "\x1b") {
		t.Errorf("%s: standard output holds %q, want it escaped:\n%q", res, "\x1b", res.stdout)
	}
	if strings.Contains(res.stdout, ".got") {
		t.Errorf("%s: standard output names a .got file, want it left out: a golden test's output is not work\n%q", res, res.stdout)
	}
	wantFile(t, filepath.Join(dir, ".notes.md"), "after %s", res)
}

// TestSolutionQuotesNamesAndSkipsWhatIsNotCode checks solution's lines for
// files that are not the lab's: a name that would not print as itself is
// quoted, and a program that go build left is named as one.
func TestSolutionQuotesNamesAndSkipsWhatIsNotCode(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	writeFile(t, filepath.Join(dir, "x\x1b[2J.go"), []byte("package main\n"), 0o644)
	writeFile(t, filepath.Join(dir, "02-loop"), []byte("\x7fELF\x02\x01\x01\x00\x00"), 0o755)
	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	// The output is quoted in the messages, for it may hold escapes.
	if strings.Contains(res.stdout, "\x1b") {
		t.Errorf("%s: standard output holds %q, want it escaped:\n%q", res, "\x1b", res.stdout)
	}
	for _, want := range []string{
		`"` + wb.rel(dir) + `/x\x1b[2J.go" is yours alone`,
		wb.rel(dir) + "/02-loop is a program, as go build makes, which the lab does not have; it is not compared.",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("%s: standard output does not hold %q:\n%q", res, want, res.stdout)
		}
	}
	if strings.Contains(res.stdout, "-// TODO") {
		t.Errorf("%s: standard output holds %q, want none: the starter's TODO is no difference\n%q", res, "-// TODO", res.stdout)
	}
}

// TestACopyMayBeALink checks that a copy that is a symbolic link to a
// directory is a copy, and that one that points to nothing is named so.
func TestACopyMayBeALink(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	elsewhere := filepath.Join(t.TempDir(), "02-loop")
	if err := os.Rename(wb.copyDir("02-loop"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, wb.copyDir("02-loop")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	wantNotContains(t, res.stdout, "is a file", "%s: standard output", res)

	if err := os.RemoveAll(elsewhere); err != nil {
		t.Fatal(err)
	}
	res = runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 1)
	wantContains(t, res.stdout, "is a symbolic link to nothing", "%s: standard output", res)
}

// TestAStartThatLosesTheRaceSaysTheCopyIsThere checks what start says when
// another start, in another terminal, made the copy while it wrote its own.
func TestAStartThatLosesTheRaceSaysTheCopyIsThere(t *testing.T) {
	wb := testWorkbook(t, false)
	lab := labOf(t, "02-loop")
	if err := os.MkdirAll(filepath.Join(wb.copyDir(lab.Name), "loop.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
	if err := s.writeStarter(lab, wb.copyDir(lab.Name)); !errors.Is(err, errFailed) {
		t.Errorf("writeStarter: error %v, want errFailed", err)
	}
	wantContains(t, out.String(), "You have started 02-loop already", "start's output")
	wantOnlyTheCopy(t, wb)
}

// TestAMissingReturnIsInTheRegionAboveIt checks that the compiler's
// "missing return", which it puts on the function's closing brace, right
// after a region's end marker, counts as an error in that region's code.
func TestAMissingReturnIsInTheRegionAboveIt(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nfunc f() int {\n\t// exercise: a\n\t// end of exercise: a\n}\n\nfunc g() {\n\t// exercise: b\n\t// end of exercise: b\n}\n"
	writeFile(t, filepath.Join(dir, "a.go"), []byte(src), 0o644)
	lab := &Lab{Exercises: []Exercise{
		{ID: "a", Regions: []Region{{File: "a.go", ID: "a"}}},
		{ID: "b", Regions: []Region{{File: "a.go", ID: "b"}}},
	}}
	at := firstError(lab, dir, []string{"_mywork/01-no-loop/a.go:6:1: missing return"})
	if at.region == nil {
		t.Fatal("the missing return is in no region, want region a")
	}
	if at.region.ID != "a" {
		t.Errorf("the missing return is in region %s, want a", at.region.ID)
	}
	if at.at != insideRegion {
		t.Errorf("the missing return is at place %d, want %d (inside the region)", at.at, insideRegion)
	}
	at = firstError(lab, dir, []string{"_mywork/01-no-loop/a.go:8:1: something"})
	if at.at != outsideRegion {
		t.Errorf("an error at line 8 is at place %d, want %d (outside the region): a line further is outside", at.at, outsideRegion)
	}
}

// TestSolutionEscapesTheLearnersBytes checks that the lines of solution's
// diffs, which come from the learner's files, reach the terminal escaped, as
// check's and hint's do: an escape sequence that sets the window's title or
// clears the screen, or a bidirectional override that reorders what a line
// shows, prints as the characters that write it.
func TestSolutionEscapesTheLearnersBytes(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	path := filepath.Join(wb.copyDir("02-loop"), "loop.go")
	mine := append(readFile(t, path), "// \x1b]0;owned\x07 \x1b[2J \u202e!olleh\n"...)
	writeFile(t, path, mine, 0o644)
	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	for _, raw := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(res.stdout, raw) {
			t.Errorf("%s: standard output holds %q, want it escaped:\n%q", res, raw, res.stdout)
		}
	}
	wantContains(t, res.stdout, `-// \x1b]0;owned\a \x1b[2J \u202e!olleh`, "%s: standard output", res)
}
