package main

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A decodeCase is arguments and the error decodeArgs must give, "" for
// none.
type decodeCase struct {
	args, err string
}

// checkDecodeArgs decodes each case's arguments into an A.
func checkDecodeArgs[A any](t *testing.T, tests []decodeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			_, err := decodeArgs[A](json.RawMessage(tt.args))
			if tt.err == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.err)
			}
		})
	}
}

func TestDecodeArgs(t *testing.T) {
	checkDecodeArgs[writeArgs](t, []decodeCase{
		{args: `{"path":"a","text":"b"}`},
		{args: `{"text":"b","path":"a"}`},
		{args: `{"path":"a"}`, err: `missing field "text"`},
		{args: `{"path":"a","text":"b","mode":"x"}`, err: `unknown field "mode"`},
		{args: `{"path":1,"text":"b"}`, err: `field "path" must be a string, not a number`},
		{args: `{"path":null,"text":"b"}`, err: `field "path" must be a string, not null`},
		{args: `{"Path":"a","Text":"b"}`, err: `unknown field "Path"`},
		{args: `{"path":"a","text":"b"} {}`, err: `arguments are not valid JSON: invalid character '{' after top-level value`},
		{args: `[]`, err: `arguments must be a JSON object, not an array`},
		{args: `null`, err: `arguments must be a JSON object, not null`},
		{args: `{"path":`, err: `arguments are not valid JSON: unexpected end of JSON input`},
	})
}

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

// TestSchemasMatchTheArguments keeps the schema each model reads in step with
// what decodeArgs accepts: the same fields, all of them required.
func TestSchemasMatchTheArguments(t *testing.T) {
	tests := []struct {
		spec   fakemodel.ToolSpec
		fields []string
	}{
		{weatherSpec, fieldNames[weatherArgs]()},
		{writeSpec, fieldNames[writeArgs]()},
		{readSpec, fieldNames[pathArgs]()},
		{rmSpec, fieldNames[pathArgs]()},
	}
	for _, tt := range tests {
		var schema struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		require.NoError(t, json.Unmarshal(tt.spec.Parameters, &schema), tt.spec.Name)
		assert.ElementsMatch(t, tt.fields, schema.Required, tt.spec.Name)
		properties := make([]string, 0, len(schema.Properties))
		for name := range schema.Properties {
			properties = append(properties, name)
		}
		slices.Sort(properties)
		assert.ElementsMatch(t, tt.fields, properties, tt.spec.Name)
		// The decoder refuses unknown fields: the schema must say so.
		if assert.NotNil(t, schema.AdditionalProperties, tt.spec.Name) {
			assert.False(t, *schema.AdditionalProperties, tt.spec.Name)
		}
	}
}

// numbers are arguments of a kind no tool of this lab takes: decodeArgs is
// the same as lab 04's, and these cases keep its numbers and lists checked.
type numbers struct {
	N     float64 `json:"n"`
	Count []int   `json:"count"`
}

func TestDecodeArgsNumbersAndLists(t *testing.T) {
	checkDecodeArgs[numbers](t, []decodeCase{
		{args: `{"n":1,"count":[1,2]}`},
		{args: `{"n":1e400,"count":[1]}`, err: `field "n" is out of range: 1e400`},
		{args: `{"n":1,"count":[-1e30]}`, err: `field "count" is out of range: -1e30`},
		{args: `{"n":1,"count":[1e3]}`, err: `field "count" must be a whole number without a fraction or exponent, not 1e3`},
		{args: `{"n":1,"count":[1.5]}`, err: `field "count" must be a whole number, not 1.5`},
		{args: `{"n":1,"count":[1,null]}`, err: `field "count" must not contain null`},
		{args: `{"n":1,"count":null}`, err: `field "count" must be an array, not null`},
	})
}

// FuzzDecodeArguments feeds write's decoder any bytes. Nothing may panic,
// and an input it accepts must be a JSON object with exactly the keys path
// and text, neither of them null.
func FuzzDecodeArguments(f *testing.F) {
	for _, seed := range []string{`{"path":"a","text":"b"}`, `{"path":"a"}`, `{"path":1}`, `null`, `[]`, `{"path":"a","text":"b","x":1}`, `{"path":null,"text":"b"}`, `{"Path":"a","text":"b"}`} {
		f.Add([]byte(seed))
	}
	write := noteTools()[0]
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := write.decode(raw)
		if err != nil {
			return
		}
		_, ok := args.(writeArgs)
		assert.True(t, ok)
		var object map[string]any
		require.NoError(t, json.Unmarshal(raw, &object), "accepted arguments are a JSON object")
		assert.ElementsMatch(t, []string{"path", "text"}, slices.Collect(maps.Keys(object)))
		for key, value := range object {
			assert.NotNil(t, value, "accepted %q is not null", key)
		}
	})
}

// fieldNames returns the JSON names of A's fields, in their order: the
// fields decodeArgs requires.
func fieldNames[A any]() []string {
	var names []string
	for _, f := range jsonFields[A]() {
		names = append(names, f.name)
	}
	return names
}
