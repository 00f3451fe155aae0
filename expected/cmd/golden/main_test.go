package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/stretchr/testify/assert"
)

// TestCommandLine checks the command lines that golden refuses before it
// builds anything, and its help.
func TestCommandLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, cli.Run(context.Background(), run, []string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "Usage: go run ./expected/cmd/golden", "help goes to standard output")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"-repeat", "0", "-check"}, "golden: -repeat must be at least 1, and more than 1 only with -check\n"},
		{[]string{"-repeat", "2"}, "golden: -repeat must be at least 1, and more than 1 only with -check\n"},
		{[]string{"-check", "07-"}, "golden: no case's name starts with \"07-\"\n"},
		{[]string{"-check", "-check"}, "flag given twice: -check\n"},
		{[]string{"-check", "\x1b[2J"}, `golden: no case's name starts with "\x1b[2J"` + "\n"},
	} {
		stdout.Reset()
		stderr.Reset()
		assert.Equal(t, 2, cli.Run(context.Background(), run, tt.args, &stdout, &stderr), "%q", tt.args)
		assert.True(t, strings.HasPrefix(stderr.String(), tt.want), "%q: %s", tt.args, stderr.String())
		assert.Empty(t, stdout.String(), "%q: nothing runs", tt.args)
	}
}

// TestLostOutputIsAFailure checks that golden fails when what it says
// cannot be written, as the labs do.
func TestLostOutputIsAFailure(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 1, cli.Run(context.Background(), run, []string{"-h"}, failingWriter{}, &stderr))
	assert.Contains(t, stderr.String(), "write output: disk full")
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
