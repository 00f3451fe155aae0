//go:build unix

package track

import (
	"os"
	"syscall"
	"testing"
)

// TestACopyIsAnOrdinaryDirectory checks that start makes the copy with the
// modes the learner's umask gives, as mkdir does, not only for its owner.
func TestACopyIsAnOrdinaryDirectory(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	info, err := os.Stat(wb.copyDir("02-loop"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := info.Mode().Perm(), os.FileMode(0o755); got != want {
		t.Errorf("with the umask 022, the copy's mode is %v, want %v", got, want)
	}
}

// TestAnUnreadableCopyIsAnError checks that the table of contents says a
// copy cannot be read, instead of calling the lab not started.
func TestAnUnreadableCopyIsAnError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory")
	}
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	if err := os.Chmod(wb.work, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(wb.work, 0o755)
	res := runCommand(t, wb)
	wantStatus(t, res, 1)
	wantContains(t, res.stderr, "permission denied", "%s: standard error", res)
}
