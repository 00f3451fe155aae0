package main

import (
	"bytes"
	"context"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputMatchesGoldenFile runs the program in a synctest bubble, where
// the machine's time is fake: the demo clock's real waits take no time.
func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("05-parallel")
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				require.NoError(t, run(context.Background(), c.Args, &stdout, &stderr))
				expected.Check(t, c.Name, stdout.Bytes())
				assert.Empty(t, stderr.String())
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
