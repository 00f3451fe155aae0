package main

import (
	"context"
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

// fakeTool returns a tool whose behaviour is data: the tool t of a scenario,
// or of the demo. It takes any JSON object as its arguments
// (scenario.Args), and each call does what t says for its ID
// (scenario.Action.Do), waiting on clock; with a nil clock, on the
// machine's clock.
func fakeTool(clock *democlock.Clock, t scenario.Tool) Tool {
	return Tool{
		Spec:       t.Spec(),
		Sequential: t.Sequential,
		decode:     func(raw json.RawMessage) (any, error) { return scenario.Args(raw) },
		run: func(ctx context.Context, toolCallID string, _ any, report func(string)) (ToolResult, error) {
			content, terminate, err := t.Call(toolCallID).Do(ctx, clock, toolCallID, report)
			return ToolResult{Content: content, Terminate: terminate}, err
		},
	}
}
