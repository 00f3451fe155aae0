package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// returns is a program that prints out and returns err.
func returns(out string, err error) Program {
	return func(_ context.Context, _ []string, stdout, _ io.Writer) error {
		fmt.Fprint(stdout, out)
		return err
	}
}

func TestRunTurnsTheErrorIntoTheExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		stderr string
	}{
		{"success", nil, 0, ""},
		{"help", flag.ErrHelp, 0, ""},
		{"a bad command line, reported already", ErrUsage, 2, ""},
		{"a failure, reported already", ErrFailed, 1, ""},
		{"a bad input file", BadInput(errors.New("scenario x.json: line 1, column 1: bad")), 2, "error: scenario x.json: line 1, column 1: bad\n"},
		{"Ctrl-C", ErrInterrupted, 130, "interrupted: Ctrl-C cancelled the run\n"},
		{"Ctrl-C, wrapped", fmt.Errorf("part 1: %w", ErrInterrupted), 130, "part 1: interrupted: Ctrl-C cancelled the run\n"},
		{"anything else", errors.New("disk on fire"), 1, "error: disk on fire\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := Run(context.Background(), returns("output\n", tt.err), nil, &stdout, &stderr)
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.stderr, stderr.String())
			assert.Equal(t, "output\n", stdout.String())
		})
	}
}

func TestBadInputKeepsItsError(t *testing.T) {
	err := BadInput(fmt.Errorf("load: %w", context.DeadlineExceeded))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.EqualError(t, err, "load: context deadline exceeded")
}

// TestLostOutputIsAnError runs a program, and one that prints its help,
// with a standard output that fails, as a full disk does: neither may end
// with status 0.
func TestLostOutputIsAnError(t *testing.T) {
	for _, err := range []error{nil, flag.ErrHelp} {
		var stderr bytes.Buffer
		status := Run(context.Background(), returns("output\n", err), nil, fullDisk{}, &stderr)
		assert.Equal(t, 1, status, "%v", err)
		assert.Equal(t, "error: write output: no space left on device\n", stderr.String())
	}

	// A program that failed already reports its own error.
	var stderr bytes.Buffer
	assert.Equal(t, 2, Run(context.Background(), returns("output\n", ErrUsage), nil, fullDisk{}, &stderr))
	assert.Empty(t, stderr.String())
}

// fullDisk is a writer that fails every write.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestAnErrorAfterCtrlCIsAnInterruption(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	status := Run(ctx, returns("", fmt.Errorf("read scenario: %w", context.Canceled)), nil, &stdout, &stderr)
	assert.Equal(t, 130, status)
	assert.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String())

	stderr.Reset()
	assert.Equal(t, 0, Run(ctx, returns("", nil), nil, &stdout, &stderr), "a run that finished exits 0, Ctrl-C or not")
	assert.Empty(t, stderr.String())
	assert.Equal(t, 2, Run(ctx, returns("", ErrUsage), nil, &stdout, &stderr), "a bad command line was reported already")
	assert.Empty(t, stderr.String())
}

func TestRunPassesTheArguments(t *testing.T) {
	var got []string
	program := func(_ context.Context, args []string, _, _ io.Writer) error {
		got = args
		return nil
	}
	Run(context.Background(), program, []string{"-trace", "x"}, io.Discard, io.Discard)
	assert.Equal(t, []string{"-trace", "x"}, got)
}

// outOfRange reads past the end of a slice, with one argument or more, as
// a program with a bug does.
func outOfRange(_ context.Context, args []string, stdout, _ io.Writer) error {
	fmt.Fprintln(stdout, "output")
	calls := []string{"call_1"}
	fmt.Fprintln(stdout, calls[len(args)])
	return nil
}

// TestAPanicIsABug: a program that panics has a bug, and its status says
// so: 70, not the 2 of a bad command line, nor the 1 of a failure. One line
// says what panicked and where, instead of a stack.
func TestAPanicIsABug(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 70, Run(context.Background(), outOfRange, []string{"a", "b", "c"}, &stdout, &stderr))
	assert.Equal(t, "output\n", stdout.String(), "what the program printed stays")
	assert.Equal(t, "bug: the program panicked at "+lineOf(t, "calls[len(args)]")+": runtime error: index out of range [3] with length 1\n", stderr.String())

	// Whatever the program panics with is printed on one line, and
	// Ctrl-C does not make a bug an interruption.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range []any{"two\nlines \x1b[2J", errors.New("an error"), 42} {
		stderr.Reset()
		program := func(context.Context, []string, io.Writer, io.Writer) error { panic(v) }
		assert.Equal(t, 70, Run(cancelled, program, nil, &stdout, &stderr), "%v", v)
		assert.Regexp(t, `^bug: the program panicked at cli_test\.go:\d+: `, stderr.String())
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		assert.NotContains(t, stderr.String(), "\x1b")
	}
}

// lineOf returns the file and line, in cli_test.go, that holds code.
func lineOf(t *testing.T, code string) string {
	t.Helper()
	data, err := os.ReadFile("cli_test.go")
	require.NoError(t, err)
	before, _, found := strings.Cut(string(data), code)
	require.True(t, found, code)
	return fmt.Sprintf("cli_test.go:%d", strings.Count(before, "\n")+1)
}
