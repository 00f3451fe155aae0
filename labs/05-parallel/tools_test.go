package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestNotebook runs the note tools as the loop does, through decode and run:
// write is sequential, so that a read in its batch sees what it wrote.
// (fakemodel/services tests the notebook itself, and labs/toolargs the
// decoder.)
func TestNotebook(t *testing.T) {
	tools := noteTools()
	if !expected.Equal(t, 3, len(tools), "the note tools: write, read and rm") {
		return
	}
	write, read, rm := tools[0], tools[1], tools[2]
	expected.Equal(t, true, write.Sequential, "write must not overlap with a read of the same note")
	expected.Equal(t, false, read.Sequential, "read may run in parallel")

	runTool := func(tool Tool, args string) (string, error) {
		decoded, err := tool.decode(json.RawMessage(args))
		if !expected.NoError(t, err, "%s decodes %s", tool.Spec.Name, args) {
			t.FailNow()
		}
		return tool.run(context.Background(), "call_1", decoded, func(string) {})
	}
	out, err := runTool(write, `{"path":"a","text":"hello"}`)
	if !expected.NoError(t, err, "write a note") {
		return
	}
	expected.Equal(t, "wrote 5 bytes to a", out, "what write says")
	out, err = runTool(read, `{"path":"a"}`)
	if !expected.NoError(t, err, "read the note") {
		return
	}
	expected.Equal(t, "hello", out, "read returns what write wrote")
	out, err = runTool(rm, `{"path":"a"}`)
	if !expected.NoError(t, err, "delete the note") {
		return
	}
	expected.Equal(t, "deleted a", out, "what rm says")
	_, err = runTool(read, `{"path":"a"}`)
	expected.EqualError(t, err, "no note at a", "a deleted note cannot be read")
}

// TestToolsDecodeStrictlyAndCheck checks that newTool hands the model's
// arguments to labs/toolargs, then to the tool's check, before the tool
// runs: each refusal is an error that the loop turns into "Validation failed
// for tool ...".
func TestToolsDecodeStrictlyAndCheck(t *testing.T) {
	tests := []struct {
		tool Tool
		args string
		err  string
	}{
		{noteTools()[0], `{"path":"a"}`, `missing field "text"`},
		{noteTools()[0], `{"Path":"a","Text":"b"}`, `unknown field "Path"`},
		{noteTools()[1], `{"path":null}`, `field "path" must be a string, not null`},
		{weatherTool(nil), `{"city":""}`, `field "city" must not be empty`},
		{weatherTool(nil), `{"city":"Oslo"} {}`, `arguments are not valid JSON: invalid character '{' after top-level value`},
	}
	for _, tt := range tests {
		_, err := tt.tool.decode(json.RawMessage(tt.args))
		expected.EqualError(t, err, tt.err, "%s %s: decode refuses the arguments", tt.tool.Spec.Name, tt.args)
	}
}

func TestRedactSecrets(t *testing.T) {
	got, err := redactSecrets(context.Background(), AfterToolCallContext{Result: "key sk-live-42 and sk-test-1"})
	if !expected.NoError(t, err, "redactSecrets returns no error") {
		return
	}
	if !expected.True(t, got.Content != nil, "a result with secrets gets a new text") {
		return
	}
	expected.Equal(t, "key [redacted] and [redacted]", *got.Content, "the secrets are redacted")
	expected.Equal(t, nil, got.IsError, "the error flag is left alone")

	got, err = redactSecrets(context.Background(), AfterToolCallContext{Result: "nothing secret"})
	if !expected.NoError(t, err, "redactSecrets returns no error") {
		return
	}
	expected.Equal(t, AfterToolCallResult{}, got, "a clean result is kept as it is")
}
