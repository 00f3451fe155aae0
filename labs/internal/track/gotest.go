package track

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// testTimeout is go test's -timeout for a learner's copy: a test that runs
// longer is stuck, most likely in a loop that never ends.
const testTimeout = 10 * time.Second

// A testStatus is how a test ended.
type testStatus int

const (
	unfinished testStatus = iota // started, and never ended: the package timed out or crashed
	passed
	failed
	skipped
)

// A testRun is one test, or subtest, as go test -json reported it.
type testRun struct {
	name   string
	status testStatus
	output []string // its lines of output, without "\n"
}

// A pkgRun is what go test reported for one package.
type pkgRun struct {
	built       bool     // it compiled; false also when go test never got to it
	buildOutput []string // the compiler's and vet's messages
	tests       map[string]*testRun
	order       []string // test names in the order they started
	output      []string // the package's lines that belong to no test
	timedOut    bool     // go test's -timeout ended it
	running     []string // with timedOut, the tests that were running
	crashed     bool     // a panic, a timeout or an exit ended it: later tests never ran
	// fatal is a fatal error's line, such as "fatal error: runtime: out
	// of memory", which ends the test binary without a panic.
	fatal string
	// hung is set when the track ended the test binary, which ran past
	// its timeout without reaching a test.
	hung bool
	// failed is set when go test reports the package failed: the test
	// binary's exit status, which no line it printed can fake.
	failed bool
}

// failedUnseen reports whether the package failed although none of its
// tests did and nothing crashed, timed out or hung: the test binary ended
// with a failure after its tests, by os.Exit(1) for instance, or it printed
// go test's own lines ("--- PASS: …"), which go test -json takes for its
// tests' results.
func (p *pkgRun) failedUnseen() bool {
	if !p.failed || !p.built || p.crashed || p.timedOut || p.hung || p.fatal != "" {
		return false
	}
	for _, t := range p.tests {
		if t.status == failed || t.status == unfinished {
			return false
		}
	}
	return true
}

// newPkgRun returns an empty pkgRun.
func newPkgRun() *pkgRun {
	return &pkgRun{tests: map[string]*testRun{}}
}

// test returns the named test, adding it the first time.
func (p *pkgRun) test(name string) *testRun {
	t, ok := p.tests[name]
	if !ok {
		t = &testRun{name: name}
		p.tests[name] = t
		p.order = append(p.order, name)
	}
	return t
}

// A testEvent is one line of go test -json.
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string // build-output and build-fail name the package built here
	FailedBuild string // a package's fail event names the package that did not build
	Test        string
	Output      string
}

