package narrative

import (
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper"
	"github.com/fatih/color"
)

// An Output is how a lab shows its runs: as the narrative, or, with
// -diagram or -timeline, as a picture that package diagram draws from the
// same beats, or, with -html, as a page to step through (package
// stepper). Define its flags with Flags, and get its printer with Printer:
// the lab's narrate.go then draws as it narrates. Call Finish once the
// lab's runs are over.
type Output struct {
	diagram, timeline bool
	page              stepper.Options
	// made are the printers made, which Finish finishes; shared by the
	// copies of an Output, so that the lab's options can be passed by
	// value.
	made *[]*Printer
}

// Flags defines -diagram and -timeline on fs. Each prints the runs instead
// of the narrative, so they do not go together, nor with the lab's -trace,
// which does the same.
func (o *Output) Flags(fs *cli.FlagSet) {
	o.made = new([]*Printer)
	fs.BoolVar(&o.diagram, "diagram", false, diagram.DiagramUsage)
	fs.BoolVar(&o.timeline, "timeline", false, diagram.TimelineUsage)
	fs.OneOf("each prints the run instead of the narrative", "trace", "diagram", "timeline")
	o.page.Flags(fs)
}

// Printer returns the printer of a lab's runs, written to w: the
// narrative's, or, with -diagram, a sequence diagram's, with -timeline a
// Gantt chart's, and with -html a page's, which it writes at Finish. A
// picture has no colours.
func (o Output) Printer(w io.Writer) *Printer {
	var draw diagram.Picture
	var page *stepper.Page
	switch {
	case o.diagram:
		draw = diagram.NewSequence(w)
	case o.timeline:
		draw = diagram.NewTimeline(w)
	case o.page.Wanted():
		page = o.page.Events(w)
		draw = page
	default:
		return NewPrinter(w)
	}
	p := newPrinter(w, func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		c.DisableColor()
		return c
	})
	p.draw, p.page = draw, page
	if o.made != nil {
		*o.made = append(*o.made, p)
	}
	return p
}

// Finish finishes every printer made: a picture writes what it still
// holds, such as a timeline, and a page is written (-html). A lab defers it
// once it has parsed its flags, so that what ran is drawn however the runs
// end, Ctrl-C included; a page that cannot be written becomes *err, if
// *err is nil.
func (o Output) Finish(err *error) {
	if o.made == nil {
		return
	}
	for _, p := range *o.made {
		if e := p.finish(); e != nil && *err == nil {
			*err = e
		}
	}
	*o.made = nil
}
