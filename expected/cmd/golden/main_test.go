package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCommandLine checks the command lines that golden refuses before it
// builds anything, and its help.
func TestCommandLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-h"}, &stdout, &stderr)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, stdout.String(), "Usage: go run ./expected/cmd/golden", "help goes to standard output")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-no-such-flag"}, "bad command line"},
		{[]string{"-repeat", "0", "-check"}, "-repeat must be at least 1, and more than 1 only with -check"},
		{[]string{"-repeat", "2"}, "-repeat must be at least 1, and more than 1 only with -check"},
		{[]string{"-check", "07-"}, `no case's name starts with "07-"`},
	} {
		stdout.Reset()
		err := run(context.Background(), tt.args, &stdout, &stderr)
		var usage usageError
		if assert.True(t, errors.As(err, &usage), "%v: %v", tt.args, err) {
			assert.Equal(t, tt.want, usage.Error())
		}
		assert.Empty(t, stdout.String(), "%v: nothing runs", tt.args)
	}
}
