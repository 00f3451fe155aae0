package track

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeReport prints a report as check does, without colour.
func writeReport(r *report, lang Lang) string {
	var out bytes.Buffer
	r.write(newPrinter(&out, lang, false), "")
	return out.String()
}

// needShell skips the test where there is no POSIX shell to run the
// commands check prints.
func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no POSIX shell to run the command")
	}
}

// shellWords splits a command line as a POSIX shell does, with sh itself.
func shellWords(t *testing.T, command string) []string {
	t.Helper()
	needShell(t)
	out, err := exec.Command("sh", "-c", `printf '%s\n' `+command).Output()
	require.NoError(t, err, "sh runs %s", command)
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestCheckRunsTheTestsEachTime checks that check never shows a cached
// result: a racy mistake that passed once must be tested again. hint and
// the table of contents may take go test's cached result.
func TestCheckRunsTheTestsEachTime(t *testing.T) {
	expected.Verification(t)
	// GOFLAGS=-count=1, as some run go test ./..., would turn the cache
	// off for every go test, hint's too.
	t.Setenv("GOFLAGS", "")
	wb := testWorkbook(t, true)
	dir := wb.copyDir("00-cache")
	require.NoError(t, writeFiles(dir, files{
		"x_test.go": []byte("package cache\n\nimport \"testing\"\n\nfunc TestPasses(t *testing.T) {}\n"),
	}))
	pkg := wb.rel(dir)
	cached := func(fresh bool) bool {
		runs, err := wb.runTests(t.Context(), []string{pkg}, countFlag(fresh)...)
		require.NoError(t, err)
		require.NotNil(t, runs[pkg])
		assert.Equal(t, passed, runs[pkg].tests["TestPasses"].status)
		return strings.Contains(strings.Join(runs[pkg].output, "\n"), "(cached)")
	}
	assert.False(t, cached(false), "the first run runs the tests")
	assert.True(t, cached(false), "a second run of hint takes the cached result")
	assert.False(t, cached(true), "check runs the tests again")
}

// TestTheCommandForTheRestIsOneShellWord checks that the command a long
// failure ends with gives go test the pattern of its test, even when the
// test's name holds a quote.
func TestTheCommandForTheRestIsOneShellWord(t *testing.T) {
	const pkg = "github.com/x/mywork/05-parallel"
	const sub = "TestResultsComeInTheModelsOrder/part_1's_lookups"
	evs := []testEvent{
		{Action: "run", Package: pkg, Test: "TestResultsComeInTheModelsOrder"},
		{Action: "run", Package: pkg, Test: sub},
	}
	for i := range 30 {
		evs = append(evs, testEvent{Action: "output", Package: pkg, Test: sub, Output: fmt.Sprintf("    loop_test.go:%d: line %d\n", i+1, i+1)})
	}
	evs = append(evs,
		testEvent{Action: "fail", Package: pkg, Test: sub},
		testEvent{Action: "fail", Package: pkg, Test: "TestResultsComeInTheModelsOrder"},
	)
	run := parseEvents(events(t, evs...), []string{"mywork/05-parallel"})["mywork/05-parallel"]
	r := &report{lab: labOf(t, "05-parallel"), dir: "/repo/mywork/05-parallel", rel: "mywork/05-parallel"}
	f := r.findingOf(run, "TestResultsComeInTheModelsOrder")
	require.NotNil(t, f)
	r.other, r.checkedAll = f, true

	text := writeReport(r, English)
	_, command, ok := strings.Cut(text, "… 16 more lines: ")
	require.True(t, ok, "the note for the lines left out:\n%s", text)
	command, _, _ = strings.Cut(command, "\n")
	assert.Equal(t, []string{"go", "test", "-run", "^TestResultsComeInTheModelsOrder$/^part_1's_lookups$", "./mywork/05-parallel"}, shellWords(t, command), command)
}

// TestAPanicBeforeAnyTestIsAPanic checks that a panic as the package
// starts, in a package variable's initializer, is reported as a panic with
// its value and its line, and not as tests missing from the copy.
func TestAPanicBeforeAnyTestIsAPanic(t *testing.T) {
	const pkg = "github.com/x/mywork/02-loop"
	var evs []testEvent
	evs = append(evs, testEvent{Action: "start", Package: pkg})
	for _, l := range []string{
		"panic: mustPositive: -1 is negative",
		"",
		"goroutine 1 [running]:",
		"github.com/x/mywork/02-loop.mustPositive(...)",
		"\t/repo/mywork/02-loop/loop.go:91",
		"github.com/x/mywork/02-loop.init()",
		"\t/repo/mywork/02-loop/loop.go:96 +0x94",
		"FAIL\tgithub.com/x/mywork/02-loop\t0.008s",
	} {
		evs = append(evs, testEvent{Action: "output", Package: pkg, Output: l + "\n"})
	}
	evs = append(evs, testEvent{Action: "fail", Package: pkg})
	run := parseEvents(events(t, evs...), []string{"mywork/02-loop"})["mywork/02-loop"]
	require.NotNil(t, run)

	r := &report{lab: labOf(t, "02-loop"), dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	r.first(run)
	assert.False(t, r.exercisesPass())
	assert.False(t, r.passes())
	text := writeReport(r, English)
	assert.Contains(t, text, "Your code in mywork/02-loop panics as the package starts, before any test runs:\n  panic: mustPositive: -1 is negative\n  at mywork/02-loop/loop.go:91\n")
	assert.NotContains(t, text, "is not in your copy")
	assert.NotContains(t, text, "goroutine")
	assert.Contains(t, writeReport(r, Chinese), "你在 mywork/02-loop 里的代码在包初始化时就发生了 panic")
}

// TestALongFailureHidesMoreThanTwoLines checks that check never hides one
// or two lines behind a note of one line, and says "1 more line" in the
// singular.
func TestALongFailureHidesMoreThanTwoLines(t *testing.T) {
	numbered := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("line %d", i+1))
		}
		return out
	}
	for _, n := range []int{failureLines, failureLines + 1, failureLines + 2} {
		kept, hidden := shorten(numbered(n), failureLines)
		assert.Equal(t, numbered(n), kept, "%d lines", n)
		assert.Zero(t, hidden, "%d lines", n)
	}
	kept, hidden := shorten(numbered(failureLines+3), failureLines)
	assert.Equal(t, numbered(failureLines), kept)
	assert.Equal(t, 3, hidden)

	r := &report{lab: labOf(t, "02-loop"), rel: "mywork/02-loop", checkedAll: true,
		other: &finding{test: "TestX", lines: numbered(failureLines + 1)}}
	text := writeReport(r, English)
	assert.Contains(t, text, fmt.Sprintf("    line %d\n", failureLines+1), "the last line is shown")
	assert.NotContains(t, text, "more line")

	for _, tt := range []struct {
		lang   Lang
		hidden int
		want   string
	}{
		{English, 1, "… 1 more line: go test"},
		{English, 3, "… 3 more lines: go test"},
		{Chinese, 1, "…… 还有 1 行：go test"},
		{Chinese, 3, "…… 还有 3 行：go test"},
	} {
		assert.Equal(t, tt.want, newPrinter(nil, tt.lang, false).moreLines(tt.hidden, "go test"))
	}
}

