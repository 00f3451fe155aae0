package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestMain runs the tests, or, started by TestProgram, the lab's main.
func TestMain(m *testing.M) { expected.Main(m, main) }

// TestProgram runs the lab's program as an instructor does, in a process of
// its own, with its output on a pipe, and compares what it prints with the
// golden files. Unlike the in-process golden test, the demo's clock waits for
// real here.
func TestProgram(t *testing.T) {
	t.Parallel() // it waits on other processes: let the other tests run meanwhile
	bin, err := expected.Program()
	if !expected.NoError(t, err, "build the lab's program") {
		return
	}

	cases, err := expected.LabCases("05-parallel")
	if !expected.NoError(t, err, "read the lab's cases") {
		return
	}
	results, err := expected.RunAll(bin, cases)
	if !expected.NoError(t, err, "run the program on each case") {
		return
	}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := results[i]
			expected.Equal(t, 0, res.ExitCode, "the exit status (standard error: %s)", res.Stderr)
			expected.Check(t, c.Name, res.Stdout)
		})
	}
	t.Run("unknown flag", func(t *testing.T) {
		res, err := expected.Run(bin, "-no-such-flag")
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, 2, res.ExitCode, "the exit status")
		expected.Contains(t, string(res.Stderr), "Usage:", "standard error shows the usage")
		expected.Empty(t, res.Stdout, "standard output stays empty")
	})
	t.Run("impossible -max-turns", func(t *testing.T) {
		for _, n := range []string{"0", "-1", "1001", "abc"} {
			res, err := expected.Run(bin, "-max-turns", n)
			if !expected.NoError(t, err, "run the program") {
				return
			}
			expected.Equal(t, 2, res.ExitCode, "-max-turns %s: the exit status", n)
			expected.Contains(t, string(res.Stderr), `invalid value "`+n+`" for flag -max-turns`, "-max-turns %s: standard error names the value", n)
			expected.Empty(t, res.Stdout, "-max-turns %s: nothing runs", n)
		}
	})
	t.Run("help", func(t *testing.T) {
		res, err := expected.Run(bin, "-h")
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, 0, res.ExitCode, "the exit status")
		expected.Contains(t, string(res.Stdout), about, "the help says what the lab is about")
	})
	t.Run("Ctrl-C", func(t *testing.T) {
		// Press Ctrl-C while the lookups run: when Cairo's lookup reports
		// its progress, 100 ms in. Reading the output, not sleeping, tells
		// when that is.
		cmd := expected.Command(context.Background(), bin)
		stdout, err := cmd.StdoutPipe()
		if !expected.NoError(t, err, "connect the program's standard output") {
			return
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		proc, err := expected.Start(cmd)
		if !expected.NoError(t, err, "start the program") {
			return
		}

		var printed strings.Builder
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			printed.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), "call_3 reports:") {
				if !expected.NoError(t, proc.Signal(syscall.SIGINT), "press Ctrl-C") {
					return
				}
				break
			}
		}
		rest, err := io.ReadAll(stdout)
		if !expected.NoError(t, err, "read the program's standard output") {
			return
		}
		printed.Write(rest)
		err = proc.Wait()

		var exit *exec.ExitError
		if !expected.True(t, errors.As(err, &exit), "the program exits with a status that is not 0 (Wait returned %v)", err) {
			return
		}
		expected.Equal(t, 130, exit.ExitCode(), "the exit status of an interrupted run")
		expected.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String(), "standard error says the run was interrupted")
		out := printed.String()
		expected.Contains(t, out, "done call_3 weather ⇒ error: weather in Cairo: context canceled", "running tools see the cancellation")
		expected.Contains(t, out, "turn 2 · model request aborted:", "so does the next model request")
		expected.Contains(t, out, "loop ended: 2 turns, stop reason aborted", "the narrative shows how the run ended")
		expected.NotContains(t, out, "part 2", "the program stops after the aborted run")
		expected.NotContains(t, out, "the batch took", "a cancelled batch gets no timing line")
	})
}
