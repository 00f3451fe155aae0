package expected

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// KeepErr says why the output could not be written to GotPath, on a
	// read-only checkout for instance; the mismatch stands all the same.
	KeepErr error
	// Copy marks a learner's copy of a lab (in _mywork/): the report then
	// compares with "the lab's" output and never advises regenerating the
	// golden files, which would overwrite the answer.
	Copy bool
}

// Error reports the mismatch the way a test failure shows it.
func (e *MismatchError) Error() string {
	var b strings.Builder
	if e.Copy {
		fmt.Fprintf(&b, "your output differs from the lab's at line %d\n", e.Line)
		fmt.Fprintf(&b, "  the lab's: %s\n", e.Want)
		fmt.Fprintf(&b, "  yours:     %s\n", e.Got)
		fmt.Fprintf(&b, "line diff (-the lab's +yours):\n%s", e.Diff)
		if e.KeepErr != nil {
			fmt.Fprintf(&b, "your output could not be kept: %v", e.KeepErr)
		} else {
			fmt.Fprintf(&b, "your output is in %s; compare with: diff -u %s %s", e.GotPath, e.WantPath, e.GotPath)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "output differs from %s at line %d\n", e.WantPath, e.Line)
	fmt.Fprintf(&b, "  want: %s\n", e.Want)
	fmt.Fprintf(&b, "   got: %s\n", e.Got)
	fmt.Fprintf(&b, "line diff (-%s +output):\n%s", e.WantPath, e.Diff)
	if e.KeepErr != nil {
		fmt.Fprintf(&b, "the output could not be kept: %v\n", e.KeepErr)
	} else {
		fmt.Fprintf(&b, "the output is in %s; compare with: diff -u %s %s\n", e.GotPath, e.WantPath, e.GotPath)
	}
	fmt.Fprintf(&b, "if the change is intended, regenerate the golden files: %s", RegenerateCommand)
	return b.String()
}

// Compare compares got with the golden file of the case named name. If they
// differ, it writes got to the git-ignored file expected/NAME.txt.got and
// returns a *MismatchError; if they match, it removes that file. Where
// nothing can be written, a read-only checkout for instance, the comparison
// works all the same: the mismatch is reported without the file.
func Compare(name string, got []byte) error {
	g, err := labGolden(name)
	if err != nil {
		return err
	}
	return g.compare(got)
}

// Check compares got with the golden file of the case named name and fails
// t with the report if they differ.
//
// In a lab's own test, under labs/, it is [Compare]. In a test of a copy of
// the lab, such as a learner's in _mywork/NN-name, the report says "your output
// differs from the lab's", never advises regenerating the golden files, and
// keeps the output inside the copy, in testdata/NAME.txt.got, not in
// expected/.
//
// A lab's tests compare the same output twice: run's, in
// TestOutputMatchesGoldenFile, and the real program's, in TestProgram. The
// second report of the same difference is one line that points to the
// first.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	g, err := testGolden(name)
	check(t, g, err, got)
}

// check is Check with the comparison g, or the error that kept Check from
// making one.
func check(t testing.TB, g golden, err error, got []byte) {
	t.Helper()
	name := g.name
	if err == nil {
		err = g.compare(got)
	}
	var mismatch *MismatchError
	if errors.As(err, &mismatch) {
		if first := reported.first(name, got, t.Name()); first != t.Name() {
			t.Errorf("%s: the same difference as in %s, above", name, first)
			return
		}
	}
	if err != nil {
		t.Errorf("%v", err)
	}
}

// reported remembers the differences Check has reported in this test
// binary.
var reported = &reports{by: map[string]string{}}

// reports maps a case's name and output to the test that reported them
// first.
type reports struct {
	mu sync.Mutex
	by map[string]string
}

// first returns the test that reported this output of the case first: test
// itself, if none did before.
func (r *reports) first(name string, got []byte, test string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := name + "\x00" + string(got)
	if first, ok := r.by[key]; ok {
		return first
	}
	r.by[key] = test
	return test
}

// A golden names the files of one comparison: the golden file, and where
// the output goes on a mismatch, each by its path and by its path from the
// repository root, which the report shows.
type golden struct {
	name                string
	wantPath, gotPath   string
	shortWant, shortGot string
	inCopy              bool // in a copy of a lab: see MismatchError.Copy
}

