package track

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"
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
		if checks != 1 {
			t.Errorf("%d checks at the start, want 1", checks)
		}

		time.Sleep(10 * pollInterval)
		synctest.Wait()
		if checks != 1 {
			t.Errorf("%d checks while nothing changed, want still 1", checks)
		}

		mu.Lock()
		files = "b"
		mu.Unlock()
		time.Sleep(pollInterval)
		synctest.Wait()
		if checks != 2 {
			t.Errorf("%d checks after a change, want 2: a check after the change", checks)
		}
		if changes != 1 {
			t.Errorf("%d changes seen, want 1", changes)
		}

		time.Sleep(10 * pollInterval)
		synctest.Wait()
		if checks != 2 {
			t.Errorf("%d checks a while after the change, want still 2: one check per change", checks)
		}

		cancel()
		<-done
	})
}

func TestSnapshotSeesSavedAddedAndRemovedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "loop.go")
	writeFile(t, path, []byte("a"), 0o644)
	first := snapshot(dir)
	if snapshot(dir) != first {
		t.Error("the snapshot changed, want it the same: nothing changed")
	}

	writeFile(t, path, []byte("ab"), 0o644)
	saved := snapshot(dir)
	if saved == first {
		t.Error("the snapshot is the same after a save, want it changed")
	}

	writeFile(t, filepath.Join(dir, "x.txt.got"), []byte("x"), 0o644)
	writeFile(t, filepath.Join(dir, ".loop.go.swp"), []byte("x"), 0o644)
	if snapshot(dir) != saved {
		t.Error("the snapshot changed, want it the same: the track's own files and an editor's swap files do not count")
	}

	writeFile(t, filepath.Join(dir, "more.go"), nil, 0o644)
	added := snapshot(dir)
	if added == saved {
		t.Error("the snapshot is the same after a file was added, want it changed")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if snapshot(dir) == added {
		t.Error("the snapshot is the same after the directory was removed, want it changed")
	}
}
