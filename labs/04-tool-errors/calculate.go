package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// calculator is the calculate tool.
var calculator = newTool(calculateSpec, checkCalculate, calculate)

// calculateSpec describes the calculator to the model.
var calculateSpec = fakemodel.ToolSpec{
	Name:        "calculate",
	Description: "Apply an arithmetic operation to two numbers.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"op": {"type": "string", "enum": ["add", "subtract", "multiply", "divide"]},
			"a": {"type": "number", "minimum": -9007199254740992, "maximum": 9007199254740992},
			"b": {"type": "number", "minimum": -9007199254740992, "maximum": 9007199254740992}
		},
		"required": ["op", "a", "b"],
		"additionalProperties": false
	}`),
}

// calculateArgs are the arguments of calculate.
type calculateArgs struct {
	Op string  `json:"op"`
	A  float64 `json:"a"`
	B  float64 `json:"b"`
}

// maxExact is 2⁵³: beyond it a float64 cannot hold every whole number, so a
// result could be silently wrong.
const maxExact = 1 << 53

// checkCalculate rejects arguments of the right type but out of range.
func checkCalculate(args calculateArgs) error {
	switch args.Op {
	case "add", "subtract", "multiply", "divide":
	default:
		return fmt.Errorf("field \"op\" must be add, subtract, multiply or divide, not %q", args.Op)
	}
	for _, v := range []struct {
		name  string
		value float64
	}{{"a", args.A}, {"b", args.B}} {
		if math.Abs(v.value) > maxExact {
			return fmt.Errorf("field %q must be within ±%d, not %g", v.name, maxExact, v.value)
		}
	}
	return nil
}

// calculate applies op to a and b. It fails only on division by zero:
// checkCalculate has ruled out everything else.
func calculate(ctx context.Context, args calculateArgs) (string, error) {
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
	}
	return strconv.FormatFloat(x, 'f', -1, 64), nil
}
