// Lab 04-tool-errors turns every failure of a tool into a tool result marked
// as an error, so the loop goes on and the model can correct itself. Only a
// failed model request ends the loop, with stop reason error.
//
//	go run ./labs/04-tool-errors [-max-turns N] [-requests] [-diagram]
//	go run ./labs/04-tool-errors [-max-turns N] -html FILE [-lang zh]
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// about is what -h prints above the flags.
const about = `Lab 04 turns a failing tool into a tool result marked as an error, and
the loop goes on. Part 1: a model divides by 0, reads "division by zero",
retries with 4 and answers in turn 3. Part 2: calls the loop refuses before
they run (an unknown tool, arguments that are not what the tool takes) and
a tool that panics. Part 3: a failed model request, the one failure that
ends the loop, with stop reason error.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts := options{maxTurns: 3}
	if err := newFlagSet(&opts).Parse(args, stdout, stderr); err != nil {
		return err
	}
	parts := []struct {
		title  string
		model  fakemodel.Model
		prompt string
	}{
		{"a model that corrects itself", fakemodel.SelfCorrecting(), fakemodel.SelfCorrectingPrompt},
		{"calls that fail before and during execution", badCalls, badCallsPrompt},
		{"a failed model request", failingModel, fakemodel.CalculatorPrompt},
	}
	p := newPrinter(stdout)
	var d *diagram.Sequence
	if opts.diagram {
		d = diagram.NewSequence(stdout)
	}
	var runs []diagram.Finished // the page's, with -html
	for i, part := range parts {
		model := &recorder{model: part.model}
		res := runLoop(ctx, model, []Tool{calculator, average}, part.prompt, int(opts.maxTurns))
		title := fmt.Sprintf("%s (max turns %d)", part.title, opts.maxTurns)
		answer, ok := res.Answer()
		f := diagram.Finished{Part: i + 1, Title: title, History: res.History, Turns: res.Turns, StopReason: string(res.StopReason), Answer: answer, Answered: ok}
		switch {
		case opts.page.Wanted():
			f.Requests = model.requests // the page shows every request
			runs = append(runs, f)
			continue
		case d != nil:
			f.Requests = model.shown(opts)
			d.Finished(f)
			continue
		}
		p.part(i+1, title)
		p.transcript(res.History, model.shown(opts))
		p.ended(res)
		p.historySize(res.History)
		p.answer(res)
	}
	if opts.page.Wanted() {
		return opts.page.Write(stdout, runs...)
	}
	return nil
}
