package main

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// The tests of execute check the lab's first exercise, in the README's
// "Build it yourself": a call that works gets the tool's output, and every
// call that fails gets a result marked as an error, in Pi's words. One test
// per rule, in the order of the exercise; each test's messages name its rule.
// Each call runs under failOnPanic (main_test.go), so that a panic that
// escapes execute fails its test instead of crashing every test.

// A toolCall is a call of one of the lab's tools, and the text of the result
// execute must return for it.
type toolCall struct {
	name, tool, args string
	want             string
}

// checkResults runs each call through execute with both tools, each call a
// subtest, and checks its result against rule: its text, whether it is
// marked as an error, and that it answers the call.
func checkResults(t *testing.T, rule string, isError bool, calls []toolCall) {
	t.Helper()
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			defer failOnPanic(t)
			call := fakemodel.ToolCall{ID: "id", Name: tc.tool, Arguments: json.RawMessage(tc.args)}
			got := execute(context.Background(), []Tool{calculator, average}, call)
			expected.Equal(t, tc.want, got.Content, "%s: the result's text", rule)
			if isError {
				expected.Equal(t, true, got.IsError, "%s: the result is marked as an error (IsError), so that the model can tell a failure from a value", rule)
			} else {
				expected.Equal(t, false, got.IsError, "%s: a call that works is not marked as an error (IsError)", rule)
			}
			expected.Equal(t, "id", got.ToolCallID, "the result answers the call: it carries the call's ID")
			expected.Equal(t, tc.tool, got.ToolName, "the result names the tool the call named")
		})
	}
}

func TestExecuteReturnsTheToolsOutput(t *testing.T) {
	checkResults(t, "a call that works gets a result with the tool's output", false, []toolCall{
		{name: "multiply", tool: "calculate", args: `{"op":"multiply","a":23,"b":17}`, want: "391"},
		{name: "add", tool: "calculate", args: `{"op":"add","a":2,"b":3}`, want: "5"},
		{name: "subtract", tool: "calculate", args: `{"op":"subtract","a":2,"b":3}`, want: "-1"},
		{name: "a fraction", tool: "calculate", args: `{"op":"divide","a":1,"b":3}`, want: "0.3333333333333333"},
		{name: "order of fields does not matter", tool: "calculate", args: `{"b":4,"a":100,"op":"divide"}`, want: "25"},
		{name: "average", tool: "average", args: `{"numbers":[1,2,4]}`, want: "2"},
	})
}

func TestExecuteTurnsAnUnknownToolIntoAnErrorResult(t *testing.T) {
	checkResults(t, `a call of a tool that does not exist gets an error result, "Tool NAME not found"`, true, []toolCall{
		{name: "unknown tool", tool: "weather", args: `{}`, want: "Tool weather not found"},
	})
}

