// Lab 02-loop runs the agent loop: ask the model, run the tools it asks for,
// append their results to the history, and ask again, until the model answers
// without asking for a tool.
//
//	go run ./labs/02-loop [-requests] [-diagram]
//	go run ./labs/02-loop -html FILE [-lang zh]
package main

import (
	"context"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// about is what -h prints above the flags.
const about = `Lab 02 runs the agent loop: ask the model with the full history, run
the tools it asks for, append each result to the history, and ask again,
until the model answers without a tool call. The calculator model needs
two turns and the history ends with four messages. This loop has no turn
limit yet: lab 03 adds one.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var opts options
	if err := newFlagSet(&opts).Parse(args, stdout, stderr); err != nil {
		return err
	}
	model := &recorder{model: fakemodel.Calculator()}
	res, err := runLoop(ctx, model, []Tool{calculator}, fakemodel.CalculatorPrompt)
	if err != nil {
		return err
	}
	f := diagram.Finished{History: res.History, Turns: res.Turns, StopReason: string(res.StopReason), Answer: res.Answer(), Answered: true}
	switch {
	case opts.page.Wanted():
		f.Requests = model.requests // the page shows every request
		return opts.page.Write(stdout, f)
	case opts.diagram:
		f.Requests = model.shown(opts)
		diagram.NewSequence(stdout).Finished(f)
		return nil
	}
	p := newPrinter(stdout)
	p.transcript(res.History, model.shown(opts))
	p.ended(res)
	p.historySize(res.History)
	p.answer(res)
	return nil
}
