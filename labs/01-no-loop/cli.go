package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// options are the lab's settings, filled from the command line.
type options struct {
	requests bool
}

// newFlagSet returns the lab's flags, which fill opts. The package cli
// parses them and prints the help.
func newFlagSet(opts *options) *cli.FlagSet {
	fs := cli.NewFlagSet("01-no-loop", about)
	fs.BoolVar(&opts.requests, "requests", false, "also print what each request sends the model")
	return fs
}
