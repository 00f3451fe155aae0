package track

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// hintsOf gives hint once for each report in turn, as hint does when check
// reports it, and returns what each printed.
func hintsOf(t *testing.T, wb *workbook, lab *Lab, reports ...*report) []string {
	t.Helper()
	var out []string
	for _, r := range reports {
		var b strings.Builder
		s := &session{wb: wb, out: newPrinter(&b, English, false), errOut: newPrinter(io.Discard, English, false)}
		if err := s.hintFor(lab, r); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.String())
	}
	return out
}

// TestHintFollowsTheMistake checks that hint's count is per mistake, not
// per rule: a typical mistake gets its own hints, from its first; a new
// mistake on the same rule starts at its own first hint; the same mistake
// checked again gets the next hint; once the rule passes, its counts start
// again.
func TestHintFollowsTheMistake(t *testing.T) {
	lab := labOf(t, "03-maxturns")
	wb := testWorkbook(t, false)
	if err := os.MkdirAll(wb.work, 0o755); err != nil {
		t.Fatal(err)
	}
	rule := lab.Exercises[0].Rules[0]
	said := func(message, want, got string) *finding {
		return &finding{test: rule.Test, found: []reported{{at: "main_test.go:248", Finding: expected.Finding{Message: message, Want: want, Got: got}}}}
	}
	// Two typical mistakes of the first rule, as check shows them.
	late := said("requests sent: a limit of 3 allows 3 turns, one request each", "3", "4")
	never := &finding{test: rule.Test, found: []reported{{at: "loop.go:65", Finding: expected.Finding{
		Message: "the loop did not end after 4 turns: with a limit of 3, does the loop check the limit before each request?"}}}}
	// Two mistakes of the learner's own: the first rule's test says two
	// other things.
	mine := said("the history holds 7 messages: the prompt, then a reply and a result per turn", "7 messages", "5 messages")
	other := said("Result.Turns counts the turns that ran, one per request (requests sent: 3, Result.Turns: 2): a limit of 3 allows 3 turns", "3", "2")
	mLate, mNever := lab.mistakeIn(rule.Test, late), lab.mistakeIn(rule.Test, never)
	if mLate == nil || mNever == nil || mLate == mNever {
		t.Fatalf("the two typical mistakes of the first rule are seen as %v and %v, want each as itself", mLate, mNever)
	}
	if m := lab.mistakeIn(rule.Test, mine); m != nil {
		t.Fatalf("a mistake of the learner's own is seen as the typical mistake %q", m.Name)
	}

	got := hintsOf(t, wb, lab,
		reportOf(lab, 0, 0, late), reportOf(lab, 0, 0, late),
		reportOf(lab, 0, 0, never),
		reportOf(lab, 0, 0, mine), reportOf(lab, 0, 0, other), reportOf(lab, 0, 0, mine))
	for i, want := range []struct {
		n, of int
		hint  string
	}{
		{1, len(mLate.Hints) + 1, firstLine(mLate.Hints[0].EN)},
		{2, len(mLate.Hints) + 1, firstLine(mLate.Hints[1].EN)},
		{1, len(mNever.Hints) + 1, firstLine(mNever.Hints[0].EN)},
		{1, len(rule.Hints) + 1, firstLine(rule.Hints[0].EN)},
		{1, len(rule.Hints) + 1, firstLine(rule.Hints[0].EN)},
		{2, len(rule.Hints) + 1, firstLine(rule.Hints[1].EN)},
	} {
		wantContains(t, got[i], fmt.Sprintf("Hint %d of %d, for the broken rule of exercise 1 (1 of %d)", want.n, want.of, len(lab.Exercises[0].Rules)), "hint %d", i+1)
		wantContains(t, got[i], "\n  "+want.hint+"\n", "hint %d", i+1)
	}

	// Once the rule passes, every count of it starts again.
	if len(wb.loadState().Hints[lab.Name]) != 4 {
		t.Fatalf("the state counts %v, want four mistakes", wb.loadState().Hints[lab.Name])
	}
	passed := reportOf(lab, 0, 1, &finding{test: lab.Exercises[0].Rules[1].Test, why: msgNoMessage})
	if err := wb.forgetPassed([]*report{passed}); err != nil {
		t.Fatal(err)
	}
	if left := wb.loadState().Hints[lab.Name]; len(left) != 0 {
		t.Errorf("the state still counts %v once the rule passes, want nothing", left)
	}
}

