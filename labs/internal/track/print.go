package track

import (
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/fatih/color"
)

// A printer writes the front door's messages in the learner's language.
type printer struct {
	w    io.Writer
	lang Lang
	// langFlag is the -lang flag that keeps the learner's language in the
	// commands the printer writes, as "-lang zh"; "" when the locale
	// gives that language already (see withLang).
	langFlag                 string
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
	fmt.Fprintln(p.w, p.withLang(fmt.Sprintf(t.In(p.lang), args...)))
}

// sayIn writes a message in a colour.
func (p *printer) sayIn(c *color.Color, t Text, args ...any) {
	fmt.Fprintln(p.w, c.Sprint(p.withLang(fmt.Sprintf(t.In(p.lang), args...))))
}

// frontDoor starts every command of the front door that a message gives:
// "go run ./labs check 02-loop". The labs' own programs, "go run
// ./labs/02-loop", are not the front door.
const frontDoor = "go run ./labs "

// withLang adds the learner's -lang to each command of the front door in
// s, "go run ./labs -lang zh hint 02-loop", so that the command a learner
// copies answers in the language they chose, whatever the locale says. A
// command that has it already, as a message within a message does, keeps
// it once.
func (p *printer) withLang(s string) string {
	if p.langFlag == "" {
		return s
	}
	parts := strings.Split(s, frontDoor)
	for i := 1; i < len(parts); i++ {
		if !strings.HasPrefix(parts[i], p.langFlag+" ") {
			parts[i] = p.langFlag + " " + parts[i]
		}
	}
	return strings.Join(parts, frontDoor)
}

// text writes lines that come from go test and the learner's code, which
// may hold anything: every character that would not print as itself, such
// as an escape sequence or a bidirectional override, is written escaped, as
// the labs do (cli.Printable). Tabs stay: go-cmp's diffs indent with them.
func (p *printer) text(lines ...string) {
	for _, l := range lines {
		p.lines(printable(l))
	}
}

// printable escapes what would not print as itself in s, but its tabs.
func printable(s string) string {
	parts := strings.Split(s, "\t")
	for i, part := range parts {
		parts[i] = cli.Printable(part)
	}
	return strings.Join(parts, "\t")
}

// lines writes lines as they are.
func (p *printer) lines(lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(p.w, l)
	}
}
