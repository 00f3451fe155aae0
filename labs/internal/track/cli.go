package track

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// Run is the front door, go run ./labs: it parses args and runs the
// command they name. It is a cli.Program: its error says how the command
// ended, and cli.Main turns it into the exit status.
//
// SIGTERM and SIGHUP (a closed terminal, an editor's stop button) do not end
// the process in the middle of a command: they cancel it, as Ctrl-C does, so
// that start and reset finish writing the copy, whole, and check ends its go
// test and removes what go test leaves behind. Then the track ends by that
// signal (cli.Terminated).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	wb, err := openWorkbook()
	if err != nil {
		return err
	}
	return runEnding(ctx, wb, os.Getenv, args, stdout, stderr)
}

// runEnding is run, which SIGTERM and SIGHUP cancel: then it returns
// cli.Terminated, whatever the command returned.
func runEnding(ctx context.Context, wb *workbook, getenv func(string) string, args []string, stdout, stderr io.Writer) error {
	ctx, ended := endOnHangups(ctx)
	err := run(ctx, wb, getenv, args, stdout, stderr)
	if sig := ended(); sig != nil {
		return cli.Terminated(sig)
	}
	return err
}

// endOnHangups returns a copy of ctx that SIGTERM or SIGHUP cancels
// (cli.Hangups), and a function that stops watching for them and returns
// the one that came, if any.
func endOnHangups(ctx context.Context) (context.Context, func() os.Signal) {
	hangups := cli.Hangups(ctx)
	ctx, cancel := context.WithCancel(ctx)
	stop, finished := make(chan struct{}), make(chan struct{})
	var came os.Signal
	go func() {
		defer close(finished)
		select {
		case came = <-hangups:
			cancel()
		case <-stop:
		}
	}()
	return ctx, func() os.Signal {
		close(stop)
		<-finished
		cancel()
		return came
	}
}

// How a command ends, as the labs' programs do (package cli): exit status
// 2, 1 and 130; cli.Run itself gives 70 to a panic, a bug of the track.
var (
	// errUsage is a bad command line; the message is printed already.
	errUsage = cli.ErrUsage
	// errFailed is a command that did not succeed, such as a check that
	// finds a broken rule; the message is printed already.
	errFailed = cli.ErrFailed
	// errInterrupted is a command that Ctrl-C ended.
	errInterrupted = cli.ErrInterrupted
)

// A session is one command's context: the workbook, the learner's
// language, where to write.
type session struct {
	wb     *workbook
	out    *printer
	errOut *printer
	// status says what a slow step does while it runs, on a terminal.
	status *statusLine
	force  bool
	getenv func(string) string
	// watching is set while watch runs: its reports do not advise it.
	watching bool
	// grading is what grade's flags ask for.
	grading gradeOptions
}

// commands are the subcommands, by name.
var commands = map[string]func(s *session, ctx context.Context, lab *Lab) error{
	"start":    (*session).start,
	"check":    (*session).check,
	"hint":     (*session).hint,
	"watch":    (*session).watch,
	"solution": (*session).solution,
	"reset":    (*session).reset,
}

// classCommands are the subcommands that take folders instead of a lab.
var classCommands = map[string]func(s *session, ctx context.Context, dirs []string) error{
	"grade": (*session).grade,
}

