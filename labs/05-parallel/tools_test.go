package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotebook runs the note tools as the loop does, through decode and run:
// write is sequential, so that a read in its batch sees what it wrote.
// (fakemodel/services tests the notebook itself, and labs/toolargs the
// decoder.)
func TestNotebook(t *testing.T) {
	tools := noteTools()
	require.Len(t, tools, 3)
	write, read, rm := tools[0], tools[1], tools[2]
	assert.True(t, write.Sequential, "write must not overlap with a read of the same note")
	assert.False(t, read.Sequential)

	runTool := func(tool Tool, args string) (string, error) {
		decoded, err := tool.decode(json.RawMessage(args))
		require.NoError(t, err)
		return tool.run(context.Background(), "call_1", decoded, func(string) {})
	}
	out, err := runTool(write, `{"path":"a","text":"hello"}`)
	require.NoError(t, err)
	assert.Equal(t, "wrote 5 bytes to a", out)
	out, err = runTool(read, `{"path":"a"}`)
	require.NoError(t, err)
	assert.Equal(t, "hello", out)
	out, err = runTool(rm, `{"path":"a"}`)
	require.NoError(t, err)
	assert.Equal(t, "deleted a", out)
	_, err = runTool(read, `{"path":"a"}`)
	assert.EqualError(t, err, "no note at a")
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
		assert.EqualError(t, err, tt.err, "%s %s", tt.tool.Spec.Name, tt.args)
	}
}

func TestRedactSecrets(t *testing.T) {
	got, err := redactSecrets(context.Background(), AfterToolCallContext{Result: "key sk-live-42 and sk-test-1"})
	require.NoError(t, err)
	require.NotNil(t, got.Content)
	assert.Equal(t, "key [redacted] and [redacted]", *got.Content)
	assert.Nil(t, got.IsError, "the error flag is left alone")

	got, err = redactSecrets(context.Background(), AfterToolCallContext{Result: "nothing secret"})
	require.NoError(t, err)
	assert.Equal(t, AfterToolCallResult{}, got, "a clean result is kept as it is")
}