// TestHintAnswersFromTheLastCheck checks that hint answers from what check
// last found while the copy is as it was: without go test, which a
// cancelled context would stop. Once a file changes, or the lab starts
// over, hint asks go test again.
func TestHintAnswersFromTheLastCheck(t *testing.T) {
	lab := labOf(t, "02-loop")
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir(lab.Name)
	rule := lab.Exercises[0].Rules[2]
	r := reportOf(lab, 0, 2, &finding{test: rule.Test, why: msgNoMessage})
	r.dir = dir
	if err := wb.remember(lab, wb.digest(lab, dir), choose(lab, r)); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	hint := func() (string, error) {
		var b strings.Builder
		s := &session{wb: wb, out: newPrinter(&b, English, false), errOut: newPrinter(io.Discard, English, false)}
		err := s.hint(cancelled, lab)
		return b.String(), err
	}
	out, err := hint()
	if err != nil {
		t.Fatalf("hint on an unchanged copy: %v, want the hint of check's report, without go test", err)
	}
	wantContains(t, out, "Hint 1 of", "hint on an unchanged copy")
	wantContains(t, out, "(3 of 9): "+rule.Text.EN, "hint on an unchanged copy: the rule check reported")

	// The golden tests' output and an editor's backup are not the copy.
	writeFile(t, filepath.Join(dir, "loop.go~"), []byte("backup"), 0o644)
	if out, err = hint(); err != nil {
		t.Errorf("hint after an editor's backup was written: %v, want the hint of check's report", err)
	}
	wantContains(t, out, "Hint 2 of", "hint again")

	loop := filepath.Join(dir, "loop.go")
	writeFile(t, loop, append(readFile(t, loop), "\n// a change\n"...), 0o644)
	if _, err := hint(); err == nil {
		t.Error("hint after a change answers from check's last report, want it to run go test again")
	}
	if _, ok := wb.lastChoice(lab, dir); ok {
		t.Error("check's last report is kept for a copy that changed since")
	}

	if err := wb.remember(lab, wb.digest(lab, dir), choose(lab, r)); err != nil {
		t.Fatal(err)
	}
	if err := wb.forgetLab(lab.Name); err != nil {
		t.Fatal(err)
	}
	if _, ok := wb.lastChoice(lab, dir); ok {
		t.Error("check's last report is kept after the lab starts over")
	}
}

// TestHintSaysHowAChoiceIsStale checks that a kept choice that names what
// the lab no longer has is not given: hint asks go test again.
func TestHintSaysHowAChoiceIsStale(t *testing.T) {
	lab := labOf(t, "02-loop")
	wb := testWorkbook(t, false)
	s := &session{wb: wb, out: newPrinter(io.Discard, English, false), errOut: newPrinter(io.Discard, English, false)}
	for _, c := range []hintChoice{
		{Kind: hintRule, Exercise: "no-such-exercise"},
		{Kind: hintRule, Exercise: lab.Exercises[0].ID, Rule: 99},
		{Kind: hintMistake, Exercise: lab.Exercises[0].ID, Mistake: "no such mistake"},
		{Kind: hintCode, Exercise: lab.Exercises[0].ID, Region: "nowhere.go#x"},
		{Kind: hintStuck, Exercise: lab.Exercises[0].ID, Stuck: "nohow"},
	} {
		if err := s.give(lab, wb.copyDir(lab.Name), c); err != errStaleChoice {
			t.Errorf("a choice %+v gives %v, want errStaleChoice", c, err)
		}
	}
}

// TestTheDigestIsTheCopysCode checks what hint compares to tell whether the
// copy changed since check: its files, but the golden tests' output and
// editors' files.
func TestTheDigestIsTheCopysCode(t *testing.T) {
	lab := labOf(t, "02-loop")
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir(lab.Name)
	before := wb.digest(lab, dir)
	if before == "" || before != wb.digest(lab, dir) {
		t.Fatalf("the digest of an unchanged copy is %q, then %q, want one that stays", before, wb.digest(lab, dir))
	}
	writeFile(t, filepath.Join(dir, "testdata.got"), []byte("x"), 0o644)
	writeFile(t, filepath.Join(dir, ".loop.go.swp"), []byte("x"), 0o644)
	if wb.digest(lab, dir) != before {
		t.Error("a golden test's output or an editor's file changes the digest, want it not to")
	}
	writeFile(t, filepath.Join(dir, "mine.go"), []byte("package main\n"), 0o644)
	if wb.digest(lab, dir) == before {
		t.Error("a file the learner added leaves the digest as it was, want it changed")
	}
}
