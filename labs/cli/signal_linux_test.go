package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

func init() {
	// finishes ends its run, and a Ctrl-C comes as Main is about to exit
	// with the run's status: the signal goes to the very thread that
	// exits, before it can.
	helpers["finishes"] = func() {
		exit = func(status int) {
			runtime.LockOSThread()
			_ = syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), syscall.SIGINT)
			os.Exit(status)
		}
		Main(func(_ context.Context, _ []string, stdout, _ io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			return nil
		})
	}
}

// TestACtrlCJustAfterTheEndChangesNothing: a run that has finished exits 0,
// even if Ctrl-C comes between its end and the exit. The process is never
// killed by the signal without a word.
func TestACtrlCJustAfterTheEndChangesNothing(t *testing.T) {
	h := startHelper(t, "finishes")
	h.wantExit(t, 0, "")
}

// TestACtrlCBeforeMainIsHandledByMain: a Ctrl-C that comes while the
// program's packages are still being initialized, before Main runs, ends
// the run as a later one does, with status 130 and the usual line, instead
// of killing the process without a word.
func TestACtrlCBeforeMainIsHandledByMain(t *testing.T) {
	expected.Verification(t)
	bin := filepath.Join(t.TempDir(), "early")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/early").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	cmd := exec.Command(bin, "main")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if !cmd.ProcessState.Exited() {
		t.Fatalf("the process was killed: %v", err)
	}
	if status := cmd.ProcessState.ExitCode(); status != 130 {
		t.Errorf("status %d, want 130", status)
	}
	if want := "interrupted: Ctrl-C cancelled the run\n"; stderr.String() != want {
		t.Errorf("standard error is %q, want %q", stderr.String(), want)
	}

	// A program that imports the package but never calls Main gets its
	// Ctrl-C back, after holdFor: Go's runtime ends it, as if the package
	// had never held it.
	cmd = exec.Command(bin, "no-main")
	stdout, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("without Main: error %v, want an exit error (standard output %q)", err, stdout)
	}
	if sig := exit.Sys().(syscall.WaitStatus).Signal(); sig != syscall.SIGINT {
		t.Errorf("without Main: the signal that ended the process is %v, want %v", sig, syscall.SIGINT)
	}
	if len(stdout) != 0 {
		t.Errorf("without Main: standard output is %q, want nothing", stdout)
	}
}

// TestATestBinaryKeepsGosCtrlC: go test's binaries import the package too,
// and never call Main; Ctrl-C must end them at once, as it ends any test.
func TestATestBinaryKeepsGosCtrlC(t *testing.T) {
	if early.held != nil {
		t.Error("a test binary holds Ctrl-C, want Go's own handling")
	}
}
