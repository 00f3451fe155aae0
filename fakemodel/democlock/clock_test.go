package democlock

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// napper runs calls on a clock as a lab's loop and its event handler do:
// every call's start is told before any call runs, each call runs on its own
// goroutine, and its end is told when it is done.
type napper struct {
	clock *Clock
	mu    sync.Mutex
	woke  []string
	// cancelled are the calls whose nap was cancelled, in the order they
	// ended.
	cancelled []string
	wg        sync.WaitGroup
}

// A nap is a call that first waits delay on the machine's clock, as a busy
// machine may hold a goroutine up, then naps for d on the clock. If its nap
// is cancelled, the machine holds it up for after before it ends.
type nap struct {
	id              string
	delay, d, after time.Duration
}

func (n *napper) run(ctx context.Context, naps ...nap) {
	for _, p := range naps {
		n.clock.Start(p.id)
	}
	for _, p := range naps {
		n.wg.Go(func() {
			time.Sleep(p.delay)
			err := n.clock.Sleep(ctx, p.id, p.d)
			if err != nil {
				time.Sleep(p.after)
			}
			n.mu.Lock()
			if err == nil {
				n.woke = append(n.woke, p.id)
			} else {
				n.cancelled = append(n.cancelled, p.id)
			}
			n.mu.Unlock()
			n.clock.End(p.id)
		})
	}
	n.wg.Wait()
}

func TestTheClockWakesCallsInTheOrderOfTheirDeadlines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		start := time.Now()
		// The machine holds up the call that is due first for a whole
		// second. On the machine's timers, b would end first.
		n.run(t.Context(), nap{id: "a", delay: time.Second, d: 200 * time.Millisecond}, nap{id: "b", d: 300 * time.Millisecond})
		assert.Equal(t, []string{"a", "b"}, n.woke)
		assert.Equal(t, 300*time.Millisecond, n.clock.Elapsed(), "the clock's time is the deadlines'")
		assert.Equal(t, time.Second, time.Since(start), "the clock waited for a; by then both deadlines had passed")
	})
}

func TestTheClockWakesCallsWithTheSameDeadlineInTheOrderTheyStarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		n.run(t.Context(), nap{id: "a", delay: time.Second, d: 100 * time.Millisecond}, nap{id: "b", d: 100 * time.Millisecond}, nap{id: "c", d: 100 * time.Millisecond})
		assert.Equal(t, []string{"a", "b", "c"}, n.woke)
	})
}

func TestTheClockWaitsForReal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		start := time.Now()
		n.run(t.Context(), nap{id: "a", d: 300 * time.Millisecond}, nap{id: "b", d: 200 * time.Millisecond}, nap{id: "c", d: 400 * time.Millisecond})
		assert.Equal(t, []string{"b", "a", "c"}, n.woke)
		assert.Equal(t, 400*time.Millisecond, time.Since(start), "parallel naps take as long as the longest")
	})
}

// TestUpdatesDoNotStretchACall runs a call of one second that reports
// progress 10,000 times, as a scenario tool with "durationMs": 1000 and
// 10,000 "updates" does. Each report takes the machine 50 µs (printing it,
// for instance), a quarter of the time between two updates. Deadlines on
// the clock are absolute, so the call still takes one second; if each wait
// started where the last report ended, the call would take 1.5 s.
func TestUpdatesDoNotStretchACall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := New()
		const updates = 10_000
		duration := time.Second
		step := duration / (updates + 1)
		start := time.Now()
		clock.Start("a")
		for range updates {
			assert.NoError(t, clock.Sleep(t.Context(), "a", step))
			time.Sleep(50 * time.Microsecond) // the report
		}
		assert.NoError(t, clock.Sleep(t.Context(), "a", duration-step*updates))
		clock.End("a")
		assert.Equal(t, duration, time.Since(start))
		assert.Equal(t, duration, clock.Elapsed())
	})
}

// TestACallStartedLaterWaitsItsWholeDuration: the clock's time stands still
// while no call is under way, as while the model writes its next reply. A
// call that starts then still waits its whole duration for real.
func TestACallStartedLaterWaitsItsWholeDuration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		n.run(t.Context(), nap{id: "a", d: 100 * time.Millisecond})
		time.Sleep(time.Second) // the model writes
		start := time.Now()
		n.run(t.Context(), nap{id: "b", d: 300 * time.Millisecond})
		assert.Equal(t, 300*time.Millisecond, time.Since(start))
		assert.Equal(t, 400*time.Millisecond, n.clock.Elapsed())
	})
}

func TestTheClockKeepsEachCallsSpan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		n.run(t.Context(), nap{id: "a", d: 300 * time.Millisecond}, nap{id: "b", d: 200 * time.Millisecond})
		n.run(t.Context(), nap{id: "c", d: 100 * time.Millisecond})
		for id, want := range map[string][2]time.Duration{
			"a": {0, 300 * time.Millisecond},
			"b": {0, 200 * time.Millisecond},
			"c": {300 * time.Millisecond, 400 * time.Millisecond},
			"d": {0, 0},
		} {
			start, end := n.clock.Span(id)
			assert.Equal(t, want, [2]time.Duration{start, end}, id)
		}
	})
}

