package main

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Tool is code the model may ask the loop to run: the description the
// model reads, and the code behind it. Build one with newTool.
type Tool struct {
	// Spec is what the model reads about the tool.
	Spec fakemodel.ToolSpec
	// Sequential marks a tool that must not run alongside others, such as
	// one that writes a file others may read. A batch with such a call runs
	// one call at a time. It is Pi's executionMode: "sequential".
	Sequential bool
	// decode checks the arguments the model wrote and turns them into the
	// typed value run expects.
	decode func(raw json.RawMessage) (any, error)
	// run executes the call with this ID, like Pi's execute(toolCallId,
	// args, signal, onUpdate).
	run func(ctx context.Context, toolCallID string, args any, report func(partial string)) (string, error)
}

// newTool builds a Tool whose arguments are decoded strictly into an A
// (toolargs.Decode) and then checked by check, if it is not nil, before run
// sees them. So run only ever gets arguments it can work with. run may call
// report to tell the user how far it got; a report after run returns is
// dropped, as Pi drops it.
func newTool[A any](spec fakemodel.ToolSpec, check func(A) error, run func(ctx context.Context, toolCallID string, args A, report func(partial string)) (string, error)) Tool {
	return Tool{
		Spec: spec,
		decode: func(raw json.RawMessage) (any, error) {
			args, err := toolargs.Decode[A](raw)
			if err == nil && check != nil {
				err = check(args)
			}
			return args, err
		},
		run: func(ctx context.Context, toolCallID string, args any, report func(string)) (string, error) {
			return run(ctx, toolCallID, args.(A), report)
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

// weatherTool looks up a city's weather at the fake weather service of
// fakemodel/services. Its three cities take 300, 200 and 400 ms, on clk, so
// they finish in an order unlike the order they were asked in. With a nil
// clk, it waits on the machine's clock.
func weatherTool(clk *democlock.Clock) Tool {
	return newTool(services.WeatherSpec, services.CheckWeather, services.NewWeather(clk).LookUp)
}

// noteTools returns the write, read and rm tools of a new, empty notebook
// (services.Notebook). write is sequential: a read in the same batch must
// see what it wrote.
func noteTools() []Tool {
	nb := services.NewNotebook()
	write := newTool(services.WriteSpec, nil, nb.Write)
	write.Sequential = true
	return []Tool{write, newTool(services.ReadSpec, nil, nb.Read), newTool(services.RmSpec, nil, nb.Rm)}
}
