package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper/steppertest"
)

// stepThrough runs the program with -html - and args, and reads the page
// it writes to standard output.
func stepThrough(t *testing.T, args ...string) *steppertest.Page {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), append([]string{"-html", "-"}, args...), &stdout, &stderr), "the program writes its page") {
		t.FailNow()
	}
	p, err := steppertest.Read(stdout.Bytes())
	if !expected.NoError(t, err, "the page reads back") {
		t.FailNow()
	}
	return p
}

// TestThePageShowsErrorsAsResults reads the page (-html): in part 2, each
// call that fails ends with an error result that enters the history, and
// the loop goes on; in part 3, the failed request ends the run after
// step 2, its reply in the history.
func TestThePageShowsErrorsAsResults(t *testing.T) {
	p := stepThrough(t)
	var part2, part3 []steppertest.Step
	for _, s := range p.Steps {
		switch {
		case strings.HasPrefix(s.Part, "part 2"):
			part2 = append(part2, s)
		case strings.HasPrefix(s.Part, "part 3"):
			part3 = append(part3, s)
		}
	}
	if !expected.NotEmpty(t, part2, "the page has a part 2") || !expected.NotEmpty(t, part3, "the page has a part 3") {
		return
	}
	batch := p.At(part2[len(part2)-1].N)
	expected.Equal(t, 9, len(batch.Calls), "part 2's calls, one lane each")
	errors := 0
	for _, c := range batch.Calls {
		expected.Equal(t, "past", c.State, "%s has ended", c.ID)
		if c.Result != "5" {
			errors++
		}
	}
	expected.Equal(t, 8, errors, "the calls of part 2 that end with an error result")
	expected.Equal(t, "✗ Tool weather not found", "✗ "+batch.Calls[1].Result, "the unknown tool's result")
	expected.Equal(t, 12, batch.Messages, "part 2's history: every result entered it")

	var loop []string
	for _, s := range part3 {
		loop = append(loop, s.Loop)
	}
	expected.Equal(t, []string{"1", "2", "3", "4", "5", "2", "failed", "end"}, loop, "part 3's steps: the second request fails")
	failed := p.At(part3[len(part3)-2].N)
	expected.Contains(t, failed.History[3].Text+part3[len(part3)-2].Detail, "503 Service Unavailable", "the failed request says why")
	expected.Equal(t, "the loop ends: 2 turns, stop reason error", part3[len(part3)-1].Label, "part 3's last step")
}
