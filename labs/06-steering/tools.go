package main

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Tool is code the model may ask the loop to run: the description the
// model reads, and the code behind it. This lab's tools are fake tools,
// whose behaviour is data (fakeTool); labs 04 and 05 build typed ones with
// newTool.
type Tool struct {
	// Spec is what the model reads about the tool.
	Spec fakemodel.ToolSpec
	// Sequential marks a tool that must not run alongside others, such as
	// one that writes a file others may read. A batch with such a call runs
	// one call at a time. It is Pi's executionMode: "sequential".
	Sequential bool
	// decode checks the arguments the model wrote and turns them into the
	// value run expects.
	decode func(raw json.RawMessage) (any, error)
	// run executes the call with this ID, like Pi's execute(toolCallId,
	// args, signal, onUpdate). It may call report to tell the user how
	// far it got; a report after run returns is dropped, as Pi drops it.
	run func(ctx context.Context, toolCallID string, args any, report func(partial string)) (ToolResult, error)
}

// A ToolResult is what a tool returns.
type ToolResult struct {
	// Content is the text the model reads.
	Content string
	// Terminate asks the loop not to ask the model again after this batch.
	// It takes effect only if every result of the batch asks for it, and
	// a queued steering or follow-up message still gets its turn.
	Terminate bool
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
