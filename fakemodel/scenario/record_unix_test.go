//go:build unix

package scenario

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestARecordingHasTheModeOfANewFile: a recording is a file the user
// writes, with the mode any new file of theirs gets, 0666 less the umask,
// not the 0600 of a temporary file.
func TestARecordingHasTheModeOfANewFile(t *testing.T) {
	umask := syscall.Umask(0o022)
	defer syscall.Umask(umask)
	path := filepath.Join(t.TempDir(), "session.json")
	require.NoError(t, WriteNew(path, []byte("{}")))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	leftovers, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers, "no temporary file is left behind")
}
