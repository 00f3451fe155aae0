package democlock

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
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
		wantWoke(t, n, "a", "b")
		if got, want := n.clock.Elapsed(), 300*time.Millisecond; got != want {
			t.Errorf("Elapsed() = %v, want %v: the clock's time is the deadlines'", got, want)
		}
		if took := time.Since(start); took != time.Second {
			t.Errorf("the naps took %v, want %v: the clock waited for a; by then both deadlines had passed", took, time.Second)
		}
	})
}

func TestTheClockWakesCallsWithTheSameDeadlineInTheOrderTheyStarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		n.run(t.Context(), nap{id: "a", delay: time.Second, d: 100 * time.Millisecond}, nap{id: "b", d: 100 * time.Millisecond}, nap{id: "c", d: 100 * time.Millisecond})
		wantWoke(t, n, "a", "b", "c")
	})
}

func TestTheClockWaitsForReal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &napper{clock: New()}
		start := time.Now()
		n.run(t.Context(), nap{id: "a", d: 300 * time.Millisecond}, nap{id: "b", d: 200 * time.Millisecond}, nap{id: "c", d: 400 * time.Millisecond})
		wantWoke(t, n, "b", "a", "c")
		if took, want := time.Since(start), 400*time.Millisecond; took != want {
			t.Errorf("the naps took %v, want %v: parallel naps take as long as the longest", took, want)
		}
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
			if err := clock.Sleep(t.Context(), "a", step); err != nil {
				t.Errorf("Sleep(%v): %v", step, err)
			}
			time.Sleep(50 * time.Microsecond) // the report
		}
		if err := clock.Sleep(t.Context(), "a", duration-step*updates); err != nil {
			t.Errorf("Sleep(%v): %v", duration-step*updates, err)
		}
		clock.End("a")
		if took := time.Since(start); took != duration {
			t.Errorf("the call took %v, want %v", took, duration)
		}
		if got := clock.Elapsed(); got != duration {
			t.Errorf("Elapsed() = %v, want %v", got, duration)
		}
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
		if took, want := time.Since(start), 300*time.Millisecond; took != want {
			t.Errorf("b took %v, want %v", took, want)
		}
		if got, want := n.clock.Elapsed(), 400*time.Millisecond; got != want {
			t.Errorf("Elapsed() = %v, want %v", got, want)
		}
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
			if got := [2]time.Duration{start, end}; got != want {
				t.Errorf("Span(%q) = %v, %v, want %v, %v", id, start, end, want[0], want[1])
			}
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
			wantSleep(t, clock, "a", 100*time.Millisecond)
			wantSleep(t, clock, "a", 300*time.Millisecond)
			clock.End("a")
		})
		wg.Go(func() {
			wantSleep(t, clock, "b", 200*time.Millisecond)
			clock.End("b")
		})
		wg.Wait()
		if got, want := clock.Woke("a"), []time.Duration{100 * time.Millisecond, 400 * time.Millisecond}; !slices.Equal(got, want) {
			t.Errorf(`Woke("a") = %v, want %v`, got, want)
		}
		if got, want := clock.Woke("b"), []time.Duration{200 * time.Millisecond}; !slices.Equal(got, want) {
			t.Errorf(`Woke("b") = %v, want %v`, got, want)
		}
		if got := clock.Woke("c"); len(got) != 0 {
			t.Errorf(`Woke("c") = %v, want none: the clock has not seen c`, got)
		}
		var none *Clock
		if got := none.Woke("a"); got != nil {
			t.Errorf(`a nil clock's Woke("a") = %v, want nil`, got)
		}
	})
}

func TestCancellingWakesEveryCallAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		n := &napper{clock: New()}
		start := time.Now()
		time.AfterFunc(250*time.Millisecond, cancel)
		n.run(ctx, nap{id: "a", d: 300 * time.Millisecond}, nap{id: "b", d: 200 * time.Millisecond})
		if !slices.Equal(n.woke, []string{"b"}) {
			t.Errorf("woke %q, want only b: a was still waiting when the run was cancelled", n.woke)
		}
		if took, want := time.Since(start), 250*time.Millisecond; took != want {
			t.Errorf("the run took %v, want %v", took, want)
		}
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
		if len(n.woke) != 0 {
			t.Errorf("woke %q, want none", n.woke)
		}
		wantCancelled(t, n, "a", "b", "c")
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
		wantCancelled(t, n, "a", "b")
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
			wantSleep(t, clock, "a", 100*time.Millisecond)
			clock.Report(t.Context(), "a")
			note("a reports")
			wantSleep(t, clock, "a", 200*time.Millisecond)
			note("a ends")
			clock.End("a")
		})
		wg.Go(func() {
			wantSleep(t, clock, "b", 150*time.Millisecond)
			note("b ends")
			clock.End("b")
		})
		time.Sleep(time.Second)
		synctest.Wait()
		if want := []string{"a reports"}; !slices.Equal(order, want) {
			t.Errorf("order %q, want %q: b waits until the report is shown", order, want)
		}
		note("the handler shows it")
		clock.Reported("a")
		wg.Wait()
		if want := []string{"a reports", "the handler shows it", "b ends", "a ends"}; !slices.Equal(order, want) {
			t.Errorf("order %q, want %q", order, want)
		}

		ctx, cancel := context.WithCancel(t.Context())
		clock.Start("c")
		clock.Start("d")
		var cancelled []string
		wg.Go(func() {
			if err := clock.Sleep(ctx, "c", 100*time.Millisecond); err != nil {
				t.Errorf("c's first Sleep: %v", err)
			}
			clock.Report(ctx, "c")
			cancel() // the handler never shows it: the run is cancelled
			if clock.Sleep(ctx, "c", 100*time.Millisecond) == nil {
				t.Error("c's Sleep after the cancel: no error, want one")
			}
			mu.Lock()
			cancelled = append(cancelled, "c")
			mu.Unlock()
			clock.End("c")
		})
		wg.Go(func() {
			if clock.Sleep(ctx, "d", 300*time.Millisecond) == nil {
				t.Error("d's Sleep, cut by the cancel: no error, want one")
			}
			mu.Lock()
			cancelled = append(cancelled, "d")
			mu.Unlock()
			clock.End("d")
		})
		wg.Wait()
		if want := []string{"c", "d"}; !slices.Equal(cancelled, want) {
			t.Errorf("cancelled %q, want %q: a report of a cancelled call holds nothing", cancelled, want)
		}
	})
}

func TestANilClockIsTheMachinesClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c *Clock
		start := time.Now()
		c.Start("a")
		wantSleep(t, c, "a", 300*time.Millisecond)
		c.Report(t.Context(), "a")
		c.Reported("a")
		c.End("a")
		if took, want := time.Since(start), 300*time.Millisecond; took != want {
			t.Errorf("the nap took %v, want %v", took, want)
		}
		if got := c.Elapsed(); got != 0 {
			t.Errorf("Elapsed() = %v, want 0", got)
		}
		if startAt, endAt := c.Span("a"); startAt+endAt != 0 {
			t.Errorf(`Span("a") = %v, %v, want 0, 0`, startAt, endAt)
		}
	})
}

// wantSleep naps for d on the clock, on the test's context, and reports an
// error if the nap was cut short.
func wantSleep(t *testing.T, clock *Clock, id string, d time.Duration) {
	t.Helper()
	if err := clock.Sleep(t.Context(), id, d); err != nil {
		t.Errorf("Sleep(%q, %v): %v", id, d, err)
	}
}

// wantWoke checks the calls whose nap ended at its deadline, in order.
func wantWoke(t *testing.T, n *napper, want ...string) {
	t.Helper()
	if !slices.Equal(n.woke, want) {
		t.Errorf("woke %q, want %q", n.woke, want)
	}
}

// wantCancelled checks the calls whose nap was cancelled, in the order they
// ended.
func wantCancelled(t *testing.T, n *napper, want ...string) {
	t.Helper()
	if !slices.Equal(n.cancelled, want) {
		t.Errorf("cancelled %q, want %q", n.cancelled, want)
	}
}
