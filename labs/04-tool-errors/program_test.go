package main

import (
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestMain runs the tests, or, started by TestProgram, the lab's main.
func TestMain(m *testing.M) { expected.Main(m, main) }

// TestProgram runs the lab's program as an instructor does, in a process of
// its own, with its output on a pipe, and compares what it prints with the
// golden files.
func TestProgram(t *testing.T) {
	bin, err := expected.Program()
	if !expected.NoError(t, err, "build the lab's program") {
		return
	}

	cases, err := expected.LabCases("04-tool-errors")
	if !expected.NoError(t, err, "read the lab's cases") {
		return
	}
	results, err := expected.RunAll(bin, cases)
	if !expected.NoError(t, err, "run the program on each case") {
		return
	}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := results[i]
			expected.Equal(t, 0, res.ExitCode, "the exit status (standard error: %s)", res.Stderr)
			expected.Check(t, c.Name, res.Stdout)
		})
	}
	t.Run("unknown flag", func(t *testing.T) {
		res, err := expected.Run(bin, "-no-such-flag")
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, 2, res.ExitCode, "the exit status")
		expected.Contains(t, string(res.Stderr), "Usage:", "standard error shows the usage")
		expected.Empty(t, res.Stdout, "standard output stays empty")
	})
	t.Run("impossible -max-turns", func(t *testing.T) {
		for _, n := range []string{"0", "-1", "1001", "abc"} {
			res, err := expected.Run(bin, "-max-turns", n)
			if !expected.NoError(t, err, "run the program") {
				return
			}
			expected.Equal(t, 2, res.ExitCode, "-max-turns %s: the exit status", n)
			expected.Contains(t, string(res.Stderr), `invalid value "`+n+`" for flag -max-turns`, "-max-turns %s: standard error names the value", n)
			expected.Empty(t, res.Stdout, "-max-turns %s: nothing runs", n)
		}
	})
	t.Run("help", func(t *testing.T) {
		res, err := expected.Run(bin, "-h")
		if !expected.NoError(t, err, "run the program") {
			return
		}
		expected.Equal(t, 0, res.ExitCode, "the exit status")
		expected.Contains(t, string(res.Stdout), about, "the help says what the lab is about")
	})
}
