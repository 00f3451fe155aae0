//go:build unix

package scenario

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestARecordingHasTheModeOfANewFile: a recording is a file the user
// writes, with the mode any new file of theirs gets, 0666 less the umask,
// not the 0600 of a temporary file.
func TestARecordingHasTheModeOfANewFile(t *testing.T) {
	umask := syscall.Umask(0o022)
	defer syscall.Umask(umask)
	path := filepath.Join(t.TempDir(), "session.json")
	if err := WriteNew(path, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := info.Mode().Perm(), os.FileMode(0o644); got != want {
		t.Errorf("the recording's mode is %v, want %v", got, want)
	}
	leftovers, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(leftovers) != 0 {
		t.Errorf("the directory holds %q, want no temporary file left behind", leftovers)
	}
}
