// Package talk runs sessions with lab 06's Agent: runs of the loop, one
// after another, on one agent, while a user talks to it. The user is
// simulated (Show.Play: the demo's parts, a scenario file, a recording), or
// a person at a terminal (Chat: -chat). Either way the user acts at events,
// inside the lab's event handler, so that a message typed while the agent
// works is in its queue before the loop's next poll, and a Ctrl-C cancels
// the run at an event, which a recording can name.
//
// The lab keeps what it teaches: its Agent, its events, and how an event
// prints (a Run). This package holds the machinery no lab teaches: reading
// the terminal, Ctrl-C, the tools of the fake world, the real model behind
// -base-url and -model-name (its subpackage chatcompletions), and the
// recording of -record. It is not internal, so that a learner's copy of
// lab 06 in _mywork/ can import it.
package talk

import (
	"context"
	"fmt"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
)

// An Agent is what a session needs of lab 06's Agent: its queues, for the
// user, and its history, for what the session prints and records.
type Agent interface {
	scenario.Agent
	// Queued returns the messages still waiting in each queue.
	Queued() (steering, followUp []fakemodel.Message)
	// Messages returns a copy of the history.
	Messages() []fakemodel.Message
}

// A Run runs the loop once on the session's agent: a Prompt with prompt, or,
// if prompt is "", a Continue. It prints the run's events with nar, unless
// nar is nil, and hands see the trace line of each event, inside its event
// handler, after printing the event and before the loop goes on: see may
// queue messages and cancel ctx. It returns when the run has ended.
type Run func(ctx context.Context, prompt string, nar *narrative.Run, see func(traceLine string)) error

// A Show prints sessions: as the narrative, or, with Trace, as one trace
// line per event and nothing else on Printer's writer; anything else the
// session has to say then goes to Errw.
type Show struct {
	// Printer writes the narrative, or the trace.
	Printer *narrative.Printer
	// Errw takes what a trace cannot hold.
	Errw io.Writer
	// Trace prints trace lines instead of the narrative.
	Trace bool
}

// A Script is a session that a simulated user drives: the demo's parts, a
// scenario file or a recording.
type Script struct {
	// Title and Setup head the session's output.
	Title string
	Setup []string
	// Prompts start the runs, one each, in order; "" continues instead.
	Prompts []string
	// Plan is what the simulated user does, and when.
	Plan []scenario.UserMessage
	// Clock, if set, is the demo clock the session's tools wait on, which
	// a timeline of the session reads (narrative.Output).
	Clock *democlock.Clock
	// Hooks, if set, are a scenario's hooks, which say what they do in
	// the narrative.
	Hooks *scenario.Hooks
}

// Play runs script on agent, one run per prompt, and prints it under the
// title "part n", or, with n 0, under its title alone. The simulated user
// sees every event; a Ctrl-C of its plan cancels the run it comes in, and
// the session goes on, as it does when the agent refuses a run, a Continue
// for instance. A script with no prompt runs nothing: the user does what
// it does before a run, and the agent's state is printed. Play returns
// cli.ErrInterrupted once ctx is cancelled, by the real Ctrl-C, after the
// run that saw it.
func (s Show) Play(ctx context.Context, n int, script Script, agent Agent, run Run) error {
	user := scenario.NewUser(script.Plan, agent)
	if !s.Trace {
		s.Printer.Part(n, script.Title, script.Setup)
	}
	if len(script.Prompts) == 0 {
		if !s.Trace {
			user.Say = s.Printer.Line
		}
		user.BeforeRun()
		s.state(agent)
	}
	for i, prompt := range script.Prompts {
		nar := s.begin(prompt == "", i > 0, script.Clock)
		user.Say = nil
		if nar != nil {
			user.Say = nar.Aside
		}
		if script.Hooks != nil {
			script.Hooks.Say = user.Say
		}
		runCtx, cancel := context.WithCancel(ctx)
		if nar != nil {
			runCtx = fakemodel.WithOnThinking(s.Printer.WatchRequests(runCtx), nar.Thinking)
		}
		user.Interrupt = cancel
		user.Try = func(prompt string) error { return run(runCtx, prompt, nil, func(string) {}) }
		user.BeforeRun()
		// The page of -html shows what the agent holds: as the run starts,
		// and after each event, before and after the user acts on it.
		s.holds(nar, agent)
		started := false
		err := run(runCtx, prompt, nar, func(line string) {
			started = true
			s.line(line)
			s.holds(nar, agent)
			user.See(line)
			s.holds(nar, agent)
		})
		cancel()
		switch {
		case err != nil && !started && !s.Trace:
			// The agent refused the run, as Pi's refuses a Continue with
			// nothing to continue from. No event came, so a trace shows
			// nothing of it.
			s.Printer.Line("the agent refuses: " + err.Error())
		case err != nil && !started:
		case err != nil:
			return err
		}
		s.state(agent)
		if ctx.Err() != nil {
			return cli.ErrInterrupted
		}
	}
	for _, note := range user.Unsent() {
		s.note(note)
	}
	return nil
}

// begin returns the narrative of a new run whose tools wait on clock, or
// nil in a trace. A Continue says so, and whether an earlier run came
// before it.
func (s Show) begin(continues, again bool, clock *democlock.Clock) *narrative.Run {
	if s.Trace {
		return nil
	}
	switch {
	case continues && again:
		s.Printer.Line("--- Continue: the agent runs again from its history, with no new prompt ---")
	case continues:
		s.Printer.Line("--- Continue: the agent runs from the history it holds, with no new prompt ---")
	}
	return s.Printer.TimedRun(clock)
}

// holds tells the narrative of a run what agent holds, for the page of
// -html: in a trace, there is no narrative.
func (s Show) holds(nar *narrative.Run, agent Agent) {
	if nar != nil {
		nar.Holds(agent)
	}
}

// line prints the trace line of an event, in a trace.
func (s Show) line(traceLine string) {
	if s.Trace {
		s.Printer.Line(traceLine)
	}
}

// state prints what the agent holds after a run, in the narrative.
func (s Show) state(agent Agent) {
	if !s.Trace {
		steering, followUp := agent.Queued()
		s.Printer.AgentState(len(agent.Messages()), steering, followUp)
	}
}

// note prints a line that is no event: to Errw in a trace.
func (s Show) note(text string) {
	if s.Trace {
		fmt.Fprintln(s.Errw, text)
	} else {
		s.Printer.Line(text)
	}
}
