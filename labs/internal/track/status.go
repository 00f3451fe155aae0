package track

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// A statusLine says, on a terminal, what a slow step is doing, and blanks
// the line again when the step is over, so that the report alone stays on
// the screen. A check can be slow: the first go test of a lab compiles it,
// its tests and what they import, which takes up to a minute, and a learner
// who sees nothing for so long thinks the command hangs.
//
// A nil *statusLine says nothing: output that is not a terminal, such as a
// pipe or a file, gets the report alone.
type statusLine struct {
	w     io.Writer
	lang  Lang
	shown int // how many columns the text on the line takes
}

// newStatusLine returns a statusLine that writes to w, or nil if w is not
// a terminal.
func newStatusLine(w io.Writer, lang Lang) *statusLine {
	if !cli.IsTerminal(w) {
		return nil
	}
	return &statusLine{w: w, lang: lang}
}

// show writes the message on the line, with no newline after it.
func (s *statusLine) show(t Text, args ...any) {
	if s == nil {
		return
	}
	text := fmt.Sprintf(t.In(s.lang), args...)
	fmt.Fprint(s.w, text)
	s.shown += columns(text)
}

// clear blanks what show wrote and puts the cursor back at the start of
// the line. It writes spaces, not an escape sequence, which a terminal
// without them (TERM=dumb) would print.
func (s *statusLine) clear() {
	if s == nil || s.shown == 0 {
		return
	}
	fmt.Fprint(s.w, "\r"+strings.Repeat(" ", s.shown)+"\r")
	s.shown = 0
}

// columns is how many columns text takes on a terminal, counting two for
// every character outside ASCII, as a Chinese one takes: a few columns too
// many only blank a few more.
func columns(text string) int {
	n := 0
	for _, r := range text {
		if r < utf8.RuneSelf {
			n++
		} else {
			n += 2
		}
	}
	return n
}
