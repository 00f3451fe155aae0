package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
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
		{name: "help", args: []string{"-h"}, status: 0, stdout: []string{"Usage: go run ./labs/06-steering", about, "-queue-mode", "-scenario FILE", "-sequential", "-trace", "-chat", "-model-name NAME", "-base-url URL", "-record FILE", "starts with >> queues a follow-up", "-diagram", "-timeline", "-html FILE", "-lang en", "-h"}, emptyErrOut: true},
		{name: "a page and a diagram", args: []string{"-html", "-", "-diagram"}, status: 2, stderr: []string{"-html and -diagram cannot go together: one writes the run as a page, the other prints it", "Usage:"}, emptyOut: true},
		{name: "a language without a page", args: []string{"-lang", "zh"}, status: 2, stderr: []string{"-lang needs -html: it sets the language of the page's own words; the labs' output stays English", "Usage:"}, emptyOut: true},
		{name: "a page in a folder that does not exist", args: []string{"-html", "no/such/folder/run.html"}, status: 2, stderr: []string{"error: -html no/such/folder/run.html: its folder no/such/folder does not exist\n"}, emptyOut: true},
		{name: "a page and a trace", args: []string{"-trace", "-html", "-"}, status: 2, stderr: []string{"-html and -trace cannot go together: one writes the run as a page, the other prints it", "Usage:"}, emptyOut: true},
		{name: "a page of a chat", args: []string{"-chat", "-html", "-"}, status: 2, stderr: []string{"-html cannot go with -chat: a page is made from a run that replays: record the session with -record FILE, then write its page with -scenario FILE -html PAGE", "Usage:"}, emptyOut: true},
		{name: "a trace and a timeline", args: []string{"-scenario", "scenarios/terminate.json", "-trace", "-timeline"}, status: 2, stderr: []string{"-trace and -timeline cannot go together: each prints the run instead of the narrative", "Usage:"}, emptyOut: true},
		{name: "record without chat", args: []string{"-record", "x.json"}, status: 2, stderr: []string{"-record needs -chat: they set up the session of -chat", "Usage:"}, emptyOut: true},
		{name: "a model without chat", args: []string{"-model-name", "m", "-base-url", "http://localhost:1/v1"}, status: 2, stderr: []string{"-base-url and -model-name need -chat: they set up the session of -chat", "Usage:"}, emptyOut: true},
		{name: "a base URL without a model", args: []string{"-chat", "-base-url", "http://localhost:1/v1"}, status: 2, stderr: []string{"-base-url needs -model-name: name the model the server should run", "Usage:"}, emptyOut: true},
		{name: "chat and a scenario", args: []string{"-chat", "-scenario", "scenarios/blocked-call.json"}, status: 2, stderr: []string{"-scenario cannot go with -chat: a scenario file scripts a whole session, the user's part too", "Usage:"}, emptyOut: true},
		{name: "a base URL that is not one", args: []string{"-chat", "-model-name", "m", "-base-url", "ftp://example.com"}, status: 2, stderr: []string{`error: chat completions: base URL "ftp://example.com": want http:// or https:// and a host, such as http://localhost:11434/v1`}, emptyOut: true},
		{name: "a model name given twice", args: []string{"-chat", "-model-name", "m", "-model-name", "n"}, status: 2, stderr: []string{"flag given twice: -model-name", "Usage:"}, emptyOut: true},
		{name: "unknown flag", args: []string{"-x"}, status: 2, stderr: []string{"flag provided but not defined: -x", "Usage:"}, emptyOut: true},
		{name: "queue mode", args: []string{"-queue-mode", "some"}, status: 2, stderr: []string{`invalid value "some" for flag -queue-mode: must be one-at-a-time or all`, "Usage:"}, emptyOut: true},
		{name: "missing scenario", args: []string{"-scenario"}, status: 2, stderr: []string{"flag needs an argument: -scenario"}, emptyOut: true},
		{name: "empty scenario", args: []string{"-scenario", ""}, status: 2, stderr: []string{`invalid value "" for flag -scenario: must name a file`, "Usage:"}, emptyOut: true},
		{name: "empty scenario with =", args: []string{"-scenario="}, status: 2, stderr: []string{`invalid value "" for flag -scenario: must name a file`, "Usage:"}, emptyOut: true},
		{name: "two scenarios", args: []string{"-scenario", "scenarios/blocked-call.json", "-scenario", "scenarios/model-error.json"}, status: 2, stderr: []string{"flag given twice: -scenario", "Usage:"}, emptyOut: true},
		{name: "a queue mode given twice", args: []string{"-queue-mode", "all", "-queue-mode", "all"}, status: 2, stderr: []string{"flag given twice: -queue-mode", "Usage:"}, emptyOut: true},
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
