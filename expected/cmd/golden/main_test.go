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
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// TestCommandLine checks the command lines that golden refuses before it
// builds anything, and its help.
func TestCommandLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := cli.Run(context.Background(), run, []string{"-h"}, &stdout, &stderr); status != 0 {
		t.Errorf("-h: status %d, want 0", status)
	}
	if want := "Usage: go run ./expected/cmd/golden"; !strings.Contains(stdout.String(), want) {
		t.Errorf("-h: standard output is %q, want it to hold %q: help goes to standard output", stdout.String(), want)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"-repeat", "0", "-check"}, "golden: -repeat must be at least 1, and more than 1 only with -check\n"},
		{[]string{"-repeat", "2"}, "golden: -repeat must be at least 1, and more than 1 only with -check\n"},
		{[]string{"-check", "07-"}, "golden: no case's name starts with \"07-\"\n"},
		{[]string{"-check", "-check"}, "flag given twice: -check\n"},
		{[]string{"-check", "\x1b[2J"}, `golden: no case's name starts with "\x1b[2J"` + "\n"},
	} {
		stdout.Reset()
		stderr.Reset()
		if status := cli.Run(context.Background(), run, tt.args, &stdout, &stderr); status != 2 {
			t.Errorf("%q: status %d, want 2", tt.args, status)
		}
		if !strings.HasPrefix(stderr.String(), tt.want) {
			t.Errorf("%q: standard error is %q, want it to start with %q", tt.args, stderr.String(), tt.want)
		}
		if stdout.String() != "" {
			t.Errorf("%q: standard output is %q, want nothing: nothing runs", tt.args, stdout.String())
		}
	}
}

// TestLostOutputIsAFailure checks that golden fails when what it says
// cannot be written, as the labs do.
func TestLostOutputIsAFailure(t *testing.T) {
	var stderr bytes.Buffer
	if status := cli.Run(context.Background(), run, []string{"-h"}, failingWriter{}, &stderr); status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	if want := "write output: disk full"; !strings.Contains(stderr.String(), want) {
		t.Errorf("standard error is %q, want it to hold %q", stderr.String(), want)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestASignalLeavesNoTemporaryFolder stops golden, as a user, an IDE or a
// closed terminal does, while it runs the cases of lab 05, whose tools wait
// for real: it must remove the programs it built, with their temporary
// folder, before it ends, and exit with the status the signal gives.
func TestASignalLeavesNoTemporaryFolder(t *testing.T) {
	expected.Verification(t)
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM or SIGHUP to send on Windows")
	}
	golden := filepath.Join(t.TempDir(), "golden")
	out, err := exec.Command("go", "build", "-o", golden, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	for _, tt := range []struct {
		name    string
		signals []os.Signal
		status  int
		stderr  string
	}{
		{"SIGTERM", []os.Signal{syscall.SIGTERM}, 1, "error: terminated: stopped before every case had run\n"},
		{"SIGHUP", []os.Signal{syscall.SIGHUP}, 1, "error: hangup: stopped before every case had run\n"},
		{"two Ctrl-Cs", []os.Signal{os.Interrupt, os.Interrupt}, 130, "interrupted: Ctrl-C cancelled the run\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			cmd := exec.Command(golden, "-check", "05-")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Its first line says that it built lab 05 and ran its first
			// case; the next case takes a second.
			lines := bufio.NewScanner(stdout)
			if !lines.Scan() || !strings.HasPrefix(lines.Text(), "ok ") {
				_ = cmd.Wait()
				t.Fatalf("golden's first line is %q; stderr: %s", lines.Text(), stderr.String())
			}
			leftovers, err := filepath.Glob(filepath.Join(tmp, "agent-loop-lab-golden-*"))
			if err != nil {
				t.Fatal(err)
			}
			if len(leftovers) != 1 {
				t.Fatalf("%d folders %q, want 1: the folder golden builds the labs in", len(leftovers), leftovers)
			}
			for _, sig := range tt.signals {
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				waitDelivered(t, cmd.Process.Pid, sig)
			}
			_, _ = io.Copy(io.Discard, stdout)
			err = cmd.Wait()
			if !cmd.ProcessState.Exited() {
				t.Fatalf("the signal killed golden: %v", err)
			}
			if status := cmd.ProcessState.ExitCode(); status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			if stderr.String() != tt.stderr {
				t.Errorf("standard error is %q, want %q", stderr.String(), tt.stderr)
			}
			entries, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 0 {
				names := make([]string, len(entries))
				for i, e := range entries {
					names[i] = e.Name()
				}
				t.Errorf("golden left %q in its temporary folder's parent, want nothing", names)
			}
		})
	}
}

// waitDelivered waits until the process pid no longer has sig pending, so
// that the next signal arrives as a signal of its own: two of one kind sent
// at once are merged into one. It reads the process's pending signals in
// /proc, on Linux; elsewhere it does not wait.
func waitDelivered(t *testing.T, pid int, sig os.Signal) {
	t.Helper()
	bit := uint64(1) << (sig.(syscall.Signal) - 1)
	for {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return
		}
		_, rest, found := strings.Cut(string(status), "\nShdPnd:")
		if !found {
			t.Fatalf("no ShdPnd in /proc/%d/status", pid)
		}
		field, _, _ := strings.Cut(rest, "\n")
		pending, err := strconv.ParseUint(strings.TrimSpace(field), 16, 64)
		if err != nil {
			t.Fatalf("ShdPnd in /proc/%d/status: %v", pid, err)
		}
		if pending&bit == 0 {
			return
		}
		runtime.Gosched()
	}
}
