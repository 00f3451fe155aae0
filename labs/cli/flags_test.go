package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// limit is a flag value of the kind the labs define: a number in a range.
type limit int

func (n *limit) String() string { return strconv.Itoa(int(*n)) }

func (n *limit) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return errors.New("must be 1 or more")
	}
	*n = limit(v)
	return nil
}

// demo is a lab with a flag of each kind, as a Program.
func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts := struct {
		trace bool
		turns limit
		name  string
	}{turns: 3}
	fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
	fs.BoolVar(&opts.trace, "trace", false, "print one line per event")
	fs.Var(&opts.turns, "max-turns", "stop after `N` turns")
	fs.StringVar(&opts.name, "name", "", "the `NAME` to greet")
	return fs.Parse(args, stdout, stderr)
}

// demoHelp is what -h prints for demo.
const demoHelp = `Usage: go run ./labs/00-demo [flags]

Lab 00 shows the flags.

Flags:
  -max-turns N
    	stop after N turns (default 3)
  -name NAME
    	the NAME to greet
  -trace
    	print one line per event
  -h
    	print this help
`

func TestHelpGoesToStandardOutput(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var stdout, stderr bytes.Buffer
		if status := Run(context.Background(), demo, []string{"-trace", arg}, &stdout, &stderr); status != 0 {
			t.Errorf("%s: status %d, want 0", arg, status)
		}
		if stdout.String() != demoHelp {
			t.Errorf("%s: standard output is\n%s\nwant the help:\n%s", arg, stdout.String(), demoHelp)
		}
		if stderr.String() != "" {
			t.Errorf("%s: standard error is %q, want nothing", arg, stderr.String())
		}
	}
}

func TestABadCommandLineExitsWith2(t *testing.T) {
	tests := []struct {
		name string
		args []string
		// mistake is the first line of standard error.
		mistake string
	}{
		{"an unknown flag", []string{"-x"}, "flag provided but not defined: -x"},
		{"an impossible value", []string{"-max-turns", "0"}, `invalid value "0" for flag -max-turns: must be 1 or more`},
		{"a boolean flag with a value", []string{"-trace=maybe"}, `invalid boolean value "maybe" for -trace: parse error`},
		{"a missing value", []string{"-name"}, "flag needs an argument: -name"},
		{"an argument", []string{"extra"}, "unexpected argument: extra"},
		{"an argument after the flags", []string{"-trace", "a", "b"}, "unexpected argument: a"},
		{"an argument with an escape sequence", []string{"a\x1b[2J\nb"}, `unexpected argument: "a\x1b[2J\nb"`},
		{"a flag with an escape sequence", []string{"-\x1b[2J"}, `flag provided but not defined: -\x1b[2J`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := Run(context.Background(), demo, tt.args, &stdout, &stderr); status != 2 {
				t.Errorf("status %d, want 2", status)
			}
			if want := tt.mistake + "\n" + demoHelp; stderr.String() != want {
				t.Errorf("standard error is\n%s\nwant the mistake, then the help:\n%s", stderr.String(), want)
			}
			if stdout.String() != "" {
				t.Errorf("standard output is %q, want nothing", stdout.String())
			}
		})
	}
}

// TestAFlagGivenTwiceIsRefused checks the one rule for repeated flags:
// every flag of every lab may be given once, whatever its kind, even when
// both values are the same.
func TestAFlagGivenTwiceIsRefused(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"-max-turns", "2", "-max-turns", "3"}, "-max-turns"},
		{[]string{"-max-turns=2", "--max-turns", "2"}, "-max-turns"},
		{[]string{"-trace", "-trace"}, "-trace"},
		{[]string{"-trace", "-trace=false"}, "-trace"},
		{[]string{"-name", "a", "-trace", "-name", "a"}, "-name"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if status := Run(context.Background(), demo, tt.args, &stdout, &stderr); status != 2 {
			t.Errorf("%q: status %d, want 2", tt.args, status)
		}
		if want := "flag given twice: " + tt.flag + "\n" + demoHelp; stderr.String() != want {
			t.Errorf("%q: standard error is\n%s\nwant\n%s", tt.args, stderr.String(), want)
		}
		if stdout.String() != "" {
			t.Errorf("%q: standard output is %q, want nothing", tt.args, stdout.String())
		}
	}
}

func TestEachFlagOnceIsFine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := Run(context.Background(), demo, []string{"-max-turns", "2", "-trace", "-name", "x"}, &stdout, &stderr); status != 0 {
		t.Errorf("status %d, want 0", status)
	}
	if got := stdout.String() + stderr.String(); got != "" {
		t.Errorf("the program printed %q, want nothing", got)
	}
}

func TestRefuseReportsAMistakeTheFlagsCannotSee(t *testing.T) {
	fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
	var stderr bytes.Buffer
	err := fs.Refuse(&stderr, "-%s cannot go with -%s", "a", "b")
	if !errors.Is(err, ErrUsage) {
		t.Fatalf("Refuse returned %v, want ErrUsage", err)
	}
	if want := "-a cannot go with -b\nUsage: go run ./labs/00-demo [flags]\n\nLab 00 shows the flags.\n\nFlags:\n  -h\n    \tprint this help\n"; stderr.String() != want {
		t.Errorf("standard error is\n%s\nwant\n%s", stderr.String(), want)
	}
}

