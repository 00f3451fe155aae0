package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

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
