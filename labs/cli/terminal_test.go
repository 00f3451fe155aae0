package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
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
	h.wantExit(t, 0, "")
}

func TestATestHandsInStdinAndCtrlC(t *testing.T) {
	ctx := context.Background()
	if Interrupts(ctx) != nil {
		t.Error("outside Main, Interrupts is a channel, want nil: no Ctrl-C, unless a test sends one")
	}

	ch := make(chan struct{}, 1)
	ctx = WithInterrupts(WithStdin(ctx, strings.NewReader("hello\n")), ch)
	ch <- struct{}{}
	if _, ok := <-Interrupts(ctx); !ok {
		t.Error("Interrupts is closed, want the test's channel")
	}
	typed, err := io.ReadAll(Stdin(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(typed), "hello\n"; got != want {
		t.Errorf("Stdin gave %q, want %q", got, want)
	}
}
