package track

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/google/go-cmp/cmp"
)

// wantWhy checks what check says of a finding, its sentence. The format
// and its args say what the finding is of, or why.
func wantWhy(t *testing.T, f *finding, want Text, format string, args ...any) {
	t.Helper()
	if f.why != want {
		t.Errorf("%s: check says %q, want %q", fmt.Sprintf(format, args...), f.why.EN, want.EN)
	}
}

// wantLines checks the lines that check shows of a finding. The format and
// its args say what the finding is of, or why these lines.
func wantLines(t *testing.T, f *finding, want []string, format string, args ...any) {
	t.Helper()
	if !slices.Equal(f.lines, want) {
		t.Errorf("%s: check shows the lines %q, want %q", fmt.Sprintf(format, args...), f.lines, want)
	}
}

// wantFound checks the Findings that check read from a test's output, with
// where the test reported each.
func wantFound(t *testing.T, f *finding, want []reported, why string) {
	t.Helper()
	if diff := cmp.Diff(want, f.found, cmp.AllowUnexported(reported{})); diff != "" {
		t.Errorf("the Findings read, %s, differ (-want +got):\n%s", why, diff)
	}
}

// findingLine is the line a test writes for a Finding when check asks for
// data, as go test -json shows it.
func findingLine(t *testing.T, at string, f expected.Finding) string {
	t.Helper()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return "    " + at + ": " + expected.FindingPrefix + string(data)
}

func TestFailureIsWhatTheTestReported(t *testing.T) {
	turns := expected.Finding{Message: "2 turns: one asks for calculate, one answers", Want: "2", Got: "51"}
	history := expected.Finding{Message: "step 2: the reply is appended to the history", Want: "2 messages", Got: "1 message",
		Diff: []string{"@@ -1,2 +1 @@", ` user "Hi!"`, `-assistant "Hello.", stop reason stop`}}
	out := []string{
		"=== RUN   TestCalculatorTakesTwoTurnsAndFourMessages",
		findingLine(t, "main_test.go:157", turns),
		"something the learner's code printed",
		findingLine(t, "main_test.go:80", history),
		"--- FAIL: TestCalculatorTakesTwoTurnsAndFourMessages (0.00s)",
	}
	f := failure(out, "/repo/_mywork/02-loop", "_mywork/02-loop")
	if f.why.EN != "" {
		t.Errorf("check says %q, want only what the test reported", f.why.EN)
	}
	if len(f.lines) != 0 {
		t.Errorf("check shows the lines %q, want none: what else the test printed is in go test's output, not in the report", f.lines)
	}
	wantFound(t, f, []reported{{at: "main_test.go:157", Finding: turns}, {at: "main_test.go:80", Finding: history}}, "both, in order")

	r := &report{lab: labOf(t, "02-loop"), rel: "_mywork/02-loop", checkedAll: true, other: f}
	f.test = "TestCalculatorTakesTwoTurnsAndFourMessages"
	wantContains(t, writeReport(r, English), `
      main_test.go:157: 2 turns: one asks for calculate, one answers
        want: 2
        got:  51
      main_test.go:80: step 2: the reply is appended to the history
        want: 2 messages
        got:  1 message
        got differs from want (-want +got):
        @@ -1,2 +1 @@
         user "Hi!"
        -assistant "Hello.", stop reason stop
`, "the report")
	wantContains(t, writeReport(r, Chinese), `
      main_test.go:157: 2 turns: one asks for calculate, one answers
        期望：2
        实际：51
`, "the labels in the learner's language; the test's own sentence stays English")

	// A test that reports no Finding, such as one the learner wrote: its
	// own lines, without go test's.
	plain := []string{"=== RUN   TestMine", "    mine_test.go:9: not what I wanted", "        second line", "--- FAIL: TestMine (0.00s)"}
	f = failure(plain, "/repo/_mywork/02-loop", "_mywork/02-loop")
	wantLines(t, f, []string{"  mine_test.go:9: not what I wanted", "      second line"}, "a test that reports no Finding")
	if len(f.found) != 0 {
		t.Errorf("check read the Findings %v from a test that reports none", f.found)
	}
}

