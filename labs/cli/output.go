package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"
)

// A checkedWriter passes writes on to w and keeps the first error. Output
// that is lost, to a full disk for instance, must not end with status 0.
type checkedWriter struct {
	w    io.Writer
	err  error
	lost chan struct{} // closed at the first failed write
}

func newCheckedWriter(w io.Writer) *checkedWriter {
	return &checkedWriter{w: w, lost: make(chan struct{})}
}

// Write writes p to w, unless an earlier write failed.
func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
		close(c.lost)
	}
	return n, err
}

// Colorful reports whether w is a terminal that may receive colour: not
// when NO_COLOR is set or TERM is dumb.
func Colorful(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return IsTerminal(w)
}

// IsTerminal reports whether w is a terminal, or another character device.
// It looks through the writer that Run wraps standard output in.
func IsTerminal(w io.Writer) bool {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// Painter returns a function that makes the colours of text written to w.
// They show only if Colorful(w), so that piped output, and the golden files
// made from it, hold plain text.
func Painter(w io.Writer) func(attrs ...color.Attribute) *color.Color {
	on := Colorful(w)
	return func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
}

// Quote returns s, a name the user gave such as a file's, ready to print
// inside a message or a title: as it is if every character of it prints as
// itself, and quoted as in Go otherwise. So a name with a line break or a
// terminal's escape sequence cannot break a message onto two lines or
// reach the terminal, while an ordinary name reads as the user wrote it.
func Quote(s string) string {
	if printsAsItself(s) {
		return s
	}
	return strconv.Quote(s)
}

// Printable returns a text with every character that does not print as
// itself written as a Go escape (\x1b, \n), so that the text stays one
// line and sends the terminal no escape sequence: for a message that
// quotes what a user, a server or a model wrote.
func Printable(s string) string {
	if printsAsItself(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case !unicode.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		s = s[size:]
	}
	return b.String()
}

// printsAsItself reports whether every character of s prints as itself: s
// is valid UTF-8 and holds no control character, no line or paragraph
// separator, no format character such as a bidirectional override, and no
// space but U+0020 (unicode.IsPrint).
func printsAsItself(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}
