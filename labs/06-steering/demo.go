package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
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
	plan     []userAction
	// thenContinue runs Continue after the first run.
	thenContinue bool
	// clock, if set, is the clock the part's tools wait on.
	clock *clock
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
// under its title alone, as a scenario's run. It returns errInterrupted if
// a run was aborted.
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
	user := &simulatedUser{agent: agent, plan: pt.plan}
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
		user.beforeRun()
		err := start(ctx, func(ev Event) {
			sum.observe(ev)
			handle(ev)
			user.see(ev)
			// Last: an end may let the clock go on to the next call.
			pt.clock.observe(ev)
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
			return errInterrupted
		}
	}
	for _, a := range user.plan {
		if !a.done {
			note := fmt.Sprintf("never sent: %q, because no event matched %q", a.Text, a.At)
			if s.trace {
				fmt.Fprintln(s.errw, note)
			} else {
				s.p.line(note)
			}
		}
	}
	return nil
}

// state prints what the agent holds after a run.
func (s show) state(a *Agent) {
	steering, followUp := a.Queued()
	queued := "nothing is queued"
	if len(steering)+len(followUp) > 0 {
		var parts []string
		for _, q := range []struct {
			name     string
			messages []fakemodel.Message
		}{{"steering message", steering}, {"follow-up", followUp}} {
			for _, m := range q.messages {
				parts = append(parts, fmt.Sprintf("%s %q", q.name, m.(fakemodel.UserMessage).Text))
			}
		}
		queued = "still queued: " + strings.Join(parts, ", ")
	}
	s.p.line(fmt.Sprintf("the agent's history holds %s; %s", count(len(a.Messages()), "message"), queued))
}

// maxTurns is lab 03's turn limit as a ShouldStopAfterTurn policy: it stops
// a run after n turns. It counts the replies among the run's new messages,
// one per turn, so it needs no state of its own.
func maxTurns(n int) func(context.Context, TurnContext) bool {
	return func(_ context.Context, t TurnContext) bool {
		turns := 0
		for _, m := range t.NewMessages {
			if m.Role() == fakemodel.RoleAssistant {
				turns++
			}
		}
		return turns >= n
	}
}

// search is the demo's tool. It reports progress once and returns at once;
// the simulated user types when it sees the search start, so that its
// messages arrive while a tool runs. With terminate, its result asks the
// run to stop.
func search(terminate bool) Tool {
	return newTool(searchSpec, checkSearch, func(ctx context.Context, _ string, args searchArgs, report func(string)) (ToolResult, error) {
		report("asking 3 airlines")
		if err := ctx.Err(); err != nil {
			return ToolResult{}, err
		}
		return ToolResult{Content: "3 flights, 1 direct: 480 € on 12 May", Terminate: terminate}, nil
	})
}

var searchSpec = fakemodel.ToolSpec{
	Name:        "search",
	Description: "Search for flights.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"query": {"type": "string", "minLength": 1}},
		"required": ["query"],
		"additionalProperties": false
	}`),
}

type searchArgs struct {
	Query string `json:"query"`
}

func checkSearch(args searchArgs) error {
	if strings.TrimSpace(args.Query) == "" {
		return errors.New(`field "query" must not be empty`)
	}
	return nil
}

// flightsPrompt is the demo's prompt.
const flightsPrompt = "Find flights from Oslo to Lima."

// demoParts are the lab's four stories.
func demoParts(mode QueueMode, sequential bool) []part {
	options := func(tool Tool) AgentOptions {
		return AgentOptions{
			Config:       Config{Model: fakemodel.Researcher("search"), Tools: []Tool{tool}, Sequential: sequential},
			SteeringMode: mode,
			FollowUpMode: mode,
		}
	}
	whileSearching := "tool_execution_start call_1"
	return []part{
		{
			title:  "steering and follow-up, queue mode " + string(mode),
			setup:  []string{"while the search runs, the user types two steering messages; after turn 1, a follow-up"},
			agent:  options(search(false)),
			prompt: flightsPrompt,
			plan: []userAction{
				{At: whileSearching, Text: "Only direct flights."},
				{At: whileSearching, Text: "Under 900 €, please."},
				{At: "turn_end", FollowUp: true, Text: "Book the cheapest one."},
			},
		},
		{
			title:  "a tool result that terminates the run",
			setup:  []string{"the search hands its result straight to the user: its result asks to terminate"},
			agent:  options(search(true)),
			prompt: flightsPrompt,
		},
		{
			title:  "terminate, with a steering message waiting",
			setup:  []string{"the same terminating search; while it runs, the user types a steering message"},
			agent:  options(search(true)),
			prompt: flightsPrompt,
			plan:   []userAction{{At: whileSearching, Text: "Trains too, if there are any."}},
		},
		{
			title: "ShouldStopAfterTurn stops the run; Continue picks up the queue",
			setup: []string{
				"a turn limit of 1, as a ShouldStopAfterTurn policy; while the search runs, the user steers",
				"after the run, the agent continues from its history",
			},
			agent:        options(search(false)),
			maxTurns:     1,
			prompt:       flightsPrompt,
			plan:         []userAction{{At: whileSearching, Text: "Only direct flights."}},
			thenContinue: true,
		},
	}
}

// runDemo runs the demo's parts.
func runDemo(ctx context.Context, stdout, stderr io.Writer, opts options) error {
	s := show{p: newPrinter(stdout), errw: stderr, trace: opts.trace}
	for i, pt := range demoParts(opts.queueMode, opts.sequential) {
		if err := s.run(ctx, i+1, pt); err != nil {
			return err
		}
	}
	return nil
}
