package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Tool is code the model may ask the loop to run: the description the
// model reads, and the function the loop calls.
type Tool struct {
	Spec fakemodel.ToolSpec
	// Run executes the tool with the arguments the model wrote.
	Run func(ctx context.Context, args json.RawMessage) (string, error)
}

// specs returns the descriptions of tools, as a request carries them.
func specs(tools []Tool) []fakemodel.ToolSpec {
	out := make([]fakemodel.ToolSpec, len(tools))
	for i, t := range tools {
		out[i] = t.Spec
	}
	return out
}

// execute runs the tool that call names.
func execute(ctx context.Context, tools []Tool, call fakemodel.ToolCall) (string, error) {
	for _, t := range tools {
		if t.Spec.Name == call.Name {
			output, err := t.Run(ctx, call.Arguments)
			if err != nil {
				return "", fmt.Errorf("run %s: %w", call.Name, err)
			}
			return output, nil
		}
	}
	return "", fmt.Errorf("the model asked for %s, and there is no such tool", call.Name)
}

// calculator is the one tool of this lab.
var calculator = Tool{Spec: calculateSpec, Run: calculate}

// calculateSpec describes the calculator to the model.
var calculateSpec = fakemodel.ToolSpec{
	Name:        "calculate",
	Description: "Apply an arithmetic operation to two numbers.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"op": {"type": "string", "enum": ["add", "subtract", "multiply", "divide"]},
			"a": {"type": "number"},
			"b": {"type": "number"}
		},
		"required": ["op", "a", "b"],
		"additionalProperties": false
	}`),
}

// calculate applies op to a and b.
func calculate(ctx context.Context, raw json.RawMessage) (string, error) {
	var args struct {
		Op string  `json:"op"`
		A  float64 `json:"a"`
		B  float64 `json:"b"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return "", fmt.Errorf("decode arguments: %w", err)
	}
	var x float64
	switch args.Op {
	case "add":
		x = args.A + args.B
	case "subtract":
		x = args.A - args.B
	case "multiply":
		x = args.A * args.B
	case "divide":
		if args.B == 0 {
			return "", errors.New("division by zero")
		}
		x = args.A / args.B
	default:
		return "", fmt.Errorf("unknown op %q", args.Op)
	}
	return strconv.FormatFloat(x, 'f', -1, 64), nil
}