// markerLine is a region's begin marker: "// exercise: ID".
var markerLine = regexp.MustCompile(`^\s*// exercise: (\S+)$`)

// TestTheNextLineNamesMarkersThatAreInTheFile checks, for every exercise
// of every lab, that the "Next:" line names the exercise by the number
// check lists it with, and names markers that are in the files it names.
func TestTheNextLineNamesMarkersThatAreInTheFile(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, name := range wb.labs {
		lab := labOf(t, name)
		if lab == nil {
			continue
		}
		rel := "mywork/" + name
		for i := range lab.Exercises {
			r := &report{lab: lab, rel: rel}
			for j := range lab.Exercises {
				broken := -1
				if j == i {
					broken = 0
				}
				r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[j], broken: broken, finding: &finding{why: msgNoMessage}})
			}
			var next string
			for _, l := range strings.Split(writeReport(r, English), "\n") {
				if strings.HasPrefix(l, "Next: ") {
					next = l
				}
			}
			prefix := fmt.Sprintf("Next: write exercise %d at the ", i+1)
			if !assert.True(t, strings.HasPrefix(next, prefix), "%s, exercise %d: %q", name, i+1, next) {
				continue
			}
			markers, files, _ := strings.Cut(strings.TrimPrefix(next, prefix), " markers in ")
			files, _, _ = strings.Cut(files, " (README.md")
			found := map[string]bool{}
			for _, f := range strings.Split(files, ", ") {
				src, err := os.ReadFile(filepath.Join(wb.labDir(name), strings.TrimPrefix(f, rel+"/")))
				require.NoError(t, err, "%s, exercise %d: %s", name, i+1, f)
				for _, l := range strings.Split(string(src), "\n") {
					if m := markerLine.FindStringSubmatch(l); m != nil {
						found[m[1]] = true
					}
				}
			}
			for _, m := range strings.Split(strings.ReplaceAll(markers, " and ", ", "), ", ") {
				assert.True(t, found[m], "%s, exercise %d: %q names the marker %s, which %s does not have", name, i+1, next, m, files)
			}
		}
	}

	// The first exercise of the first lab, in both languages, with its
	// markers and without them.
	lab := labOf(t, wb.labs[0])
	ex := &lab.Exercises[0]
	var ids []string
	for _, reg := range ex.Regions {
		ids = append(ids, reg.ID)
	}
	file := ex.Regions[0].File
	en, zh := newPrinter(nil, English, false).list(dedupe(ids)), newPrinter(nil, Chinese, false).list(dedupe(ids))
	rel := "_mywork/" + lab.Name
	r := &report{lab: lab, rel: rel, exercises: []exerciseResult{{exercise: ex, broken: 0, finding: &finding{why: msgNoMessage}}}}
	assert.Contains(t, writeReport(r, English), "Next: write exercise 1 at the "+en+" markers in "+rel+"/"+file+" (README.md, section \"Build it yourself\").\n")
	assert.Contains(t, writeReport(r, Chinese), "下一步：写练习 1，写在 "+zh+" 标记处，文件是 "+rel+"/"+file+"。讲解见 README.zh-CN.md 的「自己动手写（Build it yourself）」一节。\n")
	// A copy whose markers the learner deleted: the file, without them.
	r.dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, file), []byte("package main\n"), 0o644))
	assert.Contains(t, writeReport(r, English), "Next: write exercise 1 in "+rel+"/"+file+" (README.md, section \"Build it yourself\"). Its markers ("+en+") are no longer whole in your copy: put back \"// exercise: ID\" before your code and \"// end of exercise: ID\" after it, so that hint can find it.\n")
	assert.Contains(t, writeReport(r, Chinese), "这个练习的标记 "+zh+" 在你的副本里已经不全了")
	src, err := os.ReadFile(filepath.Join(wb.labDir(lab.Name), file))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, file), src, 0o644))
	assert.Contains(t, writeReport(r, English), "at the "+en+" markers", "with its markers, the copy's next step names them")
	assert.Equal(t, "a, b and c", newPrinter(nil, English, false).list([]string{"a", "b", "c"}))
	assert.Equal(t, "a、b 和 c", newPrinter(nil, Chinese, false).list([]string{"a", "b", "c"}))
}

