// Command golden regenerates the workbook's golden files, or checks them.
//
// From anywhere inside the repository:
//
//	go run ./expected/cmd/golden                  rewrite every golden file
//	go run ./expected/cmd/golden -check           compare instead, and fail on a difference
//	go run ./expected/cmd/golden -check -repeat 20  compare each case's output 20 times
//	go run ./expected/cmd/golden 03-              only the cases whose names start with 03-
//
// It builds each lab once, runs every case of expected.Cases from the
// repository root with its standard output on a pipe, as an instructor does,
// and writes or compares expected/NAME.txt (or, for a page, NAME.html). A case whose program exits with a
// non-zero status is an error: a golden file holds the output of a run that
// worked.
//
// It runs as the labs do (cli.Main): a bad command line exits with status 2,
// a failure with 1, and lost output is a failure. Ctrl-C, SIGTERM and SIGHUP
// (a closed terminal) stop it: it kills the lab it is running, or lets a
// build end, removes the programs it built, with its temporary folder, and
// exits with 130 after Ctrl-C and with 1 otherwise. It takes every Ctrl-C
// for itself, so that a second one cannot end it before the folder is
// removed; the first already ends it as soon as it can.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

func main() { cli.Main(run) }

// run is the command, with its command line and its streams.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// refuse reports a command line that asks for something impossible.
	refuse := func(format string, a ...any) error {
		fmt.Fprintf(stderr, "golden: "+format+"\n", a...)
		return cli.ErrUsage
	}
	fs := flag.NewFlagSet("golden", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the mistake is printed below, in one line
	check := fs.Bool("check", false, "compare the labs' output with the golden files instead of writing them")
	repeat := fs.Int("repeat", 1, "with -check, run each case `N` times")
	twice, restore := cli.OnlyOnce(fs)
	usage := func(w io.Writer) {
		fmt.Fprint(w, `Usage: go run ./expected/cmd/golden [-check [-repeat N]] [NAME-PREFIX ...]

Without -check it rewrites every golden file in expected/ from the labs' real
output; with -check it compares instead and fails on a difference. Name
prefixes (03-, 06-steering.scenario-) limit it to the cases whose names
start with one of them.

`)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // usage is printed below, to the right stream
	err := fs.Parse(args)
	restore()
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage(stdout)
		return err
	case err != nil:
		mistake := err.Error()
		if name := twice(); name != "" {
			mistake = "flag given twice: -" + name
		}
		fmt.Fprintln(stderr, cli.Printable(mistake))
		usage(stderr)
		return cli.ErrUsage
	}
	if *repeat < 1 || (*repeat > 1 && !*check) {
		return refuse("-repeat must be at least 1, and more than 1 only with -check")
	}
	cases, err := expected.Cases()
	if err != nil {
		return err
	}
	if prefixes := fs.Args(); len(prefixes) > 0 {
		for _, p := range prefixes {
			if !slices.ContainsFunc(cases, func(c expected.Case) bool { return strings.HasPrefix(c.Name, p) }) {
				return refuse("no case's name starts with %q", p)
			}
		}
		cases = slices.DeleteFunc(cases, func(c expected.Case) bool {
			return !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(c.Name, p) })
		})
	}
	ctx, stop := stopOnSignals(ctx)
	defer stop()
	err = runCases(ctx, cases, *check, *repeat, stdout)
	if stopped := context.Cause(ctx); stopped != nil {
		// The programs that a signal reaches too, a terminal's Ctrl-C
		// for instance, may end before it reaches golden: whatever
		// failed, it failed because of the signal.
		return stopped
	}
	return err
}

// stopOnSignals returns a copy of ctx that the first Ctrl-C, SIGTERM or
// SIGHUP cancels, with what to report as its cause, and a function that
// releases it. golden takes these signals for itself (cli.Interrupts,
// cli.Hangups), so that none of them ends the process before runCases has
// removed the programs it built: the program it is running, if any, is
// killed, and it returns.
func stopOnSignals(ctx context.Context) (context.Context, func()) {
	interrupts, hangups := cli.Interrupts(ctx), cli.Hangups(ctx)
	ctx, stop := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-interrupts:
			stop(cli.ErrInterrupted)
		case sig := <-hangups:
			stop(fmt.Errorf("%v: stopped before every case had run", sig))
		case <-ctx.Done():
		}
	}()
	return ctx, func() { stop(nil) }
}

// runCases builds the labs of cases in a temporary folder, runs each case
// repeat times, and writes its golden file or, with check, compares it. It
// removes the folder before it returns, and returns as soon as ctx is done.
func runCases(ctx context.Context, cases []expected.Case, check bool, repeat int, stdout io.Writer) error {
	dir, err := os.MkdirTemp("", "agent-loop-lab-golden-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	programs := map[string]string{}
	failed := 0
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return err
		}
		bin, ok := programs[c.Lab]
		if !ok {
			// A build runs to its end, seconds at most: a go build
			// killed halfway can leave its compiler writing into dir
			// while dir is being removed.
			if bin, err = expected.Build(dir, c.Lab); err != nil {
				return err
			}
			programs[c.Lab] = bin
		}
		for i := range repeat {
			if err := ctx.Err(); err != nil {
				return err
			}
			res, err := expected.RunContext(ctx, bin, c.Args...)
			if err != nil {
				return err
			}
			if res.ExitCode != 0 {
				return fmt.Errorf("%s exited with status %d:\n%s", c.Command(), res.ExitCode, res.Stderr)
			}
			if !check {
				if err := expected.Write(c.Name, res.Stdout); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "wrote expected/%s  (%s)\n", expected.FileName(c.Name), c.Command())
				continue
			}
			if err := expected.Compare(c.Name, res.Stdout); err != nil {
				var mismatch *expected.MismatchError
				if !errors.As(err, &mismatch) {
					return err
				}
				failed++
				fmt.Fprintf(stdout, "FAIL %s, run %d of %d  (%s)\n%v\n\n", c.Name, i+1, repeat, c.Command(), err)
				break
			}
			switch {
			case repeat == 1:
				fmt.Fprintf(stdout, "ok   %s  (%s)\n", c.Name, c.Command())
			case i == repeat-1:
				fmt.Fprintf(stdout, "ok   %s, %d of %d runs  (%s)\n", c.Name, repeat, repeat, c.Command())
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d golden files differ from the labs' output", failed, len(cases))
	}
	return nil
}
