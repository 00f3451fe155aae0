//go:build !unix

package track

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no process groups: the track ends
// go test alone, which ends its children.
func ownGroup(cmd *exec.Cmd) {}

// signalGroup ends the process: there is no group to signal.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	return p.Kill()
}

// limitMemory sets no limit: only Unix systems have one to set.
func limitMemory() (restore func()) { return func() {} }

// testBinaries finds none: there is no /proc to read.
func testBinaries(p *os.Process) []int { return nil }

// quit does nothing: there is no SIGQUIT.
func quit(pid int) {}

var (
	interrupt = syscall.SIGINT
	kill      = syscall.SIGKILL
)
