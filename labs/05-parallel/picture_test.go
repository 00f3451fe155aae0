package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// draw runs the program with args in a synctest bubble, and returns what it
// printed.
func draw(t *testing.T, args ...string) string {
	t.Helper()
	var out string
	inBubble(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), args, &stdout, &stderr), "the program runs without an error") {
			return
		}
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
		out = stdout.String()
	})
	return out
}

// bar matches a call's bar of a timeline: its name, its start and its end,
// in milliseconds of the demo clock.
var bar = regexp.MustCompile(`(?m)^    (call_[0-9]) weather .* :([0-9]+), ([0-9]+)$`)

// TestTheTimelineDrawsABatchAsItRan checks -timeline on part 1's batch: in
// parallel the three bars start together and each ends after its own
// lookup, so the batch ends with the slowest; with -sequential each starts
// where the one before ended. Cairo's progress note is a milestone 100 ms
// into its lookup.
func TestTheTimelineDrawsABatchAsItRan(t *testing.T) {
	tests := []struct {
		args      []string
		bars      [][3]string
		milestone string
	}{
		{nil, [][3]string{{"call_1", "0", "300"}, {"call_2", "0", "200"}, {"call_3", "0", "400"}}, ":milestone, 100, 100"},
		{[]string{"-sequential"}, [][3]string{{"call_1", "0", "300"}, {"call_2", "300", "500"}, {"call_3", "500", "900"}}, ":milestone, 600, 600"},
	}
	for _, tt := range tests {
		out := draw(t, append(tt.args, "-timeline")...)
		var bars [][3]string
		for _, m := range bar.FindAllStringSubmatch(out, -1) {
			bars = append(bars, [3]string{m[1], m[2], m[3]})
		}
		expected.Equal(t, tt.bars, bars, "%q: each call's bar, its start and its end", tt.args)
		expected.Contains(t, out, "call_3 reports#58; the Cairo station is slow, still waiting "+tt.milestone, "%q: Cairo's progress note is a milestone", tt.args)
	}
}

// TestTheDiagramDrawsEndsInCompletionOrder checks -diagram on part 1's
// batch: the three calls start in the model's order, end in the order they
// finish, and their results enter the history in the model's order.
func TestTheDiagramDrawsEndsInCompletionOrder(t *testing.T) {
	out := draw(t, "-diagram")
	part1, _, ok := strings.Cut(out, "part 2:")
	if !expected.True(t, ok, "the diagram has a part 2") {
		return
	}
	var calls []string
	for _, line := range strings.Split(part1, "\n") {
		if _, label, ok := strings.Cut(line, "T1: "); ok {
			calls = append(calls, "start "+strings.Fields(label)[0])
		}
		if _, label, ok := strings.Cut(line, "T1-->>-L: "); ok {
			calls = append(calls, "end "+strings.Fields(label)[0])
		}
	}
	expected.Equal(t, []string{"start call_1", "start call_2", "start call_3", "end call_2", "end call_1", "end call_3"}, calls,
		"the calls start in the model's order and end in the order they finish")
	expected.Contains(t, part1, "Note over L: history ← results of call_1, call_2, call_3\n", "the results enter the history in the model's order")
	expected.Contains(t, part1, "Note over L: batch of 3 tool calls starts\n", "the diagram marks where the batch starts")
}

// TestTheDiagramGoesWithEveryFlag draws the lab one call at a time, under
// a limit of 1 turn: each call ends before the next starts, and each part
// stops after its batch.
func TestTheDiagramGoesWithEveryFlag(t *testing.T) {
	out := draw(t, "-diagram", "-sequential", "-max-turns", "1")
	part1, _, ok := strings.Cut(out, "part 2:")
	if !expected.True(t, ok, "the diagram has a part 2") {
		return
	}
	expected.Contains(t, part1, "    L->>+T1: call_1 {\"city\":\"Oslo\"}\n    T1-->>-L: call_1 ⇒ Oslo 4 °C, light rain\n    Note over L: history ← result of call_1\n    L->>+T1: call_2",
		"call_1 ends, and its result enters the history, before call_2 starts")
	expected.Equal(t, 2, strings.Count(out, "    Note over L: loop ended: 1 turn, stop reason max_turns\n"), "both parts end by the limit, after 1 turn; the diagram:\n%s", out)
}