// TestADeletedTestFileSaysHowToRestoreIt checks that the note about a test
// file missing from the copy, or changed in it, gives a command that brings
// the lab's back, and that the command works, from the repository root,
// also when the learner deleted the file's directory.
func TestADeletedTestFileSaysHowToRestoreIt(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "06").status)
	dir := wb.copyDir("06-steering")
	require.NoError(t, os.Remove(filepath.Join(dir, "loop_test.go")))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "testdata")))
	changed, err := os.OpenFile(filepath.Join(dir, "agent_test.go"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = changed.WriteString("\n// mine\n")
	require.NoError(t, err)
	require.NoError(t, changed.Close())

	r := &report{lab: labOf(t, "06-steering"), dir: dir, rel: wb.rel(dir)}
	require.NoError(t, wb.compareTests(r))
	text := writeReport(r, English)
	var restores []string
	for _, l := range strings.Split(text, "\n") {
		if _, command, ok := strings.Cut(l, " is missing from your copy; check runs the tests your copy has. To restore it: "); ok {
			restores = append(restores, command)
		}
		if _, command, ok := strings.Cut(l, " is not the lab's; check runs your copy of the tests. To use the lab's: "); ok {
			restores = append(restores, command)
		}
	}
	rel := wb.rel(dir)
	assert.Equal(t, []string{
		"cp labs/06-steering/agent_test.go " + rel + "/agent_test.go",
		"cp labs/06-steering/loop_test.go " + rel + "/loop_test.go",
		"cp -R labs/06-steering/testdata " + rel + "/testdata",
	}, restores, "one note for a directory, not one for each of its files:\n%s", text)
	assert.Contains(t, text, "note: testdata/ is missing from your copy")

	needShell(t)
	// cp -R keeps the modes of what it copies: in a read-only checkout the
	// restored directory is read-only too, and the test's cleanup could
	// not remove it.
	t.Cleanup(func() {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(path, 0o755)
			}
			return nil
		})
	})
	for _, command := range restores {
		cmd := exec.Command("sh", "-c", command)
		cmd.Dir = wb.root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", command, out)
	}
	r = &report{lab: labOf(t, "06-steering"), dir: dir, rel: wb.rel(dir)}
	require.NoError(t, wb.compareTests(r))
	assert.Empty(t, r.warnings, "every test file is back")
}