// run is Run on a workbook, with the environment's variables from getenv.
func run(ctx context.Context, wb *workbook, getenv func(string) string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("labs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	langFlag := fs.String("lang", "", "")
	force := fs.Bool("force", false, "")
	var grading gradeOptions
	grading.flags(fs)
	once, restore := cli.OnlyOnce(fs)
	defer restore()
	// lang is the learner's language: -lang's once it is given, the
	// locale's until then, so that -lang zh -h prints the help in Chinese.
	lang := func() Lang {
		if l, ok := parseLang(*langFlag); ok {
			return l
		}
		return langFromEnv(getenv)
	}
	// Flags may come before or after the command and the lab.
	var words []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				// -h stops the parse; a -lang after it counts too, as
				// the help says flags may come in any order.
				if l, ok := parseLang(langAfterHelp(rest)); ok {
					*langFlag = string(l)
				}
				fmt.Fprintf(stdout, msgUsage.In(lang()), strings.Join(wb.labs, msgListComma.In(lang())))
				return err
			}
			msg, arg := flagMistake(err, once())
			return usage(wb, lang(), stderr, msg, arg)
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *langFlag != "" {
		if _, ok := parseLang(*langFlag); !ok {
			return usage(wb, lang(), stderr, msgBadLang, *langFlag)
		}
	}
	s := &session{
		wb:     wb,
		out:    newPrinter(stdout, lang(), cli.Colorful(stdout)),
		errOut: newPrinter(stderr, lang(), false),
		status: newStatusLine(stderr, lang()),
		force:  *force,
		getenv: getenv,
	}
	// The commands the session advises keep a language that the locale
	// would not give.
	if lang() != langFromEnv(getenv) {
		s.out.langFlag = "-lang " + string(lang())
		s.errOut.langFlag = s.out.langFlag
	}
	if len(words) == 0 {
		if *force {
			return usage(wb, lang(), stderr, msgForceOnlyReset)
		}
		if grading.given() {
			return usage(wb, lang(), stderr, msgGradeFlagsOnly)
		}
		return s.contents(ctx)
	}
	if cmd, ok := classCommands[words[0]]; ok {
		if *force {
			return usage(wb, lang(), stderr, msgForceOnlyReset)
		}
		s.grading = grading
		return cmd(s, ctx, words[1:])
	}
	if grading.given() {
		return usage(wb, lang(), stderr, msgGradeFlagsOnly)
	}
	cmd, ok := commands[words[0]]
	switch {
	case !ok:
		return usage(wb, lang(), stderr, msgUnknownCommand, words[0])
	case len(words) == 1:
		return usage(wb, lang(), stderr, msgNeedsLab, words[0], words[0])
	case len(words) > 2:
		return usage(wb, lang(), stderr, msgTooManyArgs, strings.Join(words[2:], " "))
	case *force && words[0] != "reset":
		return usage(wb, lang(), stderr, msgForceOnlyReset)
	}
	name, matches := wb.resolve(words[1])
	switch {
	case name == "" && len(matches) == 0:
		return usage(wb, lang(), stderr, msgUnknownLab, words[1])
	case name == "":
		return usage(wb, lang(), stderr, msgAmbiguousLab, words[1], strings.Join(matches, msgListComma.In(lang())))
	}
	lab := wb.lab(name)
	if lab == nil {
		s.errOut.say(msgNoExercises, name, name)
		return errFailed
	}
	s.recoverCopy(lab)
	return cmd(s, ctx, lab)
}

// langAfterHelp returns the value of the last -lang in args, in any of the
// flag package's spellings (-lang zh, -lang=zh, --lang zh), or "".
func langAfterHelp(args []string) string {
	value := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		name, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		switch {
		case hasValue:
			value = v
		case i+1 < len(args):
			value = args[i+1]
		}
	}
	return value
}

// usage reports a bad command line in lang with the lists of commands and
// labs, and returns errUsage.
func usage(wb *workbook, lang Lang, stderr io.Writer, msg Text, args ...any) error {
	p := newPrinter(stderr, lang, false)
	p.say(msg, args...)
	p.say(msgLists, strings.Join(wb.labs, msgListComma.In(p.lang)))
	return errUsage
}

// flagMistake turns the flag package's error into a message in the
// learner's language, with its argument: the flags' mistakes a learner
// makes, and any other as the flag package says it. twice is the flag
// given twice, if that is the mistake.
func flagMistake(err error, twice string) (Text, any) {
	if twice != "" {
		return msgFlagTwice, twice
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		return msgUnknownFlag, cli.Printable(name)
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag needs an argument: -"); ok {
		return msgFlagNeedsValue, name
	}
	return msgBadFlag, cli.Printable(err.Error())
}
