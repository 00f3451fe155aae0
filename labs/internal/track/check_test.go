package track

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/google/go-cmp/cmp"
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

// shell returns the command that runs command with sh in dir (the test's
// own if empty), ended after expected.RunLimit, so that a command that hangs
// fails the test instead of hanging it.
func shell(t *testing.T, command, dir string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(t.Context(), expected.RunLimit)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	return cmd
}

// shellWords splits a command line as a POSIX shell does, with sh itself.
func shellWords(t *testing.T, command string) []string {
	t.Helper()
	needShell(t)
	out, err := shell(t, `printf '%s\n' `+command, "").Output()
	if err != nil {
		t.Fatalf("sh runs %s: %v", command, err)
	}
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
	if err := writeFiles(dir, files{
		"x_test.go": []byte("package cache\n\nimport \"testing\"\n\nfunc TestPasses(t *testing.T) {}\n"),
	}); err != nil {
		t.Fatal(err)
	}
	pkg := wb.rel(dir)
	cached := func(fresh bool) bool {
		runs, err := wb.runTests(t.Context(), []string{pkg}, countFlag(fresh)...)
		if err != nil {
			t.Fatal(err)
		}
		if runs[pkg] == nil {
			t.Fatalf("go test reported nothing of %s", pkg)
		}
		if got := runs[pkg].tests["TestPasses"].status; got != passed {
			t.Errorf("TestPasses ended with status %d, want %d (passed)", got, passed)
		}
		return strings.Contains(strings.Join(runs[pkg].output, "\n"), "(cached)")
	}
	if cached(false) {
		t.Error("the first run took a cached result, want it to run the tests")
	}
	if !cached(false) {
		t.Error("a second run of hint ran the tests again, want it to take the cached result")
	}
	if cached(true) {
		t.Error("check took a cached result, want it to run the tests again")
	}
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
	if f == nil {
		t.Fatal("check finds nothing of the failed TestResultsComeInTheModelsOrder")
	}
	r.other, r.checkedAll = f, true

	text := writeReport(r, English)
	_, command, ok := strings.Cut(text, "… 16 more lines: ")
	if !ok {
		t.Fatalf("the report has no note for the lines left out:\n%s", text)
	}
	command, _, _ = strings.Cut(command, "\n")
	want := []string{"go", "test", "-run", "^TestResultsComeInTheModelsOrder$/^part_1's_lookups$", "./mywork/05-parallel"}
	if got := shellWords(t, command); !slices.Equal(got, want) {
		t.Errorf("%s: the shell reads the words %q, want %q", command, got, want)
	}
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
	if run == nil {
		t.Fatal("parseEvents reports nothing of mywork/02-loop")
	}

	r := &report{lab: labOf(t, "02-loop"), dir: "/repo/mywork/02-loop", rel: "mywork/02-loop"}
	r.first(run)
	if r.exercisesPass() {
		t.Error("the exercises pass, want them to fail: the package panics")
	}
	if r.passes() {
		t.Error("the lab passes, want it to fail: the package panics")
	}
	text := writeReport(r, English)
	wantContains(t, text, "Your code in mywork/02-loop panics as the package starts, before any test runs:\n  panic: mustPositive: -1 is negative\n  at mywork/02-loop/loop.go:91\n", "the report")
	wantNotContains(t, text, "is not in your copy", "the report")
	wantNotContains(t, text, "goroutine", "the report")
	wantContains(t, writeReport(r, Chinese), "你在 mywork/02-loop 里的代码在包初始化时就发生了 panic", "the report in Chinese")
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
		if !slices.Equal(kept, numbered(n)) {
			t.Errorf("%d lines: shorten keeps %q, want them all", n, kept)
		}
		if hidden != 0 {
			t.Errorf("%d lines: shorten hides %d, want none", n, hidden)
		}
	}
	kept, hidden := shorten(numbered(failureLines+3), failureLines)
	if !slices.Equal(kept, numbered(failureLines)) {
		t.Errorf("%d lines: shorten keeps %q, want the first %d", failureLines+3, kept, failureLines)
	}
	if hidden != 3 {
		t.Errorf("%d lines: shorten hides %d, want 3", failureLines+3, hidden)
	}

	r := &report{lab: labOf(t, "02-loop"), rel: "mywork/02-loop", checkedAll: true,
		other: &finding{test: "TestX", lines: numbered(failureLines + 1)}}
	text := writeReport(r, English)
	wantContains(t, text, fmt.Sprintf("    line %d\n", failureLines+1), "the last line is shown")
	wantNotContains(t, text, "more line", "the report of a failure of %d lines", failureLines+1)

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
		if got := newPrinter(nil, tt.lang, false).moreLines(tt.hidden, "go test"); got != tt.want {
			t.Errorf("in %s, the note for %d hidden lines is %q, want %q", tt.lang, tt.hidden, got, tt.want)
		}
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
			if !strings.HasPrefix(next, prefix) {
				t.Errorf("%s, exercise %d: %q, want a line that begins %q", name, i+1, next, prefix)
				continue
			}
			markers, files, _ := strings.Cut(strings.TrimPrefix(next, prefix), " markers in ")
			files, _, _ = strings.Cut(files, " (README.md")
			found := map[string]bool{}
			for _, f := range strings.Split(files, ", ") {
				src, err := os.ReadFile(filepath.Join(wb.labDir(name), strings.TrimPrefix(f, rel+"/")))
				if err != nil {
					t.Fatalf("%s, exercise %d: %s: %v", name, i+1, f, err)
				}
				for _, l := range strings.Split(string(src), "\n") {
					if m := markerLine.FindStringSubmatch(l); m != nil {
						found[m[1]] = true
					}
				}
			}
			for _, m := range strings.Split(strings.ReplaceAll(markers, " and ", ", "), ", ") {
				if !found[m] {
					t.Errorf("%s, exercise %d: %q names the marker %s, which %s does not have", name, i+1, next, m, files)
				}
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
	wantContains(t, writeReport(r, English), "Next: write exercise 1 at the "+en+" markers in "+rel+"/"+file+" (README.md, section \"Build it yourself\").\n", "the report")
	wantContains(t, writeReport(r, Chinese), "下一步：写练习 1，写在 "+zh+" 标记处，文件是 "+rel+"/"+file+"。讲解见 README.zh-CN.md 的「自己动手写（Build it yourself）」一节。\n", "the report in Chinese")
	// A copy whose markers the learner deleted: the file, without them.
	r.dir = t.TempDir()
	writeFile(t, filepath.Join(r.dir, file), []byte("package main\n"), 0o644)
	wantContains(t, writeReport(r, English), "Next: write exercise 1 in "+rel+"/"+file+" (README.md, section \"Build it yourself\"). Its markers ("+en+") are no longer whole in your copy: put back \"// exercise: ID\" before your code and \"// end of exercise: ID\" after it, so that hint can find it.\n", "the report on a copy without the markers")
	wantContains(t, writeReport(r, Chinese), "这个练习的标记 "+zh+" 在你的副本里已经不全了", "the report in Chinese on a copy without the markers")
	src := readFile(t, filepath.Join(wb.labDir(lab.Name), file))
	writeFile(t, filepath.Join(r.dir, file), src, 0o644)
	wantContains(t, writeReport(r, English), "at the "+en+" markers", "with its markers, the copy's next step names them")
	if got, want := newPrinter(nil, English, false).list([]string{"a", "b", "c"}), "a, b and c"; got != want {
		t.Errorf("the list of a, b, c in English is %q, want %q", got, want)
	}
	if got, want := newPrinter(nil, Chinese, false).list([]string{"a", "b", "c"}), "a、b 和 c"; got != want {
		t.Errorf("the list of a, b, c in Chinese is %q, want %q", got, want)
	}
}

