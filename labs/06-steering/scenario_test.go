package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// The package fakemodel/scenario tests how a file is read and refused.
// These tests check how this lab binds a scenario to its Agent, and what
// -scenario prints.

// TestEveryFieldAtOnce runs testdata/every-field.json and
// testdata/every-field-runs.json, which between them set every field of
// the format (runs replace prompt and nextPrompts, so no one file can),
// defaults written out included ("error": "", "panic": "", "terminate":
// false), and checks when each message enters the history and what each
// field did.
func TestEveryFieldAtOnce(t *testing.T) {
	paths := []string{filepath.Join("testdata", "every-field.json"), filepath.Join("testdata", "every-field-runs.json")}
	var files []any
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if !expected.NoError(t, err, "read %s", path) {
			return
		}
		var file any
		if !expected.NoError(t, json.Unmarshal(data, &file), "%s is JSON", path) {
			return
		}
		files = append(files, file)
	}
	for _, field := range unsetFields(reflect.TypeFor[scenario.Scenario](), files...) {
		t.Errorf("%s set every field of the format between them, but not %s", strings.Join(paths, " and "), field)
	}

	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), []string{"-scenario", paths[1]}, &stdout, &stderr), "the scenario runs without an error") {
			return
		}
		sameLines(t, strings.Join([]string{
			"=== scenario every-field-runs.json ===",
			"setup: history: user: an earlier question", // history, before any run
			"setup: history: assistant: Looking it up. [calls h lookup {}]",
			"setup: history: result of h: an earlier result",
			"setup: transformContext shows the model only the last 2 of its messages",
			`setup: beforeToolCall sets {"units":"C"} in the arguments of call a`,
			`setup: afterToolCall gives every result of note content "replaced", isError true, terminate false`,
			"setup: prepareNextTurn swaps the model, after turn 1 of the session, for one with 1 reply, until the run ends",
			"--- Continue: the agent runs from the history it holds, with no new prompt ---", // runs[0].continue
			"(transformContext shows the model the last 2 of its 3 messages)",
			"turn 1 · model said: …", // stream false: said whole, at its end
			`turn 1 · start a lookup {"city":"Oslo"}`,
			`(the user sends the prompt "another prompt" while the agent works; the agent refuses: ` + ErrBusy.Error() + ")",
			"turn 1 · start n note {}",
			`turn 1 · done a lookup ⇒ {"city":"Oslo","units":"C"}`, // setArgs, echoArgs
			"turn 1 · done n note ⇒ error: replaced",               // afterToolCall
			"turn 1 · history ← result of a",
			"turn 1 · history ← result of n",
			"(the user asks the agent to continue while it works; the agent refuses: " + ErrBusy.Error() + ")",
			"(prepareNextTurn: another model, with 1 reply, answers the rest of this run)",
			"(transformContext shows the model the last 2 of its 6 messages)",
			"turn 2 · model said: from the second model",
			"loop ended: 2 turns, stop reason completed",
			"the run added 4 messages: assistant, toolResult, toolResult, assistant",
			"answer: from the second model",
			"the agent's history holds 7 messages; nothing is queued",
			"turn 1 · user: and a prompt", // runs[1].prompt
			"(transformContext shows the model the last 2 of its 8 messages)",
			"turn 1 · model said: the first model again: a swap lasts until its run ends",
			"loop ended: 1 turn, stop reason completed",
			"the run added 2 messages: user, assistant",
			"answer: the first model again: a swap lasts until its run ends",
			"the agent's history holds 9 messages; nothing is queued",
		}, "\n")+"\n", stdout.String(), "every field of every-field-runs.json does what the format reference says")
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
	})

	synctest.Test(t, func(t *testing.T) {
		path := paths[0]
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "the scenario runs without an error") {
			return
		}
		sameLines(t, strings.Join([]string{
			"=== scenario every-field.json ===",
			`(the user queues a follow-up: "now summarise")`, // followUp without at: before the run
			"turn 1 · user: the user's first message",
			"turn 1 · model said: …",
			`turn 1 · start a lookup {"city":"Oslo"}`,
			`(the user types a steering message: "focus on speed")`, // at, occurrence
			"turn 1 · start b lookup {}",                            // args left out: {}
			"turn 1 · done b lookup ⇒ error: not this call",         // calls.b.block, during preparation
			"turn 1 · a reports: 50%",                               // updates, updatesAtMs
			"turn 1 · done a lookup ⇒ error: division by zero",      // calls.a wins over the tool's result
			"turn 1 · history ← result of a",
			"turn 1 · history ← result of b",
			"turn 2 · user: focus on speed",       // the steering message, before the next request
			"turn 2 · model thinks: Speed, then.", // thinking, before the reply, on a line of its own
			"turn 2 · model said: …",              // stopReason length, without calls: the run would end
			"turn 3 · user: now summarise",        // the follow-up, once the model stopped
			"turn 3 · model said: …",
			"turn 3 · start c lookup {}",
			"(the user presses Ctrl-C)", // interrupts
			"turn 3 · done c lookup ⇒ error: Operation aborted",
			"turn 3 · history ← result of c",
			"turn 4 · model request aborted: scripted model: context canceled",
			"loop ended: 4 turns, stop reason aborted",
			"the run added 10 messages: user, assistant, toolResult, toolResult, user, assistant, user, assistant, toolResult, assistant",
			"answer: none: the loop stopped before the model answered",
			"the agent's history holds 10 messages; nothing is queued",
			"turn 1 · user: and once more",        // nextPrompts
			"turn 1 · model said: Half an answer", // partial streams, then the request fails
			"turn 1 · model request failed: scripted model: connection reset",
			"loop ended: 1 turn, stop reason error",
			"the run added 2 messages: user, assistant",
			"answer: none: the loop stopped before the model answered",
			"the agent's history holds 12 messages; nothing is queued",
		}, "\n")+"\n", stdout.String(), "every field does what the format reference says")
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
	})
}