// runTests runs go test -json with args on the packages, from the
// repository root, and returns each package's report by its path from the
// root ("_mywork/02-loop"). Its error is go test's own failure to run, with
// what it printed, when it reported none of the packages.
//
// go test and everything it starts run in a process group of their own,
// which the track ends whole: when ctx is cancelled (Ctrl-C, SIGTERM and
// SIGHUP: see Run), and when a
// test binary hangs before any test starts (an endless loop in an init
// function), which go test's -timeout does not see. Before it ends a hung
// test binary, the track asks it for a dump of its goroutines, which says
// where it hangs. The test binaries' writable memory is limited
// (limitMemory).
func (wb *workbook) runTests(ctx context.Context, pkgs []string, args ...string) (map[string]*pkgRun, error) {
	// The copies are compiled without optimizations (-N -l) or debug
	// information (-dwarf=false) and linked without a symbol table (-s
	// -w): their tests run for a moment, so building them faster is what
	// counts, and a panic still names its lines. The packages they
	// import, compiled as usual, come from the build cache.
	cmdArgs := append([]string{"test", "-json", "-gcflags=-N -l -dwarf=false", "-ldflags=-s -w", "-timeout", wb.timeout().String()}, args...)
	if wb.vetted {
		cmdArgs = append(cmdArgs, "-vet=off")
	}
	cmdArgs = append(cmdArgs, wb.testFlags...)
	for _, p := range pkgs {
		cmdArgs = append(cmdArgs, "./"+p)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command("go", cmdArgs...)
	cmd.Dir = wb.root
	// The tests report each failure as a Finding, as data, which the
	// report prints in the learner's language. GOMEMLIMIT makes the
	// garbage collector work harder as a test nears the memory limit.
	cmd.Env = append(os.Environ(), expected.FindingsEnv+"=1", fmt.Sprintf("GOMEMLIMIT=%d", memoryLimit/2))
	// go test leaves its work folders (/tmp/go-build*) behind when it is
	// interrupted (golang/go#25808), and a test binary that is ended
	// leaves its tests' temporary folders: both go to a folder of the
	// track's own, which it removes whatever happens.
	tmp, err := os.MkdirTemp("", "agent-loop-lab-check-")
	if err != nil {
		return nil, fmt.Errorf("go test: %w", err)
	}
	defer os.RemoveAll(tmp)
	cmd.Env = append(cmd.Env, "GOTMPDIR="+tmp, "TMPDIR="+tmp)
	ownGroup(cmd)
	var stdout eventLog
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr

	// The limit is the process's while go test starts: grade starts
	// several at once, and each must start under it.
	startMu.Lock()
	restore := limitMemory()
	err = cmd.Start()
	restore()
	startMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("go test: %w", err)
	}
	hung := wb.watch(ctx, cmd, &stdout)
	if wb.goTestStarted != nil {
		wb.goTestStarted()
	}
	runErr := cmd.Wait()
	// Whatever is left of the group, a test binary that ignored Ctrl-C
	// for instance, ends with go test.
	signalGroup(cmd.Process, kill)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ended := hung()
	runs := parseEvents(stdout.bytes(), pkgs)
	for _, importPath := range ended {
		if r := runs[pkgOf(importPath, pkgs)]; r != nil {
			r.hung = true
		}
	}
	if len(runs) == 0 && runErr != nil {
		return nil, fmt.Errorf("go test: %v\n%s", runErr, firstLines(strings.TrimSpace(stderr.String()), 10))
	}
	for _, p := range pkgs {
		if runs[p] == nil && runErr != nil {
			// go test refused the package before building it: a go.mod in
			// the copy, no Go files left. What it said is the report.
			r := newPkgRun()
			r.buildOutput = splitOutput(firstLines(strings.TrimSpace(stderr.String()), 10))
			runs[p] = r
		}
	}
	return runs, nil
}

// startMu is held while go test starts under the memory limit.
var startMu sync.Mutex

// memoryLimit is how much memory a learner's test binary may write to, on
// top of what the go command and the compiler need: a loop that appends
// for ever fails at it, within seconds, and check says so, instead of
// taking the machine's memory. Only Unix systems enforce it (limitMemory);
// everywhere, GOMEMLIMIT makes the garbage collector work harder near it.
const memoryLimit = 2 << 30

// hangGrace is how long past go test's -timeout a test binary may run
// before the track ends it: -timeout ends a test that runs too long, but
// not a binary that never gets to its tests.
const hangGrace = 5 * time.Second

// watch ends cmd's process group when ctx is cancelled, and ends a test
// binary that has run past its
// timeout, after asking it for a dump of its goroutines. It returns, once
// cmd has been waited for, a function that lists the packages whose test
// binaries it ended so.
func (wb *workbook) watch(ctx context.Context, cmd *exec.Cmd, log *eventLog) (hung func() []string) {
	done := make(chan struct{})
	var ended []string
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		// endAll asks the group to end, as Ctrl-C on a terminal would,
		// so that go test removes its temporary directory, and then
		// makes it.
		endAll := func() {
			signalGroup(cmd.Process, interrupt)
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				signalGroup(cmd.Process, kill)
			}
		}
		quitted := map[string]time.Time{}
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				endAll()
				return
			case now := <-tick.C:
				for _, pkg := range log.overdue(now, wb.timeout()) {
					if at, ok := quitted[pkg]; ok {
						if now.Sub(at) > hangGrace {
							signalGroup(cmd.Process, kill)
						}
						continue
					}
					quitted[pkg] = now
					ended = append(ended, pkg)
					for _, pid := range testBinaries(cmd.Process) {
						quit(pid)
					}
				}
			}
		}
	}()
	return func() []string {
		close(done)
		<-finished
		return ended
	}
}

