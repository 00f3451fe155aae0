package track

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWatchChecksOnceAndAfterEachChange drives watchLoop in a synctest
// bubble, where its ticker's time is fake: it checks at the start, not
// while nothing changes, once after a change, and ends with its context.
func TestWatchChecksOnceAndAfterEachChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		files, checks, changes := "a", 0, 0
		look := func() string { mu.Lock(); defer mu.Unlock(); return files }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			watchLoop(ctx, pollInterval, look, func() { checks++ }, func() { changes++ })
			close(done)
		}()
		synctest.Wait()
		assert.Equal(t, 1, checks, "a check at the start")

		time.Sleep(10 * pollInterval)
		synctest.Wait()
		assert.Equal(t, 1, checks, "nothing changed")

		mu.Lock()
		files = "b"
		mu.Unlock()
		time.Sleep(pollInterval)
		synctest.Wait()
		assert.Equal(t, 2, checks, "a check after the change")
		assert.Equal(t, 1, changes)

		time.Sleep(10 * pollInterval)
		synctest.Wait()
		assert.Equal(t, 2, checks, "one check per change")

		cancel()
		<-done
	})
}

func TestSnapshotSeesSavedAddedAndRemovedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "loop.go")
	require.NoError(t, os.WriteFile(path, []byte("a"), 0o644))
	first := snapshot(dir)
	assert.Equal(t, first, snapshot(dir), "nothing changed")

	require.NoError(t, os.WriteFile(path, []byte("ab"), 0o644))
	saved := snapshot(dir)
	assert.NotEqual(t, first, saved, "a save")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.txt.got"), []byte("x"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".loop.go.swp"), []byte("x"), 0o644))
	assert.Equal(t, saved, snapshot(dir), "the track's own files and an editor's swap files do not count")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "more.go"), nil, 0o644))
	added := snapshot(dir)
	assert.NotEqual(t, saved, added, "an added file")
	require.NoError(t, os.RemoveAll(dir))
	assert.NotEqual(t, added, snapshot(dir), "a removed directory")
}
