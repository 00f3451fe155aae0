package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScenarioParseErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"not JSON", `{"prompt": "hi",`, "x.json: line 1, column 17: not valid JSON: unexpected end of JSON input"},
		{"syntax error", "{\n  \"prompt\": \"hi\"\n  \"replies\": []\n}", `x.json: line 3, column 3: not valid JSON: invalid character '"' after object key:value pair`},
		{"trailing data", `{"prompt": "hi"} {}`, "x.json: line 1, column 18: not valid JSON: more data after the closing brace"},
		{"not an object", `[]`, "x.json: line 1, column 2: the scenario must be an object, not an array"},
		{"unknown field", "{\n  \"prompt\": \"hi\",\n  \"promt\": \"typo\"\n}", `x.json: line 3, column 3: unknown field "promt" in the scenario`},
		{"name in another case", `{"Prompt": "hi"}`, `x.json: line 1, column 2: unknown field "Prompt" in the scenario`},
		{"unknown field deep inside", `{"prompt": "hi", "replies": [{"text": "a", "toolCalls": [{"id": "a", "name": "x", "argz": {}}]}]}`, `x.json: line 1, column 83: unknown field "argz" in replies[0].toolCalls[0]`},
		{"unknown tool field", `{"prompt": "hi", "tools": {"x": {"duration": 5}}}`, `x.json: line 1, column 34: unknown field "duration" in tools.x`},
		{"wrong type", `{"prompt": 5}`, "x.json: line 1, column 12: field prompt must be a string, not a number"},
		{"wrong type deep inside", `{"prompt": "hi", "tools": {"x": {"durationMs": "5"}}}`, `x.json: line 1, column 48: field tools.x.durationMs must be a whole number, not a string`},
		{"not a whole number", `{"prompt": "hi", "tools": {"x": {"durationMs": 1.5}}}`, `x.json: line 1, column 48: field tools.x.durationMs must be a whole number, not 1.5`},
		{"missing prompt", `{}`, "x.json: prompt: missing: a scenario starts with the user's first message"},
		{"empty prompt", `{"prompt": "  "}`, "x.json: prompt: missing: a scenario starts with the user's first message"},
		{"tool execution", `{"prompt": "hi", "toolExecution": "both"}`, `x.json: toolExecution: must be parallel or sequential, not "both"`},
		{"queue mode", `{"prompt": "hi", "queueMode": "some"}`, `x.json: queueMode: must be one-at-a-time or all, not "some"`},
		{"stop reason", `{"prompt": "hi", "replies": [{"text": "a", "stopReason": "aborted"}]}`, `x.json: replies[0].stopReason: must be stop, toolUse, length or error, not "aborted"`},
		{"error with calls", `{"prompt": "hi", "replies": [{"stopReason": "error", "toolCalls": [{"id": "a", "name": "x"}]}]}`, "x.json: replies[0].toolCalls: a failed request has no tool calls"},
		{"call without ID", `{"prompt": "hi", "replies": [{"toolCalls": [{"name": "x"}]}]}`, "x.json: replies[0].toolCalls[0].id: missing"},
		{"call without name", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a"}]}]}`, "x.json: replies[0].toolCalls[0].name: missing"},
		{"duplicate ID", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}, {"toolCalls": [{"id": "a", "name": "x"}]}]}`, `x.json: replies[1].toolCalls[0].id: "a" is already the ID of another call`},
		{"negative duration", `{"prompt": "hi", "tools": {"x": {"durationMs": -1}}}`, "x.json: tools.x.durationMs: must be from 0 to 60000, not -1"},
		{"error and panic", `{"prompt": "hi", "tools": {"x": {"error": "e", "panic": "p"}}}`, "x.json: tools.x: a call either fails (error) or panics (panic), not both"},
		{"call nobody makes", `{"prompt": "hi", "calls": {"zz": {"error": "e"}}}`, `x.json: calls.zz: no reply makes a call with ID "zz"`},
		{"call to an unknown tool", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "calls": {"a": {"error": "e"}}}`, `x.json: calls.a: call "a" asks for "x", and tools has no such tool`},
		{"sequential call", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}, "calls": {"a": {"sequential": true}}}`, "x.json: calls.a.sequential: sequential belongs to a tool, not to one call"},
		{"block an unknown tool", `{"prompt": "hi", "block": {"rm": "no"}}`, `x.json: block.rm: tools has no tool "rm" to block`},
		{"message without text", `{"prompt": "hi", "steer": [{"at": "turn_end"}]}`, "x.json: steer[0].text: missing"},
		{"at with no event", `{"prompt": "hi", "followUp": [{"text": "a", "at": "tool_start a"}]}`, `x.json: followUp[0].at: "tool_start a" does not start with an event's name, such as tool_execution_start or turn_end`},
		{"twice", "{\"prompt\": \"hi\",\n \"prompt\": \"again\"}", `x.json: line 2, column 2: field "prompt" appears twice in the scenario`},
		{"a tool twice", `{"prompt": "hi", "tools": {"x": {}, "x": {}}}`, `x.json: line 1, column 37: field "x" appears twice in tools`},
		{"error with a result", `{"prompt": "hi", "tools": {"x": {"error": "e", "result": "r"}}}`, "x.json: tools.x: a call that fails (error) or panics (panic) returns no result and cannot terminate"},
		{"panic that terminates", `{"prompt": "hi", "tools": {"x": {"panic": "p", "terminate": true}}}`, "x.json: tools.x: a call that fails (error) or panics (panic) returns no result and cannot terminate"},
		{"error reply without text", `{"prompt": "hi", "replies": [{"stopReason": "error"}]}`, "x.json: replies[0].text: missing: a failed request's text is its error message"},
		{"negative stop", `{"prompt": "hi", "stopAfterTurn": -1}`, "x.json: stopAfterTurn: must be 0 (never) or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseScenario("x.json", []byte(tt.json))
			var bad *scenarioError
			require.True(t, errors.As(err, &bad), "got %v", err)
			assert.Equal(t, "scenario "+tt.want, err.Error())
		})
	}
}

