package track

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// aCopy writes a package of one test file under wb's work directory and
// returns its path from the root.
func aCopy(t *testing.T, wb *workbook, name, src string) string {
	t.Helper()
	dir := wb.copyDir(name)
	if err := writeFiles(dir, files{"x_test.go": []byte(src)}); err != nil {
		t.Fatal(err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took >= time.Minute {
		t.Errorf("go test ended after %s, want less than a minute: long before go test's own kill", took)
	}
	run := runs[pkg]
	if run == nil {
		t.Fatalf("go test reported nothing of %s", pkg)
	}
	if !run.hung {
		t.Error("the run is not reported as hung")
	}
	want := wb.rel(filepath.Join(wb.copyDir("00-init"), "x_test.go")) + ":6"
	if got := frameIn(run.output, wb.copyDir("00-init"), wb.rel(wb.copyDir("00-init"))); got != want {
		t.Errorf("the hang is placed at %q, want %q", got, want)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	run := runs[pkg]
	if run == nil {
		t.Fatalf("go test reported nothing of %s", pkg)
	}
	if !strings.Contains(run.fatal, "out of memory") {
		t.Errorf("the fatal error is %q, want one that says %q", run.fatal, "out of memory")
	}
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
	if !errors.Is(err, context.Canceled) {
		t.Errorf("runTests, cancelled: error %v, want context.Canceled", err)
	}
	if n := binariesNamed("00-stubborn.test"); n != 0 {
		t.Errorf("%d test binaries run after the cancel, want none: no test binary outlives the track", n)
	}
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
