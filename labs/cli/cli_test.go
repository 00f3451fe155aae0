package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
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
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			if stderr.String() != tt.stderr {
				t.Errorf("standard error is %q, want %q", stderr.String(), tt.stderr)
			}
			if want := "output\n"; stdout.String() != want {
				t.Errorf("standard output is %q, want %q", stdout.String(), want)
			}
		})
	}
}

func TestBadInputKeepsItsError(t *testing.T) {
	err := BadInput(fmt.Errorf("load: %w", context.DeadlineExceeded))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("BadInput's error %v does not wrap context.DeadlineExceeded", err)
	}
	if got, want := errText(err), "load: context deadline exceeded"; got != want {
		t.Errorf("BadInput's error is %q, want %q", got, want)
	}
}

// TestLostOutputIsAnError runs a program, and one that prints its help,
// with a standard output that fails, as a full disk does: neither may end
// with status 0.
func TestLostOutputIsAnError(t *testing.T) {
	for _, err := range []error{nil, flag.ErrHelp} {
		var stderr bytes.Buffer
		status := Run(context.Background(), returns("output\n", err), nil, fullDisk{}, &stderr)
		if status != 1 {
			t.Errorf("a program that returns %v: status %d, want 1", err, status)
		}
		if want := "error: write output: no space left on device\n"; stderr.String() != want {
			t.Errorf("a program that returns %v: standard error is %q, want %q", err, stderr.String(), want)
		}
	}

	// A program that failed already reports its own error.
	var stderr bytes.Buffer
	if status := Run(context.Background(), returns("output\n", ErrUsage), nil, fullDisk{}, &stderr); status != 2 {
		t.Errorf("a program that returns ErrUsage: status %d, want 2", status)
	}
	if stderr.String() != "" {
		t.Errorf("a program that returns ErrUsage: standard error is %q, want nothing", stderr.String())
	}
}

// fullDisk is a writer that fails every write.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestAnErrorAfterCtrlCIsAnInterruption(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	status := Run(ctx, returns("", fmt.Errorf("read scenario: %w", context.Canceled)), nil, &stdout, &stderr)
	if status != 130 {
		t.Errorf("status %d, want 130", status)
	}
	if want := "interrupted: Ctrl-C cancelled the run\n"; stderr.String() != want {
		t.Errorf("standard error is %q, want %q", stderr.String(), want)
	}

	stderr.Reset()
	if status := Run(ctx, returns("", nil), nil, &stdout, &stderr); status != 0 {
		t.Errorf("a run that finished: status %d, want 0, Ctrl-C or not", status)
	}
	if stderr.String() != "" {
		t.Errorf("a run that finished: standard error is %q, want nothing", stderr.String())
	}
	if status := Run(ctx, returns("", ErrUsage), nil, &stdout, &stderr); status != 2 {
		t.Errorf("a bad command line, reported already: status %d, want 2", status)
	}
	if stderr.String() != "" {
		t.Errorf("a bad command line, reported already: standard error is %q, want nothing", stderr.String())
	}
}

func TestRunPassesTheArguments(t *testing.T) {
	var got []string
	program := func(_ context.Context, args []string, _, _ io.Writer) error {
		got = args
		return nil
	}
	Run(context.Background(), program, []string{"-trace", "x"}, io.Discard, io.Discard)
	if want := []string{"-trace", "x"}; !slices.Equal(got, want) {
		t.Errorf("the program got %q, want %q", got, want)
	}
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
	if status := Run(context.Background(), outOfRange, []string{"a", "b", "c"}, &stdout, &stderr); status != 70 {
		t.Errorf("status %d, want 70", status)
	}
	if want := "output\n"; stdout.String() != want {
		t.Errorf("standard output is %q, want %q: what the program printed stays", stdout.String(), want)
	}
	if want := "bug: the program panicked at " + lineOf(t, "calls[len(args)]") + ": runtime error: index out of range [3] with length 1\n"; stderr.String() != want {
		t.Errorf("standard error is %q, want %q", stderr.String(), want)
	}

	// Whatever the program panics with is printed on one line, and
	// Ctrl-C does not make a bug an interruption.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	panicked := regexp.MustCompile(`^bug: the program panicked at cli_test\.go:\d+: `)
	for _, v := range []any{"two\nlines \x1b[2J", errors.New("an error"), 42} {
		stderr.Reset()
		program := func(context.Context, []string, io.Writer, io.Writer) error { panic(v) }
		if status := Run(cancelled, program, nil, &stdout, &stderr); status != 70 {
			t.Errorf("panic(%#v): status %d, want 70", v, status)
		}
		if !panicked.MatchString(stderr.String()) {
			t.Errorf("panic(%#v): standard error is %q, want it to match %s", v, stderr.String(), panicked)
		}
		if n := strings.Count(stderr.String(), "\n"); n != 1 {
			t.Errorf("panic(%#v): standard error is %q, %d lines, want one", v, stderr.String(), n)
		}
		if strings.Contains(stderr.String(), "\x1b") {
			t.Errorf("panic(%#v): standard error is %q, want no escape character", v, stderr.String())
		}
	}
}

// lineOf returns the file and line, in cli_test.go, that holds code.
func lineOf(t *testing.T, code string) string {
	t.Helper()
	data, err := os.ReadFile("cli_test.go")
	if err != nil {
		t.Fatal(err)
	}
	before, _, found := strings.Cut(string(data), code)
	if !found {
		t.Fatalf("cli_test.go does not hold %q", code)
	}
	return fmt.Sprintf("cli_test.go:%d", strings.Count(before, "\n")+1)
}

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestATerminationIsTheSignalsStatus: a program that ended because SIGTERM
// or SIGHUP asked it to gets the status a shell shows for a process the
// signal ended, 128 plus its number, and no message, also when Ctrl-C came
// as well.
func TestATerminationIsTheSignalsStatus(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		sig    syscall.Signal
		status int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		for _, ctx := range []context.Context{context.Background(), cancelled} {
			var stdout, stderr bytes.Buffer
			program := func(context.Context, []string, io.Writer, io.Writer) error {
				return fmt.Errorf("check: %w", Terminated(tt.sig))
			}
			if status := Run(ctx, program, nil, &stdout, &stderr); status != tt.status {
				t.Errorf("Terminated(%v): status %d, want %d", tt.sig, status, tt.status)
			}
			if stderr.Len() != 0 {
				t.Errorf("Terminated(%v): standard error is %q, want nothing", tt.sig, stderr.String())
			}
		}
	}
}
