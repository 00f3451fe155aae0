package scenario

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestScenarioParseErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"not JSON", `{"prompt": "hi",`, "x.json: line 1, column 17: not valid JSON: unexpected end of JSON input"},
		{"syntax error", "{\n  \"prompt\": \"hi\"\n  \"replies\": []\n}", `x.json: line 3, column 3: not valid JSON: invalid character '"' after object key:value pair`},
		{"trailing data", `{"prompt": "hi"} {}`, "x.json: line 1, column 18: not valid JSON: more data after the closing brace"},
		{"not an object", `[]`, "x.json: line 1, column 1: the scenario must be an object, not an array"},
		{"empty", "", `x.json: file: empty: a scenario is a JSON object with at least "prompt" or "runs"`},
		{"only white space", " \n\t", `x.json: file: empty: a scenario is a JSON object with at least "prompt" or "runs"`},
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
		{"missing prompt", `{}`, "x.json: line 1, column 1: prompt: missing: a scenario starts with the user's first message (prompt), or lists its runs (runs)"},
		{"blank prompt", `{"prompt": "  "}`, "x.json: line 1, column 12: prompt: blank: a prompt is what the user says, and needs a text"},
		{"empty prompt", `{"prompt": ""}`, "x.json: line 1, column 12: prompt: blank: a prompt is what the user says, and needs a text"},
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
		{"a right-to-left override in the prompt", `{"prompt": "pay \u202emoc.knab"}`, "x.json: line 1, column 12: prompt: must not hold the bidirectional control character U+202E: it would make the line read differently from what it holds"},
		{"an isolate in a result", `{"prompt": "hi", "tools": {"x": {"result": "a\u2066b\u2069"}}}`, "x.json: line 1, column 44: tools.x.result: must not hold the bidirectional control character U+2066: it would make the line read differently from what it holds"},
		{"an embedding in an at", `{"prompt": "hi", "steer": [{"text": "s", "at": "turn_end\u202a"}]}`, "x.json: line 1, column 48: steer[0].at: must not hold the bidirectional control character U+202A: it would make the line read differently from what it holds"},
		{"a pop in a steering message", `{"prompt": "hi", "steer": [{"text": "s\u202c"}]}`, "x.json: line 1, column 37: steer[0].text: must not hold the bidirectional control character U+202C: it would make the line read differently from what it holds"},
		{"a first-strong isolate in a block reason", `{"prompt": "hi", "block": {"x": "\u2068no"}}`, "x.json: line 1, column 33: block.x: must not hold the bidirectional control character U+2068: it would make the line read differently from what it holds"},
		{"an override in args", "{\"prompt\": \"hi\", \"replies\": [{\"toolCalls\": [{\"id\": \"a\", \"name\": \"x\", \"args\": {\"to\": \"\u202egnp.exe\"}}]}]}", "x.json: line 1, column 78: replies[0].toolCalls[0].args: must not hold the bidirectional control character U+202E: it would make the line read differently from what it holds"},
		{"a C1 control character in args", "{\"prompt\": \"hi\", \"replies\": [{\"toolCalls\": [{\"id\": \"a\", \"name\": \"x\", \"args\": [\"\u009b2J\"]}]}]}", "x.json: line 1, column 78: replies[0].toolCalls[0].args: must not hold the control character U+009B: the narrative prints text as it is"},
		{"a line separator in args", "{\"prompt\": \"hi\", \"replies\": [{\"toolCalls\": [{\"id\": \"a\", \"name\": \"x\", \"args\": \"a\u2028b\"}]}]}", "x.json: line 1, column 78: replies[0].toolCalls[0].args: must be one line: the narrative prints it on one"},
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
		{"message without text", `{"prompt": "hi", "steer": [{"at": "turn_end"}]}`, "x.json: line 1, column 28: steer[0].text: missing: a message needs a text"},
		{"blank follow-up", `{"prompt": "hi", "followUp": [{"text": " "}]}`, "x.json: line 1, column 40: followUp[0].text: blank: a message needs a text"},
		{"negative stop", `{"prompt": "hi", "stopAfterTurn": -1}`, "x.json: line 1, column 35: stopAfterTurn: must be 0 (never) or more, not -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertParseError(t, tt.json, tt.want)
		})
	}
}

