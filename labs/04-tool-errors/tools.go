package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Tool is code the model may ask the loop to run: the description the
// model reads, and the code behind it. Build one with newTool.
type Tool struct {
	// Spec is what the model reads about the tool.
	Spec fakemodel.ToolSpec
	// decode checks the arguments the model wrote and turns them into the
	// typed value run expects.
	decode func(raw json.RawMessage) (any, error)
	run    func(ctx context.Context, args any) (string, error)
}

// newTool builds a Tool whose arguments are decoded strictly into an A
// (toolargs.Decode) and then checked by check, if it is not nil, before run
// sees them. So run only ever gets arguments it can work with.
func newTool[A any](spec fakemodel.ToolSpec, check func(A) error, run func(context.Context, A) (string, error)) Tool {
	return Tool{
		Spec: spec,
		decode: func(raw json.RawMessage) (any, error) {
			args, err := toolargs.Decode[A](raw)
			if err == nil && check != nil {
				err = check(args)
			}
			return args, err
		},
		run: func(ctx context.Context, args any) (string, error) {
			return run(ctx, args.(A))
		},
	}
}

// specs returns the descriptions of tools, as a request carries them.
func specs(tools []Tool) []fakemodel.ToolSpec {
	out := make([]fakemodel.ToolSpec, len(tools))
	for i, t := range tools {
		out[i] = t.Spec
	}
	return out
}

// findTool returns the tool with this name.
func findTool(tools []Tool, name string) (Tool, bool) {
	i := slices.IndexFunc(tools, func(t Tool) bool { return t.Spec.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return tools[i], true
}

// execute runs the tool that call names, and always returns a result for
// call. A call that fails, at any point, gets a result marked as an error
// whose text tells the model what went wrong, in Pi's words where Pi has
// them: an unknown tool, arguments the tool does not take, an error from
// the tool, and, since a Go tool can panic, a panic.
func execute(ctx context.Context, tools []Tool, call fakemodel.ToolCall) (result fakemodel.ToolResultMessage) {
	// exercise: execute
	result = fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name}
	fail := func(format string, a ...any) fakemodel.ToolResultMessage {
		result.Content, result.IsError = fmt.Sprintf(format, a...), true
		return result
	}

	tool, ok := findTool(tools, call.Name)
	if !ok {
		return fail("Tool %s not found", call.Name)
	}
	args, err := tool.decode(call.Arguments)
	if err != nil {
		return fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)
	}
	defer func() {
		// A bug in one tool must not take the whole agent down.
		if v := recover(); v != nil {
			result = fail("Tool %q panicked: %v", call.Name, v)
		}
	}()
	output, err := tool.run(ctx, args)
	if err != nil {
		return fail("%v", err)
	}
	result.Content = output
	return result
	// end of exercise: execute
}
