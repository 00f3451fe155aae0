package track

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// aRace is what go test -race prints of a race between two goroutines of
// lab 05's batch, as it reached a test's output.
var aRace = strings.Split(`=== RUN   TestAParallelBatchTakesAsLongAsItsSlowestCall
==================
WARNING: DATA RACE
Read at 0x00c000094240 by goroutine 11:
  runtime.growslice()
      /usr/local/go/src/runtime/slice.go:178 +0x0
  github.com/x/mywork/05-parallel.(*runState).execute.func1()
      /repo/mywork/05-parallel/batch.go:206 +0x7de

Previous write at 0x00c000094240 by goroutine 12:
  github.com/x/mywork/05-parallel.newTool.func1()
      /repo/mywork/05-parallel/tools.go:47 +0x99c
  github.com/x/mywork/05-parallel.(*runState).execute.func1()
      /repo/mywork/05-parallel/batch.go:202 +0x99c

Goroutine 11 (running) created at:
  sync.(*WaitGroup).Go()
      /usr/local/go/src/sync/waitgroup.go:238 +0x72
  github.com/x/mywork/05-parallel.(*runState).executeParallel()
      /repo/mywork/05-parallel/batch.go:88 +0xdf9
==================
==================
WARNING: DATA RACE
Read at 0x00c00009e280 by goroutine 11:
  github.com/x/mywork/05-parallel.(*runState).execute.func1()
      /repo/mywork/05-parallel/batch.go:206 +0x895

Previous write at 0x00c00009e280 by goroutine 12:
  github.com/x/mywork/05-parallel.(*runState).execute.func1()
      /repo/mywork/05-parallel/batch.go:202 +0x8ec
==================
==================
WARNING: DATA RACE
Write at 0x00c00009e300 by main goroutine:
  github.com/x/mywork/05-parallel.(*runState).loop()
      /repo/mywork/05-parallel/loop.go:171 +0x8ec

Previous read at 0x00c00009e300 by goroutine 12:
  github.com/x/mywork/05-parallel.(*runState).execute.func1()
      /repo/mywork/05-parallel/batch.go:210 +0x8ec
==================
    testing.go:1712: race detected during execution of test
--- FAIL: TestAParallelBatchTakesAsLongAsItsSlowestCall (0.00s)`, "\n")

