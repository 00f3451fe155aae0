package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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
	if !expected.NoError(t, err, "build the lab's program") {
		return
	}

	cases, err := expected.LabCases("06-steering")
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
			expected.Equal(t, "", string(res.Stderr), "standard error stays empty")
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
	t.Run("impossible -queue-mode", func(t *testing.T) {
		for _, mode := range []string{"", "some", "ALL"} {
			res, err := expected.Run(bin, "-queue-mode", mode)
			if !expected.NoError(t, err, "run the program") {
				return
			}
			expected.Equal(t, 2, res.ExitCode, "-queue-mode %q: the exit status", mode)
			expected.Contains(t, string(res.Stderr), `invalid value "`+mode+`" for flag -queue-mode`, "-queue-mode %q: standard error names the value", mode)
			expected.Empty(t, res.Stdout, "-queue-mode %q: nothing runs", mode)
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
	t.Run("a malformed scenario file", func(t *testing.T) {
		files, wants := malformedCorpus(t)
		res, err := expected.Run(bin, "-scenario", files[0])
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, wants[0], fmt.Sprintf("exit status %d\n%s", res.ExitCode, res.Stderr), "%s: the exit status and standard error", files[0])
		expected.Equal(t, "", string(res.Stdout), "%s: nothing runs", files[0])
	})
	t.Run("a file name that is not plain text", func(t *testing.T) {
		res, err := expected.Run(bin, "-scenario", "missing\x1b[2J\nsecond.json")
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, 2, res.ExitCode, "the exit status")
		expected.Equal(t, `error: scenario "missing\x1b[2J\nsecond.json": file: no such file or directory`+"\n", string(res.Stderr),
			"one line, and no escape sequence reaches the terminal")
		expected.Empty(t, res.Stdout, "standard output stays empty")
	})
	t.Run("Ctrl-C in a chat", func(t *testing.T) {
		// Ctrl-C while the model thinks stops the run and the session goes
		// on; Ctrl-C while the agent is idle ends it, with status 0. The
		// real process reads its real standard input, and cli.Main hands
		// each real Ctrl-C to the session.
		cmd := expected.Command(context.Background(), bin, "-chat")
		stdin, err := cmd.StdinPipe()
		if !expected.NoError(t, err, "connect the program's standard input") {
			return
		}
		defer stdin.Close()
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
		_, err = io.WriteString(stdin, "What is 2 plus 3?\n")
		if !expected.NoError(t, err, "type a prompt") {
			return
		}
		var printed strings.Builder
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			printed.WriteString(lines.Text() + "\n")
			if strings.HasPrefix(lines.Text(), "turn 1 · user:") || strings.HasPrefix(lines.Text(), "the agent's history holds") {
				if !expected.NoError(t, proc.Signal(syscall.SIGINT), "press Ctrl-C") {
					return
				}
			}
		}
		if !expected.NoError(t, proc.Wait(), "the session ends with status 0 (standard error: %s)", stderr.String()) {
			return
		}
		expected.Contains(t, printed.String(), "turn 1 · model request aborted: assistant model: context canceled\n", "Ctrl-C while the model thinks aborts its request")
		expected.Contains(t, printed.String(), "loop ended: 1 turn, stop reason aborted\n", "the run ends, aborted, and the session goes on")
		expected.NotContains(t, stderr.String(), "interrupted", "Ctrl-C while the agent is idle ends the session, and is no interruption")
	})
	t.Run("Ctrl-C", func(t *testing.T) {
		// Press Ctrl-C while a tool runs: when it starts, a minute
		// before it would end. Reading the output, not sleeping, tells
		// when that is.
		cmd := expected.Command(context.Background(), bin, "-scenario", "testdata/slow.json")
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
			if strings.Contains(lines.Text(), "start i index") {
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
		// The signal may come while the call is still being prepared,
		// or once it runs: either way, the call ends with an error.
		if !strings.Contains(out, "done i index ⇒ error: Operation aborted") {
			expected.Contains(t, out, "done i index ⇒ error: context canceled", "the running tool sees the cancellation")
		}
		expected.Contains(t, out, "turn 2 · model request aborted:", "so does the next model request")
		expected.Contains(t, out, "loop ended: 2 turns, stop reason aborted", "the narrative shows how the run ended")
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
	if !expected.NoError(t, err, "find the repository's root") {
		return
	}
	t.Chdir(root) // the corpus's messages name the files from the root
	files, wants := malformedCorpus(t)
	for i, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := cli.Run(context.Background(), run, []string{"-scenario", file}, &stdout, &stderr)
			expected.Equal(t, wants[i], fmt.Sprintf("exit status %d\n%s", status, stderr.String()), "the exit status and standard error, as before the parser moved")
			expected.Equal(t, "", stdout.String(), "nothing runs")
		})
	}
}

// malformedCorpus returns the malformed scenario files, from the root, and
// what the program prints for each.
func malformedCorpus(t *testing.T) (files, wants []string) {
	t.Helper()
	root, err := expected.Root()
	if !expected.NoError(t, err, "find the repository's root") {
		t.FailNow()
	}
	corpus := filepath.Join(root, "fakemodel", "scenario", "testdata", "malformed")
	paths, err := filepath.Glob(filepath.Join(corpus, "*.json"))
	if !expected.NoError(t, err, "list the malformed scenario files") {
		t.FailNow()
	}
	txts, err := filepath.Glob(filepath.Join(corpus, "*.txt"))
	if !expected.NoError(t, err, "list what the program prints for each") {
		t.FailNow()
	}
	if !expected.True(t, len(paths) >= 60, "the corpus holds every kind of mistake the parser knows: at least 60 files, not %d", len(paths)) {
		t.FailNow()
	}
	if !expected.Equal(t, len(paths), len(txts), "one NAME.txt per malformed NAME.json") {
		t.FailNow()
	}
	for _, p := range paths {
		want, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".txt")
		if !expected.NoError(t, err, "read what the program prints for %s", filepath.Base(p)) {
			t.FailNow()
		}
		files = append(files, "fakemodel/scenario/testdata/malformed/"+filepath.Base(p))
		wants = append(wants, string(want))
	}
	return files, wants
}
