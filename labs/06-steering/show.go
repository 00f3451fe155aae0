package main

import (
	"context"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// A part is one story the lab tells: an agent, a prompt, what the simulated
// user does, and whether the agent continues after its first run. The demo's
// parts and a scenario file are both parts.
type part struct {
	title string
	setup []string
	// agent configures the agent; its ShouldStopAfterTurn, if any, is
	// maxTurns.
	agent    AgentOptions
	maxTurns int
	prompt   string
	// more are the prompts of later runs, as a recorded chat has them.
	more []string
	plan []scenario.UserMessage
	// thenContinue runs Continue after the first run.
	thenContinue bool
	// clock, if set, is the clock the part's tools wait on.
	clock *democlock.Clock
}

// play runs one part and prints it as s says: under the title "part n", or,
// with n 0, under its title alone, as a scenario's run. The package talk runs
// the simulated user. It returns cli.ErrInterrupted if Ctrl-C ended a run.
func play(ctx context.Context, s talk.Show, n int, pt part) error {
	var limit *turnLimit
	if pt.maxTurns > 0 {
		limit = &turnLimit{policy: maxTurns(pt.maxTurns)}
		pt.agent.Config.ShouldStopAfterTurn = limit.shouldStop
	}
	agent := NewAgent(pt.agent)
	prompts := append([]string{pt.prompt}, pt.more...)
	if pt.thenContinue {
		prompts = append(prompts, "") // "" continues
	}
	script := talk.Script{Title: pt.title, Setup: pt.setup, Prompts: prompts, Plan: pt.plan, Clock: pt.clock}
	return s.Play(ctx, n, script, agent, runs(agent, pt.clock, limit))
}

// A turnLimit is a part's ShouldStopAfterTurn policy, which remembers
// whether it stopped the run: no event says so (summary.stopReason).
type turnLimit struct {
	policy  func(context.Context, TurnContext) bool
	stopped bool
}

// shouldStop asks the policy, and remembers its answer. Every turn asks
// but a failed or aborted one, which says itself why the run ended.
func (l *turnLimit) shouldStop(ctx context.Context, t TurnContext) bool {
	l.stopped = l.policy(ctx, t)
	return l.stopped
}

// runs returns how the show runs agent once, and prints its events: with
// each event, it notes what the run's summary needs, prints the event in
// the narrative, hands its trace line to the session, and tells the clock
// the tools wait on. limit, if not nil, is the agent's ShouldStopAfterTurn.
func runs(agent *Agent, clock *democlock.Clock, limit *turnLimit) talk.Run {
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