func TestExecuteTurnsBadArgumentsIntoAnErrorResult(t *testing.T) {
	const validation = `Validation failed for tool "calculate": `
	checkResults(t, `arguments the tool does not take get an error result in Pi's words, "Validation failed for tool "NAME": PROBLEM. Received arguments: ARGUMENTS"`, true, []toolCall{
		{name: "not JSON", tool: "calculate", args: `{"op":`, want: validation + `arguments are not valid JSON: unexpected end of JSON input. Received arguments: {"op":`},
		{name: "empty", tool: "calculate", args: ``, want: validation + `arguments are not valid JSON: unexpected end of JSON input. Received arguments: `},
		{name: "trailing data", tool: "calculate", args: `{"op":"add","a":1,"b":2} {}`, want: validation + `arguments are not valid JSON: invalid character '{' after top-level value. Received arguments: {"op":"add","a":1,"b":2} {}`},
		{name: "array", tool: "calculate", args: `[1,2]`, want: validation + `arguments must be a JSON object, not an array. Received arguments: [1,2]`},
		{name: "null", tool: "calculate", args: `null`, want: validation + `arguments must be a JSON object, not null. Received arguments: null`},
		{name: "wrong type", tool: "calculate", args: `{"op":"add","a":"2","b":3}`, want: validation + `field "a" must be a number, not a string. Received arguments: {"op":"add","a":"2","b":3}`},
		{name: "wrong type of op", tool: "calculate", args: `{"op":1,"a":2,"b":3}`, want: validation + `field "op" must be a string, not a number. Received arguments: {"op":1,"a":2,"b":3}`},
		{name: "missing field", tool: "calculate", args: `{"op":"add","a":2}`, want: validation + `missing field "b". Received arguments: {"op":"add","a":2}`},
		{name: "unknown field", tool: "calculate", args: `{"op":"add","a":2,"b":3,"c":4}`, want: validation + `unknown field "c". Received arguments: {"op":"add","a":2,"b":3,"c":4}`},
		{name: "op out of range", tool: "calculate", args: `{"op":"power","a":2,"b":3}`, want: validation + `field "op" must be add, subtract, multiply or divide, not "power". Received arguments: {"op":"power","a":2,"b":3}`},
		{name: "number out of range", tool: "calculate", args: `{"op":"add","a":2,"b":-1e16}`, want: validation + `field "b" must be within ±9007199254740992, not -1e+16. Received arguments: {"op":"add","a":2,"b":-1e16}`},
		{name: "number too large for float64", tool: "calculate", args: `{"op":"add","a":1e400,"b":1}`, want: validation + `field "a" is out of range: 1e400. Received arguments: {"op":"add","a":1e400,"b":1}`},
		{name: "a null field", tool: "calculate", args: `{"op":"add","a":null,"b":2}`, want: validation + `field "a" must be a number, not null. Received arguments: {"op":"add","a":null,"b":2}`},
		{name: "null in a list", tool: "average", args: `{"numbers":[1,null]}`, want: `Validation failed for tool "average": field "numbers" must not contain null. Received arguments: {"numbers":[1,null]}`},
		{name: "null list", tool: "average", args: `{"numbers":null}`, want: `Validation failed for tool "average": field "numbers" must be an array, not null. Received arguments: {"numbers":null}`},
		{name: "name in another case", tool: "calculate", args: `{"op":"add","a":1,"b":2,"A":5}`, want: validation + `unknown field "A". Received arguments: {"op":"add","a":1,"b":2,"A":5}`},
		{name: "only names in another case", tool: "calculate", args: `{"Op":"add","A":1,"B":2}`, want: validation + `unknown field "A". Received arguments: {"Op":"add","A":1,"B":2}`},
		{name: "not a whole number", tool: "average", args: `{"numbers":[1.5]}`, want: `Validation failed for tool "average": field "numbers" must be a whole number, not 1.5. Received arguments: {"numbers":[1.5]}`},
		{name: "a whole number too large", tool: "average", args: `{"numbers":[-1e30]}`, want: `Validation failed for tool "average": field "numbers" is out of range: -1e30. Received arguments: {"numbers":[-1e30]}`},
		{name: "a whole number with an exponent", tool: "average", args: `{"numbers":[1e3]}`, want: `Validation failed for tool "average": field "numbers" must be a whole number without a fraction or exponent, not 1e3. Received arguments: {"numbers":[1e3]}`},
	})
}

func TestExecuteChecksArgumentsBeforeTheToolRuns(t *testing.T) {
	defer failOnPanic(t)
	ran := false
	tool := newTool(calculateSpec, checkCalculate, func(context.Context, calculateArgs) (string, error) {
		ran = true
		return "", nil
	})
	got := execute(context.Background(), []Tool{tool}, fakemodel.ToolCall{Name: "calculate", Arguments: json.RawMessage(`{"op":"add"}`)})
	expected.Equal(t, true, got.IsError, "arguments the tool does not take get an error result")
	expected.Equal(t, false, ran, "a call with bad arguments must never reach the tool")
}

func TestExecuteTurnsAToolErrorIntoAnErrorResult(t *testing.T) {
	checkResults(t, "an error the tool returns becomes an error result with the error's text", true, []toolCall{
		{name: "division by zero", tool: "calculate", args: `{"op":"divide","a":1,"b":0}`, want: "division by zero"},
	})
}

