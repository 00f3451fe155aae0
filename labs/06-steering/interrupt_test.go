package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestAScenarioInterruptStopsOneRun: a scenario's interrupt is the
// simulated user's Ctrl-C. At the start of the second call of a batch, it
// stops the preparation: the call being prepared ends with "Operation
// aborted", and the third call gets no result at all, as in Pi 0.83.0. The
// call prepared before it ends with "Operation aborted" too and never runs,
// as in Pi 0.85.0 (0.83.0 starts it with the aborted signal). The next
// request is aborted, and the scenario goes on with its next prompt.
func TestAScenarioInterruptStopsOneRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "interrupt.json")
	err := os.WriteFile(path, []byte(`{
		"prompt": "Look up three things.",
		"nextPrompts": ["Just say hello."],
		"replies": [
			{"text": "Looking.", "toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x"}, {"id": "c", "name": "x"}]},
			{"text": "never said"},
			{"text": "Hello."}
		],
		"tools": {"x": {"result": "found", "durationMs": 100}},
		"interrupts": [{"at": "tool_execution_start b"}]
	}`), 0o644)
	if !expected.NoError(t, err, "write the scenario") {
		return
	}
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "a simulated Ctrl-C does not end the program") {
			return
		}
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
		expected.NotContains(t, stdout.String(), "start c", "c is never prepared")
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
	})
}

// TestAScenarioInterruptActsAtOnce: a Ctrl-C while calls run acts at its
// event, as Pi's Agent.abort() does: the calls still running end at once,
// with their context's error, in the order they started, although b would
// have ended first; a call that ended before keeps its result. The next
// request is aborted, and the session goes on.
func TestAScenarioInterruptActsAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "interrupt.json")
	err := os.WriteFile(path, []byte(`{
		"prompt": "Look up three things.",
		"nextPrompts": ["Just say hello."],
		"replies": [
			{"text": "Looking.", "toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x"}, {"id": "c", "name": "x"}]},
			{"text": "never said"},
			{"text": "Hello."}
		],
		"tools": {"x": {"result": "found", "durationMs": 100}},
		"calls": {"a": {"durationMs": 900}, "b": {"durationMs": 600}, "c": {"updates": ["halfway"], "durationMs": 400}},
		"interrupts": [{"at": "tool_execution_update c"}]
	}`), 0o644)
	if !expected.NoError(t, err, "write the scenario") {
		return
	}
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "a simulated Ctrl-C does not end the program") {
			return
		}
		expected.Equal(t, 200*time.Millisecond, time.Since(start), "the run ends at c's update, halfway through its 400 ms")
		inOrder(t, stdout.String(),
			"turn 1 · c reports: halfway",
			"(the user presses Ctrl-C)",
			"turn 1 · done a x ⇒ error: context canceled",
			"turn 1 · done b x ⇒ error: context canceled",
			"turn 1 · done c x ⇒ error: context canceled",
			"turn 2 · model request aborted: scripted model: context canceled",
			"loop ended: 2 turns, stop reason aborted",
			"turn 1 · model said: Hello.",
		)
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
	})
}

// TestACtrlCAtAnyWordStopsTheReply: a Ctrl-C while any word of a reply
// streams in, the last one included, stops the reply: it ends aborted, its
// tool call never runs, and the run ends without a follow-up poll, so the
// follow-up stays queued, as in Pi, where the provider checks the signal
// once the stream has ended.
func TestACtrlCAtAnyWordStopsTheReply(t *testing.T) {
	const words = 4 // "I will search now."
	for at := 1; at <= words; at++ {
		t.Run(fmt.Sprintf("at word %d of %d", at, words), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "words.json")
			err := os.WriteFile(path, []byte(fmt.Sprintf(`{
				"prompt": "Search.",
				"replies": [{"text": "I will search now.", "toolCalls": [{"id": "s", "name": "search"}]}, {"text": "never said"}],
				"tools": {"search": {"result": "found"}},
				"followUp": [{"text": "And then?"}],
				"interrupts": [{"at": "message_update assistant", "occurrence": %d}]
			}`, at)), 0o644)
			if !expected.NoError(t, err, "write the scenario") {
				return
			}
			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", path, "-trace"}, &stdout, &stderr), "the scenario runs with -trace without an error") {
					return
				}
				expected.Equal(t, strings.Repeat("message_update assistant\n", at)+`message_end assistant
turn_end results=0
agent_end messages=2
`, stdout.String()[strings.Index(stdout.String(), "message_update"):], "the reply ends aborted at its word %d, and the run ends right after its turn_end", at)
				stdout.Reset()
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "the scenario runs without an error") {
					return
				}
				expected.Contains(t, stdout.String(), `the agent's history holds 2 messages; still queued: follow-up "And then?"`, "the follow-up stays queued")
				expected.NotContains(t, stdout.String(), "start s", "the reply's tool call never runs")
			})
		})
	}
}
