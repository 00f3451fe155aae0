package main

import (
	"context"
	"io"
	"path/filepath"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// This file binds the fake world of fakemodel/scenario to the lab: a
// scenario file becomes a part of the show, its tools fake tools, and its
// steering and follow-up messages the plan of a simulated user, which the
// package talk runs. The demo's tool and user are made the same way.

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
	return play(ctx, talk.Show{Printer: opts.out.Printer(stdout), Errw: stderr, Trace: opts.trace}, 0, pt)
}

// scenarioPart turns a scenario into a part the demo's show can run: its
// replies are the model, its tools fake tools on a demo clock, its history
// the agent's, its hooks given as data the Config's hooks, its steer,
// followUp, whileRunning and interrupts the simulated user's plan, its
// runs the part's prompts, and its stopAfterTurn the turn limit as a
// ShouldStopAfterTurn policy.
func scenarioPart(s *scenario.Scenario) part {
	clock := democlock.New()
	var tools []Tool
	for _, t := range s.FakeTools() {
		tools = append(tools, fakeTool(clock, t))
	}
	hooks := s.Hooks()
	cfg := Config{Model: s.Model(), Tools: tools, Sequential: s.Sequential(), TransformContext: hooks.Transform()}
	if s.Blocks() {
		cfg.BeforeToolCall = func(_ context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
			reason, blocked := hooks.Before(c.ToolCall.Name, c.ToolCall.ID, c.Args)
			return BeforeToolCallResult{Block: blocked, Reason: reason}, nil
		}
	}
	if len(s.AfterToolCall) > 0 {
		cfg.AfterToolCall = func(_ context.Context, c AfterToolCallContext) (AfterToolCallResult, error) {
			content, isError, terminate := hooks.After(c.ToolCall.Name)
			return AfterToolCallResult{Content: content, IsError: isError, Terminate: terminate}, nil
		}
	}
	if len(s.PrepareNextTurn) > 0 {
		cfg.PrepareNextTurn = func(context.Context, TurnContext) NextTurn { return NextTurn{Model: hooks.NextModel()} }
	}
	mode := QueueMode(s.Mode())
	return part{
		setup:    s.Setup(),
		clock:    clock,
		agent:    AgentOptions{Config: cfg, SteeringMode: mode, FollowUpMode: mode, History: s.Messages()},
		maxTurns: s.StopAfterTurn,
		prompts:  s.Prompts(),
		plan:     s.UserMessages(),
		hooks:    hooks,
	}
}

// fakeTool returns a tool whose behaviour is data: the tool t of a scenario,
// or of the demo (talk.FakeTool), waiting on clock; with a nil clock, on
// the machine's clock.
func fakeTool(clock *democlock.Clock, t scenario.Tool) Tool { return toolOf(talk.FakeTool(clock, t)) }

// toolOf returns a tool of the package talk, a fake tool or one of -chat's,
// as one of the lab's.
func toolOf(t talk.Tool) Tool {
	return Tool{
		Spec:       t.Spec,
		Sequential: t.Sequential,
		decode:     t.Decode,
		run: func(ctx context.Context, toolCallID string, args any, report func(string)) (ToolResult, error) {
			content, terminate, err := t.Run(ctx, toolCallID, args, report)
			return ToolResult{Content: content, Terminate: terminate}, err
		},
	}
}