// TestADeletedTestFileSaysHowToRestoreIt checks that the note about a test
// file missing from the copy, or changed in it, gives a command that brings
// the lab's back, and that the command works, from the repository root,
// also when the learner deleted the file's directory.
func TestADeletedTestFileSaysHowToRestoreIt(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "06")
	dir := wb.copyDir("06-steering")
	if err := os.Remove(filepath.Join(dir, "loop_test.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	changed, err := os.OpenFile(filepath.Join(dir, "agent_test.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := changed.WriteString("\n// mine\n"); err != nil {
		t.Fatal(err)
	}
	if err := changed.Close(); err != nil {
		t.Fatal(err)
	}

	r := &report{lab: labOf(t, "06-steering"), dir: dir, rel: wb.rel(dir)}
	if err := wb.compareTests(r); err != nil {
		t.Fatal(err)
	}
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
	want := []string{
		"cp labs/06-steering/agent_test.go " + rel + "/agent_test.go",
		"cp labs/06-steering/loop_test.go " + rel + "/loop_test.go",
		"cp -R labs/06-steering/testdata " + rel + "/testdata",
	}
	if diff := cmp.Diff(want, restores); diff != "" {
		t.Errorf("the commands that restore the tests differ, want one note for a directory, not one for each of its files (-want +got):\n%s\nThe report:\n%s", diff, text)
	}
	wantContains(t, text, "note: testdata/ is missing from your copy", "the report")

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
		out, err := shell(t, command, wb.root).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", command, err, out)
		}
	}
	r = &report{lab: labOf(t, "06-steering"), dir: dir, rel: wb.rel(dir)}
	if err := wb.compareTests(r); err != nil {
		t.Fatal(err)
	}
	if len(r.warnings) != 0 {
		t.Errorf("after the commands, the report has the notes %v, want none: every test file is back", r.warnings)
	}
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
	if run == nil {
		t.Fatal("parseEvents reports nothing of mywork/03-maxturns")
	}
	r := &report{lab: labOf(t, "03-maxturns"), dir: "/repo/mywork/03-maxturns", rel: "mywork/03-maxturns"}
	r.first(run)
	if want := []string{"no Go files in mywork/03-maxturns"}; !slices.Equal(r.build, want) {
		t.Errorf("the build's messages are %q, want %q", r.build, want)
	}
}

