package track

import (
	"fmt"
	"io"

	"github.com/fatih/color"
)

// A printer writes the front door's messages in the learner's language.
type printer struct {
	w                        io.Writer
	lang                     Lang
	good, bad, strong, faint *color.Color
}

// newPrinter returns a printer for w, in colour if colour is set: the
// command decides with cli.Colorful, as the labs do.
func newPrinter(w io.Writer, lang Lang, colour bool) *printer {
	paint := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if colour {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return &printer{
		w:      w,
		lang:   lang,
		good:   paint(color.FgGreen),
		bad:    paint(color.FgRed),
		strong: paint(color.Bold),
		faint:  paint(color.FgCyan),
	}
}

// say writes a message, formatted with args, and a newline.
func (p *printer) say(t Text, args ...any) {
	fmt.Fprintf(p.w, t.In(p.lang)+"\n", args...)
}

// sayIn writes a message in a colour.
func (p *printer) sayIn(c *color.Color, t Text, args ...any) {
	fmt.Fprintln(p.w, c.Sprintf(t.In(p.lang), args...))
}

// lines writes lines as they are.
func (p *printer) lines(lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(p.w, l)
	}
}
