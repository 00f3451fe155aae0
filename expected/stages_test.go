package expected

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
	labs, err := Labs()
	require.NoError(t, err)
	for i := 1; i < len(labs); i++ {
		before, after := filepath.Join(root, "labs", labs[i-1]), filepath.Join(root, "labs", labs[i])
		files, err := filepath.Glob(filepath.Join(after, "*.go"))
		require.NoError(t, err)
		added := 0
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			a, err := os.ReadFile(filepath.Join(before, filepath.Base(file)))
			if !os.IsNotExist(err) {
				require.NoError(t, err)
			}
			for _, e := range lineDiff(lines(a), lines(b)) {
				if e.op == '+' {
					added++
				}
			}
		}
		t.Logf("%s → %s: %d lines added", labs[i-1], labs[i], added)
		assert.LessOrEqual(t, added, maxStageLines, "%s adds more than one idea's worth of code to %s", labs[i], labs[i-1])
	}
}
