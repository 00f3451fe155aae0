package track

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// raceKey names the race detector's check where a rule's test would stand:
// in what a mistake breaks, and in hint's counts.
const raceKey = "race"

// raceRule is the race detector's check: the last before Done, in a lab
// whose exercises start goroutines (Lab.Race).
var raceRule = Text{
	EN: "no two goroutines use the same memory at once, one of them writing, without a lock or a channel between them (go test -race)",
	ZH: "没有两个 goroutine 在既没有锁、也没有 channel 协调的情况下同时使用同一块内存，且其中一个在写（go test -race）",
}

// raceUnavailable says why the race detector cannot run here, or returns
// nil if it can. It needs cgo, which go env reports off where no C
// compiler is found, or where CGO_ENABLED=0 turns it off; go test -race
// itself says so on a platform the race detector does not support, which
// raced reports.
func (wb *workbook) raceUnavailable(ctx context.Context) *note {
	cmd := exec.CommandContext(ctx, "go", "env", "CGO_ENABLED")
	cmd.Dir = wb.root
	out, err := cmd.Output()
	switch {
	case err != nil:
		return &note{msgRaceNoGoEnv, []any{err}}
	case strings.TrimSpace(string(out)) != "1":
		return &note{msgRaceNoCgo, nil}
	}
	return nil
}

// raceFlags are the go command's flags for the race detector's run: -race,
// and every package compiled without optimizations or debug information,
// as runTests compiles the copies. The race detector builds every package
// again, the standard library's too, the first time in a lab; compiled so,
// that first run takes about a third less time (16.6 s instead of 24.5 s
// for lab 05 on an idle machine of two cores), and what it reports keeps
// its lines.
var raceFlags = []string{"-race", "-gcflags=all=-N -l -dwarf=false"}

// raced reads the run of the rules' tests with the race detector: the
// first test that failed, a data race with the places of its accesses
// in the copy, the learner's files first. A race reported after the tests,
// as the test program ends, has no test. A copy the race detector could not
// build says why in a note: the platform, or cgo.
func (r *report) raced(run *pkgRun) {
	r.raceChecked = true
	switch {
	case run == nil:
		r.raceNotRun = &note{msgRaceNotReported, []any{r.rel}}
		return
	case !run.built:
		why := "go test -race"
		for _, l := range run.buildOutput {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				why = l
				break
			}
		}
		r.raceNotRun = &note{msgRaceCannotBuild, []any{printable(why)}}
		return
	}
	for _, name := range run.order {
		t := run.tests[name]
		if strings.Contains(name, "/") || t.status == passed || t.status == skipped {
			continue
		}
		// The race may be reported in the test's output or in a
		// subtest's, whichever ran when the race detector saw it.
		var lines []string
		for _, n := range run.order {
			if n == name || strings.HasPrefix(n, name+"/") {
				lines = append(lines, run.tests[n].output...)
			}
		}
		if places := racesIn(lines, r.dir, r.rel, r.lab.learnerFiles()...); len(places) > 0 {
			leaf := firstFailedLeaf(run, name)
			r.race = &finding{test: leaf.name, why: msgRace, lines: places,
				more: "go test -race -run " + shellQuote(runPattern(leaf.name)) + " ./" + r.rel}
			return
		}
		// A test that fails only with the race detector, without a
		// race: it is the race detector's run that broke it.
		r.race = r.findingOf(run, name)
		return
	}
	if places := racesIn(run.output, r.dir, r.rel, r.lab.learnerFiles()...); len(places) > 0 {
		r.race = &finding{why: msgRace, lines: places, more: "go test -race ./" + r.rel}
	}
}

// maxRaces is how many races check shows of one test: the first races of a
// test are most often one mistake, seen from two sides.
const maxRaces = 2

// raceAccess is the line of a race report that starts an access: "Read at
// 0x00c000094240 by goroutine 11:", "Previous write at … by main
// goroutine:".
var raceAccess = regexp.MustCompile(`^((?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite)) at 0x[0-9a-f]+ by (?:goroutine \d+|main goroutine):$`)

// racesIn reads the race detector's reports in a test's output: for each
// access of each race, the place in the copy of the frame nearest to it, a
// frame in the learner's files if one is, and the code there, as "  write
// at _mywork/05-parallel/batch.go:206 in (*runState).execute.func1: done =
// append(done, o)". Races whose accesses are all at places shown already
// are left out.
func racesIn(lines []string, copyDir, copyRel string, learner ...string) []string {
	prefix := copyDir + string(filepath.Separator)
	var out []string
	races := 0
	var race []string // the places of the race being read
	access := ""      // the access whose frames are being read, or ""
	var inCode, inLearner string
	function := ""
	endAccess := func() {
		if access != "" {
			if where := firstOf(inLearner, inCode); where != "" {
				race = append(race, "  "+strings.ToLower(access)+" at "+where)
			}
		}
		access, inCode, inLearner, function = "", "", "", ""
	}
	endRace := func() {
		endAccess()
		if len(race) > 0 && races < maxRaces && slices.ContainsFunc(race, func(p string) bool { return !slices.Contains(out, p) }) {
			out = append(out, race...)
			races++
		}
		race = nil
	}
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch m := raceAccess.FindStringSubmatch(trimmed); {
		case trimmed == "WARNING: DATA RACE":
			endRace()
		case m != nil:
			endAccess()
			access = m[1]
		case access == "":
		case trimmed == "":
			endAccess()
		case strings.HasPrefix(l, "      /"):
			at := trimmed
			if i := strings.LastIndex(at, " +0x"); i >= 0 {
				at = at[:i]
			}
			if !strings.HasPrefix(at, prefix) {
				continue
			}
			file := filepath.ToSlash(strings.TrimPrefix(at, prefix))
			where := copyRel + "/" + file + " in " + function
			if code := sourceLine(copyDir, file); code != "" {
				where += ": " + code
			}
			name, _, _ := strings.Cut(file, ":")
			if inCode == "" {
				inCode = where
			}
			if inLearner == "" && slices.Contains(learner, name) {
				inLearner = where
			}
		default:
			function = functionName(l)
		}
	}
	endRace()
	return out
}

// sourceLine returns the code at a place of the copy in dir, "batch.go:206",
// without its indentation, or "" if it cannot be read.
func sourceLine(dir, place string) string {
	name, number, _ := strings.Cut(place, ":")
	n, err := strconv.Atoi(number)
	if err != nil || n < 1 {
		return ""
	}
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return ""
	}
	lines := strings.Split(string(src), "\n")
	if n > len(lines) {
		return ""
	}
	return printable(strings.TrimSpace(lines[n-1]))
}
