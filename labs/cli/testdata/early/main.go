//go:build linux

// Command early presses Ctrl-C on itself before Main runs, while the
// packages are still being initialized, as a user who presses it the moment
// a lab starts does. With the argument "main" it then runs as a lab does,
// cli.Main with a program that waits for Ctrl-C; with "no-main" it never
// calls Main, as a program that imports the package for something else.
// TestACtrlCBeforeMainIsHandledByMain runs it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// init runs after the packages it imports, labs/cli among them. The signal
// goes to the thread that sends it, so it is handled before Tgkill returns.
func init() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), syscall.SIGINT)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "main" {
		cli.Main(func(ctx context.Context, _ []string, _, _ io.Writer) error {
			<-ctx.Done()
			return fmt.Errorf("waiting: %w", ctx.Err())
		})
	}
	time.Sleep(time.Minute)
	fmt.Println("the Ctrl-C was lost")
}