// TestScenarioDefaultsMayBeWrittenOut: "" and false in a behaviour mean the
// same as a field left out, so they clash with nothing.
func TestScenarioDefaultsMayBeWrittenOut(t *testing.T) {
	for _, behaviour := range []string{
		`{"error": "e", "result": "", "terminate": false}`,
		`{"panic": "p", "error": "", "result": ""}`,
		`{"result": "ok", "error": "", "panic": "", "terminate": false}`,
	} {
		if _, err := Parse("x.json", []byte(`{"prompt": "hi", "tools": {"x": `+behaviour+`}}`)); err != nil {
			t.Errorf("a tool %s: %v", behaviour, err)
		}
	}
}

// TestTheFormatRefusesWhatChatRefuses: a text of a scenario may hold any
// character that prints as itself, right-to-left scripts included, and
// none that does not: the marks that set the direction of the text around
// them (U+200E, U+200F, U+061C), zero-width characters and tag characters
// are refused, as lab 06's -chat refuses them in a line a person types
// (both ask Unprintable).
func TestTheFormatRefusesWhatChatRefuses(t *testing.T) {
	// Written with an escape in the file, an override in args is text
	// that prints as \u202e, and is allowed.
	if _, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x", "args": {"to": "\u202egnp.exe"}}]}]}`)); err != nil {
		t.Errorf("args with an escaped override: %v", err)
	}

	for _, text := range []string{"مرحبا", "שלום", "你好，世界", "e\u0301"} {
		if _, err := Parse("x.json", []byte(`{"prompt": "`+text+`"}`)); err != nil {
			t.Errorf("the prompt %q: %v", text, err)
		}
	}
	for text, want := range map[string]string{
		"a\u200eb":     "the bidirectional control character U+200E",
		"a\u200fb":     "the bidirectional control character U+200F",
		"\u061c":       "the bidirectional control character U+061C",
		"a\u200bb":     "U+200B, a character that does not print as itself",
		"a\u2060b":     "U+2060, a character that does not print as itself",
		"a\U000E0041b": "U+E0041, a character that does not print as itself",
		"a\u00a0b":     "U+00A0, a character that does not print as itself",
	} {
		_, err := Parse("x.json", []byte(`{"prompt": "`+text+`"}`))
		if want := "prompt: must not hold " + want; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the prompt %q: error %v, want one that holds %q", text, err, want)
		}
	}
}

// TestUnprintableIsIsPrint: the one rule for a text's characters is
// unicode.IsPrint's, with the space, over the whole of Unicode; every
// character it refuses, a text of a scenario refuses.
func TestUnprintableIsIsPrint(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		text := "a" + string(r)
		got, found := Unprintable(text)
		want := r != ' ' && !unicode.IsPrint(r)
		if found != want || found && got != r {
			t.Fatalf("Unprintable(%q) = %U, %v; want %v", text, got, found, want)
		}
		// oneLine refuses what Unprintable finds: tried for every rune
		// up to U+3000, and for a sample of the rest, which the sweep of
		// Unprintable above covers whole.
		sampled := r <= 0x3000 || r%257 == 0
		if want && sampled && !strings.ContainsRune("\n\r\u2028\u2029", r) {
			if err := oneLine(jsonPath{"prompt"}, text); err == nil {
				t.Fatalf("oneLine accepts %U", r)
			}
		}
	}
}

// assertParseError checks that parsing data as x.json fails with want, after
// "scenario ".
func assertParseError(t *testing.T, data, want string) {
	t.Helper()
	_, err := Parse("x.json", []byte(data))
	var bad *Error
	if !errors.As(err, &bad) {
		t.Fatalf("Parse: error %v, want an *Error", err)
	}
	if want := "scenario " + want; err.Error() != want {
		t.Errorf("Parse: error %q, want %q", err, want)
	}
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
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x", "args": null}, {"id": "b", "name": "x", "args": {"k": null}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Replies[0].ToolCalls[0].Args); got != "null" {
		t.Errorf("replies[0].toolCalls[0].args = %s, want null", got)
	}
	if got, want := string(s.Replies[0].ToolCalls[1].Args), `{"k":null}`; got != want {
		t.Errorf("replies[0].toolCalls[1].args = %s, want %s", got, want)
	}
}

