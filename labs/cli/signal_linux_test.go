package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
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
