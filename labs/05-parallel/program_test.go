package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)

	cases, err := expected.LabCases("05-parallel")
	require.NoError(t, err)
	results, err := expected.RunAll(bin, cases)
	require.NoError(t, err)
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := results[i]
			assert.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr)
			expected.Check(t, c.Name, res.Stdout)
		})
	}
	t.Run("unknown flag", func(t *testing.T) {
		res, err := expected.Run(bin, "-no-such-flag")
		require.NoError(t, err)
		assert.Equal(t, 2, res.ExitCode)
		assert.Contains(t, string(res.Stderr), "Usage:")
		assert.Empty(t, res.Stdout)
	})
	t.Run("impossible -max-turns", func(t *testing.T) {
		for _, n := range []string{"0", "-1", "1001", "abc"} {
			res, err := expected.Run(bin, "-max-turns", n)
			require.NoError(t, err)
			assert.Equal(t, 2, res.ExitCode, n)
			assert.Contains(t, string(res.Stderr), `invalid value "`+n+`" for flag -max-turns`)
			assert.Empty(t, res.Stdout, "nothing runs")
		}
	})
	t.Run("help", func(t *testing.T) {
		res, err := expected.Run(bin, "-h")
		require.NoError(t, err)
		assert.Equal(t, 0, res.ExitCode)
		assert.Contains(t, string(res.Stdout), about)
	})
	t.Run("Ctrl-C", func(t *testing.T) {
		// Press Ctrl-C while the lookups run: when Cairo's lookup reports
		// its progress, 100 ms in. Reading the output, not sleeping, tells
		// when that is.
		cmd := expected.Command(context.Background(), bin)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())

		var printed strings.Builder
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			printed.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), "call_3 reports:") {
				require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
				break
			}
		}
		rest, err := io.ReadAll(stdout)
		require.NoError(t, err)
		printed.Write(rest)
		err = cmd.Wait()

		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
		assert.Equal(t, 130, exit.ExitCode())
		assert.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String())
		out := printed.String()
		assert.Contains(t, out, "done call_3 weather ⇒ error: weather in Cairo: context canceled", "running tools see the cancellation")
		assert.Contains(t, out, "turn 2 · model request aborted:", "so does the next model request")
		assert.Contains(t, out, "loop ended: 2 turns, stop reason aborted")
		assert.NotContains(t, out, "part 2")
		assert.NotContains(t, out, "the batch took", "a cancelled batch gets no timing line")
	})
}
