package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
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
	p     *printer
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
		if n > 0 {
			s.p.part(n, pt.title)
		} else {
			s.p.header(pt.title)
		}
		for _, line := range pt.setup {
			s.p.line("setup: " + line)
		}
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
		handle := func(ev Event) { s.p.line(traceLine(ev)) }
		if !s.trace {
			if i > 0 {
				s.p.line("--- Continue: the agent runs again from its history, with no new prompt ---")
			}
			nar := newNarrator(s.p, &sum)
			handle, user.say = nar.show, nar.aside
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
			s.state(agent)
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
			s.p.line(note)
		}
	}
	return nil
}

// state prints what the agent holds after a run.
func (s show) state(a *Agent) {
	steering, followUp := a.Queued()
	var queued []string
	for _, m := range steering {
		queued = append(queued, fmt.Sprintf("steering message %q", m.(fakemodel.UserMessage).Text))
	}
	for _, m := range followUp {
		queued = append(queued, fmt.Sprintf("follow-up %q", m.(fakemodel.UserMessage).Text))
	}
	what := "nothing is queued"
	if len(queued) > 0 {
		what = "still queued: " + strings.Join(queued, ", ")
	}
	s.p.line(fmt.Sprintf("the agent's history holds %s; %s", count(len(a.Messages()), "message"), what))
}
