package expected

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// RegenerateCommand is the command that rewrites every golden file.
const RegenerateCommand = "go run ./expected/cmd/golden"

// A MismatchError reports output that differs from its golden file.
type MismatchError struct {
	// Name is the case's name.
	Name string
	// Line is the number of the first line that differs, counting from 1.
	Line int
	// Want and Got are that line in the golden file and in the output,
	// or "(end of file)" where one of them has no such line.
	Want, Got string
	// Diff is a line diff of the two, "-" for the golden file and "+" for
	// the output.
	Diff string
	// GotPath is where the output was written and WantPath is the golden
	// file, both relative to the repository root.
	GotPath, WantPath string
}

// Error reports the mismatch the way a test failure shows it.
func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "output differs from %s at line %d\n", e.WantPath, e.Line)
	fmt.Fprintf(&b, "  want: %s\n", e.Want)
	fmt.Fprintf(&b, "   got: %s\n", e.Got)
	fmt.Fprintf(&b, "line diff (-%s +output):\n%s", e.WantPath, e.Diff)
	fmt.Fprintf(&b, "the output is in %s; compare with: diff -u %s %s\n", e.GotPath, e.WantPath, e.GotPath)
	fmt.Fprintf(&b, "if the change is intended, regenerate the golden files: %s", RegenerateCommand)
	return b.String()
}

// Compare compares got with the golden file of the case named name. If they
// differ, it writes got to the git-ignored file expected/NAME.txt.got and
// returns a *MismatchError; if they match, it removes that file.
func Compare(name string, got []byte) error {
	d, err := dir()
	if err != nil {
		return err
	}
	return compare(d, name, got)
}

// compare is Compare with the golden files in dir.
func compare(dir, name string, got []byte) error {
	wantPath, gotPath := paths(dir, name)
	shortWant, shortGot := "expected/"+filepath.Base(wantPath), "expected/"+filepath.Base(gotPath)
	want, err := os.ReadFile(wantPath)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("golden file %s does not exist; generate it with: %s", shortWant, RegenerateCommand)
	}
	if err != nil {
		return fmt.Errorf("read golden file: %w", err)
	}
	if bytes.Equal(want, got) {
		if err := os.Remove(gotPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale output: %w", err)
		}
		return nil
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		return fmt.Errorf("keep the output for diff: %w", err)
	}
	wantLines, gotLines := lines(want), lines(got)
	n := firstDifference(wantLines, gotLines)
	return &MismatchError{
		Name:     name,
		Line:     n + 1,
		Want:     quotedLine(wantLines, n),
		Got:      quotedLine(gotLines, n),
		Diff:     cmp.Diff(wantLines, gotLines),
		WantPath: shortWant,
		GotPath:  shortGot,
	}
}

// Check compares got with the golden file of the case named name and fails
// t with Compare's report if they differ.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	if err := Compare(name, got); err != nil {
		t.Error(err)
	}
}

// lines splits text into lines, each with its line ending, so that a
// missing final newline or a "\r" shows in the report.
func lines(text []byte) []string {
	return strings.SplitAfter(string(text), "\n")
}

// firstDifference returns the index of the first line where a and b differ.
func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// quotedLine quotes line i with %q, so that a trailing space shows.
func quotedLine(lines []string, i int) string {
	if i >= len(lines) || (i == len(lines)-1 && lines[i] == "") {
		return "(end of file)"
	}
	return fmt.Sprintf("%q", lines[i])
}
