package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Tool is code the model may ask the loop to run: the description the
// model reads, and the function the loop calls.
type Tool struct {
	// Spec is what the model reads about the tool.
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
