package diagram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEachLoopNamesItsLabsCode checks that every name a box of a lab's
// loop chart gives as its code is in the lab's Go code, tests left out: a
// step's comment ("Step 4:"), a hook, a stop reason. A chart whose lab
// drops or renames what a box stands for fails here.
func TestEachLoopNamesItsLabsCode(t *testing.T) {
	root, err := expected.Root()
	require.NoError(t, err)
	for _, lab := range Labs() {
		files, err := filepath.Glob(filepath.Join(root, "labs", lab, "*.go"))
		require.NoError(t, err)
		var code strings.Builder
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			code.Write(src)
		}
		names := Code(lab)
		assert.NotEmpty(t, names, lab)
		for _, name := range names {
			assert.True(t, strings.Contains(code.String(), name), "the loop chart of %s names %s, which its Go code does not hold", lab, name)
		}
	}
}

// TestWhatIsNewIsMarked checks the marks of lab 02's chart, whose steps 4
// and 5 and the way back to step 2 are what lab 01 lacks.
func TestWhatIsNewIsMarked(t *testing.T) {
	chart, err := Loop("02-loop")
	require.NoError(t, err)
	assert.Contains(t, chart, "\n    class done,s4,s5 new\n")
	assert.Contains(t, chart, "\n    linkStyle 4,5,6 stroke:#e8590c,stroke-width:3px\n")
	first, err := Loop("01-no-loop")
	require.NoError(t, err)
	assert.NotContains(t, first, "new", "in the first lab, all is new, so nothing is marked")
	_, err = Loop("07-none")
	assert.Error(t, err)
}

// TestEveryLoopIsWellFormed checks every chart, line by line.
func TestEveryLoopIsWellFormed(t *testing.T) {
	for _, lab := range Labs() {
		chart, err := Loop(lab)
		require.NoError(t, err)
		assert.Empty(t, wellFormed(chart), lab)
	}
}
