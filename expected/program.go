package expected

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// mainEnv, set to "1", makes a lab's test binary run the lab's main instead
// of its tests: see [Main].
const mainEnv = "AGENT_LOOP_LAB_RUN_MAIN"

// Main is the TestMain of every lab, which runs its tests:
//
//	func TestMain(m *testing.M) { expected.Main(m, main) }
//
// Started by [Command] or [Run] with the path that [Program] returns, the same
// test binary runs the lab's main instead, in a process of its own, with
// the arguments, standard streams and signals it is given, as go run runs
// the program. So TestProgram tests the program a learner runs without
// building it a second time: a build takes longer than all the lab's tests.
func Main(m *testing.M, main func()) {
	if os.Getenv(mainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Program returns the path of the program of the lab whose test is running:
// the test binary itself, which runs the lab's main when [Command] starts it
// (see [Main]). In a test of a copy of the lab, such as a learner's
// _mywork/02-loop, it is the copy's.
func Program() (string, error) {
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the test's program: %w", err)
	}
	return bin, nil
}

// Command returns the command that runs the program bin with args, as
// exec.CommandContext does. For a test binary that [Program] returned, it is
// the lab's main that runs; a program that [Build] built ignores the
// variable that says so.
func Command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	return cmd
}

// Build compiles the lab named lab into dir and returns the program's path,
// as the golden command does to check the real programs. Called from a test
// of a copy of the lab, such as a learner's _mywork/02-loop, it builds the
// copy; otherwise labs/LAB.
func Build(dir, lab string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, "labs", lab)
	if start, err := startDir(); err == nil && filepath.Base(start) == lab && isCopy(root, start) {
		src = start
	}
	rel, err := filepath.Rel(root, src)
	if err != nil {
		return "", fmt.Errorf("build %s: %w", lab, err)
	}
	pkg := "./" + filepath.ToSlash(rel)
	bin := filepath.Join(dir, lab)
	args := []string{"build", "-o", bin}
	if src != filepath.Join(root, "labs", lab) {
		// A learner's copy changes between checks, so its program is
		// linked each time: without a symbol table and debug information,
		// as go run ./labs check links its tests, that is a sixth faster,
		// and a panic still names its lines.
		args = append(args, "-ldflags=-s -w")
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = root
	// go build keeps its work files in a folder of its own, which it
	// leaves behind when a signal ends it: in dir, whoever removes dir
	// removes them too.
	cmd.Env = append(cmd.Environ(), "GOTMPDIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	return bin, nil
}

// A Result is what one run of a program printed and how it exited.
type Result struct {
	// Stdout and Stderr are what the program wrote to each.
	Stdout, Stderr []byte
	// ExitCode is the program's exit status.
	ExitCode int
}

// RunLimit is how long [Run] and [Start] let a program run. A lab's run
// takes about a second at most, on a busy machine too; a program that has not
// ended by then never will, and is ended, so that its test fails instead of
// hanging.
const RunLimit = 10 * time.Second

// A Process is a program that a test started with [Start]: a program still
// running [RunLimit] after it started is killed, so that a test that waits
// on it, on its output or its exit, fails instead of hanging.
type Process struct {
	cmd    *exec.Cmd
	guard  *time.Timer
	killed atomic.Bool
}

// Start starts cmd, bounded by [RunLimit]. Connect its pipes first, as for
// cmd.Start, and wait for it with [Process.Wait], not cmd.Wait.
func Start(cmd *exec.Cmd) (*Process, error) {
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", filepath.Base(cmd.Path), err)
	}
	p := &Process{cmd: cmd}
	p.guard = time.AfterFunc(RunLimit, func() {
		p.killed.Store(true)
		_ = cmd.Process.Kill()
	})
	return p, nil
}

// Signal sends sig to the process, as a user's Ctrl-C does.
func (p *Process) Signal(sig os.Signal) error {
	return p.cmd.Process.Signal(sig)
}

// Wait waits for the process to end, as cmd.Wait does. If Start's guard
// killed it, the error says so, whatever status the kill left.
func (p *Process) Wait() error {
	err := p.cmd.Wait()
	p.guard.Stop()
	if p.killed.Load() {
		return fmt.Errorf("%s %s still ran %s after it started, and was stopped: does it wait for something that never comes?",
			filepath.Base(p.cmd.Path), strings.Join(p.cmd.Args[1:], " "), RunLimit)
	}
	return err
}

// Run runs the program bin with args from the repository root, as an
// instructor runs a lab: its standard output is a pipe, not a terminal. A
// program still running after RunLimit is killed, and Run says so.
func Run(bin string, args ...string) (Result, error) {
	return RunContext(context.Background(), bin, args...)
}

// RunContext is Run, and kills the program as soon as ctx is done: for the
// golden tool, which a signal stops.
func RunContext(parent context.Context, bin string, args ...string) (Result, error) {
	root, err := Root()
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(parent, RunLimit)
	defer cancel()
	cmd := Command(ctx, bin, args...)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if parent.Err() != nil {
		return Result{}, fmt.Errorf("run %s: %w", filepath.Base(bin), context.Cause(parent))
	}
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("run %s %s: it did not end within %s, so it was stopped: does its loop ever end?",
			filepath.Base(bin), strings.Join(args, " "), RunLimit)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return Result{}, fmt.Errorf("run %s: %w", filepath.Base(bin), err)
	}
	return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: cmd.ProcessState.ExitCode()}, nil
}

// RunAll runs the program bin once for each case, all at once, and returns
// the results in the order of the cases. The tools of labs 05 and 06 wait
// for real: side by side, the cases take as long as the slowest one, not
// as long as all of them.
func RunAll(bin string, cases []Case) ([]Result, error) {
	results := make([]Result, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Go(func() { results[i], errs[i] = Run(bin, c.Args...) })
	}
	wg.Wait()
	return results, errors.Join(errs...)
}