func TestScenarioCallsInheritFromTheirTool(t *testing.T) {
	s, err := parseScenario("x.json", []byte(`{
		"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x", "args": {"k": [1, 2]}}, {"id": "c", "name": "x"}]}],
		"tools": {"x": {"result": "tool", "durationMs": 100, "sequential": true}},
		"calls": {"b": {"result": "call"}, "c": {"error": "failed"}}
	}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(s.Replies[0].ToolCalls[0].Args), "missing args are an empty object")
	assert.Equal(t, `{"k":[1,2]}`, string(s.Replies[0].ToolCalls[1].Args), "args are compacted onto one line")

	pt := s.part()
	require.Len(t, pt.agent.Config.Tools, 1)
	tool := pt.agent.Config.Tools[0]
	assert.True(t, tool.Sequential)
	synctest.Test(t, func(t *testing.T) {
		for id, want := range map[string]string{"a": "tool", "b": "call"} {
			start := time.Now()
			got, err := tool.run(context.Background(), id, map[string]any{}, func(string) {})
			require.NoError(t, err)
			assert.Equal(t, want, got.Content)
			assert.Equal(t, 100*time.Millisecond, time.Since(start), "call %s keeps its tool's duration", id)
		}
		_, err := tool.run(context.Background(), "c", map[string]any{}, func(string) {})
		assert.EqualError(t, err, "failed", "a call's error outranks its tool's result")
	})
}

func TestABadScenarioFileExitsWithStatus2AndRunsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"promt": "hi"}`), 0o644))
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-scenario", path}, &stdout, &stderr)
	require.Error(t, err)
	assert.Equal(t, 2, exitStatus(err, &stderr))
	assert.Empty(t, stdout.String(), "nothing runs")
	assert.Equal(t, "error: scenario "+path+`: line 1, column 2: unknown field "promt" in the scenario`+"\n", stderr.String())

	err = run(context.Background(), []string{"-scenario", filepath.Join(t.TempDir(), "missing.json")}, &stdout, &stderr)
	assert.ErrorContains(t, err, "no such file or directory")
	assert.Equal(t, 2, exitStatus(err, &stderr))
}

func TestScenarioRepliesRunOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := parseScenario("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}}`))
		require.NoError(t, err)
		pt := s.part()
		a := NewAgent(pt.agent)
		events := collect(t, a, pt.prompt)
		sum := summarize(events)
		assert.Equal(t, ModelError, sum.stopReason())
		assert.Equal(t, "scripted model: no reply left for request 2: the script holds 1", sum.last.ErrorMessage)
	})
}

// FuzzParseScenario feeds the parser any bytes: each input is a scenario or
// a scenarioError, never a panic.
func FuzzParseScenario(f *testing.F) {
	files, err := filepath.Glob("scenarios/*.json")
	require.NoError(f, err)
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(data)
	}
	for _, seed := range []string{`{}`, `{"prompt":"x","tools":{"a":{"durationMs":1e9}}}`, `[`, `{"prompt":"x","Prompt":"y"}`, `{"prompt":"x","calls":{"a":{}}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseScenario("fuzz.json", data)
		if err != nil {
			var bad *scenarioError
			assert.True(t, errors.As(err, &bad), "%v is a scenarioError", err)
			return
		}
		assert.NotEmpty(t, s.Prompt)
		pt := s.part()
		assert.Len(t, pt.agent.Config.Tools, len(s.Tools))
	})
}

func TestScenarioFlagsThatTheFileSets(t *testing.T) {
	for _, args := range [][]string{
		{"-scenario", "scenarios/blocked-call.json", "-queue-mode", "all"},
		{"-sequential", "-scenario", "scenarios/blocked-call.json"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, &stdout, &stderr)
		assert.Equal(t, 2, exitStatus(err, &stderr), "%v", args)
		assert.Contains(t, stderr.String(), "cannot go with -scenario: the file sets queueMode and toolExecution itself")
		assert.Empty(t, stdout.String(), "nothing runs")
	}
}

func TestAMessageWhoseEventNeverComesIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "typo.json")
	require.NoError(t, os.WriteFile(path, []byte(`{
		"prompt": "hi",
		"replies": [{"text": "Hello."}],
		"steer": [{"text": "Faster.", "at": "tool_execution_start zz"}]
	}`), 0o644))
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), `never sent: "Faster.", because no event matched "tool_execution_start zz"`)
}