// TestACopyWithoutGoFilesIsNamedFromTheRoot checks that go test's complaint
// about a copy without Go files names it as the learner does.
func TestACopyWithoutGoFilesIsNamedFromTheRoot(t *testing.T) {
	out := []byte(`{"ImportPath":"./mywork/03-maxturns","Action":"build-output","Output":"# ./mywork/03-maxturns\n"}
{"ImportPath":"./mywork/03-maxturns","Action":"build-output","Output":"no Go files in /repo/mywork/03-maxturns\n"}
{"ImportPath":"./mywork/03-maxturns","Action":"build-fail"}
{"Action":"start","Package":"./mywork/03-maxturns"}
{"Action":"output","Package":"./mywork/03-maxturns","Output":"FAIL\t./mywork/03-maxturns [setup failed]\n"}
{"Action":"fail","Package":"./mywork/03-maxturns","Elapsed":0,"FailedBuild":"./mywork/03-maxturns"}
`)
	run := parseEvents(out, []string{"mywork/03-maxturns"})["mywork/03-maxturns"]
	require.NotNil(t, run)
	r := &report{lab: labOf(t, "03-maxturns"), dir: "/repo/mywork/03-maxturns", rel: "mywork/03-maxturns"}
	r.first(run)
	assert.Equal(t, []string{"no Go files in mywork/03-maxturns"}, r.build)
}

