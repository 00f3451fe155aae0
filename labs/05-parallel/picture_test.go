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
		// Labels are wrapped onto lines; read each as one.
		out = strings.ReplaceAll(stdout.String(), "<br/>", " ")
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
// into its lookup. Each chart shows, in grey, how long the batch would
// have taken the other way, so both span 0.9 s and compare at a glance. Part 2's calls
// take no time; the two the loop refuses are red.
func TestTheTimelineDrawsABatchAsItRan(t *testing.T) {
	tests := []struct {
		args      []string
		bars      [][3]string
		milestone string
		other     string
	}{
		{nil, [][3]string{{"call_1", "0", "300"}, {"call_2", "0", "200"}, {"call_3", "0", "400"}}, ":active, milestone, 100, 100", "if one after another#58; 0.9 s :done, 0, 900"},
		{[]string{"-sequential"}, [][3]string{{"call_1", "0", "300"}, {"call_2", "300", "500"}, {"call_3", "500", "900"}}, ":active, milestone, 600, 600", "if all at once#58; 0.4 s :done, 0, 400"},
	}
	for _, tt := range tests {
		out := draw(t, append(tt.args, "-timeline")...)
		var bars [][3]string
		for _, m := range bar.FindAllStringSubmatch(out, -1) {
			bars = append(bars, [3]string{m[1], m[2], m[3]})
		}
		expected.Equal(t, tt.bars, bars, "%q: each call's bar, its start and its end", tt.args)
		expected.Contains(t, out, "call_3 reports#58; the Cairo station is slow, still waiting "+tt.milestone, "%q: Cairo's progress note is a milestone", tt.args)
		expected.Contains(t, out, "\n    "+tt.other+"\n", "%q: a grey bar shows how long the batch would have taken the other way", tt.args)
		expected.Contains(t, out, `call_3 rm {"path"#58;"todo.txt"} (never run) :crit, milestone, `, "%q: the blocked call is a red milestone", tt.args)
		expected.Contains(t, out, `call_4 search {"query"#58;"API key"} (never run) :crit, milestone, `, "%q: the unknown tool's call is a red milestone", tt.args)
	}
}

// TestTheDiagramDrawsEndsInCompletionOrder checks -diagram on part 1's
// batch: the three calls start in the model's order, each on a lane of its
// own, end in the order they finish, each on its own lane, so that each
// bar is as long as its call; and their results enter the history in the
// model's order. In part 2, the calls that BeforeToolCall blocks and that
// name an unknown tool never reach a tool: they are drawn on the loop.
func TestTheDiagramDrawsEndsInCompletionOrder(t *testing.T) {
	out := draw(t, "-diagram")
	part1, part2, ok := strings.Cut(out, "part 2:")
	if !expected.True(t, ok, "the diagram has a part 2") {
		return
	}
	var calls []string
	for _, m := range callArrow.FindAllStringSubmatch(part1, -1) {
		calls = append(calls, m[1]+" "+m[2])
	}
	expected.Equal(t, []string{"L->>+T1 call_1", "L->>+T2 call_2", "L->>+T3 call_3", "T2-->>-L call_2", "T1-->>-L call_1", "T3-->>-L call_3"}, calls,
		"the calls start in the model's order, each on its lane, and end in the order they finish, each on its own lane")
	expected.Contains(t, part1, "Note over L: history ← results of call_1, call_2, call_3\n", "the results enter the history in the model's order")
	expected.Contains(t, part1, "Note over L: batch of 3 tool calls starts\n", "the diagram marks where the batch starts")
	expected.Contains(t, part2, "\n    L--xL: call_3 rm: never run ⇒ error: rm needs the user's approval\n", "the blocked call is drawn on the loop")
	expected.Contains(t, part2, "\n    L--xL: call_4 search: never run ⇒ error: Tool search not found\n", "the unknown tool's call is drawn on the loop")
	expected.NotContains(t, out, "participant T4", "no more lanes than calls at once")
}

// callArrow matches the arrow of a call's start, from the loop to a tool
// lane, or of its end, from the lane: the lanes, and the call's ID.
var callArrow = regexp.MustCompile(`(?m)^    (L->>\+T[0-9]+|T[0-9]+-->>-L): (call_[0-9])`)

// TestTheDiagramGoesWithEveryFlag draws the lab one call at a time, under
// a limit of 1 turn: each call ends before the next starts, and each part
// stops after its batch.
func TestTheDiagramGoesWithEveryFlag(t *testing.T) {
	out := draw(t, "-diagram", "-sequential", "-max-turns", "1")
	part1, _, ok := strings.Cut(out, "part 2:")
	if !expected.True(t, ok, "the diagram has a part 2") {
		return
	}
	expected.Contains(t, part1, "    L->>+T1: call_1 weather {\"city\":\"Oslo\"}\n    T1-->>-L: call_1 ⇒ Oslo 4 °C, light rain\n    Note over L: history ← result of call_1\n    L->>+T1: call_2",
		"call_1 ends, and its result enters the history, before call_2 starts")
	expected.Equal(t, 2, strings.Count(out, "    Note over L: loop ended: 1 turn, stop reason max_turns\n"), "both parts end by the limit, after 1 turn; the diagram:\n%s", out)
}
