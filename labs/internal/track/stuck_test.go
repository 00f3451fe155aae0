package track

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// reportOf is a report of a copy of lab whose exercise ex breaks its rule
// rule, as f shows; the exercises before it pass, those after it are not
// checked.
func reportOf(lab *Lab, ex, rule int, f *finding) *report {
	r := &report{lab: lab, rel: "mywork/" + lab.Name, dir: "/repo/mywork/" + lab.Name}
	for i := range lab.Exercises {
		res := exerciseResult{exercise: &lab.Exercises[i], broken: -1}
		switch {
		case i == ex:
			res.broken, res.finding = rule, f
		case i > ex:
			res.broken, res.finding = 0, &finding{why: msgNotRun}
		}
		r.exercises = append(r.exercises, res)
	}
	return r
}

// wantHeadline checks that the report's text says that the run is stuck,
// with the places, before it names any rule.
func wantHeadline(t *testing.T, text, headline string, places ...string) {
	t.Helper()
	at := strings.Index(text, headline)
	if at < 0 {
		t.Errorf("the report does not say that the run is stuck, %q:\n%s", headline, text)
		return
	}
	if rule := strings.Index(text, "broken rule ("); rule >= 0 && rule < at {
		t.Errorf("the report names the rule before it says that the run is stuck, want the stuck run first:\n%s", text)
	}
	for _, p := range places {
		if i := strings.Index(text, "\n  "+p+"\n"); i < at {
			t.Errorf("the headline does not list the place %q:\n%s", p, text)
		}
	}
}

