// Package democlock is the clock that the fake tools of labs 05 and 06 wait
// on, so that a demo whose tools run in parallel prints the same bytes on
// every run.
//
// A real agent's tools finish in an order that varies from run to run, and
// the loop handles any order. A demo, though, must print the same bytes on
// every run, for an instructor to compare with its golden file, and the
// machine's timers cannot promise that: on a busy machine, a goroutine whose
// timer fired first may run after another one, and two "done" lines would
// swap. So the demos' tools do not wait on the machine's timers. They wait
// on a Clock, which wakes them in the order of their deadlines.
//
// The clock must know which calls are under way, and it cannot read a lab's
// events: each lab tells it, in its event handler, that a call started
// (Start, at tool_execution_start), that the handler has shown a call's
// progress report (Reported, at tool_execution_update), and that a call
// ended (End, at tool_execution_end), each after the handler has shown the
// event. The loop itself knows nothing of the clock.
//
// A cancelled run ends its calls in the order they started. Its calls see
// the cancellation at once, but each waits for its turn to end, one at a
// time, as every call on the clock does: the machine would end them in the
// order its scheduler picks, and Ctrl-C would print its "done" lines in a
// different order from run to run.
package democlock

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// A Clock is a demo's time. It lets the earliest of the calls that wait on
// it go on only when no other call is running: every call that has started
// waits on the clock, or has ended. So calls wake in the order of their
// deadlines, and calls with the same deadline in the order they started, on
// every run, however busy the machine. A call whose context is cancelled
// goes before any other, and cancelled calls go in the order they started:
// Sleep then returns the context's error.
//
// The clock's time moves only from deadline to deadline, but a call it wakes
// still waits for real, until its deadline on the machine's clock, so a
// batch takes about as long as it says. Deadlines are absolute: a call that
// wakes late, or whose work between two waits takes time, does not push its
// later deadlines back, so a call with many progress updates takes as long
// as its duration, not its duration plus the delays of every update.
//
// A nil *Clock is the machine's clock: Sleep waits on a timer, and Start and
// End do nothing. Tests use it inside testing/synctest bubbles, whose fake
// time is exact.
type Clock struct {
	mu  sync.Mutex
	now time.Duration // the clock's time since it was made
	// origin is the machine's time at which the clock's time was zero,
	// for the calls under way. It is set again whenever a call starts
	// while no call is under way, so that time no call waits through,
	// while the model writes for instance, is not taken from later calls.
	origin time.Time
	// started numbers the calls in the order they started.
	started map[string]int
	// spans are when each call started and ended, on the clock.
	spans map[string]span
	// running counts the calls that have started and neither wait nor
	// have ended.
	running int
	// reporting are the calls whose progress report the lab's event
	// handler has not shown yet (Report, Reported), each with its
	// context.
	reporting map[string]context.Context
	// waiting are the calls that wait, the next to wake first.
	waiting []*alarm
}

// A span is when a call started and ended, on the clock, and when the
// clock woke it.
type span struct {
	start, end time.Duration
	woke       []time.Duration
}

// An alarm is one call waiting on the clock.
type alarm struct {
	id    string
	at    time.Duration
	order int
	// ctx is the call's context.
	ctx context.Context
	// wake receives the machine's time until which to wait before going
	// on, or the zero time if the call's context is cancelled.
	wake chan time.Time
}

// New returns a clock whose time is zero.
func New() *Clock {
	return &Clock{started: map[string]int{}, spans: map[string]span{}, reporting: map[string]context.Context{}}
}

// Start tells the clock that the call callID has started: from now on the
// clock waits for it to wait or to end before it wakes another call.
func (c *Clock) Start(callID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running == 0 && len(c.waiting) == 0 {
		c.origin = time.Now().Add(-c.now)
	}
	c.started[callID] = len(c.started)
	c.spans[callID] = span{start: c.now}
	c.running++
}

// End tells the clock that the call callID has ended, which may let it wake
// the next call.
func (c *Clock) End(callID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.spans[callID]
	s.end = c.now
	c.spans[callID] = s
	delete(c.reporting, callID)
	c.running--
	c.next()
}

