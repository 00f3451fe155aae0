package track

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A stuckKind is how a run is stuck.
type stuckKind string

const (
	// stuckWaits: every goroutine waits for another, and none can wake
	// them, which testing/synctest sees at once: a deadlock.
	stuckWaits stuckKind = "waits"
	// stuckLock: the test ran out of time while a goroutine waited to lock
	// a mutex, which synctest cannot tell from a wait that will end.
	stuckLock stuckKind = "lock"
	// stuckSpins: the test ran out of time, and no goroutine waited for a
	// lock: a loop that never ends, or never waits.
	stuckSpins stuckKind = "spins"
)

// A stuckRun is a test whose run got stuck, and where: check's headline,
// before any rule, and the topic of hint's hints about stuck runs.
type stuckRun struct {
	kind stuckKind
	// places are where the goroutines wait or run in the copy's code, as
	// "_mywork/05-parallel/batch.go:206 in (*runState).execute.func1: chan
	// send (2 goroutines)", the learner's files first.
	places []string
	// unseen counts the goroutines that ran on another thread as the dump
	// was taken, whose stacks it does not show: in a run that spins, most
	// likely the loop.
	unseen int
}

// maxStuckPlaces is how many places check's headline shows.
const maxStuckPlaces = 4

// signature is the stuck run without its lines: what stays the same while
// the learner edits around the same mistake, for hint's count.
func (s *stuckRun) signature() string {
	places := make([]string, len(s.places))
	for i, p := range s.places {
		places[i] = digits.ReplaceAllString(p, "#")
	}
	return string(s.kind) + ":" + strings.Join(places, ";")
}

// digits are runs of decimal digits, which a signature leaves out.
var digits = regexp.MustCompile(`[0-9]+`)

// stuckFromFindings returns the stuck run that a test reported as a
// Finding with Stuck set, as labs 05's bubbles do, its places written from
// the repository's root; nil if none did.
func stuckFromFindings(found []reported, copyRel string) *stuckRun {
	for _, f := range found {
		if len(f.Stuck) == 0 {
			continue
		}
		s := &stuckRun{kind: stuckWaits}
		for _, p := range f.Stuck {
			s.places = append(s.places, copyRel+"/"+p)
		}
		return s
	}
	return nil
}

// stuckIn reads a dump of goroutines, as a synctest deadlock or go test's
// timeout prints it, for where the copy's goroutines wait or run: for each
// goroutine whose frames reach the copy's files, its innermost frame in the
// learner's files, or else in the copy's other code, or else in its tests,
// and its state, one place for goroutines that share both. The places in
// the learner's files come first, then those in the copy's other code, and
// the tests' only if there is nothing else; for a run that spins, the
// goroutines that run come before those that wait, and for a run stuck on
// a lock, those that wait for one.
func stuckIn(kind stuckKind, lines []string, copyDir, copyRel string, learner ...string) *stuckRun {
	type place struct {
		text string
		rank int // 0: the learner's files, 1: other code, 2: tests
		// first is set for the goroutines that say most of how the run
		// is stuck: those that run, in a run that spins; those that wait
		// for a lock, in a run stuck on one.
		first bool
	}
	var found []place
	count := map[string]int{}
	unseen := 0
	prefix := copyDir + string(filepath.Separator)
	for _, g := range goroutinesIn(lines) {
		// The goroutine's innermost frame in the learner's files, or else
		// in the copy's other code, or else in its tests.
		var best *place
		for _, fr := range g.frames {
			if !strings.HasPrefix(fr.file, prefix) {
				continue
			}
			file := filepath.ToSlash(strings.TrimPrefix(fr.file, prefix))
			name, _, _ := strings.Cut(file, ":")
			rank := 1
			switch {
			case slices.Contains(learner, name):
				rank = 0
			case strings.HasSuffix(name, "_test.go"):
				rank = 2
			}
			if best == nil || rank < best.rank {
				best = &place{text: fmt.Sprintf("%s/%s in %s: %s", copyRel, file, fr.function, g.state), rank: rank}
			}
		}
		if best == nil {
			if g.state == "running" && len(g.frames) == 0 {
				unseen++
			}
			continue
		}
		best.first = kind == stuckSpins && (g.state == "running" || g.state == "runnable") ||
			kind == stuckLock && (strings.HasPrefix(g.state, "sync.Mutex.Lock") || strings.HasPrefix(g.state, "sync.RWMutex."))
		if count[best.text] == 0 {
			found = append(found, *best)
		}
		count[best.text]++
	}
	slices.SortStableFunc(found, func(a, b place) int {
		if a.first != b.first {
			if a.first {
				return -1
			}
			return 1
		}
		return a.rank - b.rank
	})
	code := slices.ContainsFunc(found, func(p place) bool { return p.rank < 2 })
	s := &stuckRun{kind: kind, unseen: unseen}
	for _, p := range found {
		if p.rank == 2 && code {
			continue
		}
		text := p.text
		if n := count[text]; n > 1 {
			text += fmt.Sprintf(" (%d goroutines)", n)
		}
		s.places = append(s.places, text)
	}
	return s
}

// A dumped goroutine is one goroutine of a dump: its state, as "chan
// receive", and its frames, innermost first.
type dumpedGoroutine struct {
	state  string
	frames []frame
}

// A frame is a function of a goroutine's stack and where it is.
type frame struct {
	function string // as "(*runState).execute.func1"
	file     string // the path and line, as "/repo/_mywork/05-parallel/batch.go:206"
}

// goroutineHeader is the first line of a goroutine in a dump:
// "goroutine 10 [chan receive (durable), synctest bubble 1]:".
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ \[([^\]]*)\]:$`)

// goroutinesIn reads the goroutines of a dump. The frame that a "created
// by" line names is where the goroutine started, not where it is, and is
// left out.
func goroutinesIn(lines []string) []dumpedGoroutine {
	var out []dumpedGoroutine
	var g *dumpedGoroutine
	function := ""
	for _, l := range lines {
		if m := goroutineHeader.FindStringSubmatch(l); m != nil {
			out = append(out, dumpedGoroutine{state: goroutineState(m[1])})
			g = &out[len(out)-1]
			function = ""
			continue
		}
		if g == nil {
			continue
		}
		if at, ok := frameAt(l); ok {
			if function != "" {
				g.frames = append(g.frames, frame{function: function, file: at})
			}
			function = ""
			continue
		}
		switch {
		case l == "":
			g = nil
		case strings.HasPrefix(l, "created by "):
			function = ""
		default:
			function = functionName(l)
		}
	}
	return out
}

// goroutineState is a goroutine's state without what synctest and the
// scheduler add: "chan receive" for "chan receive (durable), synctest
// bubble 1", "sync.Mutex.Lock" for "sync.Mutex.Lock, 2 minutes".
func goroutineState(s string) string {
	s, _, _ = strings.Cut(s, ",")
	return strings.TrimSuffix(strings.TrimSpace(s), " (durable)")
}

// functionName reads a frame's function line, as
// "github.com/x/_mywork/06-steering.(*Agent).poll(0x61720180b48?)": the
// function without its package and arguments, "(*Agent).poll".
func functionName(l string) string {
	l = strings.TrimSpace(l)
	if i := strings.LastIndex(l, "("); i > 0 && strings.HasSuffix(l, ")") {
		l = l[:i]
	}
	if i := strings.LastIndex(l, "/"); i >= 0 {
		l = l[i+1:]
	}
	if _, rest, ok := strings.Cut(l, "."); ok {
		return rest
	}
	return l
}