// labGolden is the comparison of a lab's own output: the actual output goes
// beside the golden file.
func labGolden(name string) (golden, error) {
	d, err := dir()
	if err != nil {
		return golden{}, err
	}
	return goldenIn(d, d, "expected", "expected", name, false), nil
}

// testGolden is the comparison for the test that is running: labGolden in a
// lab's own directory, and in a copy of a lab the actual output goes to the
// copy's testdata directory.
func testGolden(name string) (golden, error) {
	d, err := dir()
	if err != nil {
		return golden{}, err
	}
	root, err := Root()
	if err != nil {
		return golden{}, err
	}
	start, err := startDir()
	if err != nil {
		return golden{}, err
	}
	if !isCopy(root, start) {
		return labGolden(name)
	}
	rel, err := filepath.Rel(root, start)
	if err != nil {
		return golden{}, fmt.Errorf("find the test's directory: %w", err)
	}
	keep := filepath.Join(start, "testdata")
	return goldenIn(d, keep, "expected", filepath.ToSlash(filepath.Join(rel, "testdata")), name, true), nil
}

// goldenIn is the comparison of the case named name whose golden file is in
// wantDir and whose output is kept in gotDir; shortWantDir and shortGotDir
// are the same directories as the report names them.
func goldenIn(wantDir, gotDir, shortWantDir, shortGotDir, name string, inCopy bool) golden {
	file := FileName(name)
	return golden{
		name:      name,
		wantPath:  filepath.Join(wantDir, file),
		gotPath:   filepath.Join(gotDir, file+".got"),
		shortWant: shortWantDir + "/" + file,
		shortGot:  shortGotDir + "/" + file + ".got",
		inCopy:    inCopy,
	}
}

// compare compares got with the golden file. A stale output file that
// cannot be removed, or an output that cannot be kept, does not stop the
// comparison: checking must work on a read-only checkout.
func (g golden) compare(got []byte) error {
	want, err := os.ReadFile(g.wantPath)
	if errors.Is(err, os.ErrNotExist) {
		if g.inCopy {
			return fmt.Errorf("the lab's output %s does not exist: is your copy of the repository complete?", g.shortWant)
		}
		return fmt.Errorf("golden file %s does not exist; generate it with: %s", g.shortWant, RegenerateCommand)
	}
	if err != nil {
		return fmt.Errorf("read golden file: %w", err)
	}
	if bytes.Equal(want, got) {
		if _, err := os.Lstat(g.gotPath); err == nil {
			_ = os.Remove(g.gotPath) // best effort: the output matches, stale or not
		}
		return nil
	}
	wantLines, gotLines := lines(want), lines(got)
	n := firstDifference(wantLines, gotLines)
	mismatch := &MismatchError{
		Name:     g.name,
		Line:     n + 1,
		Want:     quotedLine(wantLines, n),
		Got:      quotedLine(gotLines, n),
		WantPath: g.shortWant,
		GotPath:  g.shortGot,
		Copy:     g.inCopy,
	}
	if g.inCopy {
		mismatch.Diff = shortDiff(string(want), string(got))
	} else {
		mismatch.Diff = cmp.Diff(wantLines, gotLines)
	}
	if err := keep(g.gotPath, got); err != nil {
		mismatch.KeepErr = err
		mismatch.GotPath = ""
	}
	return mismatch
}

// keep writes the output to path, creating its directory if need be.
func keep(path string, got []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, got, 0o644)
}

// shortDiffLines is how many lines of diff a learner's report shows.
const shortDiffLines = 12

// shortDiff is the start of a unified diff of want and got, without its
// file names: enough to see the first differences in a test failure.
func shortDiff(want, got string) string {
	// The lines of got beyond want's and the report's length cannot show in
	// it: leave them out of the diff, whose work grows with both texts, so
	// that the output of a loop that never ends is reported at once.
	w, g := splitLines(want), splitLines(got)
	shown := g[:min(len(g), len(w)+shortDiffLines)]
	hunks := unified(lineDiff(w, shown), 2)
	text := strings.Join(hunks, "")
	diffLines := strings.SplitAfter(text, "\n")
	if len(diffLines) > shortDiffLines+1 {
		more := fmt.Sprintf("%d more", len(diffLines)-1-shortDiffLines)
		if len(shown) < len(g) {
			more = "more than " + more
		}
		return strings.Join(diffLines[:shortDiffLines], "") + fmt.Sprintf("… %s lines of diff\n", more)
	}
	return text
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
