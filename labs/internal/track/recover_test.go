package track

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// TestAResetStoppedMidwayGivesTheCopyBack: a reset killed after it set the
// learner's copy aside, and before it wrote the new one, leaves the lab
// without a copy; the next command puts it back, says so, and leaves no
// hidden folder.
func TestAResetStoppedMidwayGivesTheCopyBack(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	writeFile(t, filepath.Join(dir, "notes.txt"), []byte("mine\n"), 0o644)
	old := filepath.Join(wb.work, ".02-loop-old-12345")
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, filepath.Join(old, "02-loop")); err != nil {
		t.Fatal(err)
	}
	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "Your copy of 02-loop is back in "+wb.rel(dir)+": a reset that was stopped midway had set it aside.", "%s: standard output", res)
	wantFile(t, filepath.Join(dir, "notes.txt"), "after %s", res)
	wantOnlyTheCopy(t, wb)
}

// TestWhatAStoppedStartOrResetLeftIsRemoved: a copy set aside by a reset
// that had already written the new copy (the learner asked to discard it,
// with -force), and a starter whose writing stopped a while ago, are
// removed; a starter being written right now, by a start in another
// terminal, is left alone.
func TestWhatAStoppedStartOrResetLeftIsRemoved(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	aside := filepath.Join(wb.work, ".02-loop-old-1", "02-loop")
	half := filepath.Join(wb.work, ".02-loop-2")
	now := filepath.Join(wb.work, ".02-loop-3")
	for _, d := range []string{aside, half, now} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(half, "loop.go"), []byte("package main\n"), 0o644)
	long := time.Now().Add(-2 * abandonedAfter)
	if err := os.Chtimes(half, long, long); err != nil {
		t.Fatal(err)
	}
	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	wantNotContains(t, res.stdout, "is back in", "%s: standard output (the copy never went away)", res)
	for _, gone := range []string{filepath.Dir(aside), half} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("after %s, %s is still there, want it removed", res, gone)
		}
	}
	if _, err := os.Lstat(now); err != nil {
		t.Errorf("after %s, %s is gone, want it left to the start that writes it: %v", res, now, err)
	}
}

// TestATerminationLetsResetFinish: SIGTERM or SIGHUP during reset -force,
// as when the learner's terminal closes, lets the reset finish: the copy is
// the starter, whole, no hidden folder is left, and the track then ends by
// the signal. Run takes the signals through cli.Hangups; here the test hands
// one in, pending before the command begins.
func TestATerminationLetsResetFinish(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			wb := testWorkbook(t, false)
			startLab(t, wb, "02")
			dir := wb.copyDir("02-loop")
			loop := filepath.Join(dir, "loop.go")
			starter := readFile(t, loop)
			writeFile(t, loop, []byte("package main // mine\n"), 0o644)

			hangups := make(chan os.Signal, 1)
			hangups <- sig
			ctx := cli.WithHangups(context.Background(), hangups)
			var stdout, stderr bytes.Buffer
			program := func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runEnding(ctx, wb, english, args, stdout, stderr)
			}
			status := cli.Run(ctx, program, []string{"reset", "-force", "02"}, &stdout, &stderr)
			if want := 128 + int(sig); status != want {
				t.Errorf("exit status %d, want %d, the status of a process %v ended; standard error: %q", status, want, sig, stderr.String())
			}
			if got := readFile(t, loop); !bytes.Equal(got, starter) {
				t.Errorf("after %v during reset -force, loop.go is\n%s\nwant the starter's", sig, got)
			}
			wantOnlyTheCopy(t, wb)
		})
	}
}

// TestATerminationEndsCheckByItsSignal: SIGTERM or SIGHUP during check
// ends go test and everything it started, removes the folders go test
// would leave behind (its go-build work folders, the tests' temporary
// folders), and ends the track by the signal, without an error message.
// It runs the go command: part of the workbook's proof.
func TestATerminationEndsCheckByItsSignal(t *testing.T) {
	expected.Verification(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			wb := testWorkbook(t, true)
			startLab(t, wb, "02")
			hangups := make(chan os.Signal, 1)
			// The signal comes once go test runs, and has made its work
			// folder.
			wb.goTestStarted = func() { hangups <- sig }
			ctx := cli.WithHangups(context.Background(), hangups)
			var stdout, stderr bytes.Buffer
			program := func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runEnding(ctx, wb, english, args, stdout, stderr)
			}
			status := cli.Run(ctx, program, []string{"check", "02"}, &stdout, &stderr)
			if want := 128 + int(sig); status != want {
				t.Errorf("exit status %d, want %d, the status of a process %v ended; standard error: %q", status, want, sig, stderr.String())
			}
			if stderr.Len() != 0 {
				t.Errorf("standard error is %q, want nothing", stderr.String())
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("check left %s in the temporary folder, want nothing", e.Name())
			}
		})
	}
}
