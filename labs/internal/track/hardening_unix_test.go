//go:build unix

package track

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestACopyIsAnOrdinaryDirectory checks that start makes the copy with the
// modes the learner's umask gives, as mkdir does, not only for its owner.
func TestACopyIsAnOrdinaryDirectory(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	info, err := os.Stat(wb.copyDir("02-loop"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), info.Mode().Perm())
}

// TestAnUnreadableCopyIsAnError checks that the table of contents says a
// copy cannot be read, instead of calling the lab not started.
func TestAnUnreadableCopyIsAnError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory")
	}
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	require.NoError(t, os.Chmod(wb.work, 0))
	defer os.Chmod(wb.work, 0o755)
	res := runCommand(t, wb)
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stderr, "permission denied")
}
