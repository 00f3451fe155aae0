package track

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
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
	crashed     bool     // a panic or a timeout ended it: later tests never ran
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
// root ("mywork/02-loop"). Its error is go test's own failure to run, with
// what it printed, when it reported none of the packages.
func (wb *workbook) runTests(ctx context.Context, pkgs []string, args ...string) (map[string]*pkgRun, error) {
	// The copies are compiled without optimizations (-N -l) and linked
	// without a symbol table or debug information (-s -w): their tests
	// run for a moment, so building them faster is what counts, and a
	// panic still names its lines. The packages they import, compiled as
	// usual, come from the build cache.
	cmdArgs := append([]string{"test", "-json", "-gcflags=-N -l", "-ldflags=-s -w", "-timeout", wb.timeout().String()}, args...)
	if wb.vetted {
		cmdArgs = append(cmdArgs, "-vet=off")
	}
	for _, p := range pkgs {
		cmdArgs = append(cmdArgs, "./"+p)
	}
	cmd := exec.CommandContext(ctx, "go", cmdArgs...)
	cmd.Dir = wb.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	runs := parseEvents(stdout.Bytes(), pkgs)
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
