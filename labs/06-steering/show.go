package main

import (
	"context"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// A part is one story the lab tells: an agent, its runs, and what the
// simulated user does. The demo's parts and a scenario file are both parts.
type part struct {
	title string
	setup []string
	// agent configures the agent; its ShouldStopAfterTurn, if any, is
	// maxTurns.
	agent    AgentOptions
	maxTurns int
	// prompts start the runs, one each, in order; "" continues instead.
	prompts []string
	plan    []scenario.UserMessage
	// clock, if set, is the clock the part's tools wait on.
	clock *democlock.Clock
	// hooks, if set, are a scenario's hooks, which say what they do.
	hooks *scenario.Hooks
}

// play runs one part and prints it as s says: under the title "part n",
// or, with n 0, under its title alone, as a scenario's run. The package
// talk runs the simulated user. It returns cli.ErrInterrupted if Ctrl-C
// ended a run.
func play(ctx context.Context, s talk.Show, n int, pt part) error {
	if pt.maxTurns > 0 {
		pt.agent.Config.ShouldStopAfterTurn = maxTurns(pt.maxTurns)
	}
	agent := NewAgent(pt.agent)
	script := talk.Script{Title: pt.title, Setup: pt.setup, Prompts: pt.prompts, Plan: pt.plan, Hooks: pt.hooks, Clock: pt.clock}
	return s.Play(ctx, n, script, agent, runs(agent, pt.clock, pt.maxTurns))
}

// runs returns how a show runs agent once, and prints its events: with
// each event, it notes what the run's summary needs, prints the event in
// the narrative, hands its trace line to the session, and tells the clock
// the tools wait on. limit, if not 0, is the turn limit of the agent's
// ShouldStopAfterTurn policy (maxTurns).
func runs(agent *Agent, clock *democlock.Clock, limit int) talk.Run {
	return func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
		sum := summary{limit: limit}
		handle := func(Event) {}
		if nar != nil {
			handle = narrate(nar, &sum)
		}
		each := func(ev Event) {
			sum.observe(ev)
			handle(ev)
			see(traceLine(ev))
			// Last: an end may let the clock go on to the next call.
			tellClock(clock, ev)
		}
		if prompt == "" {
			return agent.Continue(ctx, each)
		}
		return agent.Prompt(ctx, prompt, each)
	}
}
