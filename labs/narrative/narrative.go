// Package narrative writes the narrative of labs 05 and 06: the lines a
// user reads while a run of the loop happens, one for each thing that
// happens, the model's reply word by word as it streams in (and its
// reasoning, if it streams any, dimmed on a line of its own), and how the
// run ended. Each lab decides which of its events gets which line (its
// narrate.go), since only the lab knows its events; this package holds the
// formatting the labs share and no lab teaches: the colours, the turn
// prefix, a reply that streams in on one line, counts and lists of roles,
// times in seconds, part titles, and lab 06's line of what an agent still
// holds after a run.
//
// With -diagram or -timeline (Output), the same beats draw a picture
// instead, a Mermaid sequence diagram or Gantt chart (package diagram): a
// Printer that draws hands each beat to its picture and prints nothing of
// its own, so the lab's narrate.go draws as it narrates. The lab finishes
// its Output once its runs are over (Output.Finish): a timeline, or a page,
// is written then.
//
// It is not internal, so that a learner's copy of a lab in _mywork/ can
// import it. Labs 01 to 04 print a finished run and keep their own
// print.go.
package narrative

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper"
	"github.com/fatih/color"
)

// A Printer writes a lab's output to one writer.
type Printer struct {
	w                                 io.Writer
	label, turn, good, warn, bad, dim *color.Color
	// draw, if set, draws the runs instead (Output); page, if set, is
	// draw too, the page of -html.
	draw diagram.Picture
	page *stepper.Page
}

// NewPrinter returns a printer for w. It colours its output only when w is a
// terminal and NO_COLOR is not set (cli.Painter), so that piped output, and
// the golden files made from it, hold plain text.
func NewPrinter(w io.Writer) *Printer {
	return newPrinter(w, cli.Painter(w))
}

// newPrinter returns a printer for w whose colours paint makes.
func newPrinter(w io.Writer, paint func(attrs ...color.Attribute) *color.Color) *Printer {
	return &Printer{
		w:     w,
		label: paint(color.Bold),
		turn:  paint(color.FgCyan),
		good:  paint(color.FgGreen),
		warn:  paint(color.FgYellow),
		bad:   paint(color.FgRed),
		dim:   paint(color.Faint),
	}
}

// Line prints text as a line of its own.
func (p *Printer) Line(text string) {
	if p.draw != nil {
		p.draw.Line(text)
		return
	}
	fmt.Fprintln(p.w, text)
}

// Part prints the title of part n of a lab's output, after an empty line
// unless it is the first part, then a line for each setup line. With n 0 it
// prints the title alone, as of the one run a lab makes.
func (p *Printer) Part(n int, title string, setup []string) {
	if p.draw != nil {
		p.draw.Part(n, title, setup)
		return
	}
	if n > 1 {
		fmt.Fprintln(p.w)
	}
	if n == 0 {
		p.Line(p.label.Sprintf("=== %s ===", title))
	} else {
		p.Line(p.label.Sprintf("=== part %d: %s ===", n, title))
	}
	for _, line := range setup {
		p.Line("setup: " + line)
	}
}

// AgentState prints what an agent holds after a run: how many messages its
// history has, and the messages still waiting in its steering and follow-up
// queues, each a user message.
func (p *Printer) AgentState(history int, steering, followUp []fakemodel.Message) {
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
	text := fmt.Sprintf("the agent's history holds %s; %s", Count(history, "message"), what)
	if p.draw != nil {
		p.draw.Note(text)
		return
	}
	p.Line(text)
}

// finish ends the output: a picture writes what it still holds, such as a
// timeline, which is drawn once every run has ended, and with -html the
// page is written, and a line says where (package stepper). The narrative
// has nothing left to print.
func (p *Printer) finish() error {
	if p.draw != nil {
		p.draw.Close()
	}
	if p.page == nil {
		return nil
	}
	return p.page.Write()
}

// WatchRequests returns ctx, or with -html a copy of it through which a
// model hands the page each request it gets (fakemodel.WithOnRequest): the
// page shows what the model was sent in each turn.
func (p *Printer) WatchRequests(ctx context.Context) context.Context {
	if p.page == nil {
		return ctx
	}
	return fakemodel.WithOnRequest(ctx, p.page.Request)
}

// Warn returns text painted as a warning.
func (p *Printer) Warn(text string) string {
	return p.warn.Sprint(text)
}

// Count writes n and a noun, in the plural unless n is 1: "1 turn",
// "3 messages".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
