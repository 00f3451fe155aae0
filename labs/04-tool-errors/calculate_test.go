package main

import (
	"context"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
	"github.com/stretchr/testify/assert"
)

// TestTheSharedCalculatorIsThisOne keeps the calculator of
// fakemodel/services, which later labs can offer a model, in step with the
// one this lab teaches: the same description, the same checks with the same
// messages, and the same answers. Change one, and this test asks you to
// change the other.
func TestTheSharedCalculatorIsThisOne(t *testing.T) {
	assert.Equal(t, calculateSpec.Name, services.CalculateSpec.Name)
	assert.Equal(t, calculateSpec.Description, services.CalculateSpec.Description)
	assert.JSONEq(t, string(calculateSpec.Parameters), string(services.CalculateSpec.Parameters))

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
		assert.Equal(t, errorText(checked), errorText(services.CheckCalculate(shared)), "the checks of %+v", args)
		if checked != nil {
			continue
		}
		got, err := calculate(context.Background(), args)
		sharedGot, sharedErr := services.Calculate(context.Background(), "call_1", shared, func(string) {})
		assert.Equal(t, got, sharedGot, "the answers to %+v", args)
		assert.Equal(t, errorText(err), errorText(sharedErr), "the errors of %+v", args)
	}
}

// errorText is err's message, or "" for no error.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