func TestFailureOfAPanicIsItsValueAndItsLine(t *testing.T) {
	out := strings.Split(`=== RUN   TestAFailingToolStopsThisLoop
--- FAIL: TestAFailingToolStopsThisLoop (0.00s)
panic: runtime error: index out of range [5] with length 1 [recovered, repanicked]

goroutine 8 [running]:
testing.tRunner.func1.2({0x55b7e0, 0x6cccd0})
	/usr/local/go/src/testing/testing.go:1974 +0x232
panic({0x55b7e0?, 0x6cccd0?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
github.com/agent-loop-lab/agent-loop-lab/mywork/02-loop.runLoop(...)
	/repo/mywork/02-loop/loop.go:68 +0x28
github.com/agent-loop-lab/agent-loop-lab/mywork/02-loop.TestAFailingToolStopsThisLoop(0x77b8228c908?)
	/repo/mywork/02-loop/main_test.go:92 +0x28`, "\n")
	f := failure(out, "/repo/mywork/02-loop", "mywork/02-loop")
	wantWhy(t, f, msgPanic, "a panic")
	if want := []any{"runtime error: index out of range [5] with length 1"}; !slices.Equal(f.whyArgs, want) {
		t.Errorf("check names the panic's value as %q, want %q", f.whyArgs, want)
	}
	wantLines(t, f, []string{"  at mywork/02-loop/loop.go:68"}, "a panic: the learner's code, not the test")
}

func TestAPanicIsPlacedInTheLearnersCode(t *testing.T) {
	out := strings.Split(`=== RUN   TestAPanickingToolBecomesAnErrorResult
--- FAIL: TestAPanickingToolBecomesAnErrorResult (0.00s)
panic: boom [recovered, repanicked]

goroutine 8 [running]:
github.com/x/mywork/05-parallel.newTool.func1(...)
	/repo/mywork/05-parallel/tools.go:47 +0x28
github.com/x/mywork/05-parallel.(*runState).execute.func1()
	/repo/mywork/05-parallel/batch.go:201 +0x25
github.com/x/mywork/05-parallel.TestAPanickingToolBecomesAnErrorResult(0x77b8228c908?)
	/repo/mywork/05-parallel/loop_test.go:92 +0x28`, "\n")
	f := failure(out, "/repo/mywork/05-parallel", "mywork/05-parallel", "batch.go")
	wantLines(t, f, []string{"  at mywork/05-parallel/batch.go:201"}, "the tool panicked, and the learner's code let the panic through")
	f = failure(out, "/repo/mywork/05-parallel", "mywork/05-parallel")
	wantLines(t, f, []string{"  at mywork/05-parallel/tools.go:47"}, "without the learner's files, the first frame outside the tests")
}

func TestAPanicInAFolderWithSpacesIsPlaced(t *testing.T) {
	out := strings.Split(`--- FAIL: TestA (0.00s)
panic: boom [recovered, repanicked]

goroutine 8 [running]:
github.com/x/_mywork/02-loop.runLoop(...)
	/home/Jane Doe/agent loop lab/_mywork/02-loop/loop.go:48 +0x28`, "\n")
	f := failure(out, "/home/Jane Doe/agent loop lab/_mywork/02-loop", "_mywork/02-loop")
	wantLines(t, f, []string{"  at _mywork/02-loop/loop.go:48"}, "a panic in a folder with spaces")
	for line, want := range map[string]string{
		"\t/a b/c.go:12 +0x1d": "/a b/c.go:12",
		"\t/a b/c.go:12":       "/a b/c.go:12",
		"\t/a b/c.go:":         "",
		"/a b/c.go:12 +0x1d":   "",
		"\tcreated by x":       "",
	} {
		at, ok := frameAt(line)
		if at != want || ok != (want != "") {
			t.Errorf("frameAt(%q) = %q, %t, want %q, %t", line, at, ok, want, want != "")
		}
	}
}

