package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// A FlagSet is a lab's flags, and what -h says about the lab above them.
// Define the flags with the methods of the embedded flag.FlagSet, then call
// Parse.
type FlagSet struct {
	*flag.FlagSet
	about string
	// oneOf are groups of flags of which a command line may give only one.
	oneOf []oneOf
	// needs are flags that only make sense with another one.
	needs []need
	// checks are what Parse checks last (Check).
	checks []func() error
}

// A need is a flag that others only make sense with, and why.
type need struct {
	name, why string
	others    []string
}

// A oneOf is a group of flags of which a command line may give only one,
// and why.
type oneOf struct {
	why   string
	names []string
}

// NewFlagSet returns a flag set, without flags yet, for the lab whose
// directory under labs/ is name. Its help prints about above the flags.
func NewFlagSet(name, about string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {} // Parse prints the help itself, to the right stream
	return &FlagSet{FlagSet: fs, about: about}
}

// Parse parses args. With -h it prints the help to stdout and returns
// flag.ErrHelp. With an unknown flag, an impossible value, a flag given
// twice or an argument, it prints the mistake and the help to stderr and
// returns ErrUsage.
//
// Every flag of every lab may be given once. A second value would silently
// replace the first, so a learner who typed -max-turns 2 -max-turns 3
// would not know which one the run used; Parse refuses it instead.
func (fs *FlagSet) Parse(args []string, stdout, stderr io.Writer) error {
	twice, restore := OnlyOnce(fs.FlagSet)
	// The flag package writes each mistake to its output; Parse writes
	// it itself, kept to one line.
	fs.SetOutput(io.Discard)
	err := fs.FlagSet.Parse(args)
	restore()

	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.help(stdout)
		return err
	case err != nil:
		mistake := err.Error()
		if name := twice(); name != "" {
			mistake = "flag given twice: -" + name
		}
		return fs.Refuse(stderr, "%s", Printable(mistake))
	case fs.NArg() > 0:
		return fs.Refuse(stderr, "unexpected argument: %s", Quote(fs.Arg(0)))
	}
	given := fs.given()
	for _, group := range fs.oneOf {
		var both []string
		for _, name := range group.names {
			if given[name] {
				both = append(both, "-"+name)
			}
		}
		if len(both) > 1 {
			return fs.Refuse(stderr, "%s cannot go together: %s", strings.Join(both, " and "), group.why)
		}
	}
	for _, n := range fs.needs {
		if err := fs.Requires(stderr, n.name, n.why, n.others...); err != nil {
			return err
		}
	}
	for _, check := range fs.checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// Check declares a check of the parsed command line that the flags cannot
// make themselves, such as whether a file can be written. Parse calls it
// last, once every flag has its value, and returns its error as it is: a
// BadInput error says what is wrong in one line, without the help.
func (fs *FlagSet) Check(check func() error) {
	fs.checks = append(fs.checks, check)
}

// OneOf declares flags of which a command line may give only one, such as
// flags that each print the run in a way of their own; why says so. Parse
// refuses a command line that gives two of them: "-trace and -diagram
// cannot go together: why". A name that is no flag of fs is never given.
func (fs *FlagSet) OneOf(why string, names ...string) {
	fs.oneOf = append(fs.oneOf, oneOf{why: why, names: names})
}

// Needs declares flags that only make sense with the flag name, such as a
// setting of what name makes; why says why. Parse refuses a command line
// that gives any of others without name: "-a needs -name: why", as
// Requires does after Parse.
func (fs *FlagSet) Needs(name, why string, others ...string) {
	fs.needs = append(fs.needs, need{name: name, why: why, others: others})
}

// Refuse reports a mistake in the command line: it prints the mistake, then
// the help, to stderr, and returns ErrUsage. Parse uses it, and so does a
// lab for a mistake the flag package cannot see, such as two flags that do
// not go together.
func (fs *FlagSet) Refuse(stderr io.Writer, format string, a ...any) error {
	fmt.Fprintf(stderr, format+"\n", a...)
	fs.help(stderr)
	return ErrUsage
}

// FileVar defines a flag that names a file and stores the name in p. It
// refuses an empty name, which would look like no file at all.
func (fs *FlagSet) FileVar(p *string, name, usage string) {
	fs.Var((*fileValue)(p), name, usage)
}

// A fileValue is the value of a flag that names a file.
type fileValue string

// String returns the file's name, for the flag package.
func (f *fileValue) String() string {
	if f == nil {
		return ""
	}
	return string(*f)
}

// Set takes the file's name from the command line.
func (f *fileValue) Set(s string) error {
	if s == "" {
		return errors.New("must name a file")
	}
	*f = fileValue(s)
	return nil
}

// Excludes refuses a command line that gives the flag name together with
// any of others, flags whose settings name makes by itself; why says how.
// It reports "-a and -b cannot go with -name: why" as a bad command line,
// and returns nil if the command line is fine. Call it after Parse.
func (fs *FlagSet) Excludes(stderr io.Writer, name, why string, others ...string) error {
	given := fs.given()
	var clash []string
	for _, other := range others {
		if given[other] {
			clash = append(clash, "-"+other)
		}
	}
	if !given[name] || len(clash) == 0 {
		return nil
	}
	return fs.Refuse(stderr, "%s cannot go with -%s: %s", strings.Join(clash, " and "), name, why)
}

// Requires refuses a command line that gives any of others without the
// flag name, which they only make sense with; why says why. It reports
// "-a and -b need -name: why" as a bad command line, and returns nil if the
// command line is fine. Call it after Parse.
func (fs *FlagSet) Requires(stderr io.Writer, name, why string, others ...string) error {
	given := fs.given()
	var lone []string
	for _, other := range others {
		if given[other] {
			lone = append(lone, "-"+other)
		}
	}
	if given[name] || len(lone) == 0 {
		return nil
	}
	verb := "needs"
	if len(lone) > 1 {
		verb = "need"
	}
	return fs.Refuse(stderr, "%s %s -%s: %s", strings.Join(lone, " and "), verb, name, why)
}

// given returns the names of the flags the command line gave.
func (fs *FlagSet) given() map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// help prints the lab's help to w.
func (fs *FlagSet) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: go run ./labs/%s [flags]\n\n%s\n\nFlags:\n", fs.Name(), fs.about)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "  -h\n    \tprint this help")
}

// OnlyOnce makes every flag of fs refuse a second value, so that a second
// -max-turns cannot silently replace the first: the flag package then
// returns an error for it. twice names the flag that was given twice, or
// returns "". restore gives the flags their own values back; call it once
// the command line is parsed, before printing the flags' defaults, which
// the flag package reads off the values' types. The labs' Parse uses it,
// and so do the workbook's other commands, which parse flags of their own.
func OnlyOnce(fs *flag.FlagSet) (twice func() string, restore func()) {
	var name string
	own := map[string]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		own[f.Name] = f.Value
		f.Value = &onceValue{Value: f.Value, twice: func() { name = f.Name }}
	})
	twice = func() string { return name }
	restore = func() { fs.VisitAll(func(f *flag.Flag) { f.Value = own[f.Name] }) }
	return twice, restore
}

// An onceValue takes one value and refuses a second.
type onceValue struct {
	flag.Value
	given bool
	twice func()
}

// Set passes the first value on, and refuses any other.
func (v *onceValue) Set(s string) error {
	if v.given {
		v.twice()
		return errors.New("given twice")
	}
	v.given = true
	return v.Value.Set(s)
}

// IsBoolFlag tells the flag package whether the flag needs no value, as
// the flag it wraps says.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
