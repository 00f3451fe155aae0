package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
)

// This file binds the fake world of fakemodel/scenario to the lab: a
// scenario file becomes a part of the show, its tools fake tools, and its
// steering and follow-up messages the plan of a simulated user. The demo's
// tool and user are made the same way.

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
	return show{p: narrative.NewPrinter(stdout), errw: stderr, trace: opts.trace}.run(ctx, 0, pt)
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

// A simulatedUser talks to the agent while it works, the way a person at a
// terminal would: at given moments it types a steering message or queues a
// follow-up. Its plan says when: scenario.User watches the events' trace
// lines and sends each message at its event, so the user does the same
// thing at the same moment on every run. The show hands it every event,
// inside the event handler, so a message is in its queue before the loop's
// next poll.
type simulatedUser struct {
	*scenario.User
	agent *Agent
	// say, if set, prints what the user does.
	say func(string)
}

func newSimulatedUser(agent *Agent, plan []scenario.UserMessage) *simulatedUser {
	u := &simulatedUser{agent: agent}
	u.User = scenario.NewUser(plan, u.act)
	return u
}

// act sends one message to the agent's steering or follow-up queue.
func (u *simulatedUser) act(m scenario.UserMessage) {
	kind := "types a steering message"
	if m.FollowUp {
		kind = "queues a follow-up"
		u.agent.FollowUp(fakemodel.UserMessage{Text: m.Text})
	} else {
		u.agent.Steer(fakemodel.UserMessage{Text: m.Text})
	}
	if u.say != nil {
		u.say(fmt.Sprintf("(the user %s: %q)", kind, m.Text))
	}
}
