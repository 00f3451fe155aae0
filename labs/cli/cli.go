// Package cli is the command-line plumbing that every lab shares and no lab
// teaches: running a lab's program as a process, its exit status, Ctrl-C,
// its flags and help, the checked standard output that turns lost output
// into an error, and the decision to print in colour. A program that talks
// with a person at a terminal, such as lab 06's -chat, also reads its
// standard input and takes each Ctrl-C for itself (Stdin, Interrupts). A lab's main is one
// line, cli.Main(run), so that its main.go opens with its lesson.
//
// The exit statuses are the same in every lab: 0 for success and -h, 2 for
// a bad command line (an unknown flag, an impossible value, a flag given
// twice, an argument) or a bad input file (BadInput), 130 when Ctrl-C ended
// the run (128 + SIGINT, as shells report it), 70 when the program panicked
// (a bug: EX_SOFTWARE, "internal software error", in BSD's sysexits.h),
// and 1 for anything else, such as output that could not be written. A
// program that takes SIGTERM and SIGHUP for itself (Hangups), to finish
// what it writes first, then ends by that signal (Terminated).
//
// Run recovers a panic of the program's own goroutine and reports it in
// one line: what panicked, where, and that it is a bug. A panic in a
// goroutine the program started cannot be recovered by anyone else: Go's
// runtime prints it with every goroutine's stack and exits with status 2,
// and the stack tells it apart from a bad command line.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// A Program is a lab's whole program. It runs with a context that Ctrl-C
// cancels, the command-line arguments without the program's name, and the
// program's two outputs, and returns what went wrong, if anything.
type Program func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// ErrUsage reports a command line that FlagSet.Parse or FlagSet.Refuse
// rejected. They have told the user why already.
var ErrUsage = errors.New("usage error")

// ErrFailed reports a program that did not succeed and has told the user
// why already, such as go run ./labs check on a lab with a broken rule: the
// exit status is 1, with no more words.
var ErrFailed = errors.New("failed")

// ErrInterrupted reports a run that Ctrl-C ended. A lab returns it when it
// sees that its run was cancelled; Run also reports any other error this
// way once the program's context is cancelled.
var ErrInterrupted = errors.New("interrupted: Ctrl-C cancelled the run")

// Terminated reports a program that SIGTERM or SIGHUP asked to end (it
// took them with Hangups) and that has ended cleanly: Main then ends the
// process by that same signal, as if the program had never taken it, so that
// whoever sent it sees the process end by it, and a shell reports 128 plus
// the signal's number (143 for SIGTERM, 129 for SIGHUP). Run returns that
// status, and prints nothing: a process a signal ends says nothing either.
func Terminated(sig os.Signal) error {
	return terminated{sig}
}

// A terminated is the error Terminated returns.
type terminated struct{ sig os.Signal }

// Error names the signal.
func (t terminated) Error() string { return "terminated by " + t.sig.String() }

// BadInput marks err as a mistake in a file the user gave the program, such
// as a malformed scenario file: Run reports it like any error, and exits
// with status 2, as for a bad command line.
func BadInput(err error) error {
	return badInput{err}
}

// A badInput is an error that BadInput marked.
type badInput struct{ err error }

// Error returns the marked error's message.
func (b badInput) Error() string { return b.err.Error() }

// Unwrap returns the marked error.
func (b badInput) Unwrap() error { return b.err }

// exit ends the process. Tests of Main replace it.
var exit = os.Exit

// Main runs program as the process and exits with the status Run returns.
// It never returns.
//
// The first Ctrl-C cancels the program's context: a lab that watches it
// winds its run down and reports it. A second Ctrl-C ends the process at
// once, with status 130, whatever the program waits on. A program that
// takes the Ctrl-Cs for itself (Interrupts) gets each of them instead.
// Ctrl-C never kills the process without a word once Go has started it: a
// Ctrl-C that comes while the packages are still being initialized waits
// for Main (early.go) and counts as one during the run, and the default
// action stays off until the process has exited, so a Ctrl-C just after a
// run has finished changes nothing, and the finished run exits with its own
// status.
func Main(program Program) {
	ctx, cancel := context.WithCancel(context.Background())
	router := &interruptRouter{}
	ctx = context.WithValue(ctx, interruptsKey, router)
	ctx = context.WithValue(ctx, hangupsKey, fromMain{})
	interrupts := takeInterrupts()
	// Whoever ends the process holds ending, so that a second Ctrl-C
	// cannot end it while the program's own status is on its way out.
	var ending sync.Mutex
	go func() {
		for cancelled := false; ; {
			<-interrupts
			switch {
			case router.forward():
			case !cancelled:
				cancel()
				cancelled = true
			default:
				ending.Lock()
				fmt.Fprintln(os.Stderr, ErrInterrupted)
				exit(130)
			}
		}
	}()
	status, sig := run(ctx, program, os.Args[1:], os.Stdout, os.Stderr)
	ending.Lock()
	if sig != nil {
		endBy(sig)
	}
	exit(status)
}

// endBy ends the process by sig, with the signal's default action, which
// the program's Hangups had turned off. Where a process cannot signal
// itself so (Windows), or the signal does not end it, Main exits with the
// status Run returned.
func endBy(sig os.Signal) {
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
		// The signal is on its way; it ends the process within moments.
		time.Sleep(time.Second)
	}
}

// Run runs program with args and returns its exit status (see the package
// documentation), after writing its error, if it has one the program has
// not reported, to stderr. A panic of the program is a bug: Run recovers
// it, says where it happened, in one line, and returns status 70. Standard output goes through a writer that keeps
// the first failed write: output that is lost, to a full disk for instance,
// makes the status 1, even after -h. Once ctx is cancelled, any error but a
// bad command line counts as ErrInterrupted: the run failed because Ctrl-C
// stopped it. Main calls Run; a lab's tests call it to check its command
// line.
func Run(ctx context.Context, program Program, args []string, stdout, stderr io.Writer) int {
	status, _ := run(ctx, program, args, stdout, stderr)
	return status
}

// run is Run, and also returns the signal the program asked to end by
// (Terminated), if it did.
func run(ctx context.Context, program Program, args []string, stdout, stderr io.Writer) (int, os.Signal) {
	out := newCheckedWriter(stdout)
	err := call(context.WithValue(ctx, outputLostKey, (<-chan struct{})(out.lost)), program, args, out, stderr)
	var p *panicked
	if errors.As(err, &p) {
		fmt.Fprintln(stderr, p)
		return statusBug, nil
	}
	var t terminated
	if errors.As(err, &t) {
		n, _ := t.sig.(syscall.Signal)
		return 128 + int(n), t.sig
	}
	if out.err != nil && (err == nil || errors.Is(err, flag.ErrHelp)) {
		err = fmt.Errorf("write output: %w", out.err)
	}
	if err != nil && !errors.Is(err, ErrUsage) && ctx.Err() != nil {
		// Cancelled means Ctrl-C: whatever failed, it failed because
		// the user stopped the program.
		err = ErrInterrupted
	}
	return status(err, stderr), nil
}

// status reports err, unless it has been reported already, and returns the
// exit status it gives.
func status(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	case errors.Is(err, ErrFailed):
		return 1
	case errors.Is(err, ErrInterrupted):
		fmt.Fprintln(stderr, err)
		return 130
	case errors.As(err, new(badInput)):
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
}
