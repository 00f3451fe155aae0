//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
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
