// Lab 06-steering wraps the loop in an Agent that a user can talk to while
// it works: steering messages redirect it before its next request, follow-up
// messages keep it going when it would stop, and nothing typed is lost. The
// loop becomes Pi's two-level runLoop.
//
//	go run ./labs/06-steering [-queue-mode one-at-a-time|all] [-trace] [-sequential]
//	go run ./labs/06-steering -scenario FILE [-trace]
package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
)

// about is what -h prints above the flags.
const about = `Lab 06 turns the loop into Pi's two-level runLoop inside an Agent that
owns the history and two queues. A simulated user reacts to events as a
terminal UI would. Part 1: two steering messages typed while a tool runs
each get a turn of their own (with -queue-mode all, they share one), then
a follow-up keeps the run going. Part 2: a tool result that terminates the
run. Part 3: terminate does not drop a waiting steering message. Part 4: a
ShouldStopAfterTurn policy stops the run and leaves a steering message
queued; Continue picks it up. -scenario runs a scenario file instead.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	status := exitStatus(run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr)
	stop()
	os.Exit(status)
}

// errInterrupted reports a run that Ctrl-C (or any cancellation of the
// program's context) ended.
var errInterrupted = errors.New("interrupted: Ctrl-C cancelled the run")

// run is the whole program: main only turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	out := &checkedWriter{w: stdout}
	defer out.report(&err)
	stdout = out
	opts := options{queueMode: OneAtATime}
	fs := newFlagSet(&opts)
	if err := parse(fs, args, stdout, stderr); err != nil {
		return err
	}
	if opts.scenario != "" {
		if err := onlyScenarioFlags(fs, stderr); err != nil {
			return err
		}
		return runScenario(ctx, stdout, stderr, opts)
	}
	return runDemo(ctx, stdout, stderr, opts)
}
