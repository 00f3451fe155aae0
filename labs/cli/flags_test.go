package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		assert.Equal(t, 0, Run(context.Background(), demo, []string{"-trace", arg}, &stdout, &stderr), arg)
		assert.Equal(t, demoHelp, stdout.String(), arg)
		assert.Empty(t, stderr.String(), arg)
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
			assert.Equal(t, 2, Run(context.Background(), demo, tt.args, &stdout, &stderr))
			assert.Equal(t, tt.mistake+"\n"+demoHelp, stderr.String(), "the mistake, then the help")
			assert.Empty(t, stdout.String())
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
		assert.Equal(t, 2, Run(context.Background(), demo, tt.args, &stdout, &stderr), "%q", tt.args)
		assert.Equal(t, "flag given twice: "+tt.flag+"\n"+demoHelp, stderr.String(), "%q", tt.args)
		assert.Empty(t, stdout.String())
	}
}

func TestEachFlagOnceIsFine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, Run(context.Background(), demo, []string{"-max-turns", "2", "-trace", "-name", "x"}, &stdout, &stderr))
	assert.Empty(t, stdout.String()+stderr.String())
}

func TestRefuseReportsAMistakeTheFlagsCannotSee(t *testing.T) {
	fs := NewFlagSet("00-demo", "Lab 00 shows the flags.")
	var stderr bytes.Buffer
	err := fs.Refuse(&stderr, "-%s cannot go with -%s", "a", "b")
	require.ErrorIs(t, err, ErrUsage)
	assert.Equal(t, "-a cannot go with -b\nUsage: go run ./labs/00-demo [flags]\n\nLab 00 shows the flags.\n\nFlags:\n  -h\n    \tprint this help\n", stderr.String())
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
		require.NoError(t, fs.Parse(tt.args, &stdout, &stderr))
		err := fs.Requires(&stderr, "trace", "only a trace has names", "max-turns", "name")
		if tt.want == "" {
			assert.NoError(t, err, "%q", tt.args)
			assert.Empty(t, stderr.String())
			continue
		}
		require.ErrorIs(t, err, ErrUsage, "%q", tt.args)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		assert.Equal(t, tt.want, first, "%q", tt.args)
		assert.Contains(t, stderr.String(), "Usage:", "the help follows")
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
		if tt.want == "" {
			assert.NoError(t, err, "%q", tt.args)
			assert.Empty(t, stderr.String())
			continue
		}
		require.ErrorIs(t, err, ErrUsage, "%q", tt.args)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		assert.Equal(t, tt.want, first, "%q", tt.args)
		assert.Contains(t, stderr.String(), "Usage:", "the help follows")
	}
}
