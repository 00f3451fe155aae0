package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// The rules' tests, in loop_test.go, guard every model they give the loop
// and run in bubbles that say why they are stuck: a loop that never ends, or
// goroutines that wait for one another for good, fail a test within a
// second with a sentence that names the likely cause, instead of hanging or
// ending in synctest's bare deadlock.

// guardTurns is how many turns a test lets the loop run, far more than any
// test here needs.
const guardTurns = 50

// guard wraps model in expected.Guard.
func guard(t *testing.T, model fakemodel.Model, cause string) fakemodel.Model {
	return expected.Guard(t, model, guardTurns, cause)
}

// TestOutputMatchesGoldenFile runs the program in a synctest bubble, where
// the machine's time is fake: the demo clock's real waits take no time.
func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("05-parallel")
	if !expected.NoError(t, err, "read the lab's cases") {
		return
	}
	if !expected.NotEmpty(t, cases, "the lab has golden files to compare with") {
		return
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), c.Args, &stdout, &stderr), "the program runs without an error") {
					return
				}
				expected.Check(t, c.Name, stdout.Bytes())
				expected.Equal(t, "", stderr.String(), "standard error stays empty")
			})
		})
	}
}

// events runs the loop to its end and returns everything it yielded.
func events(ctx context.Context, cfg Config, prompt string) []Event {
	var out []Event
	for ev := range runLoop(ctx, cfg, prompt) {
		out = append(out, ev)
	}
	return out
}

// trace writes events the way -trace prints them.
func trace(events []Event) []string {
	lines := make([]string, len(events))
	for i, ev := range events {
		lines[i] = traceLine(ev)
	}
	return lines
}

// summarize returns what the events say about the run.
func summarize(events []Event) summary {
	var s summary
	for _, ev := range events {
		s.observe(ev)
	}
	return s
}

// roles lists who wrote each message.
func roles(messages []fakemodel.Message) []fakemodel.Role {
	out := make([]fakemodel.Role, len(messages))
	for i, m := range messages {
		out[i] = m.Role()
	}
	return out
}

// without drops the message_update lines from a trace, whose number depends
// only on how many words a reply has.
func without(lines []string, drop string) []string {
	var out []string
	for _, l := range lines {
		if l != drop {
			out = append(out, l)
		}
	}
	return out
}

// TestPartOneTellsItsLesson checks the claims of the demo's part 1 in its
// output: the lookups end in the order Lima, Oslo, Cairo, the history gets
// their results in the model's order, and the batch takes as long as its
// slowest call, or, with -sequential, as long as all three together.
func TestPartOneTellsItsLesson(t *testing.T) {
	tests := []struct {
		args   []string
		ends   []string
		timing string
	}{
		{
			ends:   []string{"call_2", "call_1", "call_3"},
			timing: "the batch took 0.4 s, as long as its slowest call, not the 0.9 s its calls add up to",
		},
		{
			args:   []string{"-sequential"},
			ends:   []string{"call_1", "call_2", "call_3"},
			timing: "the batch took 0.9 s, the sum of its calls, not the 0.4 s of its slowest call",
		},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), tt.args, &stdout, &stderr), "the program runs without an error") {
					return
				}
				part1, _, ok := strings.Cut(stdout.String(), "=== part 2")
				if !expected.True(t, ok, "the output has a part 2") {
					return
				}
				var ends, results []string
				for line := range strings.Lines(part1) {
					fields := strings.Fields(line)
					switch {
					case len(fields) > 4 && fields[3] == "done":
						ends = append(ends, fields[4])
					case strings.Contains(line, "history ← result of"):
						results = append(results, fields[len(fields)-1])
					}
				}
				expected.Equal(t, tt.ends, ends, "the order the calls end in")
				expected.Equal(t, []string{"call_1", "call_2", "call_3"}, results, "results enter the history in the model's order")
				expected.Contains(t, part1, "turn 1 · "+tt.timing+"\n", "part 1 says how long the batch took")
			})
		})
	}
}

// TestCtrlCEndsTheLookupsInTheOrderTheyStarted: a Ctrl-C while the three
// lookups of part 1 wait cuts each short at once, and the demo clock ends
// them in the order they started, Oslo, Lima, Cairo, on every run, not in
// the order the machine happens to run their goroutines.
func TestCtrlCEndsTheLookupsInTheOrderTheyStarted(t *testing.T) {
	for range 20 {
		inBubble(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(100*time.Millisecond, cancel) // before Lima's 200 ms
			var stdout, stderr bytes.Buffer
			if !expected.ErrorIs(t, run(ctx, nil, &stdout, &stderr), cli.ErrInterrupted, "run reports the interruption") {
				return
			}
			var ends []string
			for line := range strings.Lines(stdout.String()) {
				if fields := strings.Fields(line); len(fields) > 4 && fields[3] == "done" {
					ends = append(ends, strings.Join(fields[4:], " "))
				}
			}
			expected.Equal(t, []string{
				"call_1 weather ⇒ error: weather in Oslo: context canceled",
				"call_2 weather ⇒ error: weather in Lima: context canceled",
				"call_3 weather ⇒ error: weather in Cairo: context canceled",
			}, ends, "the lookups end in the order they started")
		})
	}
}
