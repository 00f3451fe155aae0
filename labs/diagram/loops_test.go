package diagram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestEachLoopNamesItsLabsCode checks that every name a box of a lab's
// loop chart gives as its code is in the lab's Go code, tests left out: a
// step's comment ("Step 4:"), a hook, a stop reason. A chart whose lab
// drops or renames what a box stands for fails here.
func TestEachLoopNamesItsLabsCode(t *testing.T) {
	root, err := expected.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, lab := range Labs() {
		files, err := filepath.Glob(filepath.Join(root, "labs", lab, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var code strings.Builder
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			code.Write(src)
		}
		names := Code(lab)
		if len(names) == 0 {
			t.Errorf("Code(%q) names nothing, want the code of the chart's boxes", lab)
		}
		for _, name := range names {
			if !strings.Contains(code.String(), name) {
				t.Errorf("the loop chart of %s names %s, which its Go code does not hold", lab, name)
			}
		}
	}
}

// TestWhatIsNewIsMarked checks the marks of lab 02's chart, whose steps 4
// and 5 and the way back to step 2 are what lab 01 lacks.
func TestWhatIsNewIsMarked(t *testing.T) {
	chart, err := Loop("02-loop")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"\n    class done,s4,s5 new\n", "\n    linkStyle 4,5,6 stroke:#e8590c,stroke-width:3px\n"} {
		if !strings.Contains(chart, line) {
			t.Errorf("lab 02's chart lacks the line %q; it is:\n%s", strings.Trim(line, "\n"), chart)
		}
	}
	first, err := Loop("01-no-loop")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(first, "new") {
		t.Errorf("lab 01's chart marks something new, want nothing marked: in the first lab, all is new; it is:\n%s", first)
	}
	if _, err := Loop("07-none"); err == nil {
		t.Errorf("Loop(%q): no error, want one", "07-none")
	}
}

// TestEveryLoopIsWellFormed checks every chart, line by line.
func TestEveryLoopIsWellFormed(t *testing.T) {
	for _, lab := range Labs() {
		chart, err := Loop(lab)
		if err != nil {
			t.Fatal(err)
		}
		wantWellFormed(t, "the loop chart of "+lab, chart)
	}
}
