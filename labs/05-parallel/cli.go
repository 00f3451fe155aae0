package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
)

// options are the lab's settings, filled from the command line.
type options struct {
	maxTurns   turnLimit
	sequential bool
	trace      bool
}

// newFlagSet returns the lab's flags, which fill opts.
func newFlagSet(opts *options) *flag.FlagSet {
	fs := flag.NewFlagSet("05-parallel", flag.ContinueOnError)
	fs.Usage = func() {} // parse prints the help itself, to the right stream
	fs.BoolVar(&opts.sequential, "sequential", false, "run every batch of tool calls one call at a time")
	fs.BoolVar(&opts.trace, "trace", false, "print one line per event instead of the narrative")
	fs.Var(&opts.maxTurns, "max-turns", fmt.Sprintf("stop the loop after `N` turns (%d to %d)", minTurns, maxTurnsLimit))
	return fs
}

// The range of -max-turns. Every turn of a run is printed, so the upper bound
// keeps a run short.
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

// errUsage reports a command line that parse rejected; parse has already
// told the user why.
var errUsage = errors.New("usage error")

// parse parses args into fs. With -h it prints the help to stdout and
// returns flag.ErrHelp. With an unknown flag, an impossible value or an
// argument, it prints the mistake and the help to stderr and returns errUsage.
func parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	fs.SetOutput(stderr)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(fs, stdout)
		return err
	case err != nil:
		printHelp(fs, stderr)
		return errUsage
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "unexpected argument: %s\n", fs.Arg(0))
		printHelp(fs, stderr)
		return errUsage
	}
	return nil
}

func printHelp(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: go run ./labs/%s [flags]\n\n%s\n\nFlags:\n", fs.Name(), about)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "  -h\n    \tprint this help")
}

// exitStatus reports err, if it has not been reported yet, and returns the
// program's exit status: 0 for success and -h, 2 for a bad command line, 130
// for a run cancelled by Ctrl-C (128 + SIGINT, as shells report it), 1 for
// anything else.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, err)
		return 130
	default:
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
}

// A checkedWriter passes writes on to w and keeps the first error. Output
// that is lost, to a full disk for instance, must not end with status 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

// Write writes p to w, unless an earlier write failed.
func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.err = err
	return n, err
}

// report makes a failed write run's error, unless run failed already.
func (c *checkedWriter) report(err *error) {
	if c.err != nil && (*err == nil || errors.Is(*err, flag.ErrHelp)) {
		*err = fmt.Errorf("write output: %w", c.err)
	}
}