// TestAStuckRunIsTheHeadline checks that check's report begins with a stuck
// run, before any rule, with the places in the learner's files: goroutines
// that all wait, as lab 05's tests report them (a Finding with Stuck) or as
// synctest's bare deadlock shows them; and a test that ran out of time,
// spinning, or waiting for a lock.
func TestAStuckRunIsTheHeadline(t *testing.T) {
	lab05 := labOf(t, "05-parallel")
	t.Run("a Finding of a stuck run", func(t *testing.T) {
		stuck := expected.Finding{Message: "the run is stuck: …", Want: "a run that ends", Got: "every goroutine waits for good, at …",
			Stuck: []string{"batch.go:200 in (*runState).execute.func1.1: chan send", "batch.go:209 in (*runState).execute: sync.WaitGroup.Wait"}}
		f := failure([]string{"=== RUN   TestAParallelBatchTakesAsLongAsItsSlowestCall", findingLine(t, "bubble_test.go:44", stuck)},
			"/repo/mywork/05-parallel", "mywork/05-parallel", "batch.go")
		f.test = "TestAParallelBatchTakesAsLongAsItsSlowestCall"
		r := reportOf(lab05, 0, 0, f)
		text := writeReport(r, English)
		wantHeadline(t, text, "✗ Your run is stuck: its goroutines all wait, and nothing can wake them (TestAParallelBatchTakesAsLongAsItsSlowestCall). Where they wait:",
			"mywork/05-parallel/batch.go:200 in (*runState).execute.func1.1: chan send", "mywork/05-parallel/batch.go:209 in (*runState).execute: sync.WaitGroup.Wait")
		wantContains(t, text, "  checked by TestAParallelBatchTakesAsLongAsItsSlowestCall:\n    the run got stuck: see above\n", "the rule's finding points to the headline")
		wantNotContains(t, text, "every goroutine waits for good", "the test's Finding of the stuck run, which the headline shows")
		wantHeadline(t, writeReport(r, Chinese), "✗ 你的运行卡住了：它的 goroutine 全都在等待，没有什么能唤醒它们", "mywork/05-parallel/batch.go:200 in (*runState).execute.func1.1: chan send")
	})
	t.Run("synctest's deadlock", func(t *testing.T) {
		lab := labOf(t, "06-steering")
		f := failure(strings.Split(`=== RUN   TestQueueModes
--- FAIL: TestQueueModes (0.00s)
panic: deadlock: all goroutines in bubble are blocked [recovered, repanicked]

goroutine 8 [running]:
testing/synctest.Test(0x61720180908, 0x594180)
	/usr/local/go/src/testing/synctest/synctest.go:290 +0x90
github.com/x/mywork/06-steering.TestQueueModes(0x61720180908?)
	/repo/mywork/06-steering/agent_test.go:11 +0x1a

goroutine 10 [chan receive (durable), synctest bubble 1]:
github.com/x/mywork/06-steering.(*Agent).wait(0x61720180b48?)
	/repo/mywork/06-steering/agent.go:120 +0x25
github.com/x/mywork/06-steering.(*runState).loop(0x61720180b48?, {0x714a84, 0x2c})
	/repo/mywork/06-steering/loop.go:230 +0x25
created by github.com/x/mywork/06-steering.(*Agent).start in goroutine 9
	/repo/mywork/06-steering/loop.go:99 +0x25`, "\n"), "/repo/mywork/06-steering", "mywork/06-steering", lab.learnerFiles()...)
		f.test = "TestQueueModes"
		if f.stuck == nil || f.stuck.kind != stuckWaits {
			t.Fatalf("a deadlock is not a stuck run whose goroutines wait: %+v", f.stuck)
		}
		// The goroutine's frame in the learner's loop.go, not the one in
		// agent.go, nor where it was created.
		if want := []string{"mywork/06-steering/loop.go:230 in (*runState).loop: chan receive"}; !slices.Equal(f.stuck.places, want) {
			t.Errorf("the deadlock's places are %q, want %q", f.stuck.places, want)
		}
		exercise := slices.IndexFunc(lab.Exercises, func(e Exercise) bool {
			return slices.ContainsFunc(e.Rules, func(r Rule) bool { return r.Test == "TestQueueModes" })
		})
		rule := slices.IndexFunc(lab.Exercises[exercise].Rules, func(r Rule) bool { return r.Test == "TestQueueModes" })
		text := writeReport(reportOf(lab, exercise, rule, f), English)
		wantHeadline(t, text, "✗ Your run is stuck: its goroutines all wait", f.stuck.places...)
		wantNotContains(t, text, "every goroutine of the test is blocked", "the deadlock's sentence, which the headline says")
	})
	t.Run("a loop that never waits", func(t *testing.T) {
		const pkg = "github.com/x/mywork/05-parallel"
		run := parseEvents(events(t, slices.Concat(
			[]testEvent{{Action: "run", Package: pkg, Test: "TestAParallelBatchTakesAsLongAsItsSlowestCall"}},
			printed(pkg, "TestAParallelBatchTakesAsLongAsItsSlowestCall",
				"panic: test timed out after 10s",
				"\trunning tests:",
				"\t\tTestAParallelBatchTakesAsLongAsItsSlowestCall (10s)",
				"",
				"goroutine 19 [running]:",
				"testing.(*M).startAlarm.func1()",
				"\t/usr/local/go/src/testing/testing.go:2802 +0x354",
				"created by time.goFunc",
				"\t/usr/local/go/src/time/sleep.go:215 +0x2d",
				"",
				"goroutine 8 [select (durable), synctest bubble 1]:",
				"github.com/x/fakemodel/democlock.pause({0x724528, 0xa90b7765a0}, {0x95ec60?, 0x11e1a300?, 0x95ec60?})",
				"\t/repo/fakemodel/democlock/clock.go:288 +0xe5",
				"github.com/x/mywork/05-parallel.TestAParallelBatchTakesAsLongAsItsSlowestCall.func1.1({0x724528, 0xa90b7765a0})",
				"\t/repo/mywork/05-parallel/loop_test.go:71 +0x11e",
				"github.com/x/mywork/05-parallel.executePreparedToolCall({_, _}, {0x0, {{0xa90b6e4950, 0x6}}, ...}, ...)",
				"\t/repo/mywork/05-parallel/batch.go:263 +0xc9",
				"created by sync.(*WaitGroup).Go in goroutine 7",
				"\t/usr/local/go/src/sync/waitgroup.go:238 +0x72",
				"",
				"goroutine 7 [runnable, synctest bubble 1]:",
				"github.com/x/mywork/05-parallel.(*runState).execute(0xa90b740e60, {{0x70f7b1, 0x21}, {0xa90b7624d0, 0x3, 0x3}}, ...)",
				"\t/repo/mywork/05-parallel/batch.go:213 +0x6b2",
				"github.com/x/mywork/05-parallel.(*runState).executeParallel(0xa90b740e60, {{0x70f7b1, 0x21}})",
				"\t/repo/mywork/05-parallel/batch.go:88 +0x7b3",
			),
			[]testEvent{{Action: "fail", Package: pkg}},
		)...), []string{"mywork/05-parallel"})["mywork/05-parallel"]
		r := reportOf(lab05, 0, 0, nil)
		r.exercises[0].finding = r.findingOf(run, "TestAParallelBatchTakesAsLongAsItsSlowestCall")
		text := writeReport(r, English)
		// The goroutine that runs first: most likely the loop.
		wantHeadline(t, text, "✗ Your run is stuck: the test did not finish within 10s, and no goroutine waited for another: a loop that never ends, or never waits (TestAParallelBatchTakesAsLongAsItsSlowestCall). Where the goroutines are:\n"+
			"  mywork/05-parallel/batch.go:213 in (*runState).execute: runnable\n"+
			"  mywork/05-parallel/batch.go:263 in executePreparedToolCall: select\n")
	})
	t.Run("a loop whose goroutine the dump cannot see", func(t *testing.T) {
		f := timedOut([]string{
			"panic: test timed out after 10s",
			"goroutine 7 [running]:",
			"\tgoroutine running on other thread; stack unavailable",
			"",
			"goroutine 8 [select (durable), synctest bubble 1]:",
			"github.com/x/mywork/05-parallel.executePreparedToolCall({_, _}, ...)",
			"\t/repo/mywork/05-parallel/batch.go:263 +0xc9",
		}, "/repo/mywork/05-parallel", "mywork/05-parallel", "batch.go")
		f.test = "TestX"
		text := writeReport(reportOf(lab05, 0, 0, f), English)
		wantHeadline(t, text, "Where the goroutines are:\n  (1 running on another thread as the test was stopped, where the dump cannot see: most likely the loop)\n"+
			"  mywork/05-parallel/batch.go:263 in executePreparedToolCall: select\n")
	})
	t.Run("a lock nobody unlocks", func(t *testing.T) {
		f := timedOut([]string{
			"panic: test timed out after 10s",
			"goroutine 7 [chan receive, synctest bubble 1]:",
			"github.com/x/mywork/06-steering.(*runState).loop(...)",
			"\t/repo/mywork/06-steering/loop.go:90 +0x7a6",
			"",
			"goroutine 8 [sync.Mutex.Lock, 1 minutes]:",
			"sync.(*Mutex).Lock(...)",
			"\t/usr/local/go/src/sync/mutex.go:46 +0x1d",
			"github.com/x/mywork/06-steering.(*queue).drain(0x1)",
			"\t/repo/mywork/06-steering/queue.go:57 +0x25",
		}, "/repo/mywork/06-steering", "mywork/06-steering", "queue.go", "loop.go")
		f.test = "TestQueueModes"
		if f.stuck == nil || f.stuck.kind != stuckLock {
			t.Fatalf("a timeout while a goroutine waits for a lock is not a run stuck on a lock: %+v", f.stuck)
		}
		if want := []string{"mywork/06-steering/queue.go:57 in (*queue).drain: sync.Mutex.Lock", "mywork/06-steering/loop.go:90 in (*runState).loop: chan receive"}; !slices.Equal(f.stuck.places, want) {
			t.Errorf("the places are %q, want %q: the goroutine that waits for the lock first", f.stuck.places, want)
		}
	})
}

