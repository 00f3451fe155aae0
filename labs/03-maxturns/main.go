// Lab 03-maxturns adds the turn limit: the loop stops after a fixed number of
// turns with stop reason max_turns, so a model that never stops asking for
// tools cannot keep it running, and spending, forever.
//
//	go run ./labs/03-maxturns [-max-turns N] [-requests] [-diagram]
//	go run ./labs/03-maxturns [-max-turns N] -html FILE [-lang zh]
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
const about = `Lab 03 adds a turn limit to the loop of lab 02. A stubborn model that
asks to check its result once more, every turn, is stopped after 3 turns
with stop reason max_turns and 7 messages in the history. The calculator
model still completes in 2 turns under the same limit. Try -max-turns 1.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts := options{maxTurns: 3}
	if err := newFlagSet(&opts).Parse(args, stdout, stderr); err != nil {
		return err
	}
	parts := []struct {
		title string
		model fakemodel.Model
	}{
		{"a model that never stops asking", fakemodel.Stubborn()},
		{"the calculator model", fakemodel.Calculator()},
	}
	p := newPrinter(stdout)
	var d *diagram.Sequence
	if opts.diagram {
		d = diagram.NewSequence(stdout)
	}
	var runs []diagram.Finished // the page's, with -html
	for i, part := range parts {
		model := &recorder{model: part.model}
		res, err := runLoop(ctx, model, []Tool{calculator}, fakemodel.CalculatorPrompt, int(opts.maxTurns))
		if err != nil {
			return err
		}
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