func TestFailureOfADeadlockNamesItAndTheLine(t *testing.T) {
	out := strings.Split(`--- FAIL: TestDead (0.00s)
panic: deadlock: all goroutines in bubble are blocked [recovered, repanicked]

goroutine 8 [running]:
testing/synctest.Test(0x61720180908, 0x594180)
	/usr/local/go/src/testing/synctest/synctest.go:290 +0x90
github.com/x/mywork/06-steering.TestDead(0x61720180908?)
	/repo/mywork/06-steering/agent_test.go:11 +0x1a

goroutine 10 [chan receive (durable), synctest bubble 1]:
github.com/x/mywork/06-steering.(*Agent).poll(0x61720180b48?)
	/repo/mywork/06-steering/agent.go:120 +0x25`, "\n")
	f := failure(out, "/repo/mywork/06-steering", "mywork/06-steering")
	wantWhy(t, f, msgDeadlock, "a deadlock")
	wantLines(t, f, []string{"  at mywork/06-steering/agent.go:120"}, "a deadlock: no goroutine dump, only the place")
}

func TestFailureOfADeadlockKeepsWhatTheTestSaid(t *testing.T) {
	stuck := expected.Finding{Message: "the run is stuck: does a goroutine send on a channel that nobody reads?"}
	out := strings.Split(`=== RUN   TestStuck
`+findingLine(t, "main_test.go:40", stuck)+`
--- FAIL: TestStuck (0.00s)
panic: deadlock: all goroutines in bubble are blocked [recovered, repanicked]

goroutine 10 [chan send (durable), synctest bubble 1]:
github.com/x/mywork/05-parallel.(*runState).execute.func1()
	/repo/mywork/05-parallel/batch.go:205 +0x25`, "\n")
	f := failure(out, "/repo/mywork/05-parallel", "mywork/05-parallel")
	wantWhy(t, f, msgDeadlock, "a deadlock")
	wantLines(t, f, []string{"  at mywork/05-parallel/batch.go:205"}, "a deadlock")
	wantFound(t, f, []reported{{at: "main_test.go:40", Finding: stuck}}, "what the test said before the deadlock")
}

