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

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestCtrlCWhileTheScenarioFileBlocks runs the real program on a scenario
// file that never comes: a FIFO whose writer is open and writes nothing, as
// with -scenario /dev/stdin from a silent pipe. Ctrl-C must end the
// program, with status 130 and the usual message, although it waits on a
// read and not on a run.
func TestCtrlCWhileTheScenarioFileBlocks(t *testing.T) {
	t.Parallel() // it waits on other processes: let the other tests run meanwhile
	bin, err := expected.Program()
	if !expected.NoError(t, err, "build the lab's program") {
		return
	}
	fifo := filepath.Join(t.TempDir(), "scenario.json")
	if !expected.NoError(t, syscall.Mkfifo(fifo, 0o600), "make a FIFO") {
		return
	}

	cmd := expected.Command(context.Background(), bin, "-scenario", fifo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	proc, err := expected.Start(cmd)
	if !expected.NoError(t, err, "start the program") {
		return
	}
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()

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

	if !expected.NoError(t, proc.Signal(syscall.SIGINT), "press Ctrl-C") {
		return
	}
	err = <-exited
	var exit *exec.ExitError
	if !expected.True(t, errors.As(err, &exit), "the program exits with a status that is not 0 (Wait returned %v)", err) {
		return
	}
	expected.Equal(t, 130, exit.ExitCode(), "the exit status of an interrupted run")
	expected.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String(), "standard error says the run was interrupted")
	expected.Equal(t, "", stdout.String(), "standard output stays empty")
}

// TestHeadOneKeepsTheRecording runs the real program as "-chat -record
// FILE | head -1" would: the reader of standard output goes after the first
// line. The process must not die of SIGPIPE: the session ends, the
// recording is written, and the status is 1, for the output that was lost.
//
// It does not run in parallel with the tests that start programs: a program
// starting at the moment this test closes its end of the pipe, forked but
// not yet running its own code, holds a copy of that end for a while. A
// write to the pipe then succeeds, and a program whose session has printed
// everything waits for its next prompt, with nothing to tell it that its
// reader has gone.
func TestHeadOneKeepsTheRecording(t *testing.T) {
	bin, err := expected.Program()
	if !expected.NoError(t, err, "build the lab's program") {
		return
	}
	rec := filepath.Join(t.TempDir(), "session.json")
	// A model server that answers once the pipe is closed, so that the
	// program's next line goes to the closed pipe, at once: the offline
	// model would think for a second and a half first.
	answer := make(chan struct{})
	srv := startFixtureServer(t, response{fixture: "text", hold: answer})
	cmd := expected.Command(context.Background(), bin, "-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	cmd.Env = append(cmd.Env, "OPENAI_API_KEY=") // no key of the machine's reaches the test server
	stdin, err := cmd.StdinPipe()
	if !expected.NoError(t, err, "connect the program's standard input") {
		return
	}
	defer stdin.Close() // open until the end: the session must not end by the end of input
	out, err := cmd.StdoutPipe()
	if !expected.NoError(t, err, "connect the program's standard output") {
		return
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	proc, err := expected.Start(cmd)
	if !expected.NoError(t, err, "start the program") {
		return
	}

	_, err = io.WriteString(stdin, "What is the weather in Oslo?\n")
	if !expected.NoError(t, err, "type a prompt") {
		return
	}
	first, err := bufio.NewReader(out).ReadString('\n')
	if !expected.NoError(t, err, "read the program's first line") {
		return
	}
	expected.Equal(t, "turn 1 · user: What is the weather in Oslo?\n", first, "the program's first line")
	if !expected.NoError(t, out.(io.Closer).Close(), "close the pipe, as head -1 does when it exits") {
		return
	}
	close(answer)

	err = proc.Wait()
	var exit *exec.ExitError
	if !expected.True(t, errors.As(err, &exit), "the program exits with a status that is not 0 (Wait returned %v; standard error: %s)", err, stderr.String()) {
		return
	}
	expected.Equal(t, 1, exit.ExitCode(), "not killed by SIGPIPE (standard error: %s)", stderr.String())
	expected.Contains(t, stderr.String(), "recorded the session in "+rec, "standard error says where the recording is")
	info, err := os.Stat(rec)
	expected.True(t, err == nil && !info.IsDir(), "the recording is written: %s", rec)
}