// unsetFields walks decoded JSON values vs along the type t they decode
// into, and returns each field of each struct type in t, such as
// "Message.occurrence", that no object of that type in any of vs sets:
// steer's occurrence counts for Message, interrupts' for Interrupt.
func unsetFields(t reflect.Type, vs ...any) []string {
	set := map[reflect.Type]map[string]bool{}
	var types []reflect.Type
	var walk func(reflect.Type, any)
	walk = func(t reflect.Type, v any) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			items, _ := v.([]any)
			for _, item := range items {
				walk(t.Elem(), item)
			}
			if len(items) == 0 {
				walk(t.Elem(), nil) // still list the element's fields
			}
		case reflect.Map:
			values, _ := v.(map[string]any)
			for _, value := range values {
				walk(t.Elem(), value)
			}
			if len(values) == 0 {
				walk(t.Elem(), nil)
			}
		case reflect.Struct:
			if set[t] == nil {
				set[t] = map[string]bool{}
				types = append(types, t)
			}
			obj, _ := v.(map[string]any)
			for i := range t.NumField() {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				value, ok := obj[name]
				if ok {
					set[t][name] = true
				}
				walk(f.Type, value)
			}
		}
	}
	for _, v := range vs {
		walk(t, v)
	}
	var unset []string
	for _, t := range types {
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if !set[t][name] {
				unset = append(unset, t.Name()+"."+name)
			}
		}
	}
	return unset
}

// parse parses a scenario that the test knows to be valid.
func parse(t *testing.T, data string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse("x.json", []byte(data))
	if !expected.NoError(t, err, "parse a valid scenario") {
		t.FailNow()
	}
	return s
}

func TestScenarioBlocksAToolItDoesNotHave(t *testing.T) {
	// A call to rm fails as an unknown tool before the block is asked, so
	// the block never fires, and is allowed.
	s := parse(t, `{
		"prompt": "Clean up.",
		"replies": [{"toolCalls": [{"id": "d", "name": "rm"}]}, {"text": "I cannot."}],
		"block": {"rm": "needs approval"}
	}`)
	synctest.Test(t, func(t *testing.T) {
		pt := scenarioPart(s)
		events := collect(t, NewAgent(pt.agent), pt.prompts[0])
		var ends []string
		for _, ev := range events {
			if end, ok := ev.(ToolExecutionEnd); ok {
				ends = append(ends, end.Result)
			}
		}
		expected.Equal(t, []string{"Tool rm not found"}, ends, "the call fails as an unknown tool, and the block never fires")
	})
}

func TestScenarioPartBindsEachField(t *testing.T) {
	s := parse(t, `{
		"prompt": "hi",
		"toolExecution": "sequential",
		"queueMode": "all",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}]}],
		"tools": {"y": {}, "x": {"sequential": true}},
		"block": {"y": "no"},
		"steer": [{"text": "s", "at": "turn_end"}],
		"followUp": [{"text": "f"}],
		"stopAfterTurn": 2
	}`)
	pt := scenarioPart(s)
	expected.Equal(t, []string{"hi"}, pt.prompts, "prompt: the part's prompts")
	expected.Equal(t, true, pt.agent.Config.Sequential, "toolExecution sequential: Config.Sequential")
	expected.Equal(t, All, pt.agent.SteeringMode, "queueMode all: the steering queue's mode")
	expected.Equal(t, All, pt.agent.FollowUpMode, "queueMode all: the follow-up queue's mode")
	if !expected.Equal(t, 2, len(pt.agent.Config.Tools), "tools: one Tool per tool of the file") {
		return
	}
	expected.Equal(t, []string{"x", "y"}, []string{pt.agent.Config.Tools[0].Spec.Name, pt.agent.Config.Tools[1].Spec.Name}, "tools: in the order of their names")
	expected.Equal(t, true, pt.agent.Config.Tools[0].Sequential, "tools: x is sequential, as the file says")
	block, err := pt.agent.Config.BeforeToolCall(context.Background(), BeforeToolCallContext{ToolCall: call("a", "y", `{}`)})
	if !expected.NoError(t, err, "BeforeToolCall returns no error") {
		return
	}
	expected.Equal(t, BeforeToolCallResult{Block: true, Reason: "no"}, block, "block: BeforeToolCall blocks a call to y, with the file's reason")
	expected.Equal(t, []scenario.UserMessage{{At: "turn_end", Text: "s"}, {FollowUp: true, Text: "f"}}, pt.plan, "steer and followUp: the user's plan")
	expected.Equal(t, 2, pt.maxTurns, "stopAfterTurn: the part's turn limit")
	expected.True(t, pt.clock != nil, "the part's tools wait on a demo clock")
}

