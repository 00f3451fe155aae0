package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		{"not an object", `[]`, "x.json: line 1, column 1: the scenario must be an object, not an array"},
		{"empty", "", `x.json: file: empty: a scenario is a JSON object with at least "prompt"`},
		{"only white space", " \n\t", `x.json: file: empty: a scenario is a JSON object with at least "prompt"`},
		{"unknown field", "{\n  \"prompt\": \"hi\",\n  \"promt\": \"typo\"\n}", `x.json: line 3, column 3: unknown field "promt" in the scenario`},
		{"name in another case", `{"Prompt": "hi"}`, `x.json: line 1, column 2: unknown field "Prompt" in the scenario`},
		{"unknown field deep inside", `{"prompt": "hi", "replies": [{"text": "a", "toolCalls": [{"id": "a", "name": "x", "argz": {}}]}]}`, `x.json: line 1, column 83: unknown field "argz" in replies[0].toolCalls[0]`},
		{"unknown tool field", `{"prompt": "hi", "tools": {"x": {"duration": 5}}}`, `x.json: line 1, column 34: unknown field "duration" in tools.x`},
		{"unknown field under an odd key", `{"prompt": "hi", "tools": {"a\nb": {"duration": 5}}}`, `x.json: line 1, column 37: unknown field "duration" in tools."a\nb"`},
		{"wrong type", `{"prompt": 5}`, "x.json: line 1, column 12: field prompt must be a string, not a number"},
		{"wrong type deep inside", `{"prompt": "hi", "tools": {"x": {"durationMs": "5"}}}`, `x.json: line 1, column 48: field tools.x.durationMs must be a whole number, not a string`},
		{"array for a string", `{"prompt": "hi", "replies": [{"text": ["a"]}]}`, `x.json: line 1, column 39: field replies[0].text must be a string, not an array`},
		{"not a whole number", `{"prompt": "hi", "tools": {"x": {"durationMs": 1.5}}}`, `x.json: line 1, column 48: field tools.x.durationMs must be a whole number, not 1.5`},
		{"twice", "{\"prompt\": \"hi\",\n \"prompt\": \"again\"}", `x.json: line 2, column 2: field "prompt" appears twice in the scenario`},
		{"a tool twice", `{"prompt": "hi", "tools": {"x": {}, "x": {}}}`, `x.json: line 1, column 37: field "x" appears twice in tools`},
		{"a key twice in args", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x", "args": {"k": 1, "k": 2}}]}]}`, `x.json: line 1, column 87: field "k" appears twice in replies[0].toolCalls[0].args`},

		// Checks after decoding name the value and, through it, the line
		// and column. A missing field's position is its object's.
		{"missing prompt", `{}`, "x.json: line 1, column 1: prompt: missing: a scenario starts with the user's first message"},
		{"empty prompt", `{"prompt": "  "}`, "x.json: line 1, column 12: prompt: missing: a scenario starts with the user's first message"},
		{"tool execution", `{"prompt": "hi", "toolExecution": "both"}`, `x.json: line 1, column 35: toolExecution: must be parallel or sequential, not "both"`},
		{"queue mode", `{"prompt": "hi", "queueMode": "some"}`, `x.json: line 1, column 31: queueMode: must be one-at-a-time or all, not "some"`},
		{"stop reason", "{\"prompt\": \"hi\",\n \"replies\": [{\"text\": \"a\", \"stopReason\": \"aborted\"}]}", `x.json: line 2, column 42: replies[0].stopReason: must be stop, toolUse, length or error, not "aborted"`},
		{"error with calls", `{"prompt": "hi", "replies": [{"stopReason": "error", "toolCalls": [{"id": "a", "name": "x"}]}]}`, "x.json: line 1, column 67: replies[0].toolCalls: a failed request has no tool calls"},
		{"error reply without text", `{"prompt": "hi", "replies": [{"stopReason": "error"}]}`, "x.json: line 1, column 30: replies[0].text: missing: a failed request's text is its error message"},
		{"call without ID", `{"prompt": "hi", "replies": [{"toolCalls": [{"name": "x"}]}]}`, "x.json: line 1, column 45: replies[0].toolCalls[0].id: missing"},
		{"call without name", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a"}]}]}`, "x.json: line 1, column 45: replies[0].toolCalls[0].name: missing"},
		{"duplicate ID", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}, {"toolCalls": [{"id": "a", "name": "x"}]}]}`, `x.json: line 1, column 95: replies[1].toolCalls[0].id: "a" is already the ID of another call`},
		{"negative duration", `{"prompt": "hi", "tools": {"x": {"durationMs": -1}}}`, "x.json: line 1, column 48: tools.x.durationMs: must be from 0 to 60000, not -1"},
		{"duration above the maximum", `{"prompt": "hi", "calls": {"a": {"durationMs": 60001}}, "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}}`, "x.json: line 1, column 48: calls.a.durationMs: must be from 0 to 60000, not 60001"},
		{"error and panic", `{"prompt": "hi", "tools": {"x": {"error": "e", "panic": "p"}}}`, "x.json: line 1, column 33: tools.x: a call either fails (error) or panics (panic), not both"},
		{"error with a result", `{"prompt": "hi", "tools": {"x": {"error": "e", "result": "r"}}}`, "x.json: line 1, column 33: tools.x: a call that fails (error) or panics (panic) returns no result and cannot terminate"},
		{"a prompt of two lines", `{"prompt": "a\nb"}`, "x.json: line 1, column 12: prompt: must be one line: the narrative prints it on one"},
		{"an update of two lines", `{"prompt": "hi", "tools": {"x": {"updates": ["ok", "a\nb"]}}}`, "x.json: line 1, column 52: tools.x.updates[1]: must be one line: the narrative prints it on one"},
		{"a steering message of two lines", `{"prompt": "hi", "steer": [{"text": "a\rb"}]}`, "x.json: line 1, column 37: steer[0].text: must be one line: the narrative prints it on one"},
		{"a line separator in a prompt", `{"prompt": "a\u2028b"}`, "x.json: line 1, column 12: prompt: must be one line: the narrative prints it on one"},
		{"a reply of two lines", `{"prompt": "hi", "replies": [{"text": "a\nb"}]}`, "x.json: line 1, column 39: replies[0].text: must be one line: the narrative prints it on one"},
		{"a result of two lines", `{"prompt": "hi", "tools": {"x": {"result": "a\nb"}}}`, "x.json: line 1, column 44: tools.x.result: must be one line: the narrative prints it on one"},
		{"an error of two lines", `{"prompt": "hi", "tools": {"x": {"error": "a\nb"}}}`, "x.json: line 1, column 43: tools.x.error: must be one line: the narrative prints it on one"},
		{"a panic of two lines", `{"prompt": "hi", "tools": {"x": {"panic": "a\nb"}}}`, "x.json: line 1, column 43: tools.x.panic: must be one line: the narrative prints it on one"},
		{"a block reason of two lines", `{"prompt": "hi", "block": {"x": "a\nb"}}`, "x.json: line 1, column 33: block.x: must be one line: the narrative prints it on one"},
		{"a follow-up of two lines", `{"prompt": "hi", "followUp": [{"text": "a\nb"}]}`, "x.json: line 1, column 40: followUp[0].text: must be one line: the narrative prints it on one"},
		{"an escape in the prompt", `{"prompt": "a\u001b[2Jb"}`, "x.json: line 1, column 12: prompt: must not hold the control character U+001B: the narrative prints text as it is"},
		{"a tab in a result", `{"prompt": "hi", "tools": {"x": {"result": "a\tb"}}}`, "x.json: line 1, column 44: tools.x.result: must not hold the control character U+0009: the narrative prints text as it is"},
		{"a null character in an update", `{"prompt": "hi", "tools": {"x": {"updates": ["a\u0000"]}}}`, "x.json: line 1, column 46: tools.x.updates[0]: must not hold the control character U+0000: the narrative prints text as it is"},
		{"a tab in an at", `{"prompt": "hi", "steer": [{"text": "s", "at": "turn_end\tresults=0"}]}`, "x.json: line 1, column 48: steer[0].at: must not hold the control character U+0009: the narrative prints text as it is"},
		{"a number too large", `{"prompt": "hi", "tools": {"x": {"durationMs": 9223372036854775808}}}`, "x.json: line 1, column 48: field tools.x.durationMs is out of range: 9223372036854775808"},
		{"a whole number with an exponent", `{"prompt": "hi", "tools": {"x": {"durationMs": 1e3}}}`, "x.json: line 1, column 48: field tools.x.durationMs must be a whole number without a fraction or exponent, not 1e3"},
		{"a negative number too large", `{"prompt": "hi", "stopAfterTurn": -1e30}`, "x.json: line 1, column 35: field stopAfterTurn is out of range: -1e30"},
		{"an at that ends with a space", `{"prompt": "hi", "replies": [{"text": "x", "toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}, "steer": [{"text": "s", "at": "tool_execution_end a error: "}]}`, `x.json: line 1, column 137: steer[0].at: "tool_execution_end a error: ": separate words with one space, with none at the start or end`},
		{"empty toolExecution", `{"prompt": "hi", "toolExecution": ""}`, `x.json: line 1, column 35: toolExecution: must be parallel or sequential, not ""`},
		{"empty queueMode", `{"prompt": "hi", "queueMode": ""}`, `x.json: line 1, column 31: queueMode: must be one-at-a-time or all, not ""`},
		{"empty stopReason", `{"prompt": "hi", "replies": [{"text": "x", "stopReason": ""}]}`, `x.json: line 1, column 58: replies[0].stopReason: must be stop, toolUse, length or error, not ""`},
		{"panic that terminates", `{"prompt": "hi", "tools": {"x": {"panic": "p", "terminate": true}}}`, "x.json: line 1, column 33: tools.x: a call that fails (error) or panics (panic) returns no result and cannot terminate"},
		{"call nobody makes", `{"prompt": "hi", "calls": {"zz": {"error": "e"}}}`, `x.json: line 1, column 28: calls.zz: no reply makes a call with ID "zz"`},
		{"call nobody makes, odd key", `{"prompt": "hi", "calls": {"a b": {}}}`, `x.json: line 1, column 28: calls."a b": no reply makes a call with ID "a b"`},
		{"call to an unknown tool", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "calls": {"a": {"error": "e"}}}`, `x.json: line 1, column 84: calls.a: call "a" asks for "x", and tools has no such tool`},
		{"sequential call", `{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}], "tools": {"x": {}}, "calls": {"a": {"sequential": true}}}`, "x.json: line 1, column 124: calls.a.sequential: sequential belongs to a tool, not to one call"},
		{"message without text", `{"prompt": "hi", "steer": [{"at": "turn_end"}]}`, "x.json: line 1, column 28: steer[0].text: missing"},
		{"follow-up without text", `{"prompt": "hi", "followUp": [{"text": " "}]}`, "x.json: line 1, column 40: followUp[0].text: missing"},
		{"negative stop", `{"prompt": "hi", "stopAfterTurn": -1}`, "x.json: line 1, column 35: stopAfterTurn: must be 0 (never) or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertParseError(t, tt.json, tt.want)
		})
	}
}

// TestEveryFieldAtOnce runs testdata/every-field.json, which sets every
// field of the format, defaults written out included ("error": "", "panic":
// "", "terminate": false), and checks when each message enters the history.
func TestEveryFieldAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		require.NoError(t, run(context.Background(), []string{"-scenario", filepath.Join("testdata", "every-field.json")}, &stdout, &stderr))
		out := stdout.String()
		for _, line := range []string{
			"turn 1 · done a lookup ⇒ error: division by zero", // calls.a wins over the tool's result
			"turn 1 · a reports: 50%",
			"turn 2 · user: focus on speed", // the steering message, before the next request
			"turn 3 · user: now summarise",  // the follow-up, once the model stopped
			"turn 3 · model request failed: scripted model: no reply left for request 3: the script holds 2",
			"loop ended: 3 turns, stop reason error",
		} {
			assert.Contains(t, out, line+"\n")
		}
		assert.Empty(t, stderr.String())
	})
}

// TestScenarioDefaultsMayBeWrittenOut: "" and false in a behaviour mean the
// same as a field left out, so they clash with nothing.
func TestScenarioDefaultsMayBeWrittenOut(t *testing.T) {
	for _, behaviour := range []string{
		`{"error": "e", "result": "", "terminate": false}`,
		`{"panic": "p", "error": "", "result": ""}`,
		`{"result": "ok", "error": "", "panic": "", "terminate": false}`,
	} {
		_, err := parseScenario("x.json", []byte(`{"prompt": "hi", "tools": {"x": `+behaviour+`}}`))
		assert.NoError(t, err, behaviour)
	}
}

// assertParseError checks that parsing data as x.json fails with want, after
// "scenario ".
func assertParseError(t *testing.T, data, want string) {
	t.Helper()
	_, err := parseScenario("x.json", []byte(data))
	var bad *scenarioError
	require.True(t, errors.As(err, &bad), "got %v", err)
	assert.Equal(t, "scenario "+want, err.Error())
}

func TestScenarioColumnsCountCharacters(t *testing.T) {
	// Å is two bytes and one character: "x" starts at byte 21, character 18.
	assertParseError(t, `{"prompt":"ÅÅÅÅ","x":1}`, `x.json: line 1, column 18: unknown field "x" in the scenario`)
	assertParseError(t, "{\"prompt\": \"Å\",\n \"replies\": [{\"text\": \"Ø\", \"stopReason\": \"no\"}]}", `x.json: line 2, column 42: replies[0].stopReason: must be stop, toolUse, length or error, not "no"`)
}

func TestScenarioMustBeUTF8(t *testing.T) {
	assertParseError(t, "{\"prompt\": \"h\xffi\"}", "x.json: line 1, column 14: not valid UTF-8 (byte 0xFF); save the file as UTF-8")
	assertParseError(t, "{\"prompt\": \"hi\",\n\"replies\": [{\"text\": \"Å\xc3\"}]}", "x.json: line 2, column 24: not valid UTF-8 (byte 0xC3); save the file as UTF-8")
	assertParseError(t, "\xef\xbb\xbf{\"prompt\": \"hi\"}", "x.json: line 1, column 1: starts with a byte-order mark; save it as UTF-8 without one")
}

func TestScenarioRejectsNull(t *testing.T) {
	tests := []struct{ json, want string }{
		{`null`, "line 1, column 1: the scenario must not be null"},
		{`{"prompt": null}`, "line 1, column 12: field prompt must not be null"},
		{`{"prompt": "hi", "replies": null}`, "line 1, column 29: field replies must not be null"},
		{`{"prompt": "hi", "replies": [null]}`, "line 1, column 30: field replies[0] must not be null"},
		{`{"prompt": "hi", "tools": {"x": null}}`, "line 1, column 33: field tools.x must not be null"},
		{`{"prompt": "hi", "tools": {"x": {"durationMs": null}}}`, "line 1, column 48: field tools.x.durationMs must not be null"},
		{`{"prompt": "hi", "tools": {"x": {"updates": ["a", null]}}}`, "line 1, column 51: field tools.x.updates[1] must not be null"},
		{`{"prompt": "hi", "steer": [{"text": "a", "at": null}]}`, "line 1, column 48: field steer[0].at must not be null"},
	}
	for _, tt := range tests {
		assertParseError(t, tt.json, "x.json: "+tt.want)
	}

	// args is any JSON value, as a model sends it: null included. The
	// tool's validation rejects a null in place of the object.
	s, err := parseScenario("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x", "args": null}, {"id": "b", "name": "x", "args": {"k": null}}]}]}`))
	require.NoError(t, err)
	assert.Equal(t, "null", string(s.Replies[0].ToolCalls[0].Args))
	assert.Equal(t, `{"k":null}`, string(s.Replies[0].ToolCalls[1].Args))
}

