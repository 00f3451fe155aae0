package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests of Ctrl-C run the test binary itself as a lab's process, with
// one of these programs in place of the tests, so that they can send it a
// real SIGINT. Each program says "ready" once Main runs it: from then on,
// Main handles Ctrl-C.
var helpers = map[string]func(){
	// waits stops when Ctrl-C cancels its context, as the labs do.
	"waits": func() {
		Main(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			<-ctx.Done()
			return fmt.Errorf("waiting: %w", ctx.Err())
		})
	},
	// stuck sees the first Ctrl-C and goes on waiting, as a program
	// blocked in a system call would.
	"stuck": func() {
		Main(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			<-ctx.Done()
			fmt.Fprintln(stdout, "cancelled, still waiting")
			time.Sleep(time.Hour)
			return nil
		})
	},
	// terminates takes SIGTERM and SIGHUP for itself, says so, and then
	// ends by the signal that came, as the track does once its command
	// has finished what it writes.
	"terminates": func() {
		Main(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
			hangups := Hangups(ctx)
			fmt.Fprintln(stdout, "ready")
			sig := <-hangups
			fmt.Fprintln(stdout, "finishing first")
			return Terminated(sig)
		})
	},
	// panics has a bug.
	"panics": func() {
		Main(func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			return outOfRange(ctx, []string{"a"}, stdout, stderr)
		})
	},
	// panicsElsewhere has a bug in a goroutine of its own.
	"panicsElsewhere": func() {
		Main(func(ctx context.Context, _ []string, stdout, stderr io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			done := make(chan error)
			go func() { done <- outOfRange(ctx, []string{"a"}, stdout, stderr) }()
			return <-done
		})
	},
}

// helperEnv names the helper program a test binary runs instead of its tests.
const helperEnv = "LABS_CLI_TEST_HELPER"

func TestMain(m *testing.M) {
	if name := os.Getenv(helperEnv); name != "" {
		helpers[name]()
		panic("Main returned")
	}
	os.Exit(m.Run())
}

// A helperProcess is a helper program running as a process.
type helperProcess struct {
	cmd    *exec.Cmd
	stdout io.Reader
	lines  *bufio.Scanner
	stderr lockedBuffer
	// hung is closed if the helper was killed for running too long.
	hung chan struct{}
}

// A lockedBuffer is a buffer that the test reads while the process writes
// to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startHelper starts the helper program name and waits for its first line.
func startHelper(t *testing.T, name string) *helperProcess {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	h := &helperProcess{cmd: exec.Command(os.Args[0], "-test.run=^$"), hung: make(chan struct{})}
	h.cmd.Env = append(os.Environ(), helperEnv+"="+name)
	h.cmd.Stderr = &h.stderr
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A guard, not a wait: a helper that Ctrl-C cannot end would
	// otherwise hang the tests.
	guard := time.AfterFunc(time.Minute, func() {
		close(h.hung)
		_ = h.cmd.Process.Kill()
	})
	t.Cleanup(func() { guard.Stop() })
	h.stdout, h.lines = stdout, bufio.NewScanner(stdout)
	h.expectLine(t, "ready")
	return h
}

// expectLine reads the helper's next line of standard output.
func (h *helperProcess) expectLine(t *testing.T, want string) {
	t.Helper()
	if !h.lines.Scan() {
		t.Fatalf("the helper ended before it said %q; stderr: %s", want, h.stderr.String())
	}
	if got := h.lines.Text(); got != want {
		t.Fatalf("the helper said %q, want %q", got, want)
	}
}

// interrupt sends the helper a Ctrl-C.
func (h *helperProcess) interrupt(t *testing.T) {
	t.Helper()
	if err := h.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
}

// wait waits for the helper to exit and returns its exit status. A helper
// still alive after a minute is killed, and fails the test.
func (h *helperProcess) wait(t *testing.T) int {
	t.Helper()
	err := h.end(t)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if exit != nil && !exit.Exited() {
		t.Fatalf("the helper did not exit by itself: %v (stderr: %q)", err, h.stderr.String())
	}
	return h.cmd.ProcessState.ExitCode()
}

// end reads the rest of the helper's output and waits for it to end. A
// helper still alive after a minute is killed, and fails the test.
func (h *helperProcess) end(t *testing.T) error {
	t.Helper()
	for h.lines.Scan() {
	}
	_, _ = io.Copy(io.Discard, h.stdout)
	err := h.cmd.Wait()
	select {
	case <-h.hung:
		t.Fatalf("the helper still ran after a minute, and was killed (stderr: %q)", h.stderr.String())
	default:
	}
	return err
}

// wantExit waits for the helper to exit, and checks its exit status and
// what it wrote to standard error.
func (h *helperProcess) wantExit(t *testing.T, status int, stderr string) {
	t.Helper()
	if got := h.wait(t); got != status {
		t.Errorf("status %d, want %d", got, status)
	}
	if got := h.stderr.String(); got != stderr {
		t.Errorf("standard error is %q, want %q", got, stderr)
	}
}

func TestCtrlCCancelsTheRunAndExitsWith130(t *testing.T) {
	h := startHelper(t, "waits")
	h.interrupt(t)
	h.wantExit(t, 130, "interrupted: Ctrl-C cancelled the run\n")
}

// TestASecondCtrlCEndsTheProgramAtOnce: a program that does not stop at the
// first Ctrl-C, because it waits on something that cannot see the context,
// ends at the second.
func TestASecondCtrlCEndsTheProgramAtOnce(t *testing.T) {
	h := startHelper(t, "stuck")
	h.interrupt(t)
	h.expectLine(t, "cancelled, still waiting")
	h.interrupt(t)
	h.wantExit(t, 130, "interrupted: Ctrl-C cancelled the run\n")
}

// TestAPanicExitsWith70: the process of a program that panicked exits with
// the status of a bug, and says what panicked in one line, without Go's
// stack of every goroutine.
func TestAPanicExitsWith70(t *testing.T) {
	h := startHelper(t, "panics")
	h.expectLine(t, "output")
	h.wantExit(t, 70, "bug: the program panicked at "+lineOf(t, "calls[len(args)]")+": runtime error: index out of range [1] with length 1\n")
}

// TestAPanicInAnotherGoroutineIsGos: nothing recovers a panic in a
// goroutine the program started but that goroutine itself, so Go's runtime
// reports it, with the goroutines' stacks, and exits with 2.
func TestAPanicInAnotherGoroutineIsGos(t *testing.T) {
	h := startHelper(t, "panicsElsewhere")
	h.expectLine(t, "output")
	if status := h.wait(t); status != 2 {
		t.Errorf("status %d, want 2", status)
	}
	if want := "panic: runtime error: index out of range [1] with length 1\n\ngoroutine "; !strings.HasPrefix(h.stderr.String(), want) {
		t.Errorf("standard error is\n%s\nwant it to start with %q", h.stderr.String(), want)
	}
}

// TestATerminatedProgramEndsByItsSignal: a program that took SIGTERM or
// SIGHUP for itself, and returned Terminated once it had finished, ends by
// that signal, as if it had never taken it, and says nothing more.
func TestATerminatedProgramEndsByItsSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			h := startHelper(t, "terminates")
			if err := h.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			h.expectLine(t, "finishing first")
			h.end(t)
			ws, ok := h.cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("the helper ended with %v, want it ended by %v", h.cmd.ProcessState, sig)
			}
			if got := h.stderr.String(); got != "" {
				t.Errorf("standard error is %q, want nothing", got)
			}
		})
	}
}