// TestARaceIsReadAtItsLines checks what check shows of a race: each
// access at its line in the learner's files, the first two races only, and
// a race whose places it showed already not again.
func TestARaceIsReadAtItsLines(t *testing.T) {
	got := racesIn(aRace, "/repo/mywork/05-parallel", "mywork/05-parallel", "batch.go")
	want := []string{
		// The frame in the learner's batch.go, not the runtime's or the
		// tool's in tools.go.
		"  read at mywork/05-parallel/batch.go:206 in (*runState).execute.func1",
		"  previous write at mywork/05-parallel/batch.go:202 in (*runState).execute.func1",
		// The second race is at the same places; the third is one more.
		"  write at mywork/05-parallel/loop.go:171 in (*runState).loop",
		"  previous read at mywork/05-parallel/batch.go:210 in (*runState).execute.func1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("the race's places are\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The code at each place, where the copy has it.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "batch.go"), []byte(strings.Repeat("\n", 205)+"\t\t\tdone = append(done, o)\n"), 0o644)
	var copied []string
	for _, l := range aRace {
		copied = append(copied, strings.ReplaceAll(l, "/repo/mywork/05-parallel", dir))
	}
	got = racesIn(copied, dir, "mywork/05-parallel", "batch.go")
	if want := "  read at mywork/05-parallel/batch.go:206 in (*runState).execute.func1: done = append(done, o)"; len(got) == 0 || got[0] != want {
		t.Errorf("the race's first place is %q, want %q: with the code there", got, want)
	}
	if got := racesIn(aRace[:1], "/repo/mywork/05-parallel", "mywork/05-parallel", "batch.go"); len(got) != 0 {
		t.Errorf("a test without a race has the places %q, want none", got)
	}
}

// TestRacedReadsTheRaceDetectorsRun checks how check reads its run of the
// rules' tests with the race detector: a race in a test's output is a
// finding of that test, with the command that shows all of it; a copy the
// race detector cannot build is a note that says why.
func TestRacedReadsTheRaceDetectorsRun(t *testing.T) {
	const pkg = "github.com/x/mywork/05-parallel"
	lab := labOf(t, "05-parallel")
	run := parseEvents(events(t, slices.Concat(
		[]testEvent{
			{Action: "run", Package: pkg, Test: "TestAStopReachesTheLoop"},
			{Action: "pass", Package: pkg, Test: "TestAStopReachesTheLoop"},
			{Action: "run", Package: pkg, Test: "TestAParallelBatchTakesAsLongAsItsSlowestCall"},
		},
		printed(pkg, "TestAParallelBatchTakesAsLongAsItsSlowestCall", aRace...),
		[]testEvent{
			{Action: "fail", Package: pkg, Test: "TestAParallelBatchTakesAsLongAsItsSlowestCall"},
			{Action: "fail", Package: pkg},
		})...), []string{"mywork/05-parallel"})["mywork/05-parallel"]
	r := &report{lab: lab, dir: "/repo/mywork/05-parallel", rel: "mywork/05-parallel"}
	r.raced(run)
	switch {
	case !r.raceChecked || r.raceNotRun != nil:
		t.Fatalf("the race detector's run is not read as checked: %+v", r)
	case r.race == nil:
		t.Fatal("the race is not found")
	}
	wantWhy(t, r.race, msgRace, "a race")
	if r.race.test != "TestAParallelBatchTakesAsLongAsItsSlowestCall" {
		t.Errorf("the race is in the test %q, want the test that saw it", r.race.test)
	}
	if len(r.race.lines) != 4 || !strings.HasPrefix(r.race.lines[0], "  read at mywork/05-parallel/batch.go:206") {
		t.Errorf("the race's lines are %q, want its places", r.race.lines)
	}
	wantContains(t, r.race.more, "go test -race -run '^TestAParallelBatchTakesAsLongAsItsSlowestCall$' ./mywork/05-parallel", "the command that shows the whole race")

	r = &report{lab: lab, dir: "/repo/mywork/05-parallel", rel: "mywork/05-parallel"}
	r.raced(&pkgRun{buildOutput: []string{"# github.com/x/mywork/05-parallel", "go: -race requires cgo; enable cgo by setting CGO_ENABLED=1"}})
	if r.raceNotRun == nil || r.race != nil {
		t.Fatalf("a copy the race detector cannot build: the note %v and the race %v, want a note", r.raceNotRun, r.race)
	}
	wantContains(t, writeReport(passingWith(r), English), "· the race detector (go test -race): not run, since go test -race could not build your copy: go: -race requires cgo", "the report")
}

// passingWith marks every exercise of r passed, and the other tests too.
func passingWith(r *report) *report {
	r.checkedAll, r.exercises = true, nil
	for i := range r.lab.Exercises {
		r.exercises = append(r.exercises, exerciseResult{exercise: &r.lab.Exercises[i], broken: -1})
	}
	return r
}

// TestTheRaceDetectorNeedsCgo checks that check says so, in a line of its
// report, where the race detector cannot run: without cgo.
func TestTheRaceDetectorNeedsCgo(t *testing.T) {
	wb := openedWorkbook(t)
	t.Setenv("CGO_ENABLED", "0")
	why := wb.raceUnavailable(t.Context())
	if why == nil || why.text != msgRaceNoCgo {
		t.Fatalf("with CGO_ENABLED=0, the race detector is unavailable for %v, want %q", why, msgRaceNoCgo.EN)
	}
}

// TestARaceGetsHintsAboutRaces checks that hint, for a race that no typical
// mistake of the lab explains, gives the hints about races, and for the
// typical mistake that races, its own.
func TestARaceGetsHintsAboutRaces(t *testing.T) {
	lab := labOf(t, "05-parallel")
	wb := testWorkbook(t, false)
	if err := os.MkdirAll(wb.work, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		place string
		want  string
	}{
		{"  write at mywork/05-parallel/loop.go:171 in (*runState).loop", firstLine(raceHints[0].EN)},
		{"  read at mywork/05-parallel/batch.go:206 in (*runState).execute.func1: done = append(done, o)", ""},
		// Another race in the same goroutines is not that mistake.
		{"  write at mywork/05-parallel/batch.go:206 in (*runState).execute.func1: finished++", firstLine(raceHints[0].EN)},
	} {
		r := passingWith(&report{lab: lab, dir: "/repo/mywork/05-parallel", rel: "mywork/05-parallel"})
		r.raceChecked, r.race = true, &finding{test: "TestX", why: msgRace, lines: []string{tt.place}}
		want := tt.want
		if want == "" {
			m := lab.mistakeIn(raceKey, r.race)
			if m == nil || !m.Race {
				t.Fatalf("the race at %q is not seen as lab 05's typical mistake that races", tt.place)
			}
			want = firstLine(m.Hints[0].EN)
		}
		out := hintsOf(t, wb, lab, r, r, r)
		wantContains(t, out[0], "for the data race that go test -race found:\n  "+want+"\n", "hint for a race at %q", tt.place)
		wantContains(t, out[2], "The lab's own code for its exercises: labs/05-parallel/batch.go:", "the last hint of a race")
	}
}

// TestTheContentsKeepARaceThatCheckFound checks that the table of contents,
// which does not run the race detector, does not call a copy done whose
// race check found, while the copy is unchanged.
func TestTheContentsKeepARaceThatCheckFound(t *testing.T) {
	lab := labOf(t, "05-parallel")
	wb := testWorkbook(t, false)
	startLab(t, wb, "05")
	dir := wb.copyDir(lab.Name)
	racy := passingWith(&report{lab: lab, dir: dir, rel: wb.rel(dir)})
	racy.raceChecked, racy.race = true, &finding{test: "TestX", why: msgRace, lines: []string{"  write at x.go:1 in f"}}
	if err := wb.remember(lab, wb.digest(lab, dir), choose(lab, racy)); err != nil {
		t.Fatal(err)
	}
	r := passingWith(&report{lab: lab, dir: dir, rel: wb.rel(dir)})
	wb.keptRace(r)
	if r.passes() {
		t.Fatal("a copy whose race check found passes in the table of contents, want it to fail")
	}
	var out strings.Builder
	s := &session{wb: wb, out: newPrinter(&out, English, false)}
	s.contentsOf(r)
	wantContains(t, out.String(), "    ✗ "+raceRule.EN+"\n", "the table of contents")

	writeFile(t, filepath.Join(dir, "batch.go"), []byte("package main\n"), 0o644)
	r = passingWith(&report{lab: lab, dir: dir, rel: wb.rel(dir)})
	wb.keptRace(r)
	if !r.passes() {
		t.Error("a copy that changed since check found a race keeps the race, want it to pass until check runs again")
	}
}

// TestHintOnAPassingCopyNamesTheRaceDetector checks that hint, which does
// not run the race detector, does not call a copy of a lab that runs it
// done: check does that, once the race detector has run.
func TestHintOnAPassingCopyNamesTheRaceDetector(t *testing.T) {
	lab := labOf(t, "05-parallel")
	r := passingWith(&report{lab: lab, dir: "/repo/mywork/05-parallel", rel: "mywork/05-parallel"})
	out := hintsOf(t, testWorkbook(t, false), lab, r)[0]
	if want := "Every test of 05-parallel passes. go run ./labs check 05-parallel runs the race detector too, before it says Done.\n"; out != want {
		t.Errorf("hint on a passing copy, the race detector not run, says %q, want %q", out, want)
	}
	r.raceChecked = true
	out = hintsOf(t, testWorkbook(t, false), lab, r)[0]
	if want := "Every exercise of 05-parallel passes: no hint needed.\n"; out != want {
		t.Errorf("hint on a copy check called done says %q, want %q", out, want)
	}
}
