package track

import (
	"bytes"
	"encoding/json"
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// findingLine is the line a test writes for a Finding when check asks for
// data, as go test -json shows it.
func findingLine(t *testing.T, at string, f expected.Finding) string {
	t.Helper()
	data, err := json.Marshal(f)
	require.NoError(t, err)
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
	assert.Empty(t, f.why.EN)
	assert.Empty(t, f.lines, "what else the test printed is in go test's output, not in the report")
	assert.Equal(t, []reported{{at: "main_test.go:157", Finding: turns}, {at: "main_test.go:80", Finding: history}}, f.found)

	r := &report{lab: labOf(t, "02-loop"), rel: "_mywork/02-loop", checkedAll: true, other: f}
	f.test = "TestCalculatorTakesTwoTurnsAndFourMessages"
	assert.Contains(t, writeReport(r, English), `
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
`)
	assert.Contains(t, writeReport(r, Chinese), `
      main_test.go:157: 2 turns: one asks for calculate, one answers
        期望：2
        实际：51
`, "the labels in the learner's language; the test's own sentence stays English")

	// A test that reports no Finding, such as one the learner wrote: its
	// own lines, without go test's.
	plain := []string{"=== RUN   TestMine", "    mine_test.go:9: not what I wanted", "        second line", "--- FAIL: TestMine (0.00s)"}
	f = failure(plain, "/repo/_mywork/02-loop", "_mywork/02-loop")
	assert.Equal(t, []string{"  mine_test.go:9: not what I wanted", "      second line"}, f.lines)
	assert.Empty(t, f.found)
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
	assert.Equal(t, msgPanic, f.why)
	assert.Equal(t, []any{"runtime error: index out of range [5] with length 1"}, f.whyArgs)
	assert.Equal(t, []string{"  at mywork/02-loop/loop.go:68"}, f.lines, "the learner's code, not the test")
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
	assert.Equal(t, []string{"  at mywork/05-parallel/batch.go:201"}, f.lines, "the tool panicked, and the learner's code let the panic through")
	f = failure(out, "/repo/mywork/05-parallel", "mywork/05-parallel")
	assert.Equal(t, []string{"  at mywork/05-parallel/tools.go:47"}, f.lines, "without the learner's files, the first frame outside the tests")
}

func TestAPanicInAFolderWithSpacesIsPlaced(t *testing.T) {
	out := strings.Split(`--- FAIL: TestA (0.00s)
panic: boom [recovered, repanicked]

goroutine 8 [running]:
github.com/x/_mywork/02-loop.runLoop(...)
	/home/Jane Doe/agent loop lab/_mywork/02-loop/loop.go:48 +0x28`, "\n")
	f := failure(out, "/home/Jane Doe/agent loop lab/_mywork/02-loop", "_mywork/02-loop")
	assert.Equal(t, []string{"  at _mywork/02-loop/loop.go:48"}, f.lines)
	for line, want := range map[string]string{
		"\t/a b/c.go:12 +0x1d": "/a b/c.go:12",
		"\t/a b/c.go:12":       "/a b/c.go:12",
		"\t/a b/c.go:":         "",
		"/a b/c.go:12 +0x1d":   "",
		"\tcreated by x":       "",
	} {
		at, ok := frameAt(line)
		assert.Equal(t, want, at, "%q", line)
		assert.Equal(t, want != "", ok, "%q", line)
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
	assert.Equal(t, msgDeadlock, f.why)
	assert.Equal(t, []string{"  at mywork/06-steering/agent.go:120"}, f.lines, "no goroutine dump, only the place")
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
	assert.Equal(t, msgDeadlock, f.why)
	assert.Equal(t, []string{"  at mywork/05-parallel/batch.go:205"}, f.lines)
	assert.Equal(t, []reported{{at: "main_test.go:40", Finding: stuck}}, f.found, "what the test said before the deadlock")
}

// events writes go test -json lines.
func events(t *testing.T, evs ...testEvent) []byte {
	var b strings.Builder
	for _, ev := range evs {
		data, err := json.Marshal(ev)
		require.NoError(t, err)
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
	require.Len(t, runs, 1, "other packages are not reported")
	run := runs["mywork/02-loop"]
	assert.True(t, run.built)
	assert.True(t, run.timedOut)
	assert.Equal(t, []string{"TestHang"}, run.running)
	assert.Equal(t, passed, run.tests["TestA"].status)
	assert.Equal(t, unfinished, run.tests["TestHang"].status)

	r := &report{lab: &Lab{Name: "02-loop"}, dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	f := r.findingOf(run, "TestHang")
	assert.Equal(t, msgTimeout, f.why, "a timeout gets a sentence, not a dump")
	assert.Equal(t, []string{"  at mywork/02-loop/loop.go:55"}, f.lines, "and the line of the copy where it was")
	assert.Equal(t, msgNotRun, r.findingOf(run, "TestLater").why, "a test after the timeout did not run")

	// The rules' order is not the order go test ran their tests in.
	r = &report{lab: &Lab{Name: "02-loop", Exercises: []Exercise{{Rules: []Rule{{Test: "TestA"}, {Test: "TestLater"}, {Test: "TestHang"}}}}}, dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	r.first(run)
	require.Len(t, r.exercises, 1)
	assert.Equal(t, 2, r.exercises[0].broken, "the rule whose test hung, not the earlier rule whose test it kept from running")
	assert.Equal(t, msgTimeout, r.exercises[0].finding.why)
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
	assert.Equal(t, msgTimeoutLock, f.why)
	assert.Equal(t, "TestHang/mode_all", f.test, "the subtest that hung")
	assert.Equal(t, []string{"  at mywork/06-steering/queue.go:66"}, f.lines, "where the goroutine waits for the lock, not the first line of the copy in the dump")
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
	assert.Equal(t, msgPanic, f.why)
	assert.Equal(t, "TestResults/part_1", f.test)
	assert.Contains(t, f.lines, "  at mywork/05-parallel/batch.go:206")
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
	require.NotNil(t, run)
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
	require.NotNil(t, run)
	assert.False(t, run.built)
	r := &report{lab: labOf(t, "02-loop"), rel: "mywork/02-loop"}
	r.first(run)
	assert.Equal(t, []string{"mywork/02-loop/loop.go:61:2: declared and not used: history"}, r.build, "the compiler's errors, with paths in mywork/")
	assert.False(t, r.vet)
}

func TestFirstFailedLeafIsTheDeepestFirstFailure(t *testing.T) {
	run := newPkgRun()
	for _, tt := range []struct {
		name   string
		status testStatus
	}{{"TestA", failed}, {"TestA/one", passed}, {"TestA/two", failed}, {"TestA/two/x", failed}, {"TestA/three", failed}} {
		run.test(tt.name).status = tt.status
	}
	assert.Equal(t, "TestA/two/x", firstFailedLeaf(run, "TestA").name)
	assert.Equal(t, "TestA/three", firstFailedLeaf(run, "TestA/three").name)
}

func TestRuleFromName(t *testing.T) {
	assert.Equal(t, "a failing tool stops this loop (TestAFailingToolStopsThisLoop)", ruleFromName("TestAFailingToolStopsThisLoop"))
	assert.Equal(t, "command line: unknown flag (TestCommandLine/unknown_flag)", ruleFromName("TestCommandLine/unknown_flag"))
	assert.Equal(t, "json as text (TestJSONAsText)", ruleFromName("TestJSONAsText"))
}

// TestAFloodOfOutputIsCapped checks that a learner's code that prints in a
// loop cannot fill the memory: past its limit, a package's output keeps
// only the lines that say what happened, and every other event.
func TestAFloodOfOutputIsCapped(t *testing.T) {
	const pkg = "github.com/x/mywork/01-no-loop"
	flood := events(t, testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "flood flood flood flood flood\n"})
	var l eventLog
	write := func(b []byte) {
		// In pieces that cut lines, as a pipe may.
		for len(b) > 0 {
			n := min(len(b), 7)
			l.Write(b[:n])
			b = b[n:]
		}
	}
	write(events(t, testEvent{Action: "run", Package: pkg, Test: "TestA"}))
	l.Write(bytes.Repeat(flood, (maxOutput+1<<20)/len(flood)+1))
	write(events(t,
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "flood after the limit\n"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "panic: test timed out after 10s\n"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "\t/repo/mywork/01-no-loop/main.go:60 +0x1\n"},
		testEvent{Action: "output", Package: "github.com/x/mywork/02-loop", Test: "TestB", Output: "another package's line\n"},
		testEvent{Action: "fail", Package: pkg},
	))
	assert.Less(t, l.buf.Len(), maxOutput+1<<10, "the flood past the limit is dropped")
	run := parseEvents(l.buf.Bytes(), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	require.NotNil(t, run)
	out := strings.Join(run.tests["TestA"].output, "\n")
	assert.NotContains(t, out, "flood after the limit")
	assert.Contains(t, out, "panic: test timed out after 10s")
	assert.Contains(t, out, "\t/repo/mywork/01-no-loop/main.go:60 +0x1")
	assert.Contains(t, l.buf.String(), "another package's line", "each package has its own limit")
}

// TestAFloodThatLooksLikeGoTestsOwnOutputIsCappedToo checks that lines
// that look like go test's, which a learner's code may print in a loop
// that never ends, "\tdebug" for instance, cannot grow the log past its
// limit: only a few crashes' worth of output is kept past it.
func TestAFloodThatLooksLikeGoTestsOwnOutputIsCappedToo(t *testing.T) {
	const pkg = "github.com/x/_mywork/02-loop"
	var l eventLog
	// flood writes n bytes of lines that print out, in one go.
	flood := func(out string, n int) {
		line := events(t, testEvent{Action: "output", Package: pkg, Test: "TestA", Output: out})
		l.Write(bytes.Repeat(line, n/len(line)+1))
	}
	flood("plain\n", maxOutput)
	for _, out := range []string{"\tdebug\n", "--- FAIL: fake\n", "goroutine 1 [running]:\n"} {
		flood(out, 2<<20)
	}
	assert.Less(t, l.buf.Len(), maxOutput+1<<10, "lines that look like go test's are dropped past the limit")
	flood("panic: fake\n", 2*maxCrashes*maxCrashOutput)
	assert.Less(t, l.buf.Len(), maxOutput+maxCrashes*maxCrashOutput+1<<10, "at most %d crashes' output past the limit", maxCrashes)
	l.Write(events(t, testEvent{Action: "fail", Package: pkg, Test: "TestA"}))
	assert.Contains(t, l.buf.String(), `"Action":"fail"`, "events that are not output are always kept")
}

// TestAnExitIsNotAMissingTest checks what check says when the learner's
// code calls os.Exit: as the package starts, go test says ok and no test
// ran; in a test, the test never ends and the tests after it never run.
// Neither is a test missing from the copy.
func TestAnExitIsNotAMissingTest(t *testing.T) {
	const pkg = "github.com/x/mywork/01-no-loop"
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main_test.go"), []byte("package main\n\nfunc TestA(t *testing.T) {}\n"), 0o644))
	lab := &Lab{Name: "01-no-loop", Exercises: []Exercise{{Rules: []Rule{{Test: "TestA"}, {Test: "TestB"}}}}}

	atStart := parseEvents(events(t,
		testEvent{Action: "start", Package: pkg},
		testEvent{Action: "output", Package: pkg, Output: "ok  \t" + pkg + "\t0.005s\n"},
		testEvent{Action: "pass", Package: pkg},
	), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	r := &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(atStart)
	assert.True(t, r.exited)
	assert.True(t, r.cannotRun())
	assert.Contains(t, writeReport(r, English), "Your code in mywork/01-no-loop ends the test program as the package starts, before any test runs: does an init function call os.Exit or log.Fatal?")

	// No test ran because the copy has none of them: they are missing.
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "cli_test.go"), []byte("package main\n\nfunc TestCommandLine(t *testing.T) {}\n"), 0o644))
	r = &report{lab: lab, dir: other, rel: "mywork/01-no-loop"}
	r.first(atStart)
	assert.False(t, r.exited, "the rules' tests are not in the copy")
	require.Len(t, r.exercises, 1)
	assert.Equal(t, msgMissingTest, r.exercises[0].finding.why)
	assert.Contains(t, writeReport(r, English), "Next: restore the lab's test files")

	inTest := parseEvents(events(t,
		testEvent{Action: "start", Package: pkg},
		testEvent{Action: "run", Package: pkg, Test: "TestA"},
		testEvent{Action: "output", Package: pkg, Test: "TestA", Output: "=== RUN   TestA\n"},
		testEvent{Action: "output", Package: pkg, Output: "FAIL\t" + pkg + "\t0.006s\n"},
		testEvent{Action: "fail", Package: pkg},
	), []string{"mywork/01-no-loop"})["mywork/01-no-loop"]
	r = &report{lab: lab, dir: dir, rel: "mywork/01-no-loop"}
	r.first(inTest)
	require.Len(t, r.exercises, 1)
	assert.Equal(t, 0, r.exercises[0].broken)
	assert.Equal(t, msgExitedInTest, r.exercises[0].finding.why)
	assert.Equal(t, msgNotRun, r.findingOf(inTest, "TestB").why, "the test after the exit did not run; it is not missing")
}