// TestAStuckRunGetsHintsAboutStuckRuns checks that hint, for a stuck run
// that no typical mistake of the lab explains, gives the hints about stuck
// runs of its kind, and that a typical mistake's stuck run gets the
// mistake's hints.
func TestAStuckRunGetsHintsAboutStuckRuns(t *testing.T) {
	lab := labOf(t, "05-parallel")
	wb := testWorkbook(t, false)
	for _, tt := range []struct {
		kind  stuckKind
		place string
		want  string // the first line of the first hint
	}{
		{stuckWaits, "mywork/05-parallel/batch.go:99 in (*runState).executeParallel: chan receive", firstLine(stuckHints[stuckWaits][0].EN)},
		{stuckSpins, "mywork/05-parallel/batch.go:213 in (*runState).execute: runnable", firstLine(stuckHints[stuckSpins][0].EN)},
		{stuckLock, "mywork/05-parallel/batch.go:213 in (*runState).execute: sync.Mutex.Lock", firstLine(stuckHints[stuckLock][0].EN)},
		// The typical mistake whose edit waits for the goroutines before
		// it takes their events.
		{stuckWaits, "mywork/05-parallel/batch.go:206 in (*runState).execute.func1: chan send (3 goroutines)\nmywork/05-parallel/batch.go:209 in (*runState).execute: sync.WaitGroup.Wait", ""},
	} {
		f := &finding{test: lab.Exercises[0].Rules[0].Test, why: msgDeadlock, stuck: &stuckRun{kind: tt.kind, places: strings.Split(tt.place, "\n")}}
		if tt.kind == stuckWaits {
			f.found = []reported{{at: "bubble_test.go:44", Finding: expected.Finding{Message: "the run is stuck: its goroutines all wait", Stuck: f.stuck.places}}}
		}
		r := reportOf(lab, 0, 0, f)
		c := choose(lab, r)
		want := tt.want
		if want == "" {
			m := lab.mistakeIn(f.test, f)
			if m == nil {
				t.Fatalf("no typical mistake of lab 05 is seen in %q, want the one that calls wg.Wait() too early", f.text())
			}
			if c.Kind != hintMistake || c.Mistake != m.Name {
				t.Errorf("hint is about %+v, want the typical mistake %q", c, m.Name)
			}
			want = firstLine(m.Hints[0].EN)
		} else if c.Kind != hintStuck || c.Stuck != tt.kind {
			t.Errorf("a run stuck as %q: hint is about %+v, want a stuck run", tt.kind, c)
		}
		var out strings.Builder
		s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(&out, English, false)}
		if err := s.give(lab, r.dir, c); err != nil {
			t.Fatal(err)
		}
		wantContains(t, out.String(), "\n  "+want+"\n", "hint for a run stuck as %q", tt.kind)
	}
}

// TestTheContentsSayARunIsStuck checks the table of contents' line of an
// exercise whose run got stuck.
func TestTheContentsSayARunIsStuck(t *testing.T) {
	lab := labOf(t, "05-parallel")
	r := reportOf(lab, 0, 0, &finding{test: "TestX", why: msgDeadlock, stuck: &stuckRun{kind: stuckWaits}})
	for lang, want := range map[Lang]string{
		English: "    ✗ exercise 1: " + lab.Exercises[0].Title.EN + ": your run is stuck\n",
		Chinese: "    ✗ 练习 1：" + lab.Exercises[0].Title.ZH + "：你的运行卡住了\n",
	} {
		var out strings.Builder
		s := &session{wb: openedWorkbook(t), out: newPrinter(&out, lang, false)}
		s.contentsOf(r)
		wantContains(t, out.String(), want, "the table of contents in %s", lang)
	}
}