// TestWhatCouldNotBeCheckedIsNotAFailure checks the report's lines for tests
// that did not run: an exercise whose tests an earlier crash kept from
// running, and a second phase that a file saved meanwhile kept from running.
// Neither is a broken rule, and neither may name one.
func TestWhatCouldNotBeCheckedIsNotAFailure(t *testing.T) {
	lab := labOf(t, "05-parallel")
	require.Len(t, lab.Exercises, 2)
	crashed := &finding{test: lab.Exercises[1].Rules[0].Test, why: msgPanic, whyArgs: []any{"boom"}}
	notRun := &finding{test: lab.Exercises[0].Rules[0].Test, why: msgNotRun}
	r := &report{lab: lab, rel: "mywork/05-parallel", exercises: []exerciseResult{
		{exercise: &lab.Exercises[0], broken: 0, finding: notRun},
		{exercise: &lab.Exercises[1], broken: 0, finding: crashed},
	}}
	assert.Same(t, &r.exercises[1], r.firstFailing(), "the exercise whose test crashed comes first, not the one it kept from running")
	text := writeReport(r, English)
	assert.Contains(t, text, "· exercise 1: "+lab.Exercises[0].Title.EN+": not checked, an earlier test crashed or did not finish\n")
	assert.Contains(t, text, "✗ exercise 2: "+lab.Exercises[1].Title.EN+"\n")
	assert.Contains(t, text, "Next: write exercise 2 at the ")

	var toc bytes.Buffer
	(&session{out: newPrinter(&toc, English, false)}).contentsOf(r)
	assert.Equal(t, "    · exercise 1: "+lab.Exercises[0].Title.EN+": not checked, an earlier test crashed or did not finish\n"+
		"    ✗ exercise 2: "+lab.Exercises[1].Title.EN+": "+lab.Exercises[1].Rules[0].Text.EN+"\n", toc.String(),
		"the table of contents gives no rule for an exercise whose tests did not run")

	passed := &report{lab: lab, rel: "mywork/05-parallel", checkedAll: true, other: &finding{why: msgChangedMeanwhile}}
	for i := range lab.Exercises {
		passed.exercises = append(passed.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	text = writeReport(passed, English)
	assert.Contains(t, text, "· the lab's other tests and your output: not checked, your copy changed while it was being checked: check again\n")
	assert.Contains(t, text, "Next: go run ./labs check 05-parallel\n")
	assert.NotContains(t, text, "✗", "nothing failed")
	toc.Reset()
	(&session{out: newPrinter(&toc, English, false)}).contentsOf(passed)
	assert.Contains(t, toc.String(), "    · the lab's other tests and your output: not checked, your copy changed while it was being checked: check again\n")
	assert.NotContains(t, toc.String(), "✗", "nothing failed")
}

// TestAMissingTestAsksForTheTestFileBack checks that a rule whose test is
// not in the copy leads to restoring the test file, not to writing the
// exercise again.
func TestAMissingTestAsksForTheTestFileBack(t *testing.T) {
	lab := labOf(t, "02-loop")
	rule := lab.Exercises[0].Rules[0].Test
	r := &report{lab: lab, rel: "mywork/02-loop", exercises: []exerciseResult{
		{exercise: &lab.Exercises[0], broken: 0, finding: &finding{test: rule, why: msgMissingTest, whyArgs: []any{rule, lab.Name}}},
	}}
	text := writeReport(r, English)
	assert.Contains(t, text, "Next: restore the lab's test files with the command in the note above, then go run ./labs check 02-loop again.\n")
	assert.NotContains(t, text, "Next: write exercise")

	golden := &report{lab: lab, rel: "mywork/02-loop", checkedAll: true, exercises: []exerciseResult{{exercise: &lab.Exercises[0], broken: -1}},
		golden: &finding{test: "TestOutputMatchesGoldenFile", why: msgMissingTest, whyArgs: []any{"TestOutputMatchesGoldenFile", lab.Name}}}
	assert.Contains(t, writeReport(golden, English), "Next: restore the lab's test files", "a golden test that is missing too")
}

// TestALabWithGoroutinesAsksForTheRaceDetector checks the line that check
// adds once a lab whose exercises start goroutines passes.
func TestALabWithGoroutinesAsksForTheRaceDetector(t *testing.T) {
	for _, name := range []string{"04-tool-errors", "05-parallel"} {
		lab := labOf(t, name)
		r := &report{lab: lab, rel: "mywork/" + name, checkedAll: true}
		for i := range lab.Exercises {
			r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
		}
		line := "One more run, with the race detector, which check leaves out: go test -race ./mywork/" + name + "."
		if lab.Race {
			assert.Contains(t, writeReport(r, English), line)
			assert.Contains(t, writeReport(r, Chinese), "go test -race ./mywork/"+name)
		} else {
			assert.NotContains(t, writeReport(r, English), "go test -race", name)
		}
	}
	assert.True(t, labOf(t, "05-parallel").Race, "lab 05's exercises start goroutines")
}

// TestADeletedCodeFileIsNamed checks the notes about the lab's code missing
// from the copy, which come before the compiler's errors: a file the
// learner does not write can be copied back from the lab; the file the
// learner writes in cannot, for the lab's holds the answer.
func TestADeletedCodeFileIsNamed(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "03").status)
	dir := wb.copyDir("03-maxturns")
	require.NoError(t, os.Remove(filepath.Join(dir, "tools.go")))
	require.NoError(t, os.Remove(filepath.Join(dir, "loop.go")))

	r := &report{lab: labOf(t, "03-maxturns"), dir: dir, rel: wb.rel(dir), build: []string{"calculate.go:14:18: undefined: Tool"}}
	require.NoError(t, wb.compareTests(r))
	text := writeReport(r, English)
	rel := wb.rel(dir)
	assert.Contains(t, text, "note: loop.go, where you write your code, is missing from your copy. Write it again, or start over: go run ./labs reset 03-maxturns\n")
	assert.Contains(t, text, "note: tools.go is missing from your copy. To restore it: cp labs/03-maxturns/tools.go "+rel+"/tools.go\n")
	assert.Less(t, strings.Index(text, "note: "), strings.Index(text, "undefined: Tool"), "the notes explain the compiler's errors, so they come first")
}

