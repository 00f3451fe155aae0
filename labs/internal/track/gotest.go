package track

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
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
	for _, p := range pkgs {
		cmdArgs = append(cmdArgs, "./"+p)
	}
	cmd := exec.CommandContext(ctx, "go", cmdArgs...)
	cmd.Dir = wb.root
	// The tests report each failure as a Finding, as data, which the
	// report prints in the learner's language.
	cmd.Env = append(os.Environ(), expected.FindingsEnv+"=1")
	// On Ctrl-C, ask go test to stop, as a terminal does, so that it
	// removes its temporary build directory; kill it only if it does not.
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill() // Windows cannot send an interrupt
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	var stdout eventLog
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	runs := parseEvents(stdout.buf.Bytes(), pkgs)
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

// parseEvents reads go test -json's output. pkgs are the packages' paths
// from the root; events name them by import path, which ends with it.
func parseEvents(out []byte, pkgs []string) map[string]*pkgRun {
	runs := map[string]*pkgRun{}
	pkgOf := func(importPath string) string {
		importPath, _, _ = strings.Cut(importPath, " ") // "p [p.test]"
		for _, p := range pkgs {
			if strings.HasSuffix(importPath, "/"+p) {
				return p
			}
		}
		return ""
	}
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
		p := pkgOf(ev.Package)
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
		case ev.Test == "":
		case ev.Action == "run":
			run.test(ev.Test)
		case ev.Action == "output":
			t := run.test(ev.Test)
			t.output = append(t.output, strings.TrimSuffix(ev.Output, "\n"))
			if strings.HasPrefix(ev.Output, "panic: ") {
				run.crashed = true
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
// keeps before it keeps only the lines that tell what happened.
const maxOutput = 8 << 20

// An eventLog keeps go test -json's lines. A learner's code that prints in
// a loop that never ends would fill the memory before go test's timeout
// ends it, so past maxOutput bytes of a package's output it keeps only the
// output lines that tell what happened, a panic, a test's end, the stack's
// frames, and every event that is not output.
type eventLog struct {
	buf     bytes.Buffer
	partial []byte         // the start of a line still being written
	output  map[string]int // bytes of output kept, by package
}

func (l *eventLog) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(l.partial) < maxOutput { // one endless line: only its start
				l.partial = append(l.partial, b...)
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
// its package's limit that tells nothing.
func (l *eventLog) keep(line []byte) {
	if bytes.Contains(line, []byte(`"Action":"output"`)) {
		if l.output == nil {
			l.output = map[string]int{}
		}
		pkg := jsonField(line, "Package")
		if l.output[pkg] >= maxOutput && !telling.Match(line) {
			return
		}
		l.output[pkg] += len(line)
	}
	l.buf.Write(line)
}

// telling matches the output events that say what happened to a test.
var telling = regexp.MustCompile(`"Output":"(panic: |goroutine |--- |=== |\\t|FAIL|ok |created by )`)

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
