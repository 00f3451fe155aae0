package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// inBubble runs f in a synctest bubble, as synctest.Test does. When every
// goroutine of the bubble waits for another and nothing can wake them,
// synctest panics, and the panic would end every test of the package with
// a dump of every goroutine. inBubble fails the test instead, with a
// Finding that names the likely causes and the lines where the goroutines
// wait, and the other tests still run.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	var bubble string // how a stack dump names the bubble
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if err, ok := r.(error); !ok || !strings.HasPrefix(err.Error(), "deadlock: ") {
			panic(r)
		}
		stuck := expected.Finding{
			Message: "the run is stuck: its goroutines all wait, and nothing can wake them. " +
				"Does a goroutine send on a channel that nobody reads any more? " +
				"Does the loop wait for an event, or for goroutines, that never come?",
			Want: "a run that ends",
			Got:  "every goroutine waits for good",
		}
		if places := waiting(bubble); len(places) > 0 {
			stuck.Got += ", at " + strings.Join(places, "; ")
			stuck.Stuck = places
		}
		expected.Report(t, stuck)
		t.FailNow()
	}()
	synctest.Test(t, func(t *testing.T) {
		bubble = current().bubble()
		f(t)
	})
}

// waiting lists where the goroutines of the named bubble wait, as places
// does.
func waiting(bubble string) []string {
	var gs []goroutine
	for _, g := range stacks(true) {
		if bubble == "" || g.bubble() != bubble || g.inLab(true) == "" {
			continue // another bubble's, or the testing package's own
		}
		gs = append(gs, g)
	}
	return places(gs)
}

// places lists where the goroutines wait, one item per place, sorted, as
// "batch.go:206 in (*runState).execute.func1: chan send (3 goroutines)".
func places(gs []goroutine) []string {
	var out []string
	count := map[string]int{}
	for _, g := range gs {
		place := g.inLab(true) + ": " + g.waitsFor()
		if count[place] == 0 {
			out = append(out, place)
		}
		count[place]++
	}
	slices.Sort(out) // runtime.Stack's order of goroutines may change between runs
	for i, p := range out {
		if n := count[p]; n > 1 {
			out[i] = fmt.Sprintf("%s (%d goroutines)", p, n)
		}
	}
	return out
}

// toolGoroutines returns the goroutines that run the lab's code, other
// than the caller: while a batch runs, those that run its tools; once a run
// is over, any that the loop left behind.
func toolGoroutines() []goroutine {
	var found []goroutine
	for i, g := range stacks(true) {
		if i > 0 && g.inLab(false) != "" {
			found = append(found, g) // the first is the caller's
		}
	}
	return found
}

// A goroutine is one goroutine of a stack dump.
type goroutine struct {
	// header is as "goroutine 9 [chan send (durable), synctest bubble 28]:".
	header string
	// frames are two lines each: the function with its arguments, then a
	// tab, the file, its line and an offset.
	frames []string
}

// current returns the stack of the calling goroutine.
func current() goroutine { return stacks(false)[0] }

// stacks returns the stack of the calling goroutine, then, if all is set,
// those of every other goroutine, as runtime.Stack writes them.
func stacks(all bool) []goroutine {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var gs []goroutine
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		header, frames, _ := strings.Cut(g, "\n")
		gs = append(gs, goroutine{header: header, frames: strings.Split(frames, "\n")})
	}
	return gs
}

// id returns the goroutine's number, as its header gives it: "7" for
// "goroutine 7 [running]:". Go has no other way to tell goroutines apart,
// and only a test should want one.
func (g goroutine) id() string {
	id, _, _ := strings.Cut(strings.TrimPrefix(g.header, "goroutine "), " ")
	return id
}

// bubbleName is how a header names the goroutine's bubble.
var bubbleName = regexp.MustCompile(`synctest bubble \d+\]`)

// bubble returns how the header names the goroutine's bubble, or "" if it
// is in none.
func (g goroutine) bubble() string { return bubbleName.FindString(g.header) }

// waitsFor returns what the goroutine waits for: "chan send" for a header
// "goroutine 9 [chan send (durable), synctest bubble 28]:".
func (g goroutine) waitsFor() string {
	_, state, _ := strings.Cut(g.header, "[")
	state, _, _ = strings.Cut(strings.TrimSuffix(state, "]:"), ",")
	return strings.TrimSuffix(state, " (durable)")
}

// inLab returns the first frame of the goroutine in the lab's code, as
// "batch.go:206 in (*runState).execute.func1", or, if tests is set and
// there is none, the first in its tests; "" if there is none either.
func (g goroutine) inLab(tests bool) string {
	_, self, _, _ := runtime.Caller(0)
	dir := "\t" + filepath.Dir(self) + string(filepath.Separator)
	var inTest string
	for i := 1; i < len(g.frames); i++ {
		file, ok := strings.CutPrefix(g.frames[i], dir)
		end := strings.LastIndex(g.frames[i-1], "(")
		if !ok || end < 0 {
			continue
		}
		file, _, _ = strings.Cut(file, " ")
		fn := g.frames[i-1][:end]
		_, fn, _ = strings.Cut(fn[strings.LastIndex(fn, "/")+1:], ".") // without the package
		place := file + " in " + fn
		if !strings.Contains(file, "_test.go:") {
			return place
		}
		if tests && inTest == "" {
			inTest = place
		}
	}
	return inTest
}
