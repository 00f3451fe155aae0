package main

import (
	"context"
	"fmt"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
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
	plan     []scenario.UserMessage
	// thenContinue runs Continue after the first run.
	thenContinue bool
	// clock, if set, is the clock the part's tools wait on.
	clock *democlock.Clock
}

// A show prints runs of parts: as the narrative, or as -trace lines. The
// trace is one line per event and nothing else, so in a trace anything else
// the show has to say goes to errw.
type show struct {
	p     *narrative.Printer
	errw  io.Writer
	trace bool
}

// run runs one part and prints it: under the title "part n", or, with n 0,
// under its title alone, as a scenario's run. It returns
// cli.ErrInterrupted if a run was aborted.
func (s show) run(ctx context.Context, n int, pt part) error {
	var current *summary
	if pt.maxTurns > 0 {
		limit := maxTurns(pt.maxTurns)
		pt.agent.Config.ShouldStopAfterTurn = func(ctx context.Context, t TurnContext) bool {
			stop := limit(ctx, t)
			current.policyStopped = stop
			return stop
		}
	}
	agent := NewAgent(pt.agent)
	user := newSimulatedUser(agent, pt.plan)
	if !s.trace {
		s.p.Part(n, pt.title, pt.setup)
	}

	runs := []func(context.Context, func(Event)) error{
		func(ctx context.Context, handle func(Event)) error { return agent.Prompt(ctx, pt.prompt, handle) },
	}
	if pt.thenContinue {
		runs = append(runs, agent.Continue)
	}
	for i, start := range runs {
		var sum summary
		current = &sum
		handle := func(ev Event) { s.p.Line(traceLine(ev)) }
		if !s.trace {
			if i > 0 {
				s.p.Line("--- Continue: the agent runs again from its history, with no new prompt ---")
			}
			nar := s.p.Run()
			handle, user.say = narrate(nar, &sum), nar.Aside
		}
		user.BeforeRun()
		err := start(ctx, func(ev Event) {
			sum.observe(ev)
			handle(ev)
			user.See(traceLine(ev))
			// Last: an end may let the clock go on to the next call.
			tellClock(pt.clock, ev)
		})
		if err != nil {
			return err
		}
		if !s.trace {
			steering, followUp := agent.Queued()
			s.p.AgentState(len(agent.Messages()), steering, followUp)
		}
		// A cancelled context can end a run another way, by a policy
		// for instance; either way, the program stops here.
		if sum.stopReason() == Aborted || ctx.Err() != nil {
			return cli.ErrInterrupted
		}
	}
	for _, note := range user.Unsent() {
		if s.trace {
			fmt.Fprintln(s.errw, note)
		} else {
			s.p.Line(note)
		}
	}
	return nil
}
