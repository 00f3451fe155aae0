package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
)

// TestTheSharedCalculatorIsThisOne keeps the calculator of
// fakemodel/services, which later labs can offer a model, in step with the
// one this lab teaches: the same description, the same checks with the same
// messages, and the same answers. Change one, and this test asks you to
// change the other.
func TestTheSharedCalculatorIsThisOne(t *testing.T) {
	expected.Equal(t, calculateSpec.Name, services.CalculateSpec.Name, "the same name")
	expected.Equal(t, calculateSpec.Description, services.CalculateSpec.Description, "the same description")
	var schema, sharedSchema any
	if expected.NoError(t, json.Unmarshal(calculateSpec.Parameters, &schema), "this lab's schema is JSON") &&
		expected.NoError(t, json.Unmarshal(services.CalculateSpec.Parameters, &sharedSchema), "the shared schema is JSON") {
		expected.Equal(t, schema, sharedSchema, "the same schema, as JSON")
	}

	for _, args := range []calculateArgs{
		{Op: "add", A: 2, B: 3},
		{Op: "subtract", A: 2, B: 3},
		{Op: "multiply", A: 23, B: 17},
		{Op: "divide", A: 100, B: 4},
		{Op: "divide", A: 1, B: 3},
		{Op: "divide", A: 1, B: 0},
		{Op: "add", A: 0.1, B: 0.2},
		{Op: "multiply", A: -1e15, B: 1e15},
		{Op: "power", A: 2, B: 3},
		{Op: "", A: 2, B: 3},
		{Op: "add", A: 1e20, B: 3},
		{Op: "add", A: 2, B: -1e16},
		{Op: "add", A: 1 << 53, B: -(1 << 53)},
	} {
		shared := services.CalculateArgs{Op: args.Op, A: args.A, B: args.B}
		checked := checkCalculate(args)
		expected.Equal(t, errorText(checked), errorText(services.CheckCalculate(shared)), "the checks of %+v", args)
		if checked != nil {
			continue
		}
		got, err := calculate(context.Background(), args)
		sharedGot, sharedErr := services.Calculate(context.Background(), "call_1", shared, func(string) {})
		expected.Equal(t, got, sharedGot, "the answers to %+v", args)
		expected.Equal(t, errorText(err), errorText(sharedErr), "the errors of %+v", args)
	}
}

// errorText is err's message, or "" for no error.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