// parseEvents reads go test -json's output. pkgs are the packages' paths
// from the root; events name them by import path, which ends with it.
func parseEvents(out []byte, pkgs []string) map[string]*pkgRun {
	runs := map[string]*pkgRun{}
	buildOutput := map[string][]string{} // by the import path of the package built
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		var ev testEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Action == "build-output" {
			buildOutput[ev.ImportPath] = append(buildOutput[ev.ImportPath], strings.TrimSuffix(ev.Output, "\n"))
			continue
		}
		p := pkgOf(ev.Package, pkgs)
		if p == "" {
			continue
		}
		run := runs[p]
		if run == nil {
			run = newPkgRun()
			run.built = true
			runs[p] = run
		}
		switch {
		case ev.FailedBuild != "":
			run.built = false
			run.buildOutput = buildOutput[ev.FailedBuild]
		case ev.Test == "" && ev.Action == "output":
			run.output = append(run.output, strings.TrimSuffix(ev.Output, "\n"))
			if strings.HasPrefix(ev.Output, "fatal error: ") && run.fatal == "" {
				run.fatal = strings.TrimSpace(ev.Output)
			}
		case ev.Test == "" && ev.Action == "fail":
			run.failed = true
		case ev.Test == "":
		case ev.Action == "run":
			run.test(ev.Test)
		case ev.Action == "output":
			t := run.test(ev.Test)
			t.output = append(t.output, strings.TrimSuffix(ev.Output, "\n"))
			if strings.HasPrefix(ev.Output, "panic: ") {
				run.crashed = true
			}
			if strings.HasPrefix(ev.Output, "fatal error: ") && run.fatal == "" {
				run.crashed = true
				run.fatal = strings.TrimSpace(ev.Output)
			}
			if strings.HasPrefix(ev.Output, "panic: test timed out after ") {
				run.timedOut = true
			}
		case ev.Action == "pass":
			run.test(ev.Test).status = passed
		case ev.Action == "fail":
			run.test(ev.Test).status = failed
		case ev.Action == "skip":
			run.test(ev.Test).status = skipped
		}
	}
	for _, run := range runs {
		if run.timedOut {
			run.running = timedOutTests(run)
		}
		// A test that never ended, with no panic: the test program
		// exited in its middle, and the tests after it never ran.
		for _, t := range run.tests {
			if t.status == unfinished {
				run.crashed = true
			}
		}
	}
	return runs
}

// pkgOf returns the path from the root, one of pkgs, of the package that
// go test -json names by its import path, which ends with it; "" for none.
func pkgOf(importPath string, pkgs []string) string {
	importPath, _, _ = strings.Cut(importPath, " ") // "p [p.test]"
	for _, p := range pkgs {
		if strings.HasSuffix(importPath, "/"+p) {
			return p
		}
	}
	return ""
}

// runningLine is a line of the list that a timeout panic prints of the
// tests that were running: "\t\tTestName (10s)".
var runningLine = regexp.MustCompile(`^\t\t(\S+) \(`)

// timedOutTests returns the tests a timeout caught running.
func timedOutTests(run *pkgRun) []string {
	var out []string
	for _, name := range run.order {
		lines := run.tests[name].output
		for i, l := range lines {
			if !strings.HasPrefix(l, "panic: test timed out after ") {
				continue
			}
			for _, l := range lines[i+1:] {
				if m := runningLine.FindStringSubmatch(l); m != nil {
					out = append(out, m[1])
				} else if strings.TrimSpace(l) != "running tests:" {
					break
				}
			}
			return out
		}
	}
	return out
}

