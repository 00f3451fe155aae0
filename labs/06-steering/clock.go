package main

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// A clock is the demo's time. The demo's tools wait on it instead of on the
// machine's timers, because the machine's timers cannot promise an order:
// on a busy machine a goroutine whose timer fired first may run last, and
// the output would change from run to run.
//
// The clock watches the run's events. It lets the earliest of the waiting
// calls go on only when no other call is running: every call that has
// started is waiting on the clock, or has ended. So calls wake in the order
// of their deadlines, and calls with the same deadline in the order they
// started, on every run, however busy the machine. The clock still waits
// for real before it wakes a call, so a batch takes as long as it says.
//
// A nil *clock is the machine's clock, as the tests use inside a synctest
// bubble.
type clock struct {
	mu  sync.Mutex
	now time.Duration // the clock's time since it was made
	// started numbers the calls in the order they started.
	started map[string]int
	// running counts the calls that have started and neither wait nor
	// have ended.
	running int
	// waiting are the calls that wait, the next to wake first.
	waiting []*alarm
}

// An alarm is one call waiting on the clock.
type alarm struct {
	at    time.Duration
	order int
	// wake receives how long to wait for real before going on.
	wake chan time.Duration
}

func newClock() *clock {
	return &clock{started: map[string]int{}}
}

// observe tells the clock about an event of the run: it must see every
// event, so that it knows which calls have started and which have ended.
func (c *clock) observe(ev Event) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev := ev.(type) {
	case ToolExecutionStart:
		c.started[ev.ToolCallID] = len(c.started)
		c.running++
	case ToolExecutionEnd:
		c.running--
		c.next()
	}
}

// sleep waits for d on behalf of the call toolCallID, or until ctx is
// cancelled.
func (c *clock) sleep(ctx context.Context, toolCallID string, d time.Duration) error {
	if c == nil {
		return pause(ctx, d)
	}
	c.mu.Lock()
	a := &alarm{at: c.now + max(d, 0), order: c.started[toolCallID], wake: make(chan time.Duration, 1)}
	i, _ := slices.BinarySearchFunc(c.waiting, a, func(x, y *alarm) int {
		return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.order, y.order))
	})
	c.waiting = slices.Insert(c.waiting, i, a)
	c.running--
	c.next()
	c.mu.Unlock()

	select {
	case gap := <-a.wake:
		return pause(ctx, gap)
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		if i := slices.Index(c.waiting, a); i >= 0 {
			c.waiting = slices.Delete(c.waiting, i, i+1)
			c.running++
		}
		return ctx.Err()
	}
}

// next wakes the earliest waiting call if no call is running. The caller
// holds c.mu.
func (c *clock) next() {
	if c.running > 0 || len(c.waiting) == 0 {
		return
	}
	a := c.waiting[0]
	c.waiting = c.waiting[1:]
	gap := a.at - c.now
	c.now = a.at
	c.running++
	a.wake <- gap
}

// pause waits for d of the machine's time, or until ctx is cancelled.
func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
