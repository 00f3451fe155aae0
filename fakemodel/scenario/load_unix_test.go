//go:build unix

package scenario

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadStopsWhenCancelled reads a FIFO whose writer is open and writes
// nothing, as a silent pipe does: the read waits until the context is
// cancelled, then Load returns at once.
func TestLoadStopsWhenCancelled(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	loaded := make(chan error, 1)
	go func() {
		_, err := Load(ctx, fifo)
		loaded <- err
	}()
	// Opening the writer waits for Load to open the reader.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	select {
	case err := <-loaded:
		t.Fatalf("Load returned before the file was written or the run cancelled: %v", err)
	default:
	}
	cancel()
	err = <-loaded
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Load, cancelled while it reads: error %v, want context.Canceled", err)
	}
	if errors.As(err, new(*Error)) {
		t.Errorf("Load, cancelled while it reads: error %v is an *Error, want none: a cancelled read is no mistake in the file", err)
	}
}