func TestRequiresRefusesAFlagWithoutTheOneItNeeds(t *testing.T) {
	tests := []struct {
		args []string
		want string // the first line of standard error, or "" if fine
	}{
		{nil, ""},
		{[]string{"-trace"}, ""},
		{[]string{"-trace", "-name", "x"}, ""},
		{[]string{"-name", "x"}, "-name needs -trace: only a trace has names"},
		{[]string{"-name", "x", "-max-turns", "2"}, "-max-turns and -name need -trace: only a trace has names"},
	}
	for _, tt := range tests {
		var opts struct {
			trace bool
			turns limit
			name  string
		}
		fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
		fs.BoolVar(&opts.trace, "trace", false, "print one line per event")
		fs.Var(&opts.turns, "max-turns", "stop after `N` turns")
		fs.StringVar(&opts.name, "name", "", "the `NAME` to greet")
		var stdout, stderr bytes.Buffer
		if err := fs.Parse(tt.args, &stdout, &stderr); err != nil {
			t.Fatalf("parse %q: %v", tt.args, err)
		}
		err := fs.Requires(&stderr, "trace", "only a trace has names", "max-turns", "name")
		wantRefusal(t, tt.args, err, stderr.String(), tt.want)
	}
}

func TestNeedsRefusesAFlagWithoutTheOneItNeeds(t *testing.T) {
	tests := []struct {
		args []string
		want string // the first line of standard error, or "" if fine
	}{
		{nil, ""},
		{[]string{"-trace"}, ""},
		{[]string{"-trace", "-name", "x"}, ""},
		{[]string{"-name", "x"}, "-name needs -trace: only a trace has names"},
		{[]string{"-max-turns", "2", "-name", "x"}, "-max-turns and -name need -trace: only a trace has names"},
	}
	for _, tt := range tests {
		var opts struct {
			trace bool
			turns limit
			name  string
		}
		fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
		fs.BoolVar(&opts.trace, "trace", false, "print one line per event")
		fs.Var(&opts.turns, "max-turns", "stop after `N` turns")
		fs.StringVar(&opts.name, "name", "", "the `NAME` to greet")
		fs.Needs("trace", "only a trace has names", "max-turns", "name")
		var stdout, stderr bytes.Buffer
		err := fs.Parse(tt.args, &stdout, &stderr)
		wantRefusal(t, tt.args, err, stderr.String(), tt.want)
	}
}

func TestCheckComesLast(t *testing.T) {
	var name string
	bad := errors.New("bad name")
	for _, tt := range []struct {
		args []string
		want error
	}{
		{nil, nil},
		{[]string{"-name", "ok"}, nil},
		{[]string{"-name", "bad"}, bad},
		{[]string{"-name", "bad", "-x"}, ErrUsage},
	} {
		fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
		fs.StringVar(&name, "name", "", "the `NAME` to greet")
		fs.Check(func() error {
			if name == "bad" {
				return bad
			}
			return nil
		})
		var stdout, stderr bytes.Buffer
		if err := fs.Parse(tt.args, &stdout, &stderr); !errors.Is(err, tt.want) {
			t.Errorf("%q: %v, want %v", tt.args, err, tt.want)
		}
		if tt.want == bad && stderr.Len() > 0 {
			t.Errorf("%q: a check's error printed %q: the program reports it", tt.args, stderr.String())
		}
		name = ""
	}
}

func TestOneOfRefusesTwoFlagsOfAGroup(t *testing.T) {
	tests := []struct {
		args []string
		want string // the first line of standard error, or "" if fine
	}{
		{nil, ""},
		{[]string{"-trace"}, ""},
		{[]string{"-quiet", "-max-turns", "2"}, ""},
		{[]string{"-trace", "-quiet"}, "-trace and -quiet cannot go together: each replaces the output"},
		{[]string{"-quiet", "-trace"}, "-trace and -quiet cannot go together: each replaces the output"},
	}
	for _, tt := range tests {
		var opts struct {
			trace, quiet bool
			turns        limit
		}
		fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
		fs.BoolVar(&opts.trace, "trace", false, "print one line per event")
		fs.BoolVar(&opts.quiet, "quiet", false, "print nothing")
		fs.Var(&opts.turns, "max-turns", "stop after `N` turns")
		fs.OneOf("each replaces the output", "trace", "no-such-flag", "quiet")
		var stdout, stderr bytes.Buffer
		err := fs.Parse(tt.args, &stdout, &stderr)
		wantRefusal(t, tt.args, err, stderr.String(), tt.want)
	}
}

// wantRefusal checks how a flag set took the command line args: if mistake
// is "", it took them and said nothing; else it refused them with ErrUsage,
// and standard error is the mistake, then the help. An error that is not
// ErrUsage ends the test.
func wantRefusal(t *testing.T, args []string, err error, stderr, mistake string) {
	t.Helper()
	if mistake == "" {
		if err != nil {
			t.Errorf("%q: %v, want no error", args, err)
		}
		if stderr != "" {
			t.Errorf("%q: standard error is %q, want nothing", args, stderr)
		}
		return
	}
	if !errors.Is(err, ErrUsage) {
		t.Fatalf("%q: error %v, want ErrUsage", args, err)
	}
	if first, _, _ := strings.Cut(stderr, "\n"); first != mistake {
		t.Errorf("%q: standard error starts %q, want %q", args, first, mistake)
	}
	if !strings.Contains(stderr, "Usage:") {
		t.Errorf("%q: standard error is %q, want the help to follow", args, stderr)
	}
}