// TestWhatCouldNotBeCheckedIsNotAFailure checks the report's lines for tests
// that did not run: an exercise whose tests an earlier crash kept from
// running, and a second phase that a file saved meanwhile kept from running.
// Neither is a broken rule, and neither may name one.
func TestWhatCouldNotBeCheckedIsNotAFailure(t *testing.T) {
	lab := labOf(t, "05-parallel")
	if len(lab.Exercises) != 2 {
		t.Fatalf("05-parallel has %d exercises, want 2", len(lab.Exercises))
	}
	crashed := &finding{test: lab.Exercises[1].Rules[0].Test, why: msgPanic, whyArgs: []any{"boom"}}
	notRun := &finding{test: lab.Exercises[0].Rules[0].Test, why: msgNotRun}
	r := &report{lab: lab, rel: "mywork/05-parallel", exercises: []exerciseResult{
		{exercise: &lab.Exercises[0], broken: 0, finding: notRun},
		{exercise: &lab.Exercises[1], broken: 0, finding: crashed},
	}}
	if r.firstFailing() != &r.exercises[1] {
		t.Error("the first failing exercise is not exercise 2: the exercise whose test crashed comes first, not the one it kept from running")
	}
	text := writeReport(r, English)
	wantContains(t, text, "· exercise 1: "+lab.Exercises[0].Title.EN+": not checked, an earlier test crashed or did not finish\n", "the report")
	wantContains(t, text, "✗ exercise 2: "+lab.Exercises[1].Title.EN+"\n", "the report")
	wantContains(t, text, "Next: write exercise 2 at the ", "the report")

	var toc bytes.Buffer
	(&session{out: newPrinter(&toc, English, false)}).contentsOf(r)
	if want := "    · exercise 1: " + lab.Exercises[0].Title.EN + ": not checked, an earlier test crashed or did not finish\n" +
		"    ✗ exercise 2: " + lab.Exercises[1].Title.EN + ": " + lab.Exercises[1].Rules[0].Text.EN + "\n"; toc.String() != want {
		t.Errorf("the table of contents says\n%s\nwant\n%s\n(it gives no rule for an exercise whose tests did not run)", toc.String(), want)
	}

	passed := &report{lab: lab, rel: "mywork/05-parallel", checkedAll: true, other: &finding{why: msgChangedMeanwhile}}
	for i := range lab.Exercises {
		passed.exercises = append(passed.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	text = writeReport(passed, English)
	wantContains(t, text, "· the lab's other tests and your output: not checked, your copy changed while it was being checked: check again\n", "the report")
	wantContains(t, text, "Next: go run ./labs check 05-parallel\n", "the report")
	wantNotContains(t, text, "✗", "nothing failed")
	toc.Reset()
	(&session{out: newPrinter(&toc, English, false)}).contentsOf(passed)
	wantContains(t, toc.String(), "    · the lab's other tests and your output: not checked, your copy changed while it was being checked: check again\n", "the table of contents")
	wantNotContains(t, toc.String(), "✗", "nothing failed")
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
	wantContains(t, text, "Next: restore the lab's test files with the command in the note above, then go run ./labs check 02-loop again.\n", "the report")
	wantNotContains(t, text, "Next: write exercise", "the report")

	golden := &report{lab: lab, rel: "mywork/02-loop", checkedAll: true, exercises: []exerciseResult{{exercise: &lab.Exercises[0], broken: -1}},
		golden: &finding{test: "TestOutputMatchesGoldenFile", why: msgMissingTest, whyArgs: []any{"TestOutputMatchesGoldenFile", lab.Name}}}
	wantContains(t, writeReport(golden, English), "Next: restore the lab's test files", "a golden test that is missing too")
}

// TestARaceIsCheckedBeforeDone checks what check says of the race
// detector, which it runs last on a lab whose exercises start goroutines:
// a race is a finding with the lines in the learner's files, and no Done;
// a race detector that cannot run is one line, and Done; no race is a
// check that passes; a lab without goroutines has no such line.
func TestARaceIsCheckedBeforeDone(t *testing.T) {
	lab := labOf(t, "05-parallel")
	if !lab.Race || !labOf(t, "06-steering").Race {
		t.Fatal("labs 05 and 06 do not run the race detector (race), want them to: their exercises start goroutines")
	}
	passing := func(lab *Lab) *report {
		r := &report{lab: lab, rel: "mywork/" + lab.Name, checkedAll: true}
		for i := range lab.Exercises {
			r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
		}
		return r
	}

	r := passing(lab)
	r.raceChecked = true
	r.race = &finding{test: "TestResultsComeInTheModelsOrder", why: msgRace, lines: []string{
		"  write at mywork/05-parallel/batch.go:206 in (*runState).execute.func1",
		"  previous write at mywork/05-parallel/batch.go:206 in (*runState).execute.func1",
	}}
	if r.passes() {
		t.Error("a copy with a data race passes, want it to fail")
	}
	text := writeReport(r, English)
	wantContains(t, text, "✓ your output matches the lab's, byte for byte\n✗ "+raceRule.EN+"\n  checked by TestResultsComeInTheModelsOrder:\n"+
		"    two goroutines used the same memory at once, one of them writing, with no lock or channel between them: a data race, at\n"+
		"      write at mywork/05-parallel/batch.go:206 in (*runState).execute.func1\n", "a race")
	wantContains(t, text, "Next: the lines above are where two goroutines meet.", "a race")
	wantNotContains(t, text, "Done", "a race")
	zh := writeReport(r, Chinese)
	wantContains(t, zh, "✗ "+raceRule.ZH, "a race, in Chinese")
	wantContains(t, zh, "这是数据竞争（data race）", "a race, in Chinese")

	r = passing(lab)
	r.raceChecked, r.raceNotRun = true, &note{msgRaceNoCgo, nil}
	text = writeReport(r, English)
	if got := strings.Count(text, "race detector"); got != 1 {
		t.Errorf("a race detector that cannot run takes %d lines that name it, want one:\n%s", got, text)
	}
	wantContains(t, text, "· the race detector (go test -race): not run, since it needs cgo, and go env CGO_ENABLED says 0 here", "a race detector that cannot run")
	wantContains(t, text, "Done: every exercise of 05-parallel passes", "a race detector that cannot run")
	wantContains(t, writeReport(r, Chinese), "· 竞态检测器（go test -race）：没有运行，因为它需要 cgo", "a race detector that cannot run, in Chinese")

	r = passing(lab)
	r.raceChecked = true
	text = writeReport(r, English)
	wantContains(t, text, "✓ "+raceRule.EN+"\n\nDone: every exercise of 05-parallel passes", "no race")

	text = writeReport(passing(labOf(t, "04-tool-errors")), English)
	wantNotContains(t, text, "race", "a lab without goroutines")
	wantContains(t, text, "Done: every exercise of 04-tool-errors passes", "a lab without goroutines")
}

// TestADeletedCodeFileIsNamed checks the notes about the lab's code missing
// from the copy, which come before the compiler's errors: a file the
// learner does not write can be copied back from the lab; the file the
// learner writes in cannot, for the lab's holds the answer.
func TestADeletedCodeFileIsNamed(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "03")
	dir := wb.copyDir("03-maxturns")
	if err := os.Remove(filepath.Join(dir, "tools.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "loop.go")); err != nil {
		t.Fatal(err)
	}

	r := &report{lab: labOf(t, "03-maxturns"), dir: dir, rel: wb.rel(dir), build: []string{"calculate.go:14:18: undefined: Tool"}}
	if err := wb.compareTests(r); err != nil {
		t.Fatal(err)
	}
	text := writeReport(r, English)
	rel := wb.rel(dir)
	wantContains(t, text, "note: loop.go, where you write your code, is missing from your copy. Write it again, or start over: go run ./labs reset 03-maxturns\n", "the report")
	wantContains(t, text, "note: tools.go is missing from your copy. To restore it: cp labs/03-maxturns/tools.go "+rel+"/tools.go\n", "the report")
	if strings.Index(text, "note: ") >= strings.Index(text, "undefined: Tool") {
		t.Errorf("the notes do not come before the compiler's errors, want them first: they explain the errors\n%s", text)
	}
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
	// The reports are quoted in the messages, which go to a terminal too.
	text := writeReport(r, English)
	for _, c := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(text, c) {
			t.Errorf("the report holds %q, want it escaped:\n%q", c, text)
		}
	}
	for _, want := range []string{
		`the test panicked: x \x1b[31mred\x1b]0;pwn\a \u202edesrever`,
		"  -\t\tArgs: 2,", // tabs stay: go-cmp's diffs indent with them
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not hold %q:\n%q", want, text)
		}
	}

	built := &report{lab: lab, rel: "mywork/01-no-loop", build: []string{"main.go:3:1: " + hostile}}
	if text := writeReport(built, English); strings.Contains(text, "\x1b") {
		t.Errorf("the report of a compiler's message holds %q, want it escaped:\n%q", "\x1b", text)
	}
}

