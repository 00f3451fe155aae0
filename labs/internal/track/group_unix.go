//go:build unix

package track

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownGroup makes cmd the leader of a process group of its own, which the
// processes it starts join: go test, the compiler, and the learner's test
// binary. So the track can end them all at once (signalGroup), and an
// IDE's stop button, which signals the track alone, leaves nothing behind.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to every process of the group p leads.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	return syscall.Kill(-p.Pid, sig)
}

// limitMemory caps the writable memory of the processes started until
// restore is called, as the shell's ulimit -d does: they inherit the
// limit, and the track itself keeps its own once restore has run.
func limitMemory() (restore func()) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &old); err != nil || old.Cur <= memoryLimit {
		return func() {}
	}
	limited := syscall.Rlimit{Cur: memoryLimit, Max: old.Max}
	if syscall.Setrlimit(syscall.RLIMIT_DATA, &limited) != nil {
		return func() {}
	}
	return func() { syscall.Setrlimit(syscall.RLIMIT_DATA, &old) }
}

// testBinaries returns the processes of the group p leads that run a test
// binary, "*.test", as go test names them: the processes whose goroutines
// a SIGQUIT dumps. It reads /proc, and finds none where there is no /proc.
func testBinaries(p *os.Process) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err != nil || pgid != p.Pid {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		exe, _, _ := strings.Cut(string(cmdline), "\x00")
		if strings.HasSuffix(exe, ".test") {
			out = append(out, pid)
		}
	}
	return out
}

// quit asks a process to end with a dump of its goroutines, as Go programs
// do on SIGQUIT.
func quit(pid int) { syscall.Kill(pid, syscall.SIGQUIT) }

// interrupt and kill are the signals that end the group: the first asks,
// the second does not.
var (
	interrupt = syscall.SIGINT
	kill      = syscall.SIGKILL
)
