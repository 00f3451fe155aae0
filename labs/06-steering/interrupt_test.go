package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAScenarioInterruptStopsOneRun: a scenario's interrupt is the
// simulated user's Ctrl-C. At the start of the second call of a batch, it
// stops the preparation: the call being prepared ends with "Operation
// aborted", so does the call prepared before it, which never runs, and the
// third call gets no result at all, as in Pi 0.83.0. The next request is
// aborted, and the scenario goes on with its next prompt.
func TestAScenarioInterruptStopsOneRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "interrupt.json")
	require.NoError(t, os.WriteFile(path, []byte(`{
		"prompt": "Look up three things.",
		"nextPrompts": ["Just say hello."],
		"replies": [
			{"text": "Looking.", "toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x"}, {"id": "c", "name": "x"}]},
			{"text": "never said"},
			{"text": "Hello."}
		],
		"tools": {"x": {"result": "found", "durationMs": 100}},
		"interrupts": [{"at": "tool_execution_start b"}]
	}`), 0o644))
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "a simulated Ctrl-C does not end the program")
		inOrder(t, stdout.String(),
			"turn 1 · start a x {}",
			"turn 1 · start b x {}",
			"(the user presses Ctrl-C)",
			"turn 1 · done b x ⇒ error: Operation aborted",
			"turn 1 · done a x ⇒ error: Operation aborted",
			"turn 2 · model request aborted: scripted model: context canceled",
			"loop ended: 2 turns, stop reason aborted",
			"the run added 5 messages: user, assistant, toolResult, toolResult, assistant",
			"turn 1 · user: Just say hello.",
			"turn 1 · model said: Hello.",
			"loop ended: 1 turn, stop reason completed",
		)
		assert.False(t, strings.Contains(stdout.String(), "start c"), "c is never prepared")
		assert.Empty(t, stderr.String())
	})
}