// Report tells the clock that the call callID, which runs, is about to
// report its progress: no other call wakes until the lab's event handler
// has shown the report (Reported), unless ctx, the call's context, is
// cancelled. So what the handler does about the report, a simulated user's
// Ctrl-C for instance, comes before any other call goes on.
func (c *Clock) Report(ctx context.Context, callID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reporting[callID] = ctx
}

// Reported tells the clock that the lab's event handler has shown the
// progress report of the call callID, which may let it wake the next call.
func (c *Clock) Reported(callID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.reporting, callID)
	c.next()
}

// Sleep waits for d on behalf of the call callID, which has started, or
// until ctx is cancelled; then it returns ctx's error, in the call's turn
// among the cancelled calls: see Clock.
func (c *Clock) Sleep(ctx context.Context, callID string, d time.Duration) error {
	if c == nil {
		return pause(ctx, time.Now().Add(d))
	}
	c.mu.Lock()
	a := &alarm{id: callID, at: c.now + max(d, 0), order: c.started[callID], ctx: ctx, wake: make(chan time.Time, 1)}
	c.wait(a)
	c.mu.Unlock()
	for {
		var deadline time.Time
		select {
		case deadline = <-a.wake:
		case <-ctx.Done():
			// The next call to wake may now be this one, or another
			// cancelled one that started before it.
			c.mu.Lock()
			c.next()
			c.mu.Unlock()
			deadline = <-a.wake
		}
		if deadline.IsZero() {
			return ctx.Err()
		}
		if pause(ctx, deadline) == nil {
			return nil
		}
		// Cancelled while it waited for its deadline on the machine's
		// clock: it waits for its turn among the cancelled calls.
		c.mu.Lock()
		c.wait(a)
		c.mu.Unlock()
	}
}

// wait puts the call of a among the waiting calls, in the order they wake
// unless cancelled. The caller holds c.mu.
func (c *Clock) wait(a *alarm) {
	i, _ := slices.BinarySearchFunc(c.waiting, a, func(x, y *alarm) int {
		return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.order, y.order))
	})
	c.waiting = slices.Insert(c.waiting, i, a)
	c.running--
	c.next()
}

// Elapsed is the clock's time since it was made.
func (c *Clock) Elapsed() time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Span returns when the call callID started and ended, on the clock: both
// are zero for a call the clock has not seen, and end is zero until it
// ends.
func (c *Clock) Span(callID string) (start, end time.Duration) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.spans[callID]
	return s.start, s.end
}

// Woke returns the times at which the clock woke the call callID, in
// order: one for each of its Sleeps that the clock ended. A demo tool
// reports its progress right after a wake (services.Weather,
// scenario.Action.Do), so its n-th report came at its n-th wake, which a
// timeline of the run can draw (labs/diagram). It returns nil for a nil
// clock.
func (c *Clock) Woke(callID string) []time.Duration {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.spans[callID].woke)
}

// next wakes one waiting call if no call is running and no progress report
// waits to be shown: the earliest started of the cancelled calls, if any,
// else the earliest due. The caller holds c.mu.
func (c *Clock) next() {
	if c.running > 0 || len(c.waiting) == 0 {
		return
	}
	for _, ctx := range c.reporting {
		if ctx.Err() == nil {
			return
		}
	}
	i := slices.IndexFunc(c.waiting, func(a *alarm) bool { return a.ctx.Err() != nil })
	if i >= 0 {
		for j, a := range c.waiting {
			if a.ctx.Err() != nil && a.order < c.waiting[i].order {
				i = j
			}
		}
		a := c.waiting[i]
		c.waiting = slices.Delete(c.waiting, i, i+1)
		c.running++
		a.wake <- time.Time{}
		return
	}
	a := c.waiting[0]
	c.waiting = c.waiting[1:]
	c.now = a.at
	s := c.spans[a.id]
	s.woke = append(s.woke, a.at)
	c.spans[a.id] = s
	c.running++
	a.wake <- c.origin.Add(a.at)
}

// pause waits until the machine's clock reads deadline, or until ctx is
// cancelled.
func pause(ctx context.Context, deadline time.Time) error {
	d := time.Until(deadline)
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