// events writes go test -json lines.
func events(t *testing.T, evs ...testEvent) []byte {
	t.Helper()
	var b strings.Builder
	for _, ev := range evs {
		data, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// printed returns the events of lines that the test printed, each ending
// with a newline.
func printed(pkg, test string, lines ...string) []testEvent {
	evs := make([]testEvent, len(lines))
	for i, l := range lines {
		evs[i] = testEvent{Action: "output", Package: pkg, Test: test, Output: l + "\n"}
	}
	return evs
}

func TestParseEventsOfATimeout(t *testing.T) {
	const pkg = "github.com/x/mywork/02-loop"
	out := events(t, slices.Concat(
		[]testEvent{
			{Action: "run", Package: pkg, Test: "TestA"},
			{Action: "pass", Package: pkg, Test: "TestA"},
			{Action: "run", Package: pkg, Test: "TestHang"},
		},
		printed(pkg, "TestHang",
			"=== RUN   TestHang",
			"panic: test timed out after 10s",
			"\trunning tests:",
			"\t\tTestHang (10s)",
			"",
			"goroutine 28 [runnable, synctest bubble 1]:",
			"github.com/x/mywork/02-loop.runLoop(...)",
			"\t/repo/mywork/02-loop/loop.go:55 +0x7a6"),
		[]testEvent{
			{Action: "output", Package: pkg, Output: "FAIL\tgithub.com/x/mywork/02-loop\t10.011s\n"},
			{Action: "fail", Package: pkg},
			{Action: "pass", Package: "github.com/x/other"},
		})...)
	runs := parseEvents(out, []string{"mywork/02-loop"})
	if len(runs) != 1 {
		t.Fatalf("parseEvents reports %d packages, want 1: other packages are not reported", len(runs))
	}
	run := runs["mywork/02-loop"]
	if !run.built {
		t.Error("the package is not built, want it built: its tests ran")
	}
	if !run.timedOut {
		t.Error("the package did not time out, want it timed out")
	}
	if want := []string{"TestHang"}; !slices.Equal(run.running, want) {
		t.Errorf("the tests running at the timeout are %q, want %q", run.running, want)
	}
	if got := run.tests["TestA"].status; got != passed {
		t.Errorf("TestA ended with status %d, want %d (passed)", got, passed)
	}
	if got := run.tests["TestHang"].status; got != unfinished {
		t.Errorf("TestHang ended with status %d, want %d (unfinished)", got, unfinished)
	}

	r := &report{lab: &Lab{Name: "02-loop"}, dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	f := r.findingOf(run, "TestHang")
	wantWhy(t, f, msgTimeout, "a timeout gets a sentence, not a dump")
	wantLines(t, f, []string{"  at mywork/02-loop/loop.go:55"}, "a timeout: the line of the copy where it was")
	wantWhy(t, r.findingOf(run, "TestLater"), msgNotRun, "a test after the timeout did not run")

	// The rules' order is not the order go test ran their tests in.
	r = &report{lab: &Lab{Name: "02-loop", Exercises: []Exercise{{Rules: []Rule{{Test: "TestA"}, {Test: "TestLater"}, {Test: "TestHang"}}}}}, dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	r.first(run)
	if len(r.exercises) != 1 {
		t.Fatalf("the report has %d exercises, want 1", len(r.exercises))
	}
	if got := r.exercises[0].broken; got != 2 {
		t.Errorf("the broken rule is at index %d, want 2: the rule whose test hung, not the earlier rule whose test it kept from running", got)
	}
	wantWhy(t, r.exercises[0].finding, msgTimeout, "the broken rule")
}

// TestATimeoutOnALockSaysSo checks the timeout of a test whose goroutine
// waits for a mutex that is never unlocked, which synctest cannot tell from
// a wait that will end: the sentence names the lock, and the line is the
// waiting goroutine's, not the first in the dump. The test hangs in a
// subtest, whose output holds the dump.
func TestATimeoutOnALockSaysSo(t *testing.T) {
	f := subtestFinding(t, "06-steering", "TestHang", "mode_all",
		"panic: test timed out after 10s",
		"goroutine 7 [chan receive, synctest bubble 1]:",
		"github.com/x/mywork/06-steering.(*runState).loop(...)",
		"\t/repo/mywork/06-steering/loop.go:90 +0x7a6",
		"goroutine 8 [sync.Mutex.Lock, synctest bubble 1]:",
		"sync.(*Mutex).Lock(...)",
		"\t/usr/local/go/src/sync/mutex.go:46 +0x1d",
		"github.com/x/mywork/06-steering.(*queue).waiting(...)",
		"\t/repo/mywork/06-steering/queue.go:66 +0x7a6")
	wantWhy(t, f, msgTimeoutLock, "a timeout on a lock")
	if want := "TestHang/mode_all"; f.test != want {
		t.Errorf("the finding is of %s, want the subtest that hung, %s", f.test, want)
	}
	wantLines(t, f, []string{"  at mywork/06-steering/queue.go:66"}, "where the goroutine waits for the lock, not the first line of the copy in the dump")
}

// TestAPanicInASubtestIsAPanic checks a goroutine that panics while a
// subtest runs: go test puts the panic in the subtest's output, and the
// test, which never ended, is reported with the panic, not as an exit.
func TestAPanicInASubtestIsAPanic(t *testing.T) {
	f := subtestFinding(t, "05-parallel", "TestResults", "part_1",
		"panic: send on closed channel",
		"goroutine 9 [running]:",
		"github.com/x/mywork/05-parallel.(*runState).execute.func1()",
		"\t/repo/mywork/05-parallel/batch.go:206 +0x4f4")
	wantWhy(t, f, msgPanic, "a panic in a subtest")
	if want := "TestResults/part_1"; f.test != want {
		t.Errorf("the finding is of %s, want the subtest, %s", f.test, want)
	}
	if want := "  at mywork/05-parallel/batch.go:206"; !slices.Contains(f.lines, want) {
		t.Errorf("check shows the lines %q, want them to hold %q", f.lines, want)
	}
}

// subtestFinding returns what check finds for test of a copy of lab when
// go test reports that the test's subtest sub printed lines and never
// ended, and the package failed.
func subtestFinding(t *testing.T, lab, test, sub string, lines ...string) *finding {
	t.Helper()
	pkg, rel := "github.com/x/mywork/"+lab, "mywork/"+lab
	out := events(t, slices.Concat(
		[]testEvent{
			{Action: "run", Package: pkg, Test: test},
			{Action: "run", Package: pkg, Test: test + "/" + sub},
		},
		printed(pkg, test+"/"+sub, lines...),
		[]testEvent{
			{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + "\t10.011s\n"},
			{Action: "fail", Package: pkg},
		})...)
	run := parseEvents(out, []string{rel})[rel]
	if run == nil {
		t.Fatalf("parseEvents reports nothing of %s", rel)
	}
	r := &report{lab: &Lab{Name: lab}, dir: "/repo/" + rel, rel: rel}
	return r.findingOf(run, test)
}

func TestParseEventsOfABuildFailure(t *testing.T) {
	const pkg = "github.com/x/mywork/02-loop"
	out := events(t,
		testEvent{Action: "build-output", ImportPath: pkg + " [" + pkg + ".test]", Output: "# " + pkg + "\n"},
		testEvent{Action: "build-output", ImportPath: pkg + " [" + pkg + ".test]", Output: "mywork/02-loop/loop.go:61:2: declared and not used: history\n"},
		testEvent{Action: "build-fail", ImportPath: pkg + " [" + pkg + ".test]"},
		testEvent{Action: "start", Package: pkg},
		testEvent{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + " [build failed]\n"},
		testEvent{Action: "fail", Package: pkg, FailedBuild: pkg + " [" + pkg + ".test]"},
	)
	run := parseEvents(out, []string{"mywork/02-loop"})["mywork/02-loop"]
	if run == nil {
		t.Fatal("parseEvents reports nothing of mywork/02-loop")
	}
	if run.built {
		t.Error("the package is built, want a build failure")
	}
	r := &report{lab: labOf(t, "02-loop"), rel: "mywork/02-loop"}
	r.first(run)
	if want := []string{"mywork/02-loop/loop.go:61:2: declared and not used: history"}; !slices.Equal(r.build, want) {
		t.Errorf("the build's messages are %q, want %q: the compiler's errors, with paths in mywork/", r.build, want)
	}
	if r.vet {
		t.Error("the report blames go vet, want the compiler")
	}
}

func TestFirstFailedLeafIsTheDeepestFirstFailure(t *testing.T) {
	run := newPkgRun()
	for _, tt := range []struct {
		name   string
		status testStatus
	}{{"TestA", failed}, {"TestA/one", passed}, {"TestA/two", failed}, {"TestA/two/x", failed}, {"TestA/three", failed}} {
		run.test(tt.name).status = tt.status
	}
	for test, want := range map[string]string{"TestA": "TestA/two/x", "TestA/three": "TestA/three"} {
		if got := firstFailedLeaf(run, test).name; got != want {
			t.Errorf("the first failed leaf of %s is %s, want %s", test, got, want)
		}
	}
}

func TestRuleFromName(t *testing.T) {
	for name, want := range map[string]string{
		"TestAFailingToolStopsThisLoop": "a failing tool stops this loop (TestAFailingToolStopsThisLoop)",
		"TestCommandLine/unknown_flag":  "command line: unknown flag (TestCommandLine/unknown_flag)",
		"TestJSONAsText":                "json as text (TestJSONAsText)",
	} {
		if got := ruleFromName(name); got != want {
			t.Errorf("ruleFromName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestAFloodOfOutputIsCapped checks that a learner's code that prints in a
// loop cannot fill the memory: past its limit, a package's output keeps
// only the lines that say what happened, and every other event.
// testLimit and testCrashWindow are the limits of the logs the flood tests
// fill: the log's own limits, smaller, so that a flood takes no time.
const (
	testLimit       = 64 << 10
	testCrashWindow = 8 << 10
)

func TestAFloodOfOutputIsCapped(t *testing.T) {
	const pkg = "github.com/x/mywork/01-no-loop"
	flood := events(t, testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "flood flood flood flood flood\n"})
	l := eventLog{limit: testLimit, crashWindow: testCrashWindow}
	write := func(b []byte) {
		// In pieces that cut lines, as a pipe may.
		for len(b) > 0 {
			n := min(len(b), 7)
			l.Write(b[:n])
			b = b[n:]
		}
	}
	write(events(t, testEvent{Action: "run", Package: pkg, Test: "TestA"}))
	l.Write(bytes.Repeat(flood, (testLimit+1<<20)/len(flood)+1))
	write(events(t,
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "flood after the limit\n"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "panic: test timed out after 10s\n"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "\t/repo/mywork/01-no-loop/main.go:60 +0x1\n"},
		testEvent{Action: "output", Package: "github.com/x/mywork/02-loop", Test: "TestB", Output: "another package's line\n"},
		testEvent{Action: "fail", Package: pkg},
	))
	if got, limit := l.buf.Len(), testLimit+1<<10; got >= limit {
		t.Errorf("the log holds %d bytes, want fewer than %d: the flood past the limit is dropped", got, limit)
	}
	run := parseEvents(l.buf.Bytes(), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	if run == nil {
		t.Fatal("parseEvents reports nothing of mywork/01-no-loop")
	}
	// The messages leave out the output, which holds megabytes.
	out := strings.Join(run.tests["TestA"].output, "\n")
	if strings.Contains(out, "flood after the limit") {
		t.Errorf("TestA's output holds %q, want the flood past the limit dropped", "flood after the limit")
	}
	for _, want := range []string{"panic: test timed out after 10s", "\t/repo/mywork/01-no-loop/main.go:60 +0x1"} {
		if !strings.Contains(out, want) {
			t.Errorf("TestA's output does not hold %q, want the lines that say what happened kept", want)
		}
	}
	if !strings.Contains(l.buf.String(), "another package's line") {
		t.Errorf("the log does not hold %q, want it kept: each package has its own limit", "another package's line")
	}
}

// TestAFloodThatLooksLikeGoTestsOwnOutputIsCappedToo checks that lines
// that look like go test's, which a learner's code may print in a loop
// that never ends, "\tdebug" for instance, cannot grow the log past its
// limit: only a few crashes' worth of output is kept past it.
func TestAFloodThatLooksLikeGoTestsOwnOutputIsCappedToo(t *testing.T) {
	const pkg = "github.com/x/_mywork/02-loop"
	l := eventLog{limit: testLimit, crashWindow: testCrashWindow}
	// flood writes n bytes of lines that print out, in one go.
	flood := func(out string, n int) {
		line := events(t, testEvent{Action: "output", Package: pkg, Test: "TestA", Output: out})
		l.Write(bytes.Repeat(line, n/len(line)+1))
	}
	flood("plain\n", testLimit)
	for _, out := range []string{"\tdebug\n", "--- FAIL: fake\n", "goroutine 1 [running]:\n"} {
		flood(out, 2<<20)
	}
	if got, limit := l.buf.Len(), testLimit+1<<10; got >= limit {
		t.Errorf("the log holds %d bytes, want fewer than %d: lines that look like go test's are dropped past the limit", got, limit)
	}
	flood("panic: fake\n", 2*maxCrashes*testCrashWindow)
	if got, limit := l.buf.Len(), testLimit+maxCrashes*testCrashWindow+1<<10; got >= limit {
		t.Errorf("the log holds %d bytes, want fewer than %d: at most %d crashes' output past the limit", got, limit, maxCrashes)
	}
	l.Write(events(t, testEvent{Action: "fail", Package: pkg, Test: "TestA"}))
	if !strings.Contains(l.buf.String(), `"Action":"fail"`) {
		t.Errorf("the log holds no %q, want it kept: events that are not output are always kept", `"Action":"fail"`)
	}
}

// TestAnExitIsNotAMissingTest checks what check says when the learner's
// code calls os.Exit: as the package starts, go test says ok and no test
// ran; in a test, the test never ends and the tests after it never run.
// Neither is a test missing from the copy.
func TestAnExitIsNotAMissingTest(t *testing.T) {
	const pkg = "github.com/x/mywork/01-no-loop"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main_test.go"), []byte("package main\n\nfunc TestA(t *testing.T) {}\n"), 0o644)
	lab := &Lab{Name: "01-no-loop", Exercises: []Exercise{{Rules: []Rule{{Test: "TestA"}, {Test: "TestB"}}}}}

	atStart := parseEvents(events(t,
		testEvent{Action: "start", Package: pkg},
		testEvent{Action: "output", Package: pkg, Output: "ok  \t" + pkg + "\t0.005s\n"},
		testEvent{Action: "pass", Package: pkg},
	), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	r := &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(atStart)
	if !r.exited {
		t.Error("an exit as the package starts is not reported as an exit")
	}
	if !r.cannotRun() {
		t.Error("after an exit as the package starts, the report says the tests can run")
	}
	wantContains(t, writeReport(r, English), "Your code in mywork/01-no-loop ends the test program as the package starts, before any test runs: does an init function call os.Exit or log.Fatal?", "the report")

	// No test ran because the copy has none of them: they are missing.
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "cli_test.go"), []byte("package main\n\nfunc TestCommandLine(t *testing.T) {}\n"), 0o644)
	r = &report{lab: lab, dir: other, rel: "mywork/01-no-loop"}
	r.first(atStart)
	if r.exited {
		t.Error("a copy without the rules' tests is reported as an exit, want missing tests: the rules' tests are not in the copy")
	}
	if len(r.exercises) != 1 {
		t.Fatalf("the report has %d exercises, want 1", len(r.exercises))
	}
	wantWhy(t, r.exercises[0].finding, msgMissingTest, "a copy without the rules' tests")
	wantContains(t, writeReport(r, English), "Next: restore the lab's test files", "the report")

	inTest := parseEvents(events(t,
		testEvent{Action: "start", Package: pkg},
		testEvent{Action: "run", Package: pkg, Test: "TestA"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "=== RUN   TestA\n"},
		testEvent{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + "\t0.006s\n"},
		testEvent{Action: "fail", Package: pkg},
	), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	r = &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(inTest)
	if len(r.exercises) != 1 {
		t.Fatalf("the report has %d exercises, want 1", len(r.exercises))
	}
	if got := r.exercises[0].broken; got != 0 {
		t.Errorf("the broken rule is at index %d, want 0, TestA's", got)
	}
	wantWhy(t, r.exercises[0].finding, msgExitedInTest, "an exit in a test")
	wantWhy(t, r.findingOf(inTest, "TestB"), msgNotRun, "the test after the exit did not run; it is not missing")
}

// TestAFailedProgramWhoseTestsPassedDoesNotPass: code that prints go test's
// own lines, "--- PASS" for every test, and then exits with status 1 makes
// go test -json report each test passed, and the package failed, as plain
// go test says FAIL. check must believe the package: the copy does not pass,
// in the first phase or in the second, and the report says why.
func TestAFailedProgramWhoseTestsPassedDoesNotPass(t *testing.T) {
	const pkg = "github.com/x/mywork/01-no-loop"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main_test.go"), []byte("package main\n\nfunc TestA(t *testing.T) {}\n"), 0o644)
	lab := &Lab{Name: "01-no-loop", Exercises: []Exercise{{Rules: []Rule{{Test: "TestA"}}}}}
	faked := func(tests ...string) *pkgRun {
		evs := []testEvent{{Action: "start", Package: pkg}}
		for _, test := range tests {
			evs = append(evs,
				testEvent{Action: "run", Package: pkg, Test: test},
				testEvent{Action: "output", Package: pkg, Test: test, Output: "=== RUN   " + test + "\n"},
				testEvent{Action: "output", Package: pkg, Test: test, Output: "--- PASS: " + test + " (0.00s)\n"},
				testEvent{Action: "pass", Package: pkg, Test: test})
		}
		evs = append(evs,
			testEvent{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + "\t0.005s\n"},
			testEvent{Action: "fail", Package: pkg})
		return parseEvents(events(t, evs...), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	}

	r := &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(faked("TestA"))
	if r.exercisesPass() {
		t.Error("every rule's test passed, and the package failed: the report says the exercises pass")
	}
	text := writeReport(r, English)
	wantContains(t, text, "Your code in mywork/01-no-loop ends the test program with a failure, although none of its tests failed: does it call os.Exit(1) or log.Fatal, or print lines such as \"--- PASS\" that go test reads as its own?", "the report")
	wantNotContains(t, text, "Done", "the report")

	r = &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(faked("TestA"))
	r.exercises = []exerciseResult{{exercise: &lab.Exercises[0], broken: -1}} // as if the first phase had been fooled
	r.rest(faked("TestA", "TestOther"))
	if r.passes() {
		t.Error("the second phase's package failed, although its tests passed: the report says the lab passes")
	}
}
