package cli

import (
	"os"
	"os/signal"
	"sync"
	"testing"
	"time"
)

// Until a program asks for SIGINT (signal.Notify), Go's runtime ends the
// process on it at once, without a word. Main asks only once every package
// of the program has been initialized, net/http in lab 06 among them: a
// Ctrl-C in those milliseconds would kill the process, not cancel the run.
// So this package asks for SIGINT as soon as it is initialized, and holds
// what comes until Main takes it. What Go does before cannot be reached:
// the runtime's own start and the packages initialized before this one,
// most of them the standard library's (in lab 06, its cryptography). A
// Ctrl-C then kills the process as it kills any program, before it has
// printed anything, and the shell reports status 130 all the same.

// holdFor is how long a Ctrl-C waits for Main. Main starts a few
// milliseconds after this package's initialization; a program that imports
// the package but never calls Main gets the Ctrl-C back after holdFor.
const holdFor = time.Second

// early holds the Ctrl-Cs that come before Main runs.
var early struct {
	mu sync.Mutex
	// held receives every Ctrl-C from the package's initialization on;
	// nil in a test binary, or once the Ctrl-Cs were handed back.
	held chan os.Signal
	// mainRuns is closed when Main takes the Ctrl-Cs.
	mainRuns chan struct{}
}

func init() {
	// A test binary never calls Main: Ctrl-C must end go test at once,
	// as Go's runtime does. Tests of Main start it without the hold.
	if !testing.Testing() {
		hold()
	}
}

// hold starts holding the Ctrl-Cs for Main.
func hold() {
	early.held = make(chan os.Signal, 2)
	early.mainRuns = make(chan struct{})
	signal.Notify(early.held, os.Interrupt)
	first := make(chan os.Signal, 1)
	signal.Notify(first, os.Interrupt)
	go func() {
		select {
		case <-early.mainRuns:
			signal.Stop(first)
			return
		case <-first:
			signal.Stop(first)
		}
		wait := time.NewTimer(holdFor)
		defer wait.Stop()
		select {
		case <-early.mainRuns:
		case <-wait.C:
			handBack()
		}
	}()
}

// handBack gives a Ctrl-C that Main did not take in time back to Go's
// runtime, which ends the process, as if it had never been held.
func handBack() {
	early.mu.Lock()
	defer early.mu.Unlock()
	if early.held == nil || isClosed(early.mainRuns) {
		return
	}
	signal.Stop(early.held)
	early.held = nil
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(os.Interrupt)
	}
	if err != nil {
		exit(130)
	}
}

// takeInterrupts returns the channel on which every Ctrl-C of the process
// arrives, those that came before too, for Main.
func takeInterrupts() <-chan os.Signal {
	early.mu.Lock()
	defer early.mu.Unlock()
	if early.held != nil {
		close(early.mainRuns)
		return early.held
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt)
	return ch
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
