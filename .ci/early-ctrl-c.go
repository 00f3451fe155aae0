// Command early-ctrl-c presses Ctrl-C on programs at a random moment of
// their first milliseconds, many times, and counts how the runs ended: with
// status 130 and the usual line, killed by the signal before they printed
// anything (Go's runtime was still starting them), finished, or otherwise.
// The README's "Exit status" says which of these may happen. With several
// programs, it takes turns between them, so that a machine whose load
// changes meanwhile slows them alike.
//
//	go build -o /tmp/lab06 ./labs/06-steering
//	go run .ci/early-ctrl-c.go [-n 300] [-max 10ms] /tmp/lab06 [PROGRAM...]
//
// Unix only. The moments are random, and a busy machine starts programs
// more slowly, so the counts vary from run to run: compare programs in one
// run of the command.
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
	n := flag.Int("n", 300, "how many runs of each program")
	latestAt := flag.Duration("max", 10*time.Millisecond, "the latest moment to press Ctrl-C")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: early-ctrl-c [-n N] [-max D] PROGRAM...")
		os.Exit(2)
	}
	programs := flag.Args()
	counts := make([]map[string]int, len(programs))
	latest := make([]map[string]time.Duration, len(programs))
	for i := range programs {
		counts[i], latest[i] = map[string]int{}, map[string]time.Duration{}
	}
	for range *n {
		for i, program := range programs {
			delay := time.Duration(rand.Int64N(int64(*latestAt) + 1))
			kind, err := interrupt(program, delay)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			counts[i][kind]++
			latest[i][kind] = max(latest[i][kind], delay)
		}
	}
	for i, program := range programs {
		fmt.Println(program + ":")
		kinds := make([]string, 0, len(counts[i]))
		for k := range counts[i] {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			fmt.Printf("%5d of %d  %s (latest Ctrl-C at %.2f ms)\n", counts[i][k], *n, k, float64(latest[i][k])/1e6)
		}
	}
}

// interrupt runs program, presses Ctrl-C after delay, and says how the run
// ended.
func interrupt(program string, delay time.Duration) (string, error) {
	cmd := exec.Command(program)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	time.Sleep(delay)
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return "", err
	}
	printed := stdout.Len() + stderr.Len()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled() && printed == 0:
		return fmt.Sprintf("killed by %v, nothing printed", ws.Signal()), nil
	case ws.Signaled():
		return fmt.Sprintf("killed by %v after it printed %d bytes", ws.Signal(), printed), nil
	case ws.ExitStatus() == 130 && strings.HasSuffix(stderr.String(), "interrupted: Ctrl-C cancelled the run\n"):
		return "exit 130 with its line", nil
	case ws.ExitStatus() == 130 && printed == 0:
		return "exit 130, nothing printed", nil
	default:
		return fmt.Sprintf("exit %d, stderr %q", ws.ExitStatus(), stderr.String()), nil
	}
}
