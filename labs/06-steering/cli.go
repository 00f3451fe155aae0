package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// options are the lab's settings, filled from the command line.
type options struct {
	queueMode  QueueMode
	sequential bool
	trace      bool
	scenario   string
}

// newFlagSet returns the lab's flags, which fill opts.
func newFlagSet(opts *options) *flag.FlagSet {
	fs := flag.NewFlagSet("06-steering", flag.ContinueOnError)
	fs.Usage = func() {} // parse prints the help itself, to the right stream
	fs.BoolVar(&opts.sequential, "sequential", false, "run every batch of tool calls one call at a time (the demo's batches have one call, so its output does not change)")
	fs.BoolVar(&opts.trace, "trace", false, "print one line per event instead of the narrative")
	fs.Var(&opts.queueMode, "queue-mode", "how many queued messages a poll takes: `one-at-a-time` or all")
	fs.Var(&fileFlag{path: &opts.scenario}, "scenario", "run the scenario in `FILE` instead of the demo (see labs/06-steering/scenarios/README.md)")
	return fs
}

// A fileFlag is a flag that names one file: it refuses an empty name, which
// would silently run the demo, and a second use, which would silently
// replace the first.
type fileFlag struct {
	path *string
	set  bool
}

// String returns the file's name, for the flag package.
func (f *fileFlag) String() string {
	if f == nil || f.path == nil {
		return ""
	}
	return *f.path
}

// Set takes the file's name from the command line.
func (f *fileFlag) Set(value string) error {
	switch {
	case f.set:
		return errors.New("given twice: a run takes one scenario file")
	case value == "":
		return errors.New("must name a file")
	}
	*f.path, f.set = value, true
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

// onlyScenarioFlags rejects, with -scenario, the flags whose settings a
// scenario file makes itself.
func onlyScenarioFlags(fs *flag.FlagSet, stderr io.Writer) error {
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "queue-mode" || f.Name == "sequential" {
			given = append(given, "-"+f.Name)
		}
	})
	if len(given) == 0 {
		return nil
	}
	fmt.Fprintf(stderr, "%s cannot go with -scenario: the file sets queueMode and toolExecution itself\n", strings.Join(given, " and "))
	printHelp(fs, stderr)
	return errUsage
}

func printHelp(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: go run ./labs/%s [flags]\n\n%s\n\nFlags:\n", fs.Name(), about)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "  -h\n    \tprint this help")
}

// exitStatus reports err, if it has not been reported yet, and returns the
// program's exit status: 0 for success and -h, 2 for a bad command line or
// scenario file, 130 for a run cancelled by Ctrl-C (128 + SIGINT, as shells
// report it), 1 for anything else.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, err)
		return 130
	case errors.As(err, new(*scenarioError)):
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
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
