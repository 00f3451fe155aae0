package track

import (
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestALearnersWayThroughLab02 goes through lab 02 as a learner does:
// start, check the starter, take two hints, write the solution, check
// again, and look at the table of contents. It runs go test on the copy, so
// it skips where the verification does.
func TestALearnersWayThroughLab02(t *testing.T) {
	expected.Verification(t)
	if raceEnabled || testing.Short() {
		t.Skip("runs go test on a copy of lab 02, as TestVerify does")
	}
	t.Parallel() // beside TestVerify, whose go commands leave a core idle at times
	wb := testWorkbook(t, true)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)

	title := labOf(t, "02-loop").Exercises[0].Title.EN
	code := string(labOf(t, "02-loop").Exercises[0].Regions[0].Code)
	res := runCommand(t, wb, "check", "02")
	assert.Equal(t, 1, res.status)
	assert.LessOrEqual(t, strings.Count(res.stdout, "\n"), 40, res.stdout)
	assert.Contains(t, res.stdout, "✗ exercise 1: "+title)
	assert.Contains(t, res.stdout, fmt.Sprintf("broken rule (1 of %d): steps 1 and 2: the first request holds the prompt, and offers the tools", len(labOf(t, "02-loop").Exercises[0].Rules)))
	assert.Contains(t, res.stdout, "runLoop", "what the starter's code does, as the test saw it")
	assert.Contains(t, res.stdout, "Next: write exercise 1 at the "+labOf(t, "02-loop").Exercises[0].Regions[0].ID+" markers in "+wb.rel(wb.copyDir("02-loop"))+"/loop.go")
	assert.NotContains(t, res.stdout, "Error Trace")

	// hint gives the hints of the rule check names, one more each time,
	// then points to the lab's lines.
	lab := labOf(t, "02-loop")
	rule, region := lab.Exercises[0].Rules[0], lab.Exercises[0].Regions[0]
	ruleHints, codeHints := len(rule.Hints)+1, len(region.Hints)+1
	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, 0, res.status)
	assert.Contains(t, res.stdout, fmt.Sprintf("Hint 1 of %d, for the broken rule of exercise 1 (1 of %d): %s\n", ruleHints, len(lab.Exercises[0].Rules), rule.Text.EN))
	assert.Contains(t, res.stdout, "\n  "+firstLine(rule.Hints[0].EN))
	for range ruleHints + 1 {
		res = runCommand(t, wb, "hint", "02")
	}
	assert.Contains(t, res.stdout, fmt.Sprintf("Hint %d of %d,", ruleHints, ruleHints))
	assert.Contains(t, res.stdout, "labs/02-loop/loop.go:", "the last hint points to the lab's lines")
	assert.Contains(t, res.stdout, "That is the last hint.")

	// Code that does not compile gets the hints of the code where its
	// first error is; an error elsewhere gets none.
	loop := filepath.Join(wb.copyDir("02-loop"), "loop.go")
	starter, err := os.ReadFile(loop)
	require.NoError(t, err)
	codeHint := fmt.Sprintf("for the code of exercise 1 (%s) in %s:\n", lab.Exercises[0].Title.EN, wb.rel(loop))
	require.NoError(t, os.WriteFile(loop, []byte(strings.Replace(string(starter), "// exercise: run-loop\n", "// exercise: run-loop\n\tnotYetWritten()\n", 1)), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, 0, res.status, res.stdout)
	assert.Contains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n")
	assert.Contains(t, res.stdout, fmt.Sprintf("Hint 1 of %d, ", codeHints)+codeHint)
	assert.Contains(t, res.stdout, "\n  "+firstLine(region.Hints[0].EN))
	res = runCommand(t, wb, "check", "02")
	assert.Contains(t, res.stdout, "Next: fix the first error above. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n  go run ./labs hint 02-loop")
	// So does code that go vet finds a mistake in.
	require.NoError(t, os.WriteFile(loop, []byte(strings.Replace(string(starter), "// exercise: run-loop\n", "// exercise: run-loop\n\tfmt.Printf(\"%d\\n\", \"not a number\")\n", 1)), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, 0, res.status, res.stdout)
	assert.Contains(t, res.stdout, "go vet, which go test runs first, finds a mistake in your code: go run ./labs check 02-loop shows it. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n")
	assert.Contains(t, res.stdout, fmt.Sprintf("Hint %d of %d, ", min(2, codeHints), codeHints)+codeHint, "one more hint about the same code")
	// An error outside the region that the code in it caused: the
	// learner's code no longer uses an import.
	unused := strings.Replace(string(starter), code, "return Result{}, nil", 1)
	require.NotEqual(t, string(starter), unused)
	require.NoError(t, os.WriteFile(loop, []byte(unused), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, 0, res.status, res.stdout)
	assert.Contains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in "+wb.rel(loop)+", outside the code of exercise 1; what you wrote in that file is the likely cause, such as an import it no longer uses.\n")
	assert.Contains(t, res.stdout, codeHint)
	// go vet's finding outside the region says so too.
	require.NoError(t, os.WriteFile(loop, append(slices.Clip(starter), "\nfunc vetMe() { fmt.Printf(\"%d\\n\", \"x\") }\n"...), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Contains(t, res.stdout, "go vet, which go test runs first, finds a mistake in your code: go run ./labs check 02-loop shows it. The first is in "+wb.rel(loop)+", outside the code of exercise 1;")
	// Without the markers, hint cannot tell where in the file the error is.
	unmarked := strings.NewReplacer("// exercise: run-loop\n", "notYetWritten()\n", "// end of exercise: run-loop\n", "").Replace(string(starter))
	require.NoError(t, os.WriteFile(loop, []byte(unmarked), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Contains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in "+wb.rel(loop)+", a file of exercise 1; its markers there are gone, so where exactly is for you to see.\n")
	require.NoError(t, os.WriteFile(loop, starter, 0o644))
	print := filepath.Join(wb.copyDir("02-loop"), "print.go")
	printSrc, err := os.ReadFile(print)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(print, append(slices.Clip(printSrc), "\nfunc broken() { notYetWritten() }\n"...), 0o644))
	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, "Its first error is in no file of an exercise, so no hint fits it.")
	res = runCommand(t, wb, "check", "02")
	assert.Contains(t, res.stdout, "Next: fix the first error above, then go run ./labs check 02-loop again.\n")
	require.NoError(t, os.WriteFile(print, printSrc, 0o644))

	res = runCommand(t, wb)
	assert.Contains(t, res.stdout, "✗ exercise 1: "+title+": steps 1 and 2")
	assert.Contains(t, res.stdout, "Next: go run ./labs check 02-loop")

	solution, err := os.ReadFile(filepath.Join(wb.labDir("02-loop"), "loop.go"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(wb.copyDir("02-loop"), "loop.go"), solution, 0o644))
	began := time.Now()
	res = runCommand(t, wb, "check", "02")
	t.Logf("check of the solved lab took %s", time.Since(began).Round(10*time.Millisecond))
	assert.Equal(t, 0, res.status, res.stdout)
	assert.Contains(t, res.stdout, "✓ exercise 1: "+title+"\n✓ the lab's other tests\n✓ your output matches the lab's, byte for byte\n")
	assert.Contains(t, res.stdout, "Next: go run ./labs start 03-maxturns\n", "the next lab, not yet started")
	assert.Empty(t, wb.loadState().Hints["02-loop"], "a passing exercise's hints start again")

	res = runCommand(t, wb, "hint", "02")
	assert.Equal(t, "Every exercise of 02-loop passes: no hint needed.\n", res.stdout)

	res = runCommand(t, wb)
	assert.Equal(t, 0, res.status)
	assert.Contains(t, res.stdout, "✓ exercise 1: "+title+"\n")
	assert.NotContains(t, res.stdout, "Next: go run ./labs check 02-loop")

	// The copy holds no trace of the golden tests: they passed.
	_, err = os.Stat(filepath.Join(wb.copyDir("02-loop"), "testdata"))
	assert.True(t, os.IsNotExist(err))

	// Output that is not the lab's: the golden test compares with the lab's
	// output, never advises regenerating it, and keeps the learner's in
	// the copy.
	src, err := os.ReadFile(print)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(print, []byte(strings.Replace(string(src), `"answer:"`, `"answer: "`, 1)), 0o644))
	res = runCommand(t, wb, "check", "02")
	assert.Equal(t, 1, res.status)
	assert.LessOrEqual(t, strings.Count(res.stdout, "\n"), 40, res.stdout)
	assert.Contains(t, res.stdout, "✗ your output matches the lab's, byte for byte (TestOutputMatchesGoldenFile/02-loop)")
	assert.Contains(t, res.stdout, "your output differs from the lab's at line 7")
	assert.Contains(t, res.stdout, `yours:     "answer:  23 × 17 = 391.\n"`)
	assert.NotContains(t, res.stdout, "regenerate")
	assert.FileExists(t, filepath.Join(wb.copyDir("02-loop"), "testdata", "02-loop.txt.got"))
	assert.NoFileExists(t, filepath.Join(wb.root, "expected", "02-loop.txt.got"), "nothing is written into expected/")
}