func TestExecutePassesTheContextToTheTool(t *testing.T) {
	defer failOnPanic(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tool := newTool(calculateSpec, nil, func(ctx context.Context, _ calculateArgs) (string, error) {
		return "", ctx.Err()
	})
	got := execute(ctx, []Tool{tool}, fakemodel.ToolCall{Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":1,"b":2}`)})
	expected.Equal(t, "context canceled", got.Content, "the tool gets execute's context")
	expected.Equal(t, true, got.IsError, "the tool's error is an error result")
}

func TestExecuteRecoversAPanicIntoAnErrorResult(t *testing.T) {
	checkResults(t, `a panic in a tool is recovered into an error result, "Tool "NAME" panicked: VALUE"`, true, []toolCall{
		{name: "panic", tool: "average", args: `{"numbers":[]}`, want: `Tool "average" panicked: runtime error: integer divide by zero`},
	})
}

// TestSchemasMatchTheArguments keeps the schema each model reads in step with
// what toolargs.Decode accepts: the same fields, all of them required.
func TestSchemasMatchTheArguments(t *testing.T) {
	tests := []struct {
		spec   fakemodel.ToolSpec
		fields []string
	}{
		{calculateSpec, toolargs.Fields[calculateArgs]()},
		{averageSpec, toolargs.Fields[averageArgs]()},
	}
	for _, tt := range tests {
		var schema struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if !expected.NoError(t, json.Unmarshal(tt.spec.Parameters, &schema), "%s: the schema is JSON", tt.spec.Name) {
			return
		}
		fields := slices.Sorted(slices.Values(tt.fields))
		expected.Equal(t, fields, slices.Sorted(slices.Values(schema.Required)), "%s: the schema requires the fields the decoder takes, in any order", tt.spec.Name)
		expected.Equal(t, fields, slices.Sorted(maps.Keys(schema.Properties)), "%s: the schema has a property for each field the decoder takes, in any order", tt.spec.Name)
		// The decoder refuses unknown fields: the schema must say so.
		if expected.True(t, schema.AdditionalProperties != nil, "%s: the schema sets additionalProperties", tt.spec.Name) {
			expected.Equal(t, false, *schema.AdditionalProperties, "%s: the schema refuses other fields (additionalProperties)", tt.spec.Name)
		}
	}
}

// FuzzDecodeArguments feeds calculate any bytes as arguments. Nothing may
// panic, and each input must end one of two ways. Accepted: the input is a
// JSON object with exactly the keys op, a and b, none of them null, and the
// tool answers with a number, or "division by zero". Refused: the result is
// an error that says validation failed.
func FuzzDecodeArguments(f *testing.F) {
	seeds := []string{
		`{"op":"add","a":2,"b":3}`, `{"op":"subtract","a":2,"b":3}`, `{"op":"multiply","a":23,"b":17}`,
		`{"op":"divide","a":100,"b":4}`, `{"op":"divide","a":1,"b":0}`, `{"op":"add","a":2,`,
		`{"op":"add","a":"2","b":3}`, `{"op":"add","a":2}`, `{"op":"add","a":2,"b":3,"c":4}`,
		`{"op":"power","a":2,"b":3}`, `{"op":"multiply","a":1e20,"b":3}`, `null`, `[]`, `""`,
		`{"op":null,"a":1,"b":2}`, `{"op":"add","a":1,"b":2,"A":5}`,
	}
	for _, seed := range seeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, err := calculator.decode(raw)
		result := execute(context.Background(), []Tool{calculator}, fakemodel.ToolCall{Name: "calculate", Arguments: raw})
		if err != nil {
			expected.Equal(t, true, result.IsError, "refused arguments get an error result")
			expected.True(t, strings.HasPrefix(result.Content, `Validation failed for tool "calculate": `), "the result of refused arguments says validation failed: %s", result.Content)
			return
		}
		var object map[string]any
		if !expected.NoError(t, json.Unmarshal(raw, &object), "accepted arguments are a JSON object") {
			return
		}
		expected.Equal(t, []string{"a", "b", "op"}, slices.Sorted(maps.Keys(object)), "accepted arguments have the keys op, a and b, and no other")
		for key, value := range object {
			expected.True(t, value != nil, "accepted %q is not null", key)
		}
		if result.IsError {
			expected.Equal(t, "division by zero", result.Content, "the only error of accepted arguments")
			return
		}
		_, perr := strconv.ParseFloat(result.Content, 64)
		expected.NoError(t, perr, "the answer is a number")
	})
}
