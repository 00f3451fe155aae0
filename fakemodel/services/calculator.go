package services

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// CalculateSpec describes the calculator to the model. It is lab 04's
// calculateSpec.
var CalculateSpec = fakemodel.ToolSpec{
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

// CalculateArgs are the arguments of the calculator.
type CalculateArgs struct {
	// Op is add, subtract, multiply or divide.
	Op string `json:"op"`
	// A is the left operand: the calculator works out A op B.
	A float64 `json:"a"`
	// B is the right operand.
	B float64 `json:"b"`
}

// maxExact is 2⁵³: beyond it a float64 cannot hold every whole number, so a
// result could be silently wrong.
const maxExact = 1 << 53

// CheckCalculate rejects arguments of the right type but out of range: an
// operation other than the four, and an operand beyond ±2⁵³. It is lab 04's
// checkCalculate.
func CheckCalculate(args CalculateArgs) error {
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

// Calculate applies args.Op to args.A and args.B. It fails only on division
// by zero: CheckCalculate has ruled out everything else. It is lab 04's
// calculate.
func Calculate(ctx context.Context, _ string, args CalculateArgs, report func(partial string)) (string, error) {
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