// splitOutput splits text into lines, none for an empty text.
func splitOutput(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// firstLines returns at most n lines of text.
func firstLines(text string, n int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// maxOutput is how many bytes of a package's output events an eventLog
// keeps before it keeps only what a crash prints.
const maxOutput = 8 << 20

// maxCrashOutput is how many bytes of output an eventLog keeps, past
// maxOutput, after each of the first maxCrashes lines that start a panic
// or a fatal error: the goroutines' dump that follows says where.
const (
	maxCrashOutput = 1 << 20
	maxCrashes     = 4
)

// An eventLog keeps go test -json's lines. A learner's code that prints in
// a loop that never ends would fill the memory before go test's timeout
// ends it, so past maxOutput bytes of a package's output it keeps only the
// events that are not output, and what a crash prints: some output after
// the first few lines that start a panic or a fatal error. Whatever the
// learner's code prints, the log keeps at most a few tens of MB. It also
// notes when each package's test binary started and ended, for watch.
type eventLog struct {
	mu sync.Mutex
	// limit and crashWindow, if not 0, replace maxOutput and
	// maxCrashOutput, so that a test floods a small log.
	limit, crashWindow int
	buf                bytes.Buffer
	partial            []byte // the start of a line still being written
	pkgs               map[string]*pkgLog
}

// A pkgLog is what an eventLog knows of one package's output.
type pkgLog struct {
	output  int // bytes of output kept
	crashes int // crash lines seen past maxOutput
	window  int // bytes of output still kept after the last crash line
	started time.Time
	ran     bool // a test has started
	ended   bool
}

func (l *eventLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if limit := cmp.Or(l.limit, maxOutput); len(l.partial) < limit { // one endless line: only its start
				l.partial = append(l.partial, b[:min(len(b), limit-len(l.partial))]...)
			}
			break
		}
		l.keep(append(l.partial, b[:i+1]...))
		l.partial = l.partial[:0]
		b = b[i+1:]
	}
	return n, nil
}

// keep adds one line of go test -json to the log, unless it is output past
// its package's limit that no crash needs.
func (l *eventLog) keep(line []byte) {
	if l.pkgs == nil {
		l.pkgs = map[string]*pkgLog{}
	}
	name := jsonField(line, "Package")
	pkg := l.pkgs[name]
	if pkg == nil {
		pkg = &pkgLog{}
		l.pkgs[name] = pkg
	}
	switch jsonField(line, "Action") {
	case "start":
		pkg.started = time.Now()
	case "run":
		pkg.ran = true
	case "pass", "fail", "skip":
		if jsonField(line, "Test") == "" {
			pkg.ended = true
		}
	case "output":
		switch {
		case pkg.output < cmp.Or(l.limit, maxOutput):
			pkg.output += len(line)
		case crashLine(line) && pkg.crashes < maxCrashes:
			pkg.crashes++
			pkg.window = cmp.Or(l.crashWindow, maxCrashOutput)
		case pkg.window > 0:
			pkg.window -= len(line)
		default:
			return
		}
	}
	l.buf.Write(line)
}

// crashLine reports whether a line of go test -json is output that starts
// a panic or a fatal error.
func crashLine(line []byte) bool {
	return bytes.Contains(line, []byte(`"Output":"panic: `)) || bytes.Contains(line, []byte(`"Output":"fatal error: `))
}

// overdue returns the packages whose test binaries have not ended, and
// have run for longer than limit without starting a test, or for longer
// than limit and hangGrace: go test's -timeout ends a binary whose tests
// run too long, but does not see one that never gets to them.
func (l *eventLog) overdue(now time.Time, limit time.Duration) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for name, pkg := range l.pkgs {
		if pkg.started.IsZero() || pkg.ended {
			continue
		}
		if d := now.Sub(pkg.started); !pkg.ran && d > limit || d > limit+hangGrace {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// bytes returns the lines kept.
func (l *eventLog) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Bytes()
}

// jsonField returns a string field's raw value in a line of JSON, or "".
func jsonField(line []byte, name string) string {
	key := []byte(`"` + name + `":"`)
	i := bytes.Index(line, key)
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return string(rest[:j])
	}
	return ""
}