// TestAfterALabTheNextLab checks what check advises once a lab passes: to
// start the next lab with exercises, or, if it is started already, to look
// at the table of contents, which knows whether it passes too.
func TestAfterALabTheNextLab(t *testing.T) {
	wb := testWorkbook(t, false)
	s := &session{wb: wb}
	if got, want := s.nextLab(labOf(t, "01-no-loop")), "start 02-loop"; got != want {
		t.Errorf("after 01-no-loop, the next step is %q, want %q", got, want)
	}
	startLab(t, wb, "02")
	if got := s.nextLab(labOf(t, "01-no-loop")); got != nextContents {
		t.Errorf("after 01-no-loop, with 02-loop started, the next step is %q, want %q", got, nextContents)
	}
	if got := s.nextLab(labOf(t, "06-steering")); got != "" {
		t.Errorf("after 06-steering, the next step is %q, want none: the last lab with exercises", got)
	}

	lab := labOf(t, "01-no-loop")
	r := &report{lab: lab, rel: "mywork/01-no-loop", checkedAll: true}
	for i := range lab.Exercises {
		r.exercises = append(r.exercises, exerciseResult{exercise: &lab.Exercises[i], broken: -1})
	}
	var out bytes.Buffer
	r.write(newPrinter(&out, English, false), nextContents)
	wantContains(t, out.String(), "Next: go run ./labs, which shows how far you are in the labs you have started.\n", "the report")
}

