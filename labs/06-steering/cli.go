package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// options are the lab's settings, filled from the command line.
type options struct {
	queueMode  QueueMode
	sequential bool
	trace      bool
	scenario   string
	chat       talk.Options
	out        narrative.Output
}

// newFlagSet returns the lab's flags, which fill opts. The package cli
// parses them and prints the help.
func newFlagSet(opts *options) *cli.FlagSet {
	fs := cli.NewFlagSet("06-steering", about)
	fs.BoolVar(&opts.sequential, "sequential", false, "run every batch of tool calls one call at a time (the demo's batches have one call, so its output does not change)")
	fs.BoolVar(&opts.trace, "trace", false, "print one line per event instead of the narrative")
	fs.Var(&opts.queueMode, "queue-mode", "how many queued messages a poll takes: `one-at-a-time` or all")
	fs.FileVar(&opts.scenario, "scenario", "run the scenario in `FILE` instead of the demo (see labs/06-steering/scenarios/README.md)")
	talk.Flags(fs, &opts.chat)
	opts.out.Flags(fs)
	return fs
}