// deepArgs returns a scenario whose first call's args nest depth arrays;
// the args themselves are at depth 5.
func deepArgs(depth int) string {
	return `{"prompt":"hi","replies":[{"toolCalls":[{"id":"a","name":"x","args":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}]}]}`
}

func TestScenarioNestingIsLimited(t *testing.T) {
	_, err := parseScenario("x.json", []byte(deepArgs(maxDepth-5)))
	require.NoError(t, err, "64 levels")
	// The 65th level is the 60th [ of args, at byte 68+59 of one line.
	assertParseError(t, deepArgs(maxDepth-4), "x.json: line 1, column 128: nested more than 64 levels deep: a scenario never needs that many")

	// The walk stops at the limit: it neither goes deeper nor builds a
	// path per level, so 100,000 levels cost what 65 do.
	deep := []byte(deepArgs(100_000))
	assertParseError(t, string(deep), "x.json: line 1, column 128: nested more than 64 levels deep: a scenario never needs that many")
	allocs := testing.AllocsPerRun(5, func() { _, _ = parseScenario("x.json", deep) })
	assert.Less(t, allocs, 1000.0)
}

func TestScenarioCallIDsAndToolNames(t *testing.T) {
	idRule := "use 1 to 64 characters from a-z, A-Z, 0-9, _, ., : and -"
	nameRule := "use 1 to 64 characters from a-z, A-Z, 0-9, _ and -"
	call := func(id, name string) string {
		return fmt.Sprintf(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": %q, "name": %q}]}]}`, id, name)
	}
	long := strings.Repeat("a", 65)
	tests := []struct{ json, want string }{
		{call("a b", "x"), `line 1, column 52: replies[0].toolCalls[0].id: "a b" is not a call ID: ` + idRule},
		{call("a\nb", "x"), `line 1, column 52: replies[0].toolCalls[0].id: "a\nb" is not a call ID: ` + idRule},
		{call(long, "x"), `line 1, column 52: replies[0].toolCalls[0].id: "` + long + `" is not a call ID: ` + idRule},
		{call("a", "my tool"), `line 1, column 65: replies[0].toolCalls[0].name: "my tool" is not a tool name: ` + nameRule},
		{call("a", "read.file"), `line 1, column 65: replies[0].toolCalls[0].name: "read.file" is not a tool name: ` + nameRule},
		{call("a", long), `line 1, column 65: replies[0].toolCalls[0].name: "` + long + `" is not a tool name: ` + nameRule},
		{`{"prompt": "hi", "tools": {"ok": {}, "my tool": {}}}`, `line 1, column 38: tools."my tool": "my tool" is not a tool name: ` + nameRule},
		{`{"prompt": "hi", "block": {"rm -rf": "no"}}`, `line 1, column 28: block."rm -rf": "rm -rf" is not a tool name: ` + nameRule},
	}
	for _, tt := range tests {
		assertParseError(t, tt.json, "x.json: "+tt.want)
	}

	// IDs as providers send them, and the longest names.
	for _, id := range []string{"toolu_01A09q90qw90lq917835lq9", "call_abc123", "functions.get_weather:0", strings.Repeat("z", 64)} {
		_, err := parseScenario("x.json", []byte(call(id, strings.Repeat("n", 64))))
		assert.NoError(t, err, id)
	}
}

func TestScenarioBlocksAToolItDoesNotHave(t *testing.T) {
	// The issue's own example: a call to rm fails as an unknown tool
	// before the block is asked, so the block never fires, and is allowed.
	s, err := parseScenario("x.json", []byte(`{
		"prompt": "Clean up.",
		"replies": [{"toolCalls": [{"id": "d", "name": "rm"}]}, {"text": "I cannot."}],
		"block": {"rm": "needs approval"}
	}`))
	require.NoError(t, err)
	synctest.Test(t, func(t *testing.T) {
		pt := s.part()
		events := collect(t, NewAgent(pt.agent), pt.prompt)
		var ends []string
		for _, ev := range events {
			if end, ok := ev.(ToolExecutionEnd); ok {
				ends = append(ends, end.Result)
			}
		}
		assert.Equal(t, []string{"Tool rm not found"}, ends)
	})
}

func TestScenarioAtMustMatchATraceLine(t *testing.T) {
	// One call, a, to x, and one reply with none.
	with := func(at string) string {
		return fmt.Sprintf(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}]}, {"text": "ok"}], "tools": {"x": {}}, "steer": [{"text": "t", "at": %q}]}`, at)
	}
	const col = "line 1, column 140: steer[0].at: "
	bad := []struct{ at, want string }{
		{"tool_start a", `"tool_start a" does not start with an event's name, such as tool_execution_start or turn_end`},
		{"agent_start extra", `"agent_start extra" is not the start of a trace line of agent_start, which reads "agent_start"`},
		{"turn_start 1", `"turn_start 1" is not the start of a trace line of turn_start, which reads "turn_start"`},
		{"agent_end 4", `"agent_end 4" is not the start of a trace line of agent_end, which reads "agent_end messages=N"`},
		{"turn_end results=zz", `"turn_end results=zz" is not the start of a trace line of turn_end, which reads "turn_end results=N"`},
		{"turn_end results=01", `"turn_end results=01" is not the start of a trace line of turn_end, which reads "turn_end results=N"`},
		{"turn_end results=2", `"turn_end results=2": no reply makes 2 tool calls, so no turn ends with 2 results`},
		{"turn_end ", `"turn_end ": separate words with one space, with none at the start or end`},
		{"turn_end  results=1", `"turn_end  results=1": separate words with one space, with none at the start or end`},
		{"message_start bogus", `"message_start bogus" is not the start of a trace line of message_start, which reads "message_start user", "message_start assistant" or "message_start toolResult ID [error]"`},
		{"message_end user x", `"message_end user x" is not the start of a trace line of message_end, which reads "message_end user", "message_end assistant" or "message_end toolResult ID [error]"`},
		{"message_end toolResult a failed", `"message_end toolResult a failed" is not the start of a trace line of message_end, which reads "message_end user", "message_end assistant" or "message_end toolResult ID [error]"`},
		{"message_start toolResult zz", `"message_start toolResult zz": no reply makes a call with ID "zz"`},
		{"message_update user", `"message_update user" is not the start of a trace line of message_update, which reads "message_update assistant"`},
		{"tool_execution_start zz", `"tool_execution_start zz": no reply makes a call with ID "zz"`},
		{"tool_execution_start a y", `"tool_execution_start a y": call "a" is a call to "x", not "y"`},
		{"tool_execution_start a x more", `"tool_execution_start a x more" is not the start of a trace line of tool_execution_start, which reads "tool_execution_start ID NAME"`},
		{"tool_execution_update zz", `"tool_execution_update zz": no reply makes a call with ID "zz"`},
		{"tool_execution_update a b", `"tool_execution_update a b" is not the start of a trace line of tool_execution_update, which reads "tool_execution_update ID"`},
		{"tool_execution_end a done", `"tool_execution_end a done" is not the start of a trace line of tool_execution_end, which reads "tool_execution_end ID" or "tool_execution_end ID error: RESULT"`},
		{"tool_execution_end zz error: x", `"tool_execution_end zz error: x": no reply makes a call with ID "zz"`},
		{"tool_execution_end a error: two\nlines", `must be one line: the narrative prints it on one`},
	}
	for _, tt := range bad {
		t.Run(tt.at, func(t *testing.T) {
			assertParseError(t, with(tt.at), "x.json: "+col+tt.want)
		})
	}

	for _, at := range []string{
		"agent_start", "agent_end", "agent_end messages=4", "turn_start", "turn_end", "turn_end results=1", "turn_end results=0",
		"message_start", "message_start user", "message_end assistant", "message_start toolResult", "message_end toolResult a", "message_end toolResult a error",
		"message_update", "message_update assistant",
		"tool_execution_start", "tool_execution_start a", "tool_execution_start a x", "tool_execution_update a",
		"tool_execution_end", "tool_execution_end a", "tool_execution_end a error:", "tool_execution_end a error: Tool  x  failed",
	} {
		_, err := parseScenario("x.json", []byte(with(at)))
		assert.NoError(t, err, at)
	}
}

func TestScenarioFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "missing.json"), "file: no such file or directory"},
		{"directory", dir, "file: is a directory, not a scenario file"},
	} {
		_, err := loadScenario(tt.path)
		assert.EqualError(t, err, "scenario "+tt.path+": "+tt.want, tt.name)
	}

	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, err := loadScenario(empty)
	assert.EqualError(t, err, "scenario "+empty+`: file: empty: a scenario is a JSON object with at least "prompt"`)

	// Spaces after the object make it one byte too large.
	large := filepath.Join(dir, "large.json")
	data := []byte(`{"prompt": "hi"}`)
	require.NoError(t, os.WriteFile(large, append(data, bytes.Repeat([]byte(" "), maxScenarioBytes+1-len(data))...), 0o644))
	_, err = loadScenario(large)
	assert.EqualError(t, err, "scenario "+large+": file: larger than 1 MiB: a scenario never needs that much")
	require.NoError(t, os.Truncate(large, maxScenarioBytes))
	_, err = loadScenario(large)
	assert.NoError(t, err, "1 MiB exactly")
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

	for _, path := range []string{filepath.Join(t.TempDir(), "missing.json"), t.TempDir()} {
		stdout.Reset()
		stderr.Reset()
		err = run(context.Background(), []string{"-scenario", path}, &stdout, &stderr)
		assert.Equal(t, 2, exitStatus(err, &stderr), path)
		assert.Contains(t, stderr.String(), "error: scenario "+path+": file: ")
		assert.Empty(t, stdout.String(), "nothing runs")
	}
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
	for _, seed := range []string{
		`{}`, `{"prompt":"x","tools":{"a":{"durationMs":1e9}}}`, `[`, `{"prompt":"x","Prompt":"y"}`, `{"prompt":"x","calls":{"a":{}}}`,
		`{"prompt":"x","replies":[null]}`, "\xef\xbb\xbf{}", "{\"prompt\":\"\xff\"}", deepArgs(maxDepth),
		`{"prompt":"x","replies":[{"toolCalls":[{"id":"a","name":"b"}]}],"steer":[{"text":"t","at":"tool_execution_end a error: x"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseScenario("fuzz.json", data)
		if err != nil {
			var bad *scenarioError
			assert.True(t, errors.As(err, &bad), "%v is a scenarioError", err)
			// The promise of "Strict parsing": one line that names the
			// file, then where, then the problem.
			assert.Regexp(t, `\Ascenario fuzz\.json: (line [1-9][0-9]*, column [1-9][0-9]*|file): [^\n]+\z`, err.Error())
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
	// The at is a trace line x could print, but x reports no progress.
	path := filepath.Join(t.TempDir(), "never.json")
	require.NoError(t, os.WriteFile(path, []byte(`{
		"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}]}, {"text": "Hello."}],
		"tools": {"x": {"result": "done"}},
		"steer": [{"text": "Faster.", "at": "tool_execution_update a"}]
	}`), 0o644))
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-scenario", path}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "never sent")
	assert.Contains(t, stdout.String(), `"tool_execution_update a"`)
}
