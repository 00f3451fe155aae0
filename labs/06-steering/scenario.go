package main

import (
	"context"
	"io"
	"path/filepath"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// runScenario runs the scenario file named by -scenario. The package
// scenario reads it and refuses a file that cannot run; this lab binds
// what it scripts to an Agent.
func runScenario(ctx context.Context, stdout, stderr io.Writer, opts options) error {
	s, err := scenario.Load(ctx, opts.scenario)
	if err != nil {
		return cli.BadInput(err)
	}
	pt := scenarioPart(s)
	pt.title = "scenario " + cli.Quote(filepath.Base(opts.scenario))
	return show{p: newPrinter(stdout), errw: stderr, trace: opts.trace}.run(ctx, 0, pt)
}

// scenarioPart turns a scenario into a part the demo's show can run: its
// replies are the model, its tools fake tools on a demo clock, its block a
// BeforeToolCall hook, its steer and followUp the simulated user's plan,
// and its stopAfterTurn the turn limit as a ShouldStopAfterTurn policy.
func scenarioPart(s *scenario.Scenario) part {
	clock := democlock.New()
	var tools []Tool
	for _, t := range s.FakeTools() {
		tools = append(tools, fakeTool(clock, t))
	}
	cfg := Config{Model: s.Model(), Tools: tools, Sequential: s.Sequential()}
	if len(s.Block) > 0 {
		cfg.BeforeToolCall = func(_ context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
			reason, blocked := s.Block[c.ToolCall.Name]
			return BeforeToolCallResult{Block: blocked, Reason: reason}, nil
		}
	}
	mode := QueueMode(s.Mode())
	return part{
		clock:    clock,
		agent:    AgentOptions{Config: cfg, SteeringMode: mode, FollowUpMode: mode},
		maxTurns: s.StopAfterTurn,
		prompt:   s.Prompt,
		plan:     s.UserMessages(),
	}
}
