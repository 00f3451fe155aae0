package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheDiagramGoesWithEveryFlag draws the lab under a limit of 1 turn,
// with the requests shown: both parts stop after one turn, and each
// request's arrow says what it sent.
func TestTheDiagramGoesWithEveryFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-diagram", "-max-turns", "1", "-requests"}, &stdout, &stderr))
	out := stdout.String()
	assert.Contains(t, out, "    Note over U,M: part 1: a model that never stops asking (max turns 1)\n")
	assert.Contains(t, out, "    L->>M: turn 1 · request: 1 message (user), 1 tool (calculate)\n")
	assert.Equal(t, 2, bytes.Count(stdout.Bytes(), []byte("    Note over L: loop ended: 1 turn, stop reason max_turns\n")), out)
	assert.NotContains(t, out, "turn 2", "the limit holds in the picture too")
	assert.Empty(t, stderr.String())
}
