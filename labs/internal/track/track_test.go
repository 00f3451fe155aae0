package track

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
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
	startLab(t, wb, "02")

	title := labOf(t, "02-loop").Exercises[0].Title.EN
	code := string(labOf(t, "02-loop").Exercises[0].Regions[0].Code)
	res := runCommand(t, wb, "check", "02")
	wantStatus(t, res, 1)
	wantAtMost40Lines(t, res)
	wantContains(t, res.stdout, "✗ exercise 1: "+title, "%s: standard output", res)
	wantContains(t, res.stdout, fmt.Sprintf("broken rule (1 of %d): steps 1 and 2: the first request holds the prompt, and offers the tools", len(labOf(t, "02-loop").Exercises[0].Rules)), "%s: standard output", res)
	wantContains(t, res.stdout, "runLoop", "%s: what the starter's code does, as the test saw it", res)
	wantContains(t, res.stdout, "Next: write exercise 1 at the "+labOf(t, "02-loop").Exercises[0].Regions[0].ID+" markers in "+wb.rel(wb.copyDir("02-loop"))+"/loop.go", "%s: standard output", res)
	wantNotContains(t, res.stdout, "Error Trace", "%s: standard output", res)

	// hint gives the hints of the rule check names, one more each time,
	// then points to the lab's lines.
	lab := labOf(t, "02-loop")
	rule, region := lab.Exercises[0].Rules[0], lab.Exercises[0].Regions[0]
	ruleHints, codeHints := len(rule.Hints)+1, len(region.Hints)+1
	res = runCommand(t, wb, "hint", "02")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, fmt.Sprintf("Hint 1 of %d, for the broken rule of exercise 1 (1 of %d): %s\n", ruleHints, len(lab.Exercises[0].Rules), rule.Text.EN), "%s: standard output", res)
	wantContains(t, res.stdout, "\n  "+firstLine(rule.Hints[0].EN), "%s: standard output", res)
	for range ruleHints + 1 {
		res = runCommand(t, wb, "hint", "02")
	}
	wantContains(t, res.stdout, fmt.Sprintf("Hint %d of %d,", ruleHints, ruleHints), "%s, once more than there are hints", res)
	wantContains(t, res.stdout, "labs/02-loop/loop.go:", "%s: the last hint points to the lab's lines", res)
	wantContains(t, res.stdout, "That is the last hint.", "%s, once more than there are hints", res)

	// Code that does not compile gets the hints of the code where its
	// first error is; an error elsewhere gets none.
	loop := filepath.Join(wb.copyDir("02-loop"), "loop.go")
	starter := readFile(t, loop)
	codeHint := fmt.Sprintf("for the code of exercise 1 (%s) in %s:\n", lab.Exercises[0].Title.EN, wb.rel(loop))
	writeFile(t, loop, []byte(strings.Replace(string(starter), "// exercise: run-loop\n", "// exercise: run-loop\n\tnotYetWritten()\n", 1)), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n", "%s on code that does not compile", res)
	wantContains(t, res.stdout, fmt.Sprintf("Hint 1 of %d, ", codeHints)+codeHint, "%s on code that does not compile", res)
	wantContains(t, res.stdout, "\n  "+firstLine(region.Hints[0].EN), "%s on code that does not compile", res)
	res = runCommand(t, wb, "check", "02")
	wantContains(t, res.stdout, "Next: fix the first error above. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n  go run ./labs hint 02-loop", "%s on code that does not compile", res)
	// So does code that go vet finds a mistake in.
	writeFile(t, loop, []byte(strings.Replace(string(starter), "// exercise: run-loop\n", "// exercise: run-loop\n\tfmt.Printf(\"%d\\n\", \"not a number\")\n", 1)), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "go vet, which go test runs first, finds a mistake in your code: go run ./labs check 02-loop shows it. The first is in the code of exercise 1, in "+wb.rel(loop)+".\n", "%s on code that go vet finds a mistake in", res)
	wantContains(t, res.stdout, fmt.Sprintf("Hint %d of %d, ", min(2, codeHints), codeHints)+codeHint, "%s: one more hint about the same code", res)
	// An error outside the region that the code in it caused: the
	// learner's code no longer uses an import.
	unused := strings.Replace(string(starter), code, "return Result{}, nil", 1)
	if unused == string(starter) {
		t.Fatalf("loop.go does not hold the starter's code %q", code)
	}
	writeFile(t, loop, []byte(unused), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in "+wb.rel(loop)+", outside the code of exercise 1; what you wrote in that file is the likely cause, such as an import it no longer uses.\n", "%s on an import no longer used", res)
	wantContains(t, res.stdout, codeHint, "%s on an import no longer used", res)
	// go vet's finding outside the region says so too.
	writeFile(t, loop, append(slices.Clip(starter), "\nfunc vetMe() { fmt.Printf(\"%d\\n\", \"x\") }\n"...), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantContains(t, res.stdout, "go vet, which go test runs first, finds a mistake in your code: go run ./labs check 02-loop shows it. The first is in "+wb.rel(loop)+", outside the code of exercise 1;", "%s on go vet's finding outside the region", res)
	// Without the markers, hint cannot tell where in the file the error is.
	unmarked := strings.NewReplacer("// exercise: run-loop\n", "notYetWritten()\n", "// end of exercise: run-loop\n", "").Replace(string(starter))
	writeFile(t, loop, []byte(unmarked), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantContains(t, res.stdout, "Your code does not compile yet: go run ./labs check 02-loop shows the compiler's errors. The first is in "+wb.rel(loop)+", a file of exercise 1; its markers there are gone, so where exactly is for you to see.\n", "%s without the markers", res)
	writeFile(t, loop, starter, 0o644)
	print := filepath.Join(wb.copyDir("02-loop"), "print.go")
	printSrc := readFile(t, print)
	writeFile(t, print, append(slices.Clip(printSrc), "\nfunc broken() { notYetWritten() }\n"...), 0o644)
	res = runCommand(t, wb, "hint", "02")
	wantStatus(t, res, 1)
	wantContains(t, res.stdout, "Its first error is in no file of an exercise, so no hint fits it.", "%s on an error in print.go", res)
	res = runCommand(t, wb, "check", "02")
	wantContains(t, res.stdout, "Next: fix the first error above, then go run ./labs check 02-loop again.\n", "%s on an error in print.go", res)
	writeFile(t, print, printSrc, 0o644)

	res = runCommand(t, wb)
	wantContains(t, res.stdout, "✗ exercise 1: "+title+": steps 1 and 2", "%s: the table of contents", res)
	wantContains(t, res.stdout, "Next: go run ./labs check 02-loop", "%s: the table of contents", res)

	solution := readFile(t, filepath.Join(wb.labDir("02-loop"), "loop.go"))
	writeFile(t, filepath.Join(wb.copyDir("02-loop"), "loop.go"), solution, 0o644)
	began := time.Now()
	res = runCommand(t, wb, "check", "02")
	t.Logf("check of the solved lab took %s", time.Since(began).Round(10*time.Millisecond))
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "✓ exercise 1: "+title+"\n✓ the lab's other tests\n✓ your output matches the lab's, byte for byte\n", "%s of the solved lab", res)
	wantContains(t, res.stdout, "Next: go run ./labs start 03-maxturns\n", "%s: the next lab, not yet started", res)
	if hints := wb.loadState().Hints["02-loop"]; len(hints) != 0 {
		t.Errorf("the hints taken in 02-loop are %v, want none: a passing exercise's hints start again", hints)
	}

	res = runCommand(t, wb, "hint", "02")
	if want := "Every exercise of 02-loop passes: no hint needed.\n"; res.stdout != want {
		t.Errorf("%s of the solved lab: standard output is %q, want %q", res, res.stdout, want)
	}

	res = runCommand(t, wb)
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "✓ exercise 1: "+title+"\n", "%s: the table of contents", res)
	wantNotContains(t, res.stdout, "Next: go run ./labs check 02-loop", "%s: the table of contents", res)

	// The copy holds no trace of the golden tests: they passed.
	if _, err := os.Stat(filepath.Join(wb.copyDir("02-loop"), "testdata")); !os.IsNotExist(err) {
		t.Errorf("the copy of the solved lab has testdata/ (%v), want none: the golden tests passed", err)
	}

	// Output that is not the lab's: the golden test compares with the lab's
	// output, never advises regenerating it, and keeps the learner's in
	// the copy.
	src := readFile(t, print)
	writeFile(t, print, []byte(strings.Replace(string(src), `"answer:"`, `"answer: "`, 1)), 0o644)
	res = runCommand(t, wb, "check", "02")
	wantStatus(t, res, 1)
	wantAtMost40Lines(t, res)
	wantContains(t, res.stdout, "✗ your output matches the lab's, byte for byte (TestOutputMatchesGoldenFile/02-loop)", "%s with output that is not the lab's", res)
	wantContains(t, res.stdout, "your output differs from the lab's at line 7", "%s with output that is not the lab's", res)
	wantContains(t, res.stdout, `yours:     "answer:  23 × 17 = 391.\n"`, "%s with output that is not the lab's", res)
	wantNotContains(t, res.stdout, "regenerate", "%s with output that is not the lab's", res)
	wantFile(t, filepath.Join(wb.copyDir("02-loop"), "testdata", "02-loop.txt.got"), "the learner's output is kept in the copy")
	wantNoFile(t, filepath.Join(wb.root, "expected", "02-loop.txt.got"), "nothing is written into expected/")
}

// wantAtMost40Lines checks that a command prints at most 40 lines, as
// check must.
func wantAtMost40Lines(t *testing.T, res result) {
	t.Helper()
	if n := strings.Count(res.stdout, "\n"); n > 40 {
		t.Errorf("%s prints %d lines, want at most 40:\n%s", res, n, res.stdout)
	}
}
