package track

import (
	"context"
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aCopy writes a package of one test file under wb's work directory and
// returns its path from the root.
func aCopy(t *testing.T, wb *workbook, name, src string) string {
	t.Helper()
	dir := wb.copyDir(name)
	require.NoError(t, writeFiles(dir, files{"x_test.go": []byte(src)}))
	return wb.rel(dir)
}

// TestAnEndlessInitIsAHangAtItsLine checks that a test binary that never
// gets to its tests is ended after the timeout, with the line where it
// hangs, and not after go test's own ten minutes.
func TestAnEndlessInitIsAHangAtItsLine(t *testing.T) {
	expected.Verification(t)
	if runtime.GOOS != "linux" {
		t.Skip("the dump of a hung test binary needs /proc")
	}
	wb := testWorkbook(t, true)
	wb.testTimeout = 2 * time.Second
	pkg := aCopy(t, wb, "00-init", "package x\n\nimport \"testing\"\n\nfunc init() {\n\tfor {\n\t}\n}\n\nfunc TestA(t *testing.T) {}\n")
	began := time.Now()
	runs, err := wb.runTests(t.Context(), []string{pkg})
	require.NoError(t, err)
	assert.Less(t, time.Since(began), time.Minute, "ended long before go test's own kill")
	run := runs[pkg]
	require.NotNil(t, run)
	assert.True(t, run.hung)
	assert.Equal(t, wb.rel(filepath.Join(wb.copyDir("00-init"), "x_test.go"))+":6", frameIn(run.output, wb.copyDir("00-init"), wb.rel(wb.copyDir("00-init"))))
}

// TestAMemoryBlowUpIsNamed checks that a test that allocates without end
// fails at the memory limit, as a fatal error check names.
func TestAMemoryBlowUpIsNamed(t *testing.T) {
	expected.Verification(t)
	if runtime.GOOS != "linux" {
		t.Skip("the memory limit is set on Unix, and tried on Linux")
	}
	wb := testWorkbook(t, true)
	pkg := aCopy(t, wb, "00-memory", "package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tvar s [][]byte\n\tfor {\n\t\ts = append(s, make([]byte, 1<<20))\n\t\ts[len(s)-1][0] = 1\n\t}\n}\n")
	runs, err := wb.runTests(t.Context(), []string{pkg})
	require.NoError(t, err)
	run := runs[pkg]
	require.NotNil(t, run)
	assert.Contains(t, run.fatal, "out of memory")
}

// TestCtrlCEndsTheWholeGroup checks that a cancelled check ends go test and
// the test binary it runs, even one that ignores Ctrl-C: nothing of them
// outlives the track.
func TestCtrlCEndsTheWholeGroup(t *testing.T) {
	expected.Verification(t)
	if runtime.GOOS != "linux" {
		t.Skip("finding the test binary needs /proc")
	}
	wb := testWorkbook(t, true)
	wb.testTimeout = time.Minute
	pkg := aCopy(t, wb, "00-stubborn", "package x\n\nimport (\n\t\"os/signal\"\n\t\"syscall\"\n\t\"testing\"\n)\n\nfunc TestA(t *testing.T) {\n\tsignal.Ignore(syscall.SIGINT)\n\tfor {\n\t}\n}\n")
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		// Cancel once the test binary runs, as Ctrl-C would then.
		for ctx.Err() == nil {
			if binariesNamed("00-stubborn.test") > 0 {
				cancel()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	_, err := wb.runTests(ctx, []string{pkg})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, binariesNamed("00-stubborn.test"), "no test binary outlives the track")
}

// binariesNamed counts the running processes whose program is named name.
func binariesNamed(name string) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && filepath.Base(exe) == name {
			n++
		}
	}
	return n
}
