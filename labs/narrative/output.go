package narrative

import (
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/fatih/color"
)

// An Output is how a lab shows its runs: as the narrative, or, with
// -diagram or -timeline, as a picture that package diagram draws from the
// same beats. Define its flags with Flags, and get its printer with
// Printer: the lab's narrate.go then draws as it narrates.
type Output struct {
	diagram, timeline bool
	// made are the printers made, which Close closes; shared by the
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
}

// Printer returns the printer of a lab's runs, written to w: the
// narrative's, or, with -diagram, a sequence diagram's, and with -timeline
// a Gantt chart's. A picture has no colours, and a timeline is written
// when the lab calls Close.
func (o Output) Printer(w io.Writer) *Printer {
	var draw diagram.Picture
	switch {
	case o.diagram:
		draw = diagram.NewSequence(w)
	case o.timeline:
		draw = diagram.NewTimeline(w)
	default:
		return NewPrinter(w)
	}
	p := newPrinter(w, func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		c.DisableColor()
		return c
	})
	p.draw = draw
	if o.made != nil {
		*o.made = append(*o.made, p)
	}
	return p
}

// Close closes every printer made: a picture writes what it still holds
// (Printer.Close). A lab calls it once its runs are over, whichever way
// they ended.
func (o Output) Close() {
	if o.made == nil {
		return
	}
	for _, p := range *o.made {
		p.Close()
	}
	*o.made = nil
}
