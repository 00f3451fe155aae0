package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/fatih/color"
)

// A printer writes the lab's output.
type printer struct {
	w                            io.Writer
	label, turn, good, warn, bad *color.Color
}

// newPrinter returns a printer for w. It colours its output only when w is a
// terminal and NO_COLOR is not set (cli.Painter), so that piped output, and
// the golden files made from it, hold plain text.
func newPrinter(w io.Writer) *printer {
	paint := cli.Painter(w)
	return &printer{
		w:     w,
		label: paint(color.Bold),
		turn:  paint(color.FgCyan),
		good:  paint(color.FgGreen),
		warn:  paint(color.FgYellow),
		bad:   paint(color.FgRed),
	}
}

func (p *printer) line(text string) {
	fmt.Fprintln(p.w, text)
}

// part prints the title of one part of the lab's output.
func (p *printer) part(n int, title string) {
	if n > 1 {
		fmt.Fprintln(p.w)
	}
	fmt.Fprintln(p.w, p.label.Sprintf("=== part %d: %s ===", n, title))
}

// count writes n and a noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// roleList names the role of each message, in order. Runs of three or more
// messages of one role are written "toolResult ×9".
func roleList(messages []fakemodel.Message) string {
	var roles []string
	for i := 0; i < len(messages); {
		n := 1
		for i+n < len(messages) && messages[i+n].Role() == messages[i].Role() {
			n++
		}
		role := string(messages[i].Role())
		if n >= 3 {
			roles = append(roles, fmt.Sprintf("%s ×%d", role, n))
		} else {
			for range n {
				roles = append(roles, role)
			}
		}
		i += n
	}
	return strings.Join(roles, ", ")
}
