package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

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
		{name: "help", args: []string{"-h"}, status: 0, stdout: []string{"Usage: go run ./labs/05-parallel", about, "-max-turns N", "-sequential", "-trace", "-diagram", "-timeline", "-html FILE", "-lang en", "-h"}, emptyErrOut: true},
		{name: "a page and a diagram", args: []string{"-html", "-", "-diagram"}, status: 2, stderr: []string{"-html and -diagram cannot go together: one writes the run as a page, the other prints it", "Usage:"}, emptyOut: true},
		{name: "a language without a page", args: []string{"-lang", "zh"}, status: 2, stderr: []string{"-lang needs -html: it sets the language of the page's own words; the labs' output stays English", "Usage:"}, emptyOut: true},
		{name: "a page in a folder that does not exist", args: []string{"-html", "no/such/folder/run.html"}, status: 2, stderr: []string{"error: -html no/such/folder/run.html: its folder no/such/folder does not exist\n"}, emptyOut: true},
		{name: "a page and a trace", args: []string{"-trace", "-html", "-"}, status: 2, stderr: []string{"-html and -trace cannot go together: one writes the run as a page, the other prints it", "Usage:"}, emptyOut: true},
		{name: "two pictures", args: []string{"-diagram", "-timeline"}, status: 2, stderr: []string{"-diagram and -timeline cannot go together: each prints the run instead of the narrative", "Usage:"}, emptyOut: true},
		{name: "a trace and a picture", args: []string{"-diagram", "-trace"}, status: 2, stderr: []string{"-trace and -diagram cannot go together: each prints the run instead of the narrative", "Usage:"}, emptyOut: true},
		{name: "unknown flag", args: []string{"-x"}, status: 2, stderr: []string{"flag provided but not defined: -x", "Usage:"}, emptyOut: true},
		{name: "zero turns", args: []string{"-max-turns", "0"}, status: 2, stderr: []string{`invalid value "0" for flag -max-turns: must be from 1 to 1000`, "Usage:"}, emptyOut: true},
		{name: "negative turns", args: []string{"-max-turns=-3"}, status: 2, stderr: []string{`invalid value "-3" for flag -max-turns: must be from 1 to 1000`}, emptyOut: true},
		{name: "too many turns", args: []string{"-max-turns", "1001"}, status: 2, stderr: []string{`must be from 1 to 1000`}, emptyOut: true},
		{name: "too large for an int", args: []string{"-max-turns", "99999999999999999999"}, status: 2, stderr: []string{`invalid value "99999999999999999999" for flag -max-turns: must be from 1 to 1000`, "Usage:"}, emptyOut: true},
		{name: "not a number", args: []string{"-max-turns", "three"}, status: 2, stderr: []string{`invalid value "three" for flag -max-turns: not a whole number`}, emptyOut: true},
		{name: "missing value", args: []string{"-max-turns"}, status: 2, stderr: []string{"flag needs an argument: -max-turns"}, emptyOut: true},
		{name: "a turn limit given twice", args: []string{"-max-turns", "2", "-max-turns", "3"}, status: 2, stderr: []string{"flag given twice: -max-turns", "Usage:"}, emptyOut: true},
		{name: "a boolean flag given twice", args: []string{"-trace", "-trace"}, status: 2, stderr: []string{"flag given twice: -trace", "Usage:"}, emptyOut: true},
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

func TestRunReportsACancelledRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, nil, &stdout, &stderr)
	if !expected.ErrorIs(t, err, cli.ErrInterrupted, "run reports the interruption") {
		return
	}
	expected.Equal(t, 130, cli.Run(ctx, run, nil, &bytes.Buffer{}, &stderr), "the exit status of an interrupted run")
	expected.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String(), "standard error says the run was interrupted")
	expected.Contains(t, stdout.String(), "model request aborted:", "the narrative shows the aborted request")
	expected.Contains(t, stdout.String(), "loop ended: 1 turn, stop reason aborted", "the narrative shows how the run ended")
	expected.NotContains(t, stdout.String(), "part 2", "the program stops after the aborted run")
}

// TestACancelledRunIsStillDrawn: a picture and a page are written once the
// runs are over, however they end: after Ctrl-C, they show what ran.
func TestACancelledRunIsStillDrawn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for args, want := range map[string]string{
		"-diagram":  "M--xL: request aborted:",
		"-timeline": "no timeline: no tool call waited on the demo clock",
		"-html -":   `data-event="agent_end"`,
	} {
		var stdout bytes.Buffer
		expected.Equal(t, 130, cli.Run(ctx, run, strings.Fields(args), &stdout, &bytes.Buffer{}), "%s, interrupted: the exit status", args)
		expected.Contains(t, stdout.String(), want, "%s, interrupted: what is drawn", args)
	}
}

// TestLostOutputIsAnError runs the lab, and its help, with a standard output
// that fails, as a full disk does: the run must not end with status 0.
func TestLostOutputIsAnError(t *testing.T) {
	for _, args := range [][]string{nil, {"-h"}} {
		inBubble(t, func(t *testing.T) {
			var stderr bytes.Buffer
			expected.Equal(t, 1, cli.Run(context.Background(), run, args, fullDisk{}, &stderr), "a full disk, arguments %v: the exit status", args)
			expected.Equal(t, "error: write output: no space left on device\n", stderr.String(), "a full disk, arguments %v: what standard error says", args)
		})
	}
}

// fullDisk is a writer that fails every write.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }
