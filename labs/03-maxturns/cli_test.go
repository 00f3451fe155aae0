package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// TestCommandLine runs the program through labs/cli, as main does: the
// lab's flags, its help, and the exit status of each mistake.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		name        string
		args        []string
		status      int
		stdout      []string // substrings of standard output
		stderr      []string // substrings of standard error
		emptyOut    bool
		emptyErrOut bool
	}{
		{name: "help", args: []string{"-h"}, status: 0, stdout: []string{"Usage: go run ./labs/03-maxturns", about, "-max-turns N", "-requests", "-diagram", "-html FILE", "-lang en", "-h"}, emptyErrOut: true},
		{name: "a page and a diagram", args: []string{"-html", "-", "-diagram"}, status: 2, stderr: []string{"-html and -diagram cannot go together: one writes the run as a page, the other prints it", "Usage:"}, emptyOut: true},
		{name: "a language without a page", args: []string{"-lang", "zh"}, status: 2, stderr: []string{"-lang needs -html: it sets the language of the page's own words; the labs' output stays English", "Usage:"}, emptyOut: true},
		{name: "a page in a folder that does not exist", args: []string{"-html", "no/such/folder/run.html"}, status: 2, stderr: []string{"error: -html no/such/folder/run.html: its folder no/such/folder does not exist\n"}, emptyOut: true},
		{name: "a page and the requests", args: []string{"-html", "-", "-requests"}, status: 2, stderr: []string{"-html and -requests cannot go together: the page shows every request already", "Usage:"}, emptyOut: true},
		{name: "unknown flag", args: []string{"-x"}, status: 2, stderr: []string{"flag provided but not defined: -x", "Usage:"}, emptyOut: true},
		{name: "zero turns", args: []string{"-max-turns", "0"}, status: 2, stderr: []string{`invalid value "0" for flag -max-turns: must be from 1 to 1000`, "Usage:"}, emptyOut: true},
		{name: "negative turns", args: []string{"-max-turns=-3"}, status: 2, stderr: []string{`invalid value "-3" for flag -max-turns: must be from 1 to 1000`}, emptyOut: true},
		{name: "too many turns", args: []string{"-max-turns", "1001"}, status: 2, stderr: []string{`must be from 1 to 1000`}, emptyOut: true},
		{name: "too large for an int", args: []string{"-max-turns", "99999999999999999999"}, status: 2, stderr: []string{`invalid value "99999999999999999999" for flag -max-turns: must be from 1 to 1000`, "Usage:"}, emptyOut: true},
		{name: "not a number", args: []string{"-max-turns", "three"}, status: 2, stderr: []string{`invalid value "three" for flag -max-turns: not a whole number`}, emptyOut: true},
		{name: "missing value", args: []string{"-max-turns"}, status: 2, stderr: []string{"flag needs an argument: -max-turns"}, emptyOut: true},
		{name: "flag given twice", args: []string{"-requests", "-requests"}, status: 2, stderr: []string{"flag given twice: -requests", "Usage:"}, emptyOut: true},
		{name: "a turn limit given twice", args: []string{"-max-turns", "2", "-max-turns", "3"}, status: 2, stderr: []string{"flag given twice: -max-turns", "Usage:"}, emptyOut: true},
		{name: "argument", args: []string{"extra"}, status: 2, stderr: []string{"unexpected argument: extra", "Usage:"}, emptyOut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			expected.Equal(t, tt.status, cli.Run(context.Background(), run, tt.args, &stdout, &stderr), "the exit status of the command line")
			for _, s := range tt.stdout {
				expected.Contains(t, stdout.String(), s, "what standard output holds")
			}
			for _, s := range tt.stderr {
				expected.Contains(t, stderr.String(), s, "what standard error holds")
			}
			if tt.emptyOut {
				expected.Equal(t, "", stdout.String(), "standard output stays empty")
			}
			if tt.emptyErrOut {
				expected.Equal(t, "", stderr.String(), "standard error stays empty")
			}
		})
	}
}

// TestLostOutputIsAnError runs the lab, and its help, with a standard output
// that fails, as a full disk does: the run must not end with status 0.
func TestLostOutputIsAnError(t *testing.T) {
	for _, args := range [][]string{nil, {"-h"}} {
		synctest.Test(t, func(t *testing.T) {
			var stderr bytes.Buffer
			expected.Equal(t, 1, cli.Run(context.Background(), run, args, fullDisk{}, &stderr), "a full disk, arguments %v: the exit status", args)
			expected.Equal(t, "error: write output: no space left on device\n", stderr.String(), "a full disk, arguments %v: what standard error says", args)
		})
	}
}

// fullDisk is a writer that fails every write.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestColourOnlyOnATerminal checks that the lab's printer takes labs/cli's
// decision: colour on a terminal (the null device is a character device, as
// a terminal is), plain text anywhere else, so that piped output and the
// golden files hold plain text.
func TestColourOnlyOnATerminal(t *testing.T) {
	device, err := os.Open(os.DevNull)
	if !expected.NoError(t, err, "open the null device") {
		return
	}
	defer device.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if !cli.Colorful(device) {
		t.Skip("the null device is not a character device here")
	}
	expected.True(t, newPrinter(device).label.Sprint("x") != "x", "a terminal gets colour")
	expected.Equal(t, "x", newPrinter(&bytes.Buffer{}).label.Sprint("x"), "a pipe or a buffer gets plain text")
}
