package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the tests, or, started by TestProgram, the lab's main.
func TestMain(m *testing.M) { expected.Main(m, main) }

// TestProgram runs the lab's program as an instructor does, in a process of
// its own, with its output on a pipe, and compares what it prints with the
// golden files. Unlike the in-process golden test, the scenarios' tools wait
// for real here, on the demo clock.
func TestProgram(t *testing.T) {
	t.Parallel() // it waits on other processes: let the other tests run meanwhile
	bin, err := expected.Program()
	require.NoError(t, err)

	cases, err := expected.LabCases("06-steering")
	require.NoError(t, err)
	results, err := expected.RunAll(bin, cases)
	require.NoError(t, err)
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := results[i]
			assert.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr)
			assert.Empty(t, string(res.Stderr))
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
	t.Run("impossible -queue-mode", func(t *testing.T) {
		for _, mode := range []string{"", "some", "ALL"} {
			res, err := expected.Run(bin, "-queue-mode", mode)
			require.NoError(t, err)
			assert.Equal(t, 2, res.ExitCode, mode)
			assert.Contains(t, string(res.Stderr), `invalid value "`+mode+`" for flag -queue-mode`)
			assert.Empty(t, res.Stdout, "nothing runs")
		}
	})
	t.Run("help", func(t *testing.T) {
		res, err := expected.Run(bin, "-h")
		require.NoError(t, err)
		assert.Equal(t, 0, res.ExitCode)
		assert.Contains(t, string(res.Stdout), about)
	})
	t.Run("a malformed scenario file", func(t *testing.T) {
		files, wants := malformedCorpus(t)
		res, err := expected.Run(bin, "-scenario", files[0])
		require.NoError(t, err)
		assert.Equal(t, wants[0], fmt.Sprintf("exit status %d\n%s", res.ExitCode, res.Stderr))
		assert.Empty(t, string(res.Stdout), "nothing runs")
	})
	t.Run("a file name that is not plain text", func(t *testing.T) {
		res, err := expected.Run(bin, "-scenario", "missing\x1b[2J\nsecond.json")
		require.NoError(t, err)
		assert.Equal(t, 2, res.ExitCode)
		assert.Equal(t, `error: scenario "missing\x1b[2J\nsecond.json": file: no such file or directory`+"\n", string(res.Stderr),
			"one line, and no escape sequence reaches the terminal")
		assert.Empty(t, res.Stdout)
	})
	t.Run("Ctrl-C in a chat", func(t *testing.T) {
		// Ctrl-C while the model thinks stops the run and the session goes
		// on; Ctrl-C while the agent is idle ends it, with status 0. The
		// real process reads its real standard input, and cli.Main hands
		// each real Ctrl-C to the session.
		cmd := expected.Command(context.Background(), bin, "-chat")
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		defer stdin.Close()
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		_, err = io.WriteString(stdin, "What is 2 plus 3?\n")
		require.NoError(t, err)
		var printed strings.Builder
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			printed.WriteString(lines.Text() + "\n")
			if strings.HasPrefix(lines.Text(), "turn 1 · user:") || strings.HasPrefix(lines.Text(), "the agent's history holds") {
				require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			}
		}
		require.NoError(t, cmd.Wait(), "stderr: %s", stderr.String())
		assert.Contains(t, printed.String(), "turn 1 · model request aborted: assistant model: context canceled\n")
		assert.Contains(t, printed.String(), "loop ended: 1 turn, stop reason aborted\n")
		assert.NotContains(t, stderr.String(), "interrupted")
	})
	t.Run("Ctrl-C", func(t *testing.T) {
		// Press Ctrl-C while a tool runs: when it starts, a minute
		// before it would end. Reading the output, not sleeping, tells
		// when that is.
		cmd := expected.Command(context.Background(), bin, "-scenario", "testdata/slow.json")
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())

		var printed strings.Builder
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			printed.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), "start i index") {
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
		// The signal may come while the call is still being prepared,
		// or once it runs: either way, the call ends with an error.
		if !strings.Contains(out, "done i index ⇒ error: Operation aborted") {
			assert.Contains(t, out, "done i index ⇒ error: context canceled", "the running tool sees the cancellation")
		}
		assert.Contains(t, out, "turn 2 · model request aborted:", "so does the next model request")
		assert.Contains(t, out, "loop ended: 2 turns, stop reason aborted")
	})
}

// TestMalformedScenarioFilesAreRefused runs the lab over every file of
// fakemodel/scenario/testdata/malformed, a corpus of every kind of mistake
// the parser knows, from the repository root, as the program does: through
// cli.Run, which gives its exit status. For each NAME.json, NAME.txt beside
// it holds the exit status and standard error that lab 06 printed before
// its parser moved to fakemodel/scenario: the lab must still refuse each
// file in the same words, with nothing on standard output. TestProgram
// runs the real program over the first of them.
func TestMalformedScenarioFilesAreRefused(t *testing.T) {
	root, err := expected.Root()
	require.NoError(t, err)
	t.Chdir(root) // the corpus's messages name the files from the root
	files, wants := malformedCorpus(t)
	for i, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := cli.Run(context.Background(), run, []string{"-scenario", file}, &stdout, &stderr)
			assert.Equal(t, wants[i], fmt.Sprintf("exit status %d\n%s", status, stderr.String()))
			assert.Empty(t, stdout.String(), "nothing runs")
		})
	}
}

// malformedCorpus returns the malformed scenario files, from the root, and
// what the program prints for each.
func malformedCorpus(t *testing.T) (files, wants []string) {
	t.Helper()
	root, err := expected.Root()
	require.NoError(t, err)
	corpus := filepath.Join(root, "fakemodel", "scenario", "testdata", "malformed")
	paths, err := filepath.Glob(filepath.Join(corpus, "*.json"))
	require.NoError(t, err)
	txts, err := filepath.Glob(filepath.Join(corpus, "*.txt"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 60)
	require.Len(t, txts, len(paths), "one NAME.txt per malformed NAME.json")
	for _, p := range paths {
		want, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".txt")
		require.NoError(t, err)
		files = append(files, "fakemodel/scenario/testdata/malformed/"+filepath.Base(p))
		wants = append(wants, string(want))
	}
	return files, wants
}
