// Command early-ctrl-c presses Ctrl-C on a program at a random moment of
// its first milliseconds, many times, and counts how the runs ended: with
// status 130 and the usual line, killed by the signal before it printed
// anything (Go's runtime was still starting it), finished, or otherwise.
// The README's "Exit status" says which of these may happen.
//
//	go build -o /tmp/lab06 ./labs/06-steering
//	go run .ci/early-ctrl-c.go [-n 300] [-max 10ms] /tmp/lab06 [ARG...]
//
// Unix only; the moments are random, so the counts vary from run to run.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 300, "how many runs")
	latestAt := flag.Duration("max", 10*time.Millisecond, "the latest moment to press Ctrl-C")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: early-ctrl-c [-n N] [-max D] PROGRAM [ARG...]")
		os.Exit(2)
	}
	counts := map[string]int{}
	latest := map[string]time.Duration{}
	for range *n {
		delay := time.Duration(rand.Int64N(int64(*latestAt) + 1))
		cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		time.Sleep(delay)
		_ = cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		var kind string
		switch {
		case ws.Signaled() && stdout.Len()+stderr.Len() == 0:
			kind = fmt.Sprintf("killed by %v, nothing printed", ws.Signal())
		case ws.Signaled():
			kind = fmt.Sprintf("killed by %v after printing %d bytes", ws.Signal(), stdout.Len()+stderr.Len())
		case ws.ExitStatus() == 130 && strings.HasSuffix(stderr.String(), "interrupted: Ctrl-C cancelled the run\n"):
			kind = "exit 130 with its line"
		case ws.ExitStatus() == 130 && stdout.Len()+stderr.Len() == 0:
			kind = "exit 130, nothing printed"
		default:
			kind = fmt.Sprintf("exit %d, stderr %q", ws.ExitStatus(), stderr.String())
		}
		counts[kind]++
		latest[kind] = max(latest[kind], delay)
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Printf("%4d of %d  %s (latest Ctrl-C at %.2f ms)\n", counts[k], *n, k, float64(latest[k])/1e6)
	}
}