// deepArgs returns a scenario whose first call's args nest depth arrays;
// the args themselves are at depth 5.
func deepArgs(depth int) string {
	return `{"prompt":"hi","replies":[{"toolCalls":[{"id":"a","name":"x","args":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}]}]}`
}

func TestScenarioNestingIsLimited(t *testing.T) {
	if _, err := Parse("x.json", []byte(deepArgs(maxDepth-5))); err != nil {
		t.Fatalf("64 levels: %v", err)
	}
	// The 65th level is the 60th [ of args, at byte 68+59 of one line.
	assertParseError(t, deepArgs(maxDepth-4), "x.json: line 1, column 128: nested more than 64 levels deep: a scenario never needs that many")

	// The walk stops at the limit: it neither goes deeper nor builds a
	// path per level, so 100,000 levels cost what 65 do.
	deep := []byte(deepArgs(100_000))
	assertParseError(t, string(deep), "x.json: line 1, column 128: nested more than 64 levels deep: a scenario never needs that many")
	allocs := testing.AllocsPerRun(5, func() { _, _ = Parse("x.json", deep) })
	if allocs >= 1000 {
		t.Errorf("Parse of 100,000 levels allocates %v times, want fewer than 1000", allocs)
	}
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
		if _, err := Parse("x.json", []byte(call(id, strings.Repeat("n", 64)))); err != nil {
			t.Errorf("the call ID %s: %v", id, err)
		}
	}
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
		if _, err := Parse("x.json", []byte(with(at))); err != nil {
			t.Errorf("at %q: %v", at, err)
		}
	}
}

// FuzzParseScenario feeds the parser any bytes: each input is a scenario or
// an *Error, never a panic. Its seeds are lab 06's example scenarios, the
// corpus of malformed files and a few more.
func FuzzParseScenario(f *testing.F) {
	for _, pattern := range []string{"../../labs/06-steering/scenarios/*.json", "testdata/malformed/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		if len(files) == 0 {
			f.Fatalf("no file matches %s", pattern)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, seed := range []string{
		`{}`, `{"prompt":"x","tools":{"a":{"durationMs":1e9}}}`, `[`, `{"prompt":"x","Prompt":"y"}`, `{"prompt":"x","calls":{"a":{}}}`,
		`{"prompt":"x","replies":[null]}`, "\xef\xbb\xbf{}", "{\"prompt\":\"\xff\"}", deepArgs(maxDepth),
		`{"prompt":"x","replies":[{"toolCalls":[{"id":"a","name":"b"}]}],"steer":[{"text":"t","at":"tool_execution_end a error: x"}]}`,
		`{"prompt":"a\u202eb"}`, `{"prompt":"x","\u2066":1}`,
		`{"prompt":"x","nextPrompts":["y"],"replies":[{"text":"e","stopReason":"error","partial":"p q"},{"toolCalls":[{"id":"a","name":"b"}]}],` +
			`"tools":{"b":{"durationMs":5,"updates":["u"],"updatesAtMs":[2]}},"calls":{"a":{"block":"no"}},` +
			`"steer":[{"text":"s","at":"turn_end","occurrence":2}],"interrupts":[{"at":"tool_execution_start a","occurrence":1}]}`,
	} {
		f.Add([]byte(seed))
	}
	// The promise of "Strict parsing": one line that names the file, then
	// where, then the problem.
	oneLineError := regexp.MustCompile(`\Ascenario fuzz\.json: (line [1-9][0-9]*, column [1-9][0-9]*|file): [^\n]+\z`)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.json", data)
		if err != nil {
			var bad *Error
			if !errors.As(err, &bad) {
				t.Errorf("error %v, want an *Error", err)
			}
			if !oneLineError.MatchString(err.Error()) {
				t.Errorf("error %q, want it to match %s", err, oneLineError)
			}
			// Nor anything that a terminal would not print as it is.
			if !printsAsItself(err.Error()) {
				t.Errorf("error %q holds a character that does not print as itself", err)
			}
			return
		}
		if s.Prompt == nil && s.Runs == nil {
			t.Error("the scenario has neither a prompt nor runs")
		}
		if got, want := len(s.FakeTools()), len(s.Tools); got != want {
			t.Errorf("FakeTools() returns %d tools, want %d, one per entry of tools", got, want)
		}
		for _, text := range texts(s) {
			if _, found := Unprintable(text); found {
				t.Errorf("%q does not print as it is, on one line", text)
			}
		}
	})
}

