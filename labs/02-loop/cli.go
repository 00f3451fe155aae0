package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper"
)

// options are the lab's settings, filled from the command line.
type options struct {
	requests bool
	diagram  bool
	page     stepper.Options
}

// newFlagSet returns the lab's flags, which fill opts. The package cli
// parses them and prints the help.
func newFlagSet(opts *options) *cli.FlagSet {
	fs := cli.NewFlagSet("02-loop", about)
	fs.BoolVar(&opts.requests, "requests", false, "also print what each request sends the model")
	fs.BoolVar(&opts.diagram, "diagram", false, diagram.DiagramUsage)
	opts.page.Flags(fs)
	return fs
}