// TestTheLearnersTextReachesTheTerminalEscaped checks that what go test and
// the learner's code print, a panic's value, a test's message, the
// compiler's, cannot move the cursor, retitle the window or reverse a line:
// each such character is written escaped, and every line stays one line.
func TestTheLearnersTextReachesTheTerminalEscaped(t *testing.T) {
	lab := labOf(t, "01-no-loop")
	hostile := "x \x1b[31mred\x1b]0;pwn\x07 \u202edesrever"
	r := &report{lab: lab, rel: "mywork/01-no-loop", exercises: []exerciseResult{{
		exercise: &lab.Exercises[0], broken: 0,
		finding: &finding{test: "TestX", why: msgPanic, whyArgs: []any{hostile}, lines: []string{"  main_test.go:9: " + hostile, "  -\t\tArgs: 2,"}},
	}}}
	text := writeReport(r, English)
	assert.NotContains(t, text, "\x1b")
	assert.NotContains(t, text, "\x07")
	assert.NotContains(t, text, "\u202e")
	assert.Contains(t, text, `the test panicked: x \x1b[31mred\x1b]0;pwn\a \u202edesrever`)
	assert.Contains(t, text, "  -\t\tArgs: 2,", "tabs stay: go-cmp's diffs indent with them")

	built := &report{lab: lab, rel: "mywork/01-no-loop", build: []string{"main.go:3:1: " + hostile}}
	assert.NotContains(t, writeReport(built, English), "\x1b")
}

// TestAfterALabTheNextLab checks what check advises once a lab passes: to
// start the next lab with exercises, or, if it is started already, to look
// at the table of contents, which knows whether it passes too.
func TestAfterALabTheNextLab(t *testing.T) {
	wb := testWorkbook(t, false)
	s := &session{wb: wb}
	assert.Equal(t, "start 02-loop", s.nextLab(labOf(t, "01-no-loop")))
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	assert.Equal(t, nextContents, s.nextLab(labOf(t, "01-no-loop")))
	assert.Equal(t, "", s.nextLab(labOf(t, "06-steering")), "the last lab with exercises")

	lab := labOf(t, "01-no-loop")
	r := &report{lab: lab, rel: "mywork/01-no-loop", checkedAll: true}
	for i := range lab.Exercises {
		r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	var out bytes.Buffer
	r.write(newPrinter(&out, English, false), nextContents)
	assert.Contains(t, out.String(), "Next: go run ./labs, which shows how far you are in the labs you have started.\n")
}

// TestTheREADMEsSayHowLongATestMayRun checks what the README, in both
// languages, says of check's time limit for a test.
func TestTheREADMEsSayHowLongATestMayRun(t *testing.T) {
	root, err := expected.Root()
	require.NoError(t, err)
	secs := int(testTimeout.Seconds())
	for name, want := range map[string]string{
		"README.md":       fmt.Sprintf("`check` stops a test that has run for %d s", secs),
		"README.zh-CN.md": fmt.Sprintf("`check` 会停下一个已经跑了 %d s 的测试", secs),
	} {
		readme, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		assert.Contains(t, strings.ReplaceAll(string(readme), "\n", " "), want, name)
	}
}

// TestWatchDoesNotAdviseWatch checks that the reports watch prints leave
// out the advice to run watch, which is running.
func TestWatchDoesNotAdviseWatch(t *testing.T) {
	lab := labOf(t, "02-loop")
	r := brokenRuleReport(t, testWorkbook(t, false), lab)
	assert.Contains(t, writeReport(r, English), "go run ./labs watch 02-loop")
	r.watching = true
	text := writeReport(r, English)
	assert.NotContains(t, text, "go run ./labs watch")
	assert.Contains(t, text, "go run ./labs hint 02-loop")
}

// TestAFinishedLabSaysAllThatPasses checks that the table of contents says
// of a finished lab what check says: every exercise, the other tests and
// the output pass.
func TestAFinishedLabSaysAllThatPasses(t *testing.T) {
	lab := labOf(t, "02-loop")
	r := &report{lab: lab, rel: "_mywork/02-loop", checkedAll: true}
	for i := range lab.Exercises {
		r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	var toc bytes.Buffer
	(&session{out: newPrinter(&toc, English, false)}).contentsOf(r)
	assert.Equal(t, "    ✓ exercise 1: "+lab.Exercises[0].Title.EN+"\n    ✓ the lab's other tests\n    ✓ your output matches the lab's, byte for byte\n", toc.String())
}
