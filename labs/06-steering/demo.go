package main

import (
	"context"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

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

// search is the demo's tool, a fake tool: it reports progress once and
// returns at once. The simulated user types when it sees the search start,
// so that its messages arrive while a tool runs. With terminate, its result
// asks the run to stop.
func search(terminate bool) Tool {
	return fakeTool(nil, scenario.Tool{Name: "search", Default: scenario.Action{
		Result:    "3 flights, 1 direct: 480 € on 12 May",
		Updates:   []string{"asking 3 airlines"},
		Terminate: terminate,
	}})
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
			title:   "steering and follow-up, queue mode " + string(mode),
			setup:   []string{"while the search runs, the user types two steering messages; after turn 1, a follow-up"},
			agent:   options(search(false)),
			prompts: []string{flightsPrompt},
			plan: []scenario.UserMessage{
				{At: whileSearching, Text: "Only direct flights."},
				{At: whileSearching, Text: "Under 900 €, please."},
				{At: "turn_end", FollowUp: true, Text: "Book the cheapest one."},
			},
		},
		{
			title:   "a tool result that terminates the run",
			setup:   []string{"the search hands its result straight to the user: its result asks to terminate"},
			agent:   options(search(true)),
			prompts: []string{flightsPrompt},
		},
		{
			title:   "terminate, with a steering message waiting",
			setup:   []string{"the same terminating search; while it runs, the user types a steering message"},
			agent:   options(search(true)),
			prompts: []string{flightsPrompt},
			plan:    []scenario.UserMessage{{At: whileSearching, Text: "Trains too, if there are any."}},
		},
		{
			title: "ShouldStopAfterTurn stops the run; Continue picks up the queue",
			setup: []string{
				"a turn limit of 1, as a ShouldStopAfterTurn policy; while the search runs, the user steers",
				"after the run, the agent continues from its history",
			},
			agent:    options(search(false)),
			maxTurns: 1,
			prompts:  []string{flightsPrompt, ""}, // "" continues
			plan:     []scenario.UserMessage{{At: whileSearching, Text: "Only direct flights."}},
		},
	}
}

// runDemo runs the demo's parts.
func runDemo(ctx context.Context, stdout, stderr io.Writer, opts options) error {
	s := talk.Show{Printer: opts.out.Printer(stdout), Errw: stderr, Trace: opts.trace}
	for i, pt := range demoParts(opts.queueMode, opts.sequential) {
		if err := play(ctx, s, i+1, pt); err != nil {
			return err
		}
	}
	return s.Printer.Finish()
}
