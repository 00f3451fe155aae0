// Lab 05-parallel turns the loop into a stream of events, so that a user can
// watch a run while it happens, and runs a batch of tool calls in parallel,
// so that the batch takes as long as its slowest call, while the model still
// receives the results in the order of its calls.
//
//	go run ./labs/05-parallel [-sequential] [-trace | -diagram | -timeline | -html FILE] [-max-turns N]
package main

import (
	"context"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// about is what -h prints above the flags.
const about = `Lab 05 makes the loop tell what it does while it runs: it yields Pi's ten
events, and this program prints each one as it arrives. Part 1: the model
asks for three weather lookups that take 300, 200 and 400 ms. They run in
parallel and finish in the order Lima, Oslo, Cairo; the model still reads
the results in the order it asked for them, and the batch takes about as
long as the slowest call. With -sequential it takes about the sum. Part 2:
one batch through every edge of the pipeline: a tool that must run alone,
a call a hook blocks, an unknown tool, a hook that edits a result.
Ctrl-C cancels the run: the tools and the model see it, and the program
exits with status 130.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	opts := options{maxTurns: 3}
	if err := newFlagSet(&opts).Parse(args, stdout, stderr); err != nil {
		return err
	}
	defer opts.out.Finish(&err) // a picture or a page is written once the runs are over, however they end
	mode := "in parallel"
	if opts.sequential {
		mode = "one at a time (-sequential)"
	}
	lookups := democlock.New()
	parts := []struct {
		title  string
		setup  []string
		prompt string
		cfg    Config
		// clock, if set, is the clock the part's tools wait on.
		clock *democlock.Clock
	}{
		{
			title:  "three lookups in one batch, run " + mode,
			setup:  []string{"the weather lookups take 300 ms (Oslo), 200 ms (Lima) and 400 ms (Cairo)"},
			prompt: fakemodel.ForecasterPrompt,
			cfg:    Config{Model: fakemodel.Forecaster(), Tools: []Tool{weatherTool(lookups)}},
			clock:  lookups,
		},
		{
			title: "one batch through every edge of the pipeline",
			setup: []string{
				"write is a sequential tool, so a batch that calls it runs one call at a time",
				"BeforeToolCall blocks rm; AfterToolCall hides API keys in results",
			},
			prompt: fakemodel.NoteTakerPrompt,
			cfg:    Config{Model: fakemodel.NoteTaker(), Tools: noteTools(), BeforeToolCall: requireApproval, AfterToolCall: redactSecrets},
		},
	}
	p := opts.out.Printer(stdout)
	ctx = p.WatchRequests(ctx) // with -html, the page shows each request
	for i, part := range parts {
		part.cfg.MaxTurns = int(opts.maxTurns)
		part.cfg.Sequential = opts.sequential

		var sum summary
		// The trace is one line per event and nothing else: the
		// runs of the two parts follow each other, each from its
		// agent_start to its agent_end.
		show := func(ev Event) { p.Line(traceLine(ev)) }
		if !opts.trace {
			p.Part(i+1, part.title, part.setup)
			show = narrate(p.TimedRun(part.clock), &sum)
		}
		for ev := range runLoop(ctx, part.cfg, part.prompt) {
			sum.observe(ev)
			show(ev)
			// Last: an end may let the clock go on to the next call.
			tellClock(part.clock, ev)
		}
		// A cancelled context can end a run another way, by the turn
		// limit for instance; either way, the program stops here.
		if sum.stopReason() == Aborted || ctx.Err() != nil {
			return cli.ErrInterrupted
		}
	}
	return nil
}
