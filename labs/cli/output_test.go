package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/fatih/color"
)

// TestColourOnlyOnATerminal checks Colorful with the null device, which is
// a character device as a terminal is, also inside the checkedWriter that
// Run wraps standard output in.
func TestColourOnlyOnATerminal(t *testing.T) {
	device, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer device.Close()
	if info, err := device.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Skip("the null device is not a character device here")
	}
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if !Colorful(device) {
		t.Error("a terminal: Colorful is false, want true")
	}
	if !Colorful(&checkedWriter{w: device}) {
		t.Error("a terminal in Run's wrapper: Colorful is false, want true: the wrapper hides no terminal")
	}
	if Colorful(&bytes.Buffer{}) {
		t.Error("a buffer: Colorful is true, want false: a pipe or a buffer gets plain text")
	}
	t.Setenv("TERM", "dumb")
	if Colorful(device) {
		t.Error("TERM=dumb: Colorful is true, want false: a dumb terminal gets plain text")
	}
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "1")
	if Colorful(&checkedWriter{w: device}) {
		t.Error("NO_COLOR=1: Colorful is true, want false: NO_COLOR turns colour off")
	}
	if !IsTerminal(&checkedWriter{w: device}) {
		t.Error("NO_COLOR=1: IsTerminal is false, want true: the terminal is still one")
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer: IsTerminal is true, want false")
	}
}

func TestPainterColoursOnlyForATerminal(t *testing.T) {
	device, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer device.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if got := Painter(&bytes.Buffer{})(color.FgRed).Sprint("plain"); got != "plain" {
		t.Errorf("in a buffer, red %q is %q, want %q", "plain", got, "plain")
	}
	if Colorful(device) {
		if got, want := Painter(device)(color.FgRed).Sprint("red"), "\x1b[31mred\x1b[0m"; got != want {
			t.Errorf("on a terminal, red %q is %q, want %q", "red", got, want)
		}
	}
}

func TestQuoteLeavesOrdinaryNamesAsTheyAre(t *testing.T) {
	for _, name := range []string{"self-correction.json", "labs/06-steering/scenarios/x.json", "my file.json", "Å ÷ €.json", `a"b.json`, ""} {
		if got := Quote(name); got != name {
			t.Errorf("Quote(%q) = %q, want the name as it is", name, got)
		}
	}
}

func TestQuoteKeepsANameOnOneLineAndEscapesOut(t *testing.T) {
	tests := map[string]string{
		"missing\x1b[2J\nsecond.json": `"missing\x1b[2J\nsecond.json"`,
		"a\nb.json":                   `"a\nb.json"`,
		"a\tb.json":                   `"a\tb.json"`,
		"\u202egnp.exe":               `"\u202egnp.exe"`,
		"a\u2028b":                    `"a\u2028b"`,
		"bad\xffbyte.json":            `"bad\xffbyte.json"`,
	}
	for name, want := range tests {
		if got := Quote(name); got != want {
			t.Errorf("Quote(%q) = %#q, want %#q", name, got, want)
		}
	}
}

func TestPrintableEscapesOnlyWhatDoesNotPrint(t *testing.T) {
	tests := []struct{ text, want string }{
		{`invalid value "x" for flag -y: bad`, `invalid value "x" for flag -y: bad`},
		{"flag provided but not defined: -\x1b[2J\nx", `flag provided but not defined: -\x1b[2J\nx`},
		{"a\u202eb\xffc", `a\u202eb\xffc`},
	}
	for _, tt := range tests {
		if got := Printable(tt.text); got != tt.want {
			t.Errorf("Printable(%q) = %#q, want %#q", tt.text, got, tt.want)
		}
	}
}

// TestOutputLostSaysWhenAWriteFailed: a program run by Run learns, through
// its context, that its standard output can no longer be written, as when
// the reader of a pipe has gone.
func TestOutputLostSaysWhenAWriteFailed(t *testing.T) {
	if OutputLost(context.Background()) != nil {
		t.Error("outside Run, OutputLost is a channel, want nil: nothing to say")
	}
	status := Run(context.Background(), func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
		lost := OutputLost(ctx)
		if lost == nil {
			t.Fatal("inside Run, OutputLost is nil, want a channel")
		}
		_, _ = io.WriteString(stdout, "fine")
		select {
		case <-lost:
			t.Error("a write that worked lost nothing")
		default:
		}
		_, _ = io.WriteString(stdout, "broken")
		select {
		case <-lost:
		default:
			t.Error("a failed write must close the channel")
		}
		_, _ = io.WriteString(stdout, "again") // closes nothing twice
		return nil
	}, nil, failAfter(4), io.Discard)
	if status != 1 {
		t.Errorf("status %d, want 1: lost output fails the program", status)
	}
}

// failAfter is a writer that takes n bytes, then fails.
type failAfter int

func (f failAfter) Write(p []byte) (int, error) {
	if len(p) > int(f) {
		return 0, errors.New("broken pipe")
	}
	return len(p), nil
}
