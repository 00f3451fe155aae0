// Lab 06-steering wraps the loop in an Agent that a user can talk to while
// it works: steering messages redirect it before its next request, follow-up
// messages keep it going when it would stop, and nothing typed is lost. The
// loop becomes Pi's two-level runLoop.
//
//	go run ./labs/06-steering [-queue-mode one-at-a-time|all] [-trace | -diagram | -timeline | -html FILE] [-sequential]
//	go run ./labs/06-steering -scenario FILE [-trace | -diagram | -timeline | -html FILE]
//	go run ./labs/06-steering -chat [-model-name NAME [-base-url URL]] [-record FILE] [...]
package main

import (
	"context"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// about is what -h prints above the flags.
const about = `Lab 06 turns the loop into Pi's two-level runLoop inside an Agent that
owns the history and two queues. A simulated user reacts to events as a
terminal UI would. Part 1: two steering messages typed while a tool runs
each get a turn of their own (with -queue-mode all, they share one), then
a follow-up keeps the run going. Part 2: a tool result that terminates the
run. Part 3: terminate does not drop a waiting steering message. Part 4: a
ShouldStopAfterTurn policy stops the run and leaves a steering message
queued; Continue picks it up. -scenario runs a scenario file instead, and
-chat lets you talk to the agent, and steer it, yourself.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	opts := options{queueMode: OneAtATime}
	fs := newFlagSet(&opts)
	if err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	if err := fs.Excludes(stderr, "scenario", "the file sets queueMode and toolExecution itself", "queue-mode", "sequential"); err != nil {
		return err
	}
	if err := opts.chat.Check(fs, stderr); err != nil {
		return err
	}
	defer opts.out.Finish(&err) // a picture or a page is written once the runs are over, however they end
	switch {
	case opts.scenario != "":
		return runScenario(ctx, stdout, stderr, opts)
	case opts.chat.Chat:
		return runChat(ctx, stdout, stderr, opts)
	}
	return runDemo(ctx, stdout, stderr, opts)
}
