package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/fatih/color"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestColourOnlyOnATerminal checks Colorful with the null device, which is
// a character device as a terminal is, also inside the checkedWriter that
// Run wraps standard output in.
func TestColourOnlyOnATerminal(t *testing.T) {
	device, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer device.Close()
	if info, err := device.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Skip("the null device is not a character device here")
	}
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	assert.True(t, Colorful(device))
	assert.True(t, Colorful(&checkedWriter{w: device}), "Run's wrapper hides no terminal")
	assert.False(t, Colorful(&bytes.Buffer{}), "a pipe or a buffer gets plain text")
	t.Setenv("TERM", "dumb")
	assert.False(t, Colorful(device), "a dumb terminal gets plain text")
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "1")
	assert.False(t, Colorful(&checkedWriter{w: device}), "NO_COLOR turns colour off")
	assert.True(t, IsTerminal(&checkedWriter{w: device}), "but the terminal is still one")
	assert.False(t, IsTerminal(&bytes.Buffer{}))
}

func TestPainterColoursOnlyForATerminal(t *testing.T) {
	device, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer device.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	assert.Equal(t, "plain", Painter(&bytes.Buffer{})(color.FgRed).Sprint("plain"))
	if Colorful(device) {
		assert.Equal(t, "\x1b[31mred\x1b[0m", Painter(device)(color.FgRed).Sprint("red"))
	}
}

func TestQuoteLeavesOrdinaryNamesAsTheyAre(t *testing.T) {
	for _, name := range []string{"self-correction.json", "labs/06-steering/scenarios/x.json", "my file.json", "Å ÷ €.json", `a"b.json`, ""} {
		assert.Equal(t, name, Quote(name))
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
		assert.Equal(t, want, Quote(name))
	}
}

func TestPrintableEscapesOnlyWhatDoesNotPrint(t *testing.T) {
	assert.Equal(t, `invalid value "x" for flag -y: bad`, Printable(`invalid value "x" for flag -y: bad`))
	assert.Equal(t, `flag provided but not defined: -\x1b[2J\nx`, Printable("flag provided but not defined: -\x1b[2J\nx"))
	assert.Equal(t, `a\u202eb\xffc`, Printable("a\u202eb\xffc"))
}

// TestOutputLostSaysWhenAWriteFailed: a program run by Run learns, through
// its context, that its standard output can no longer be written, as when
// the reader of a pipe has gone.
func TestOutputLostSaysWhenAWriteFailed(t *testing.T) {
	assert.Nil(t, OutputLost(context.Background()), "outside Run, nothing to say")
	status := Run(context.Background(), func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
		lost := OutputLost(ctx)
		require.NotNil(t, lost)
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
	assert.Equal(t, 1, status, "lost output fails the program")
}

// failAfter is a writer that takes n bytes, then fails.
type failAfter int

func (f failAfter) Write(p []byte) (int, error) {
	if len(p) > int(f) {
		return 0, errors.New("broken pipe")
	}
	return len(p), nil
}