func TestABadScenarioFileExitsWithStatus2AndRunsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	if !expected.NoError(t, os.WriteFile(path, []byte(`{"promt": "hi"}`), 0o644), "write the scenario") {
		return
	}
	var stdout, stderr bytes.Buffer
	expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-scenario", path}, &stdout, &stderr), "a bad scenario file: the exit status")
	expected.Equal(t, "", stdout.String(), "nothing runs")
	expected.Equal(t, "error: scenario "+path+`: line 1, column 2: unknown field "promt" in the scenario`+"\n", stderr.String(),
		"standard error says where the file is wrong, and how")

	for _, path := range []string{filepath.Join(t.TempDir(), "missing.json"), t.TempDir()} {
		stdout.Reset()
		stderr.Reset()
		expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-scenario", path}, &stdout, &stderr), "%s: the exit status", path)
		expected.Contains(t, stderr.String(), "error: scenario "+path+": file: ", "%s: standard error says the file cannot be read", path)
		expected.Equal(t, "", stdout.String(), "%s: nothing runs", path)
	}
}

// TestAScenarioNameIsQuotedOnlyWhenItMust: the title of a scenario whose
// file name holds a line break or an escape sequence stays one line, and
// sends the terminal no escape; an ordinary name is printed as it is.
func TestAScenarioNameIsQuotedOnlyWhenItMust(t *testing.T) {
	dir := t.TempDir()
	for name, title := range map[string]string{
		"a\nb.json":          `=== scenario "a\nb.json" ===`,
		"clear\x1b[2J.json":  `=== scenario "clear\x1b[2J.json" ===`,
		"plain name.json":    `=== scenario plain name.json ===`,
		"déjà vu ÷ 2.json":   `=== scenario déjà vu ÷ 2.json ===`,
		"\u202egnp.json":     `=== scenario "\u202egnp.json" ===`,
		"self-correction.js": `=== scenario self-correction.js ===`,
	} {
		path := filepath.Join(dir, name)
		if !expected.NoError(t, os.WriteFile(path, []byte(`{"prompt": "hi", "replies": [{"text": "Hello."}]}`), 0o644), "write the scenario %q", name) {
			return
		}
		synctest.Test(t, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "the scenario %q runs without an error", name) {
				return
			}
			first, _, _ := bytes.Cut(stdout.Bytes(), []byte("\n"))
			expected.Equal(t, title, string(first), "the title of the scenario %q", name)
		})
	}
}

func TestScenarioRepliesRunOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pt := scenarioPart(parse(t, `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}}`))
		events := collect(t, NewAgent(pt.agent), pt.prompts[0])
		sum := summarize(events)
		expected.Equal(t, ModelError, sum.stopReason(), "a script that runs out ends the run with stop reason error")
		expected.Equal(t, "scripted model: no reply left for request 2: the script holds 1", sum.last.ErrorMessage, "the failed reply says which request found no reply")
	})
}

func TestScenarioFlagsThatTheFileSets(t *testing.T) {
	for _, args := range [][]string{
		{"-scenario", "scenarios/blocked-call.json", "-queue-mode", "all"},
		{"-sequential", "-scenario", "scenarios/blocked-call.json"},
	} {
		var stdout, stderr bytes.Buffer
		expected.Equal(t, 2, cli.Run(context.Background(), run, args, &stdout, &stderr), "%v: the exit status", args)
		expected.Contains(t, stderr.String(), "cannot go with -scenario: the file sets queueMode and toolExecution itself", "%v: standard error says why", args)
		expected.Equal(t, "", stdout.String(), "%v: nothing runs", args)
	}
}

func TestAMessageWhoseEventNeverComesIsReported(t *testing.T) {
	// The at is a trace line x could print, but x reports no progress.
	path := filepath.Join(t.TempDir(), "never.json")
	err := os.WriteFile(path, []byte(`{
		"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}]}, {"text": "Hello."}],
		"tools": {"x": {"result": "done"}},
		"steer": [{"text": "Faster.", "at": "tool_execution_update a"}]
	}`), 0o644)
	if !expected.NoError(t, err, "write the scenario") {
		return
	}
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr), "the scenario runs without an error") {
		return
	}
	expected.Contains(t, stdout.String(), "never sent", "the output reports the message that was never sent")
	expected.Contains(t, stdout.String(), `"tool_execution_update a"`, "the report names the event that never came")
}