// TestTheREADMEsSayHowLongATestMayRun checks what the README, in both
// languages, says of check's time limit for a test.
func TestTheREADMEsSayHowLongATestMayRun(t *testing.T) {
	root, err := expected.Root()
	if err != nil {
		t.Fatal(err)
	}
	secs := int(testTimeout.Seconds())
	for name, want := range map[string]string{
		"README.md":       fmt.Sprintf("`check` stops a test that has run for %d s", secs),
		"README.zh-CN.md": fmt.Sprintf("`check` 会停下一个已经跑了 %d s 的测试", secs),
	} {
		readme := readFile(t, filepath.Join(root, name))
		if !strings.Contains(strings.ReplaceAll(string(readme), "\n", " "), want) {
			t.Errorf("%s does not say %q", name, want)
		}
	}
}

// TestWatchDoesNotAdviseWatch checks that the reports watch prints leave
// out the advice to run watch, which is running.
func TestWatchDoesNotAdviseWatch(t *testing.T) {
	lab := labOf(t, "02-loop")
	r := brokenRuleReport(t, testWorkbook(t, false), lab)
	wantContains(t, writeReport(r, English), "go run ./labs watch 02-loop", "check's report")
	r.watching = true
	text := writeReport(r, English)
	wantNotContains(t, text, "go run ./labs watch", "watch's report")
	wantContains(t, text, "go run ./labs hint 02-loop", "watch's report")
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
	if want := "    ✓ exercise 1: " + lab.Exercises[0].Title.EN + "\n    ✓ the lab's other tests\n    ✓ your output matches the lab's, byte for byte\n"; toc.String() != want {
		t.Errorf("the table of contents says\n%s\nwant\n%s", toc.String(), want)
	}
}

