package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper/steppertest"
)

// output runs the program with args in a synctest bubble and returns what
// it printed.
func output(t *testing.T, args ...string) []byte {
	t.Helper()
	var out []byte
	inBubble(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if expected.NoError(t, run(context.Background(), args, &stdout, &stderr), "the program runs without an error") {
			out = stdout.Bytes()
		}
	})
	return out
}

// stepThrough runs the program with -html - and args, and reads its page.
func stepThrough(t *testing.T, args ...string) *steppertest.Page {
	t.Helper()
	p, err := steppertest.Read(output(t, append([]string{"-html", "-"}, args...)...))
	if !expected.NoError(t, err, "the page reads back") {
		t.FailNow()
	}
	return p
}

// stepOf returns the number of the first step whose trace line is line.
func stepOf(t *testing.T, p *steppertest.Page, line string) int {
	t.Helper()
	for _, s := range p.Steps {
		if s.TraceLine() == line {
			return s.N
		}
	}
	t.Fatalf("the page has no step %q", line)
	return 0
}

// TestThePageStepsThroughTheEvents checks that the page's steps are the
// events the loop emitted, in their order: the lines -trace prints, one
// step each, with and without -sequential.
func TestThePageStepsThroughTheEvents(t *testing.T) {
	for _, args := range [][]string{nil, {"-sequential"}, {"-max-turns", "1"}} {
		var lines []string
		for _, s := range stepThrough(t, args...).Steps {
			lines = append(lines, s.TraceLine())
		}
		trace := strings.Split(strings.TrimSuffix(string(output(t, append([]string{"-trace"}, args...)...)), "\n"), "\n")
		expected.EqualLines(t, trace, lines, "%q: the page's steps, as trace lines", args)
	}
}

// TestThePageShowsTheBatchAsItRan steps through part 1's batch (-html): the
// calls start together; Lima ends first while Oslo and Cairo still run;
// the results enter the history only after the batch, in the model's
// order; the reply streams in before it is a message; and the counts at
// the end of the part are 2 turns, 5 steps and 6 messages.
func TestThePageShowsTheBatchAsItRan(t *testing.T) {
	p := stepThrough(t)
	firstEnd := p.At(stepOf(t, p, "tool_execution_end call_2"))
	expected.Equal(t, []steppertest.Call{
		{ID: "call_1", Name: "weather", State: "now"},
		{ID: "call_2", Name: "weather", State: "past", Result: "Lima 19 °C, overcast"},
		{ID: "call_3", Name: "weather", State: "now"},
	}, firstEnd.Calls, "when Lima's lookup ends, the calls")
	expected.Equal(t, []string{"user", "assistant"}, firstEnd.Roles(), "when Lima's lookup ends, its result is not in the history yet")

	turnEnd := p.At(stepOf(t, p, "turn_end results=3"))
	expected.Equal(t, []string{"user", "assistant", "toolResult", "toolResult", "toolResult"}, turnEnd.Roles(), "the history at turn_end")
	var results []string
	for _, m := range turnEnd.History[2:] {
		results = append(results, strings.Fields(m.Text)[0])
	}
	expected.Equal(t, []string{"Oslo", "Lima", "Cairo"}, results, "the results, in the order of the model's calls")
	expected.Includes(t, turnEnd.Notes, "the batch took 0.4 s, as long as its slowest call, not the 0.9 s its calls add up to", "turn_end says how long the batch took")

	firstChunk := p.At(stepOf(t, p, "message_update assistant"))
	expected.True(t, firstChunk.Replying && firstChunk.Streaming == "I ", "at the first message_update, the reply streams in as %q", firstChunk.Streaming)
	expected.Equal(t, []string{"user"}, firstChunk.Roles(), "a reply that streams in is not in the history yet")

	partEnd := p.At(stepOf(t, p, "agent_end messages=6"))
	expected.Equal(t, [4]int{2, 2, 3, 6}, [4]int{partEnd.Turn, partEnd.Requests, partEnd.Execs, partEnd.Messages}, "turns, requests, tool executions and messages at part 1's agent_end")
	expected.Equal(t, "5 messages, the whole history: user, assistant, toolResult ×3", partEnd.Request, "the second request sends the results")

	sequential := stepThrough(t, "-sequential")
	second := sequential.At(stepOf(t, sequential, "tool_execution_start call_2 weather"))
	expected.Equal(t, "past", second.Calls[0].State, "with -sequential, Oslo's lookup has ended when Lima's starts")
	expected.Equal(t, []string{"user", "assistant", "toolResult"}, second.Roles(), "with -sequential, Oslo's result is in the history when Lima's lookup starts")
}
