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

// lastOfPart returns the number of the last step of the part whose heading
// starts with prefix.
func lastOfPart(t *testing.T, p *steppertest.Page, prefix string) int {
	t.Helper()
	last := 0
	for _, s := range p.Steps {
		if strings.HasPrefix(s.Part, prefix) {
			last = s.N
		}
	}
	if last == 0 {
		t.Fatalf("the page has no part %q", prefix)
	}
	return last
}

// TestThePageShowsTheTurnLimit reads the page of each part (-html): the
// stubborn model's run ends at the limit, after 3 turns of one request and
// one tool execution each, and the page names the guard; with -max-turns 1
// both parts end after turn 1.
func TestThePageShowsTheTurnLimit(t *testing.T) {
	p := stepThrough(t)
	end := lastOfPart(t, p, "part 1")
	expected.Equal(t, "the turn limit is reached: 3 turns, stop reason max_turns", p.Steps[end-1].Label, "part 1's last step")
	st := p.At(end)
	expected.Equal(t, [4]int{3, 3, 3, 7}, [4]int{st.Turn, st.Requests, st.Execs, st.Messages}, "turns, requests, tool executions and messages when the limit stops part 1")
	expected.Equal(t, "toolResult", st.History[6].Role, "the last message is the result of the third call: no request follows it")
	expected.Includes(t, st.Notes, "answer: none: the loop stopped before the model answered", "part 1 has no answer")

	done := p.At(len(p.Steps))
	expected.Equal(t, "the loop ends: 2 turns, stop reason completed", p.Steps[len(p.Steps)-1].Label, "part 2 ends with the answer")
	expected.Equal(t, []string{"user", "assistant", "toolResult", "assistant"}, done.Roles(), "part 2's history")

	limited := stepThrough(t, "-max-turns", "1")
	for _, part := range []string{"part 1", "part 2"} {
		n := lastOfPart(t, limited, part)
		expected.Equal(t, "the turn limit is reached: 1 turn, stop reason max_turns", limited.Steps[n-1].Label, "with -max-turns 1, %s's last step", part)
	}
}