// printsAsItself reports whether every character of s prints as itself.
func printsAsItself(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

// texts returns every text of s that the narrative prints as it is.
func texts(s *Scenario) []string {
	out := s.Prompts()
	for _, r := range s.allReplies() {
		out = append(out, r.Text, r.Partial)
		for _, c := range r.ToolCalls {
			out = append(out, string(c.Args))
		}
	}
	for _, m := range s.History {
		out = append(out, m.Text)
		for _, c := range m.ToolCalls {
			out = append(out, string(c.Args))
		}
	}
	for _, b := range append(slices.Collect(maps.Values(s.Tools)), slices.Collect(maps.Values(s.Calls))...) {
		for _, p := range []*string{b.Result, b.Error, b.Panic, b.Block} {
			out = append(out, value(p))
		}
		out = append(out, value(b.Updates)...)
		out = append(out, string(b.SetArgs))
	}
	for _, o := range s.AfterToolCall {
		out = append(out, value(o.Content))
	}
	for _, a := range s.WhileRunning {
		out = append(out, a.Prompt, a.At)
	}
	for _, reason := range s.Block {
		out = append(out, reason)
	}
	for _, m := range append(slices.Clone(s.Steer), s.FollowUp...) {
		out = append(out, m.Text, m.At)
	}
	for _, in := range s.Interrupts {
		out = append(out, in.At)
	}
	return out
}

// TestEveryMalformedFileIsRefused parses each file NAME.json of
// testdata/malformed and expects the message lab 06 printed for it before
// the parser moved here, kept beside it in NAME.txt.
func TestEveryMalformedFileIsRefused(t *testing.T) {
	files, err := filepath.Glob("testdata/malformed/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Fatalf("testdata/malformed holds %d scenario files, want at least 60", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "malformed", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			status, line, _ := strings.Cut(string(want), "\n")
			if status != "exit status 2" {
				t.Fatalf("%s.txt starts with %q, want %q", name, status, "exit status 2")
			}
			line = strings.TrimSuffix(strings.TrimPrefix(line, "error: "), "\n")
			line = strings.Replace(line, "fakemodel/scenario/"+file, file, 1)

			_, err = Load(context.Background(), file)
			var bad *Error
			if !errors.As(err, &bad) {
				t.Fatalf("Load: error %v, want an *Error", err)
			}
			if err.Error() != line {
				t.Errorf("Load: error %q, want %q", err, line)
			}
		})
	}
}

func TestToolNamesAndCallIDs(t *testing.T) {
	long := strings.Repeat("a", 64)
	for name, want := range map[string]bool{
		"lookup": true, "get_weather-2": true, long: true,
		"": false, long + "a": false, "a.b": false, "a b": false, "café": false, "a\n": false,
	} {
		if got := IsToolName(name); got != want {
			t.Errorf("IsToolName(%q) = %v, want %v", name, got, want)
		}
	}
	for id, want := range map[string]bool{
		"call_1": true, "toolu_01A": true, "fc.1:x-2": true, long: true,
		"": false, long + "a": false, "a b": false, "a/b": false, "a=b": false, "é": false,
	} {
		if got := IsCallID(id); got != want {
			t.Errorf("IsCallID(%q) = %v, want %v", id, got, want)
		}
	}
}