// TestTheClockKeepsWhenItWokeEachCall: a call that waits twice, as a tool
// that reports progress once, woke at both deadlines, while the other call
// ran; a timeline draws its report at the first.
func TestTheClockKeepsWhenItWokeEachCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := New()
		clock.Start("a")
		clock.Start("b")
		var wg sync.WaitGroup
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(t.Context(), "a", 100*time.Millisecond))
			assert.NoError(t, clock.Sleep(t.Context(), "a", 300*time.Millisecond))
			clock.End("a")
		})
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(t.Context(), "b", 200*time.Millisecond))
			clock.End("b")
		})
		wg.Wait()
		assert.Equal(t, []time.Duration{100 * time.Millisecond, 400 * time.Millisecond}, clock.Woke("a"))
		assert.Equal(t, []time.Duration{200 * time.Millisecond}, clock.Woke("b"))
		assert.Empty(t, clock.Woke("c"), "a call the clock has not seen")
		var none *Clock
		assert.Nil(t, none.Woke("a"), "a nil clock")
	})
}

func TestCancellingWakesEveryCallAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		n := &napper{clock: New()}
		start := time.Now()
		time.AfterFunc(250*time.Millisecond, cancel)
		n.run(ctx, nap{id: "a", d: 300 * time.Millisecond}, nap{id: "b", d: 200 * time.Millisecond})
		assert.Equal(t, []string{"b"}, n.woke, "a was still waiting when the run was cancelled")
		assert.Equal(t, 250*time.Millisecond, time.Since(start))
	})
}

// TestCancelledCallsEndInTheOrderTheyStarted: a cancel wakes every call
// that waits, and the machine may run them in any order. Here it holds up
// the first for a second after its nap is cancelled, so on the machine's
// own timers b and c would end before it. The clock lets one cancelled call
// go on at a time, the earliest started first, and the next only once it
// has ended: a, b, c, on every run.
func TestCancelledCallsEndInTheOrderTheyStarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		n := &napper{clock: New()}
		time.AfterFunc(100*time.Millisecond, cancel)
		n.run(ctx, nap{id: "a", d: 300 * time.Millisecond, after: time.Second}, nap{id: "b", d: 200 * time.Millisecond}, nap{id: "c", d: 400 * time.Millisecond})
		assert.Empty(t, n.woke)
		assert.Equal(t, []string{"a", "b", "c"}, n.cancelled)
	})
}

// TestACallCancelledAtItsDeadlineWaitsItsTurn: b is due first, and the
// clock has let it go on, to wait out its deadline on the machine's clock,
// when the cancel comes. It still ends after a, which started before it.
func TestACallCancelledAtItsDeadlineWaitsItsTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		n := &napper{clock: New()}
		time.AfterFunc(150*time.Millisecond, cancel)
		n.run(ctx, nap{id: "a", d: 300 * time.Millisecond, after: time.Second}, nap{id: "b", d: 200 * time.Millisecond})
		assert.Equal(t, []string{"a", "b"}, n.cancelled)
	})
}

// TestAReportHoldsTheClock: while the lab's event handler has not shown a
// call's progress report, no other call wakes, so that what the handler
// does about the report comes first; a cancel lets the calls go on.
func TestAReportHoldsTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := New()
		clock.Start("a")
		clock.Start("b")
		var order []string
		var mu sync.Mutex
		note := func(s string) {
			mu.Lock()
			order = append(order, s)
			mu.Unlock()
		}
		var wg sync.WaitGroup
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(t.Context(), "a", 100*time.Millisecond))
			clock.Report(t.Context(), "a")
			note("a reports")
			assert.NoError(t, clock.Sleep(t.Context(), "a", 200*time.Millisecond))
			note("a ends")
			clock.End("a")
		})
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(t.Context(), "b", 150*time.Millisecond))
			note("b ends")
			clock.End("b")
		})
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []string{"a reports"}, order, "b waits until the report is shown")
		note("the handler shows it")
		clock.Reported("a")
		wg.Wait()
		assert.Equal(t, []string{"a reports", "the handler shows it", "b ends", "a ends"}, order)

		ctx, cancel := context.WithCancel(t.Context())
		clock.Start("c")
		clock.Start("d")
		var cancelled []string
		wg.Go(func() {
			assert.NoError(t, clock.Sleep(ctx, "c", 100*time.Millisecond))
			clock.Report(ctx, "c")
			cancel() // the handler never shows it: the run is cancelled
			assert.Error(t, clock.Sleep(ctx, "c", 100*time.Millisecond))
			mu.Lock()
			cancelled = append(cancelled, "c")
			mu.Unlock()
			clock.End("c")
		})
		wg.Go(func() {
			assert.Error(t, clock.Sleep(ctx, "d", 300*time.Millisecond))
			mu.Lock()
			cancelled = append(cancelled, "d")
			mu.Unlock()
			clock.End("d")
		})
		wg.Wait()
		assert.Equal(t, []string{"c", "d"}, cancelled, "a report of a cancelled call holds nothing")
	})
}

func TestANilClockIsTheMachinesClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c *Clock
		start := time.Now()
		c.Start("a")
		assert.NoError(t, c.Sleep(t.Context(), "a", 300*time.Millisecond))
		c.Report(t.Context(), "a")
		c.Reported("a")
		c.End("a")
		assert.Equal(t, 300*time.Millisecond, time.Since(start))
		assert.Zero(t, c.Elapsed())
		startAt, endAt := c.Span("a")
		assert.Zero(t, startAt+endAt)
	})
}
