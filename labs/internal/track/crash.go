package track

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// failureLines is how many lines of one test's failure check shows.
const failureLines = 14

// A reported is a Finding that a test reported, and where: "main_test.go:42".
type reported struct {
	at string
	expected.Finding
}

// failure reads a failed test's output for a learner. A panic becomes its
// value and the line of the copy where it happened. Otherwise the failure
// is what the test reported as Findings (see expected.Finding), which
// writeFinding prints in the learner's language; a test that reported none,
// such as one the learner wrote with t.Error, is shown with its own lines,
// without go test's. copyDir is the copy's directory, to find the line of a
// panic, and copyRel the same from the root, to show it; learner names the
// files, if any, whose code the learner writes, where that line is looked
// for first.
func failure(lines []string, copyDir, copyRel string, learner ...string) *finding {
	if p := panicOf(lines, copyDir, copyRel, learner...); p != nil {
		return p
	}
	f := &finding{found: findingsIn(lines)}
	if len(f.found) == 0 {
		f.lines = said(lines)
	}
	f.stuck = stuckFromFindings(f.found, copyRel)
	return f
}

// findingsIn returns the Findings that a test's lines hold, in order.
func findingsIn(lines []string) []reported {
	var out []reported
	for _, l := range lines {
		if at, f, ok := expected.ParseFinding(l); ok {
			out = append(out, reported{at: at, Finding: f})
		}
	}
	return out
}

// said returns what a test printed, without go test's own lines (=== RUN,
// --- FAIL) and the indentation go test adds.
func said(lines []string) []string {
	var out []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		out = append(out, "  "+strings.TrimPrefix(l, "    "))
	}
	return out
}

// panicOf returns a panic's value and its place in the copy, or nil if the
// output holds no panic. A synctest deadlock and a timeout are panics too,
// and get a sentence of their own.
func panicOf(lines []string, copyDir, copyRel string, learner ...string) *finding {
	for i, l := range lines {
		value, ok := strings.CutPrefix(l, "panic: ")
		if !ok {
			continue
		}
		value = strings.TrimSuffix(strings.TrimSuffix(value, " [recovered, repanicked]"), " [recovered]")
		f := &finding{why: msgPanic, whyArgs: []any{value}}
		switch {
		case strings.HasPrefix(value, "test timed out after "):
			return timedOut(lines[i:], copyDir, copyRel, learner...)
		case strings.Contains(value, "deadlock"):
			f = &finding{why: msgDeadlock}
			// A test that saw its goroutines stuck may have said why.
			f.found = findingsIn(lines[:i])
			f.stuck = stuckIn(stuckWaits, lines[i+1:], copyDir, copyRel, learner...)
		}
		if where := frameIn(lines[i+1:], copyDir, copyRel, learner...); where != "" {
			f.lines = []string{"  at " + where}
		}
		return f
	}
	return nil
}

// timedOut reads the output of a test that go test's -timeout ended, with
// its dump of every goroutine: a run that is stuck. It waits for a lock if
// a goroutine of the copy waits to lock a mutex, which synctest cannot tell
// from a wait that will end; it spins otherwise, in a loop that never ends
// or never waits.
func timedOut(lines []string, copyDir, copyRel string, learner ...string) *finding {
	f := &finding{why: msgTimeout, whyArgs: []any{testTimeout}}
	where := lockWaiter(lines, copyDir, copyRel, learner...)
	kind := stuckSpins
	if where != "" {
		f.why, kind = msgTimeoutLock, stuckLock
	} else {
		where = frameIn(lines, copyDir, copyRel, learner...)
	}
	if where != "" {
		f.lines = []string{"  at " + where}
	}
	f.stuck = stuckIn(kind, lines, copyDir, copyRel, learner...)
	return f
}

// panicBeforeTests returns the panic that ended a test binary before any
// test ran, as one in a package variable's initializer does: go test's
// "panic: " line, and the line of the copy where it happened. It returns nil
// if a test ran or nothing panicked.
func panicBeforeTests(run *pkgRun, copyDir, copyRel string, learner ...string) []string {
	if len(run.order) > 0 {
		return nil
	}
	for i, l := range run.output {
		if !strings.HasPrefix(l, "panic: ") && !strings.HasPrefix(l, "fatal error: ") {
			continue
		}
		lines := []string{"  " + l}
		if where := frameIn(run.output[i+1:], copyDir, copyRel, learner...); where != "" {
			lines = append(lines, "  at "+where)
		}
		return lines
	}
	return nil
}

// frameIn returns the first stack frame in the copy's files, as
// "_mywork/02-loop/loop.go:60": the first in one of the learner's files, if
// any, else the first outside the tests, else the first in a test. A tool's
// panic that the learner's code should have recovered happens in the tool,
// and the line to fix is the learner's.
func frameIn(lines []string, copyDir, copyRel string, learner ...string) string {
	var inCode, inTest string
	prefix := copyDir + string(filepath.Separator)
	for _, l := range lines {
		at, ok := frameAt(l)
		if !ok || !strings.HasPrefix(at, prefix) {
			continue
		}
		file := filepath.ToSlash(strings.TrimPrefix(at, prefix))
		where := copyRel + "/" + file
		switch name, _, _ := strings.Cut(file, ":"); {
		case slices.Contains(learner, name):
			return where
		case strings.HasSuffix(name, "_test.go"):
			if inTest == "" {
				inTest = where
			}
		case inCode == "":
			inCode = where
		}
	}
	return firstOf(inCode, inTest)
}

// frameAt reads where a stack frame's line points, as in
// "\t/home/a b/_mywork/02-loop/loop.go:60 +0x1d": the file's path, which may
// hold spaces, and its line, "/home/a b/_mywork/02-loop/loop.go:60".
func frameAt(l string) (string, bool) {
	rest, ok := strings.CutPrefix(l, "\t")
	if !ok {
		return "", false
	}
	if i := strings.LastIndex(rest, " +0x"); i >= 0 {
		rest = rest[:i]
	}
	i := strings.LastIndex(rest, ".go:")
	if i < 0 {
		return "", false
	}
	digits := rest[i+len(".go:"):]
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	return rest, true
}

// lockWaiter returns where in the copy a goroutine of a dump of goroutines
// waits to lock a mutex, as frameIn writes it, or "" if none does. Its
// header says so: "goroutine 8 [sync.Mutex.Lock]:".
func lockWaiter(lines []string, copyDir, copyRel string, learner ...string) string {
	for i, l := range lines {
		_, state, header := strings.Cut(l, "[")
		header = header && strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":")
		if !header || !strings.HasPrefix(state, "sync.Mutex.Lock") && !strings.HasPrefix(state, "sync.RWMutex.") {
			continue
		}
		// Its frames run up to the next goroutine's header.
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "goroutine ") {
			end++
		}
		if where := frameIn(lines[i+1:end], copyDir, copyRel, learner...); where != "" {
			return where
		}
	}
	return ""
}

// shorten keeps the first n lines, and returns how many it left out. It
// leaves out none when one or two would go: the note that replaces them
// takes a line itself, and the last line is often the one that matters,
// such as the value the test got.
func shorten(lines []string, n int) (kept []string, hidden int) {
	if len(lines) <= n+2 {
		return lines, 0
	}
	return lines[:n:n], len(lines) - n
}

// moreLines is the note that stands for the lines shorten left out: how
// many, and the command that shows them.
func (p *printer) moreLines(hidden int, command string) string {
	if hidden == 1 {
		return p.sprint(msgMoreLine, command)
	}
	return p.sprint(msgMoreLines, hidden, command)
}
