package expected

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
)

// Build compiles the lab named lab into dir and returns the program's path.
// It builds the lab whose test is running: in a test of a copy of the lab,
// such as a learner's mywork/02-loop, the copy; otherwise labs/LAB.
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
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = root
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

// Run runs the program bin with args from the repository root, as an
// instructor runs a lab: its standard output is a pipe, not a terminal.
func Run(bin string, args ...string) (Result, error) {
	root, err := Root()
	if err != nil {
		return Result{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return Result{}, fmt.Errorf("run %s: %w", filepath.Base(bin), err)
	}
	return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: cmd.ProcessState.ExitCode()}, nil
}
