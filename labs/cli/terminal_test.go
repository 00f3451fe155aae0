package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	// counts takes the Ctrl-Cs for itself, says so for each of the
	// first two, and then ends by itself, with status 0: its context is
	// never cancelled.
	helpers["counts"] = func() {
		Main(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
			interrupts := Interrupts(ctx)
			fmt.Fprintln(stdout, "ready")
			for i := 1; i <= 2; i++ {
				<-interrupts
				fmt.Fprintf(stdout, "Ctrl-C %d, context cancelled: %v\n", i, ctx.Err() != nil)
			}
			return nil
		})
	}
}

// TestAProgramCanTakeEachCtrlC: once a program takes the Ctrl-Cs with
// Interrupts, each of them reaches it, the second too, and none cancels
// its context or ends the process.
func TestAProgramCanTakeEachCtrlC(t *testing.T) {
	h := startHelper(t, "counts")
	h.interrupt(t)
	h.expectLine(t, "Ctrl-C 1, context cancelled: false")
	h.interrupt(t)
	h.expectLine(t, "Ctrl-C 2, context cancelled: false")
	assert.Equal(t, 0, h.wait(t))
	assert.Empty(t, h.stderr.String())
}

func TestATestHandsInStdinAndCtrlC(t *testing.T) {
	ctx := context.Background()
	assert.Nil(t, Interrupts(ctx), "no Ctrl-C outside Main, unless a test sends one")

	ch := make(chan struct{}, 1)
	ctx = WithInterrupts(WithStdin(ctx, strings.NewReader("hello\n")), ch)
	ch <- struct{}{}
	_, ok := <-Interrupts(ctx)
	assert.True(t, ok, "the test's channel")
	typed, err := io.ReadAll(Stdin(ctx))
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(typed))
}
