package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestTheDiagramGoesWithEveryFlag draws the lab under a limit of 1 turn,
// with the requests shown: both parts stop after one turn, and each
// request's arrow says what it sent.
func TestTheDiagramGoesWithEveryFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-diagram", "-max-turns", "1", "-requests"}, &stdout, &stderr), "the program runs without an error") {
		return
	}
	// Labels are wrapped onto lines; read each as one.
	out := strings.ReplaceAll(stdout.String(), "<br/>", " ")
	expected.Contains(t, out, "    Note over U,M: part 1: a model that never stops asking (max turns 1)\n", "part 1's note names the limit")
	expected.Contains(t, out, "    L->>M: turn 1 · request: 1 message (user), 1 tool (calculate)\n", "the request's arrow says what it sent")
	expected.Equal(t, 2, strings.Count(out, "    Note over L: loop ended: 1 turn, stop reason max_turns\n"), "both parts end by the limit, after 1 turn; the diagram:\n%s", out)
	expected.NotContains(t, out, "turn 2", "the limit holds in the picture too")
	expected.Equal(t, "", stderr.String(), "standard error stays empty")
}
