package cli

import (
	"bytes"
	"context"
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Equal(t, 0, h.wait(t))
	assert.Empty(t, h.stderr.String())
}

// TestACtrlCBeforeMainIsHandledByMain: a Ctrl-C that comes while the
// program's packages are still being initialized, before Main runs, ends
// the run as a later one does, with status 130 and the usual line, instead
// of killing the process without a word.
func TestACtrlCBeforeMainIsHandledByMain(t *testing.T) {
	expected.Verification(t)
	bin := filepath.Join(t.TempDir(), "early")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/early").CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(bin, "main")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	require.True(t, cmd.ProcessState.Exited(), "the process was killed: %v", err)
	assert.Equal(t, 130, cmd.ProcessState.ExitCode())
	assert.Equal(t, "interrupted: Ctrl-C cancelled the run\n", stderr.String())

	// A program that imports the package but never calls Main gets its
	// Ctrl-C back, after holdFor: Go's runtime ends it, as if the package
	// had never held it.
	cmd = exec.Command(bin, "no-main")
	stdout, err := cmd.Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", stdout)
	assert.Equal(t, syscall.SIGINT, exit.Sys().(syscall.WaitStatus).Signal())
	assert.Empty(t, stdout)
}

// TestATestBinaryKeepsGosCtrlC: go test's binaries import the package too,
// and never call Main; Ctrl-C must end them at once, as it ends any test.
func TestATestBinaryKeepsGosCtrlC(t *testing.T) {
	assert.Nil(t, early.held)
}
