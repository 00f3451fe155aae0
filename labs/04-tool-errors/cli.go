package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper"
)

// options are the lab's settings, filled from the command line.
type options struct {
	maxTurns turnLimit
	requests bool
	diagram  bool
	page     stepper.Options
}

// newFlagSet returns the lab's flags, which fill opts. The package cli
// parses them and prints the help.
func newFlagSet(opts *options) *cli.FlagSet {
	fs := cli.NewFlagSet("04-tool-errors", about)
	fs.BoolVar(&opts.requests, "requests", false, "also print what each request sends the model")
	fs.BoolVar(&opts.diagram, "diagram", false, diagram.DiagramUsage)
	opts.page.Flags(fs)
	fs.Var(&opts.maxTurns, "max-turns", fmt.Sprintf("stop the loop after `N` turns (%d to %d)", minTurns, maxTurnsLimit))
	return fs
}

// The range of -max-turns. A run keeps its whole history in memory and
// prints it at the end, so the upper bound keeps a run short.
const (
	minTurns      = 1
	maxTurnsLimit = 1000
)

// turnLimit is the value of -max-turns.
type turnLimit int

// String formats the limit for the help text.
func (n *turnLimit) String() string { return strconv.Itoa(int(*n)) }

// Set parses the value of -max-turns. A whole number beyond the range of an
// int (strconv.ErrRange) is outside 1 to 1000 as well, so it gets the range
// message, not "not a whole number".
func (n *turnLimit) Set(s string) error {
	v, err := strconv.Atoi(s)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return errors.New("not a whole number")
	case err != nil, v < minTurns, v > maxTurnsLimit:
		return fmt.Errorf("must be from %d to %d", minTurns, maxTurnsLimit)
	}
	*n = turnLimit(v)
	return nil
}
