package main

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// napper runs calls on a clock as the loop and its consumer do: every
// call's start is observed before any call runs, each call runs on its own
// goroutine, and its end is observed when it is done.
type napper struct {
	clock *clock
	mu    sync.Mutex
	woke  []string
	wg    sync.WaitGroup
}

// A nap is a call that first waits delay on the machine's clock, as a busy
// machine may hold a goroutine up, then naps for d on the clock.
type nap struct {
	id       string
	delay, d time.Duration
}

func (n *napper) run(ctx context.Context, naps ...nap) {
	for _, p := range naps {
		n.clock.observe(ToolExecutionStart{ToolCallID: p.id})
	}
	for _, p := range naps {
		n.wg.Go(func() {
			time.Sleep(p.delay)
			err := n.clock.sleep(ctx, p.id, p.d)
			n.mu.Lock()
			if err == nil {
				n.woke = append(n.woke, p.id)
			}
			n.mu.Unlock()
			n.clock.observe(ToolExecutionEnd{ToolCallID: p.id})
		})
	}
	n.wg.Wait()
}

func TestTheClockWakesCallsInTheOrderOfTheirDeadlines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: newClock()}
		start := time.Now()
		// The machine holds up the call that is due first for a whole
		// second. On the machine's timers, b would end first.
		n.run(t.Context(), nap{"a", time.Second, 200 * time.Millisecond}, nap{"b", 0, 300 * time.Millisecond})
		assert.Equal(t, []string{"a", "b"}, n.woke)
		assert.Equal(t, 300*time.Millisecond, n.clock.now, "the clock's time is the deadlines'")
		assert.Equal(t, 1300*time.Millisecond, time.Since(start), "the clock waited for a, then waited for real")
	})
}

func TestTheClockWakesCallsWithTheSameDeadlineInTheOrderTheyStarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: newClock()}
		n.run(t.Context(), nap{"a", time.Second, 100 * time.Millisecond}, nap{"b", 0, 100 * time.Millisecond}, nap{"c", 0, 100 * time.Millisecond})
		assert.Equal(t, []string{"a", "b", "c"}, n.woke)
	})
}

func TestTheClockWaitsForReal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: newClock()}
		start := time.Now()
		n.run(t.Context(), nap{"a", 0, 300 * time.Millisecond}, nap{"b", 0, 200 * time.Millisecond}, nap{"c", 0, 400 * time.Millisecond})
		assert.Equal(t, []string{"b", "a", "c"}, n.woke)
		assert.Equal(t, 400*time.Millisecond, time.Since(start), "parallel naps take as long as the longest")
	})
}

func TestCancellingWakesEveryCallAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		n := &napper{clock: newClock()}
		start := time.Now()
		time.AfterFunc(250*time.Millisecond, cancel)
		n.run(ctx, nap{"a", 0, 300 * time.Millisecond}, nap{"b", 0, 200 * time.Millisecond})
		assert.Equal(t, []string{"b"}, n.woke, "a was still waiting when the run was cancelled")
		assert.Equal(t, 250*time.Millisecond, time.Since(start))
	})
}

func TestANilClockIsTheMachinesClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c *clock
		start := time.Now()
		c.observe(ToolExecutionStart{ToolCallID: "a"})
		assert.NoError(t, c.sleep(t.Context(), "a", 300*time.Millisecond))
		assert.Equal(t, 300*time.Millisecond, time.Since(start))
	})
}
