//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCtrlCWhileTheScenarioFileBlocks runs the real program on a scenario
// file that never comes: a FIFO whose writer is open and writes nothing, as
// with -scenario /dev/stdin from a silent pipe. Ctrl-C must end the
// program, with status 130 and the usual message, although it waits on a
// read and not on a run.
func TestCtrlCWhileTheScenarioFileBlocks(t *testing.T) {
	t.Parallel() // it waits on other processes: let the other tests run meanwhile
	bin, err := expected.Program()
	require.NoError(t, err)
	fifo := filepath.Join(t.TempDir(), "scenario.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))

	cmd := expected.Command(context.Background(), bin, "-scenario", fifo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// A guard, not a wait: a program that Ctrl-C cannot end would
	// otherwise hang the tests.
	hung := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer hung.Stop()

	// Opening the writer waits until the program opens the file to read
	// it; from then on the program handles Ctrl-C, and waits on the read.
	opened := make(chan *os.File, 1)
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			opened <- w
		}
	}()
	select {
	case w := <-opened:
		defer w.Close()
	case err := <-exited:
		// Let the writer's open return.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		t.Fatalf("the program ended before it read the file: %v; stderr: %s", err, stderr.String())
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err = <-exited
	require.True(t, hung.Stop(), "the program still waited a minute after Ctrl-C, and was killed")
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v", err)
	assert.Equal(t, 130, exit.ExitCode())
	assert.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String())
	assert.Empty(t, stdout.String())
}

// TestHeadOneKeepsTheRecording runs the real program as "-chat -record
// FILE | head -1" would: the reader of standard output goes after the first
// line. The process must not die of SIGPIPE: the session ends, the
// recording is written, and the status is 1, for the output that was lost.
func TestHeadOneKeepsTheRecording(t *testing.T) {
	t.Parallel() // it waits on other processes: let the other tests run meanwhile
	bin, err := expected.Program()
	require.NoError(t, err)
	rec := filepath.Join(t.TempDir(), "session.json")
	// A model server that answers once the pipe is closed, so that the
	// program's next line goes to the closed pipe, at once: the offline
	// model would think for a second and a half first.
	answer := make(chan struct{})
	srv := startFixtureServer(t, response{fixture: "text", hold: answer})
	cmd := expected.Command(context.Background(), bin, "-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	cmd.Env = append(cmd.Env, "OPENAI_API_KEY=") // no key of the machine's reaches the test server
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close() // open until the end: the session must not end by the end of input
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	hung := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer hung.Stop()

	_, err = io.WriteString(stdin, "What is the weather in Oslo?\n")
	require.NoError(t, err)
	first, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "turn 1 · user: What is the weather in Oslo?\n", first)
	require.NoError(t, out.(io.Closer).Close()) // head -1 exits
	close(answer)

	err = cmd.Wait()
	require.True(t, hung.Stop(), "the program still ran a minute later, and was killed")
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v; stderr: %s", err, stderr.String())
	assert.Equal(t, 1, exit.ExitCode(), "not killed by SIGPIPE; stderr: %s", stderr.String())
	assert.Contains(t, stderr.String(), "recorded the session in "+rec)
	assert.FileExists(t, rec)
}
