package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// statusBug is the exit status of a program that panicked.
const statusBug = 70

// A panicked is a panic of a program, recovered.
type panicked struct {
	// value is what the program panicked with.
	value any
	// at is the file and line of the panic.
	at string
}

// Error says where the program panicked, with what, and that it is a bug,
// in one line.
func (p *panicked) Error() string {
	return fmt.Sprintf("bug: the program panicked at %s: %s", p.at, Printable(fmt.Sprint(p.value)))
}

// call runs program, and returns a *panicked if it panics.
func call(ctx context.Context, program Program, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v)
		}
	}()
	return program(ctx, args, stdout, stderr)
}

// recovered describes v, which a deferred function recovered, with the
// place of the panic: the first frame of the stack outside the runtime,
// below the deferred function and the runtime's panic machinery.
func recovered(v any) *panicked {
	p := &panicked{value: v, at: "an unknown line"}
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") {
			p.at = fmt.Sprintf("%s:%d", shortPath(f.File), f.Line)
			break
		}
		if !more {
			break
		}
	}
	return p
}

// shortPath returns file relative to the working directory if it lies
// inside it, as a learner would type it, and as it is otherwise.
func shortPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}
