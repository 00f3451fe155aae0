package expected

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxStageLines is how many lines of Go, tests left out, a lab may add to
// the lab before it: the stage diff a learner reads is one idea, and the
// largest two, events and parallel tools (05) and steering (06), need
// about this many.
const maxStageLines = 900

// TestEachStageStaysOneIdea keeps each stage diff readable: every lab adds
// at most maxStageLines lines of non-test Go to the one before it, counted
// by a shortest line diff, as git diff --no-index --numstat labs/0N
// labs/0N+1 counts them (git's heuristics may count a line more or less).
func TestEachStageStaysOneIdea(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	labs, err := Labs()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(labs); i++ {
		before, after := filepath.Join(root, "labs", labs[i-1]), filepath.Join(root, "labs", labs[i])
		files, err := filepath.Glob(filepath.Join(after, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		added := 0
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a, err := os.ReadFile(filepath.Join(before, filepath.Base(file)))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			for _, e := range lineDiff(lines(a), lines(b)) {
				if e.op == '+' {
					added++
				}
			}
		}
		t.Logf("%s → %s: %d lines added", labs[i-1], labs[i], added)
		if added > maxStageLines {
			t.Errorf("%s adds %d lines, more than one idea's worth of code (%d) to %s", labs[i], added, maxStageLines, labs[i-1])
		}
	}
}
