package main

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

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
	checkDecodeArgs[searchArgs](t, []decodeCase{
		{args: `{"query":"flights"}`},
		{args: `{}`, err: `missing field "query"`},
		{args: `{"query":"a","limit":3}`, err: `unknown field "limit"`},
		{args: `{"Query":"a"}`, err: `unknown field "Query"`},
		{args: `{"query":null}`, err: `field "query" must be a string, not null`},
		{args: `{"query":1}`, err: `field "query" must be a string, not a number`},
		{args: `[]`, err: `arguments must be a JSON object, not an array`},
		{args: `{"query":`, err: `arguments are not valid JSON: unexpected end of JSON input`},
	})
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

func TestSearch(t *testing.T) {
	tool := search(true)
	args, err := tool.decode(json.RawMessage(`{"query":"Oslo to Lima"}`))
	require.NoError(t, err)
	var reports []string
	got, err := tool.run(context.Background(), "call_1", args, func(p string) { reports = append(reports, p) })
	require.NoError(t, err)
	assert.Equal(t, ToolResult{Content: "3 flights, 1 direct: 480 € on 12 May", Terminate: true}, got)
	assert.Equal(t, []string{"asking 3 airlines"}, reports)

	_, err = tool.decode(json.RawMessage(`{"query":" "}`))
	assert.EqualError(t, err, `field "query" must not be empty`)
}

func TestFakeTool(t *testing.T) {
	tests := []struct {
		name    string
		b       behaviour
		want    ToolResult
		err     string
		updates []time.Duration // when each update came
	}{
		{name: "result", b: behaviour{Result: "ok", Duration: 90 * time.Millisecond}, want: ToolResult{Content: "ok"}},
		{name: "terminate", b: behaviour{Result: "ok", Terminate: true}, want: ToolResult{Content: "ok", Terminate: true}},
		{name: "error", b: behaviour{Error: "disk full", Duration: 10 * time.Millisecond}, err: "disk full"},
		{
			name:    "updates spread evenly",
			b:       behaviour{Result: "ok", Duration: 90 * time.Millisecond, Updates: []string{"1", "2"}},
			want:    ToolResult{Content: "ok"},
			updates: []time.Duration{30 * time.Millisecond, 60 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tool := fakeTool(nil, "x", tt.b, nil, false)
				start := time.Now()
				var updates []time.Duration
				got, err := tool.run(context.Background(), "id", map[string]any{}, func(string) { updates = append(updates, time.Since(start)) })
				assert.Equal(t, tt.b.Duration, time.Since(start), "the call takes its duration")
				assert.Equal(t, tt.updates, updates)
				if tt.err != "" {
					assert.EqualError(t, err, tt.err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

func TestFakeToolPanics(t *testing.T) {
	tool := fakeTool(nil, "x", behaviour{Panic: "boom"}, nil, false)
	assert.PanicsWithValue(t, "boom", func() { _, _ = tool.run(context.Background(), "id", nil, func(string) {}) })
}

func TestFakeToolPerCall(t *testing.T) {
	tool := fakeTool(nil, "x", behaviour{Result: "default"}, map[string]behaviour{"b": {Result: "special"}}, true)
	assert.True(t, tool.Sequential)
	for id, want := range map[string]string{"a": "default", "b": "special"} {
		got, err := tool.run(context.Background(), id, nil, func(string) {})
		require.NoError(t, err)
		assert.Equal(t, want, got.Content, id)
	}
}

// TestFakeToolTakesAnyObject checks the promise of scenarios/README.md: a
// fake tool takes any JSON object, even one with a number no float64 holds,
// and nothing else.
func TestFakeToolTakesAnyObject(t *testing.T) {
	tool := fakeTool(nil, "x", behaviour{}, nil, false)
	for _, args := range []string{`{}`, `{"n":1e999}`, `{"a":[null,{"b":true}]}`} {
		_, err := tool.decode(json.RawMessage(args))
		assert.NoError(t, err, args)
	}
	for _, args := range []string{`[1]`, `null`, `"x"`, `3`} {
		_, err := tool.decode(json.RawMessage(args))
		assert.EqualError(t, err, "arguments must be a JSON object", args)
	}
}

func TestFakeToolStopsWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		tool := fakeTool(nil, "x", behaviour{Result: "ok", Duration: time.Hour}, nil, false)
		start := time.Now()
		go func() {
			time.Sleep(time.Second)
			cancel()
		}()
		_, err := tool.run(ctx, "id", nil, func(string) {})
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, time.Second, time.Since(start))
	})
}

// TestSchemasMatchTheArguments keeps the schema the model reads in step with
// what decodeArgs accepts.
func TestSchemasMatchTheArguments(t *testing.T) {
	var schema struct {
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
	}
	require.NoError(t, json.Unmarshal(searchSpec.Parameters, &schema))
	assert.ElementsMatch(t, fieldNames[searchArgs](), schema.Required)
	assert.Len(t, schema.Properties, len(fieldNames[searchArgs]()))
	// The decoder refuses unknown fields: the schema must say so.
	if assert.NotNil(t, schema.AdditionalProperties) {
		assert.False(t, *schema.AdditionalProperties)
	}
}

// FuzzDecodeArguments feeds the search tool any bytes as arguments: each
// input is either accepted or refused with an error, and nothing panics.
func FuzzDecodeArguments(f *testing.F) {
	for _, seed := range []string{`{"query":"a"}`, `{}`, `{"query":1}`, `null`, `[]`, `{"Query":"a"}`} {
		f.Add([]byte(seed))
	}
	tool := search(false)
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := tool.decode(raw)
		if err == nil {
			assert.NotEmpty(t, args.(searchArgs).Query)
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
