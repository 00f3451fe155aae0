package main

import (
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the tests, or, started by TestProgram, the lab's main.
func TestMain(m *testing.M) { expected.Main(m, main) }

// TestProgram runs the lab's program as an instructor does, in a process of
// its own, with its output on a pipe, and compares what it prints with the
// golden files.
func TestProgram(t *testing.T) {
	bin, err := expected.Program()
	require.NoError(t, err)

	cases, err := expected.LabCases("03-maxturns")
	require.NoError(t, err)
	results, err := expected.RunAll(bin, cases)
	require.NoError(t, err)
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := results[i]
			assert.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr)
			expected.Check(t, c.Name, res.Stdout)
		})
	}
	t.Run("unknown flag", func(t *testing.T) {
		res, err := expected.Run(bin, "-no-such-flag")
		require.NoError(t, err)
		assert.Equal(t, 2, res.ExitCode)
		assert.Contains(t, string(res.Stderr), "Usage:")
		assert.Empty(t, res.Stdout)
	})
	t.Run("impossible -max-turns", func(t *testing.T) {
		for _, n := range []string{"0", "-1", "1001", "abc"} {
			res, err := expected.Run(bin, "-max-turns", n)
			require.NoError(t, err)
			assert.Equal(t, 2, res.ExitCode, n)
			assert.Contains(t, string(res.Stderr), `invalid value "`+n+`" for flag -max-turns`)
			assert.Empty(t, res.Stdout, "nothing runs")
		}
	})
	t.Run("help", func(t *testing.T) {
		res, err := expected.Run(bin, "-h")
		require.NoError(t, err)
		assert.Equal(t, 0, res.ExitCode)
		assert.Contains(t, string(res.Stdout), about)
	})
}