// TestFakedTestLinesDoNotFoolCheck runs go test on a package whose code
// prints go test's own lines, with the marker go test -json reads them by,
// for a test that never runs, and then exits with status 1: go test -json
// takes the test for passed, and the package for failed, and check must
// believe the package.
func TestFakedTestLinesDoNotFoolCheck(t *testing.T) {
	expected.Verification(t)
	wb := testWorkbook(t, true)
	dir := wb.copyDir("00-faked")
	if err := writeFiles(dir, files{
		"fake.go": []byte("package faked\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n" +
			"\tfmt.Print(\"\\x16=== RUN   TestA\\n\\x16--- PASS: TestA (0.00s)\\n\\x16PASS\\n\")\n\tos.Exit(1)\n}\n"),
		"fake_test.go": []byte("package faked\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Fatal(\"never passes\") }\n"),
	}); err != nil {
		t.Fatal(err)
	}
	pkg := wb.rel(dir)
	runs, err := wb.runTests(t.Context(), []string{pkg}, countFlag(true)...)
	if err != nil {
		t.Fatal(err)
	}
	run := runs[pkg]
	if run == nil {
		t.Fatalf("go test reported nothing of %s", pkg)
	}
	if a := run.tests["TestA"]; a == nil || a.status != passed {
		t.Logf("go test -json no longer takes the faked lines for a result (TestA: %+v): the rest holds all the same", a)
	}
	if !run.failedUnseen() {
		t.Errorf("go test reported the package failed, and check does not see it (failed %v, tests %+v)", run.failed, run.tests)
	}
}
