//go:build unix

package scenario

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadStopsWhenCancelled reads a FIFO whose writer is open and writes
// nothing, as a silent pipe does: the read waits until the context is
// cancelled, then Load returns at once.
func TestLoadStopsWhenCancelled(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	loaded := make(chan error, 1)
	go func() {
		_, err := Load(ctx, fifo)
		loaded <- err
	}()
	// Opening the writer waits for Load to open the reader.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer w.Close()
	select {
	case err := <-loaded:
		t.Fatalf("Load returned before the file was written or the run cancelled: %v", err)
	default:
	}
	cancel()
	err = <-loaded
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, errors.As(err, new(*Error)), "a cancelled read is no mistake in the file")
}
