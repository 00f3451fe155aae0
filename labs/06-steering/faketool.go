package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A behaviour says what a fake tool does when it is called. The demo's tools,
// the tools of a scenario file and many tests are fake tools.
type behaviour struct {
	// Result is the text the call returns.
	Result string
	// Duration is how long the call takes.
	Duration time.Duration
	// Updates are progress notes, spread evenly over Duration: with two,
	// one comes at a third of it and one at two thirds.
	Updates []string
	// Error, if set, makes the call fail with this message.
	Error string
	// Panic, if set, makes the call panic with this value.
	Panic string
	// Terminate sets the result's Terminate.
	Terminate bool
}

// fakeTool returns a tool named name that takes any JSON object as its
// arguments and does what def says, or what perCall says for a call with
// that ID. It waits on clk; with a nil clk, on the machine's clock.
// sequential sets the tool's Sequential.
func fakeTool(clk *clock, name string, def behaviour, perCall map[string]behaviour, sequential bool) Tool {
	return Tool{
		Spec: fakemodel.ToolSpec{
			Name:        name,
			Description: "A fake tool: what it does is data.",
			Parameters:  json.RawMessage(`{"type":"object"}`),
		},
		Sequential: sequential,
		decode: func(raw json.RawMessage) (any, error) {
			// RawMessage values keep any JSON number, 1e999 included,
			// which a float64 cannot hold.
			var args map[string]json.RawMessage
			if err := json.Unmarshal(raw, &args); err != nil || args == nil {
				return nil, errors.New("arguments must be a JSON object")
			}
			return args, nil
		},
		run: func(ctx context.Context, toolCallID string, _ any, report func(string)) (ToolResult, error) {
			b, ok := perCall[toolCallID]
			if !ok {
				b = def
			}
			return b.act(ctx, clk, toolCallID, report)
		},
	}
}

// act does what b says, for the call toolCallID, on clk.
func (b behaviour) act(ctx context.Context, clk *clock, toolCallID string, report func(string)) (ToolResult, error) {
	step := b.Duration / time.Duration(len(b.Updates)+1)
	for _, note := range b.Updates {
		if err := clk.sleep(ctx, toolCallID, step); err != nil {
			return ToolResult{}, err
		}
		report(note)
	}
	if err := clk.sleep(ctx, toolCallID, b.Duration-step*time.Duration(len(b.Updates))); err != nil {
		return ToolResult{}, err
	}
	if b.Panic != "" {
		panic(b.Panic)
	}
	if b.Error != "" {
		return ToolResult{}, errors.New(b.Error)
	}
	return ToolResult{Content: b.Result, Terminate: b.Terminate}, nil
}
