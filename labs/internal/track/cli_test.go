package track

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/google/go-cmp/cmp"
)

// testWorkbook returns the repository as a workbook whose learner's copies
// go to a directory of their own, removed after the test. Commands that run
// go test need it inside the module: then it is a directory whose name
// starts with "_", which go test ./... ignores. Only the workbook's proof
// may ask for that: the self-check writes nothing inside the repository,
// so that go test ./... run again answers from its cache (a directory that
// a test reads, the repository's root included, is part of the cache's key,
// its time of change too).
func testWorkbook(t *testing.T, inModule bool) *workbook {
	t.Helper()
	wb := *openedWorkbook(t)
	dir := t.TempDir()
	if inModule {
		if os.Getenv(expected.VerifyEnv) != "1" {
			t.Fatalf("a copy inside the module is for the workbook's proof: call expected.Verification(t) first")
		}
		var err error
		dir, err = os.MkdirTemp(wb.root, "_track-test-")
		if err != nil {
			t.Skipf("the checkout is read-only: %v", err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	wb.work = filepath.Join(dir, workDir)
	return &wb
}

// opened is the repository as a workbook, opened once for all tests.
var opened = sync.OnceValues(openWorkbook)

// openedWorkbook returns the repository as a workbook. Tests must not
// change it: testWorkbook returns a copy to change.
func openedWorkbook(t *testing.T) *workbook {
	t.Helper()
	wb, err := opened()
	if err != nil {
		t.Fatalf("open the workbook: %v", err)
	}
	return wb
}

// labOf returns the track of the lab, which must have exercises.
func labOf(t *testing.T, name string) *Lab {
	t.Helper()
	lab := openedWorkbook(t).lab(name)
	if lab == nil {
		t.Fatalf("labs/%s has no exercises, want some", name)
	}
	return lab
}

// english is an environment with an English locale and no colour.
func english(name string) string {
	return map[string]string{"LANG": "en_US.UTF-8", "NO_COLOR": "1"}[name]
}

// result is what one command printed and its exit status.
type result struct {
	args           []string
	stdout, stderr string
	status         int
}

// String is the command line, with the arguments that a shell would not
// take as they are quoted.
func (r result) String() string {
	line := "go run ./labs"
	for _, a := range r.args {
		if a == "" || strings.ContainsAny(a, " \t\"'") || strconv.Quote(a) != `"`+a+`"` {
			a = strconv.Quote(a)
		}
		line += " " + a
	}
	return line
}

// runCommand runs the front door with args on wb.
func runCommand(t *testing.T, wb *workbook, args ...string) result {
	t.Helper()
	return runIn(t, wb, english, args...)
}

// runIn runs the front door with args on wb, in the environment getenv.
func runIn(t *testing.T, wb *workbook, getenv func(string) string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	program := func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return run(ctx, wb, getenv, args, stdout, stderr)
	}
	status := cli.Run(context.Background(), program, args, &stdout, &stderr)
	return result{args: args, stdout: stdout.String(), stderr: stderr.String(), status: status}
}

func TestHelp(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "-h")
	wantStatus(t, res, 0)
	if res.stderr != "" {
		t.Errorf("%s: standard error is %q, want nothing", res, res.stderr)
	}
	for _, want := range []string{"Usage: go run ./labs", "start LAB", "check LAB", "hint LAB", "watch LAB", "solution LAB", "reset LAB", "-force", "-lang en|zh", "02-loop", "Exit status", "Ctrl-C ends watch"} {
		wantContains(t, res.stdout, want, "the help")
	}
}

func TestBadCommandLines(t *testing.T) {
	wb := testWorkbook(t, false)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{"check"}, "check needs a lab, as in: go run ./labs check 02-loop"},
		{[]string{"check", "99"}, `no lab is named "99"`},
		{[]string{"check", "0"}, `"0" names more than one lab: 01-no-loop, 02-loop`},
		{[]string{"check", "02", "03"}, "too many arguments: 03"},
		{[]string{"-force", "check", "02"}, "-force is only for reset"},
		{[]string{"-force"}, "-force is only for reset"},
		{[]string{"-lang", "fr", "check", "02"}, `-lang "fr": the languages are en and zh`},
		{[]string{"-x"}, "flag provided but not defined: -x"},
		{[]string{"reset", "-force", "-force", "02"}, "flag given twice: -force"},
		{[]string{"-lang", "en", "check", "02", "-lang", "zh"}, "flag given twice: -lang"},
		{[]string{"check", "\x1b[2J"}, `no lab is named "\x1b[2J"`},
	}
	for _, tt := range tests {
		res := runCommand(t, wb, tt.args...)
		wantStatus(t, res, 2)
		if res.stdout != "" {
			t.Errorf("%s: standard output is %q, want nothing", res, res.stdout)
		}
		wantContains(t, res.stderr, tt.want, "%s: standard error", res)
		wantContains(t, res.stderr, "The commands: start, check, hint, watch, solution, reset", "%s: the list of commands", res)
		wantContains(t, res.stderr, "The labs: 01-no-loop, 02-loop,", "%s: the list of labs", res)
	}
}

func TestLabNamesMayBeShort(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, arg := range []string{"02-loop", "02", "2", "loop", "lo", "02-l"} {
		name, matches := wb.resolve(arg)
		if name != "02-loop" {
			t.Errorf("%q names %q, want %q", arg, name, "02-loop")
		}
		if len(matches) != 0 {
			t.Errorf("%q matches %q, want none", arg, matches)
		}
	}
	name, matches := wb.resolve("")
	if name != "" {
		t.Errorf("%q names %q, want no lab", "", name)
	}
	if len(matches) != 0 {
		t.Errorf("%q matches %q, want none", "", matches)
	}
}

func TestALabWithoutExercises(t *testing.T) {
	// A lab without exercises.json, as a new lab has none yet: the first
	// lab's, taken away from a copy of the workbook.
	wb := testWorkbook(t, false)
	name := wb.labs[0]
	wb.tracks = maps.Clone(wb.tracks)
	delete(wb.tracks, name)
	res := runCommand(t, wb, "start", name)
	wantStatus(t, res, 1)
	wantContains(t, res.stderr, name+" has no exercises yet", "%s: standard error", res)
}

func TestCommandsBeforeStartSayToStart(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, cmd := range []string{"check", "hint", "watch", "solution"} {
		res := runCommand(t, wb, cmd, "02")
		wantStatus(t, res, 1)
		if want := "You have not started 02-loop yet. Start it with:\n  go run ./labs start 02-loop\n"; res.stdout != want {
			t.Errorf("%s: standard output is %q, want %q", res, res.stdout, want)
		}
	}
}

func TestStartCopiesTheLabWithTheExercisesCutOut(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "start", "02")
	if res.status != 0 {
		t.Fatalf("%s: exit status %d, want 0; standard error:\n%s", res, res.status, res.stderr)
	}
	wantContains(t, res.stdout, "Started 02-loop: your copy is ", "%s: standard output", res)
	ex := labOf(t, "02-loop").Exercises[0]
	reg := ex.Regions[0]
	wantContains(t, res.stdout, "exercise 1: "+ex.Title.EN+", in ", "%s: standard output", res)

	lab, err := wb.labFiles("02-loop")
	if err != nil {
		t.Fatal(err)
	}
	mine, err := readFiles(wb.copyDir("02-loop"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lab.names(), mine.names()); diff != "" {
		t.Errorf("the copy's files are not the lab's, want every file of the lab, tests and README included (-lab +copy):\n%s", diff)
	}
	for _, name := range lab.names() {
		if name != reg.File && string(mine[name]) != string(lab[name]) {
			t.Errorf("the copy's %s is not the lab's (-lab +copy):\n%s", name, cmp.Diff(string(lab[name]), string(mine[name])))
		}
	}
	wantContains(t, string(mine[reg.File]), "\t// exercise: "+reg.ID+"\n\t// "+firstLine(reg.TODO.EN), "the copy's %s", reg.File)
	wantContains(t, string(mine[reg.File]), "\t"+string(reg.Code)+"\n\t// end of exercise: "+reg.ID+"\n", "the copy's %s", reg.File)
	wantOnlyTheCopy(t, wb)
}

func TestStartNeverOverwritesWork(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	loop := filepath.Join(wb.copyDir("02-loop"), "loop.go")
	writeFile(t, loop, []byte("my work"), 0o644)

	res := runCommand(t, wb, "start", "loop")
	wantStatus(t, res, 1)
	wantContains(t, res.stdout, "You have started 02-loop already", "%s: standard output", res)
	wantContains(t, res.stdout, "go run ./labs reset 02-loop", "%s: standard output", res)
	if got := string(readFile(t, loop)); got != "my work" {
		t.Errorf("after %s, loop.go holds %q, want the learner's %q", res, got, "my work")
	}
}

func TestACopyThatIsAFile(t *testing.T) {
	wb := testWorkbook(t, false)
	if err := os.MkdirAll(wb.work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, wb.copyDir("02-loop"), []byte("x"), 0o644)
	for _, cmd := range []string{"start", "check", "hint", "watch", "solution", "reset"} {
		res := runCommand(t, wb, cmd, "02")
		wantStatus(t, res, 1)
		wantContains(t, res.stdout, "mywork/02-loop is a file, not your copy of the lab", "%s: standard output", res)
	}
	res := runCommand(t, wb, "reset", "-force", "02")
	if res.status != 1 {
		t.Errorf("%s: exit status %d, want 1: reset -force does not remove a file it did not make", res, res.status)
	}
	if got := string(readFile(t, wb.copyDir("02-loop"))); got != "x" {
		t.Errorf("after %s, the file holds %q, want %q", res, got, "x")
	}
}

func TestAWorkDirectoryThatIsAFile(t *testing.T) {
	wb := testWorkbook(t, false)
	writeFile(t, wb.work, []byte("x"), 0o644)
	res := runCommand(t, wb, "start", "02")
	wantStatus(t, res, 1)
	wantContains(t, res.stdout, "is a file; the track keeps your copies of the labs in a directory of that name", "%s: standard output", res)
}

func TestResetRefusesToDiscardChangedWork(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "reset", "02")
	if res.status != 1 {
		t.Errorf("%s before start: exit status %d, want 1: there is nothing to start over", res, res.status)
	}
	wantContains(t, res.stdout, "You have not started 02-loop yet. Start it with:\n  go run ./labs start 02-loop\n", "%s: standard output", res)
	if info, err := os.Lstat(wb.copyDir("02-loop")); err == nil && info.IsDir() {
		t.Errorf("after %s, %s is a directory, want none: reset starts nothing", res, wb.copyDir("02-loop"))
	}

	startLab(t, wb, "02")
	res = runCommand(t, wb, "reset", "02")
	if res.status != 0 {
		t.Errorf("%s: exit status %d, want 0: an untouched copy resets without -force", res, res.status)
	}
	wantContains(t, res.stdout, "Reset 02-loop: your copy is the starter again.", "%s: standard output", res)

	dir := wb.copyDir("02-loop")
	writeFile(t, filepath.Join(dir, "loop.go"), []byte("my work"), 0o644)
	writeFile(t, filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if err := os.Remove(filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	res = runCommand(t, wb, "reset", "02")
	wantStatus(t, res, 1)
	wantContains(t, res.stdout, "holds work of yours that reset would discard: loop.go, notes.txt.", "%s: standard output", res)
	wantContains(t, res.stdout, "go run ./labs reset -force 02-loop", "%s: standard output", res)
	if got := string(readFile(t, filepath.Join(dir, "loop.go"))); got != "my work" {
		t.Errorf("after %s, loop.go holds %q, want %q: the work is left as it is", res, got, "my work")
	}

	res = runCommand(t, wb, "reset", "02", "-force")
	wantStatus(t, res, 0)
	wantContains(t, string(readFile(t, filepath.Join(dir, "loop.go"))), firstLine(labOf(t, "02-loop").Exercises[0].Regions[0].TODO.EN), "loop.go after %s", res)
	wantNoFile(t, filepath.Join(dir, "notes.txt"), "after %s", res)
	wantFile(t, filepath.Join(dir, "README.md"), "after %s", res)
	wantOnlyTheCopy(t, wb)
}

// TestResetAdvisesAPlaceToKeepWork checks that the place reset advises
// for work a learner keeps is one that git ignores. That go test ./...
// skips it, TestCopiesAreLeftOutOfDotDotDot checks.
func TestResetAdvisesAPlaceToKeepWork(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	writeFile(t, filepath.Join(dir, "loop.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	res := runCommand(t, wb, "reset", "02")
	if res.status != 1 {
		t.Fatalf("%s: exit status %d, want 1", res, res.status)
	}
	_, command, ok := strings.Cut(res.stdout, "\n  mv ")
	if !ok {
		t.Fatalf("%s advises no mv command; it printed\n%s", res, res.stdout)
	}
	from, to, _ := strings.Cut(strings.TrimSuffix(command, "\n"), " ")
	if want := wb.rel(dir); from != want {
		t.Errorf("mv moves %q, want the copy, %q", from, want)
	}
	if want := wb.rel(wb.keepDir("02-loop")); to != want {
		t.Errorf("mv moves the copy to %q, want %q", to, want)
	}

	// git ignores _mywork/, and the place is in it.
	real := openedWorkbook(t)
	if got := filepath.Dir(real.keepDir("02-loop")); got != real.work {
		t.Errorf("the place to keep work is in %s, want %s", got, real.work)
	}
	gitignore := readFile(t, filepath.Join(real.root, ".gitignore"))
	if want := "/" + filepath.Base(real.work) + "/"; !slices.Contains(strings.Split(string(gitignore), "\n"), want) {
		t.Errorf(".gitignore has no line %q; it is\n%s", want, gitignore)
	}
}

// TestCopiesAreLeftOutOfDotDotDot checks that go test ./... leaves the
// copies out, and that go test ./_mywork/02-loop, as the README says, tests
// a copy: go list lists them so. It runs the go command, on a copy that it
// makes inside the module: it is part of the workbook's proof, not of the
// self-check, which writes nothing inside the repository.
func TestCopiesAreLeftOutOfDotDotDot(t *testing.T) {
	expected.Verification(t)
	wb := testWorkbook(t, true)
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	list := func(pattern string) string {
		cmd := exec.Command("go", "list", pattern)
		cmd.Dir = wb.root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pattern, err, out)
		}
		return string(out)
	}
	wantNotContains(t, list("./..."), filepath.Base(wb.work), "go list ./...")
	wantContains(t, list("./"+wb.rel(dir)), "/"+wb.rel(dir)+"\n", "go list ./%s", wb.rel(dir))
}

func TestResetForgetsTheHints(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	if err := wb.saveState(state{Hints: map[string]map[string]int{"02-loop": {"run-loop": 2}, "06-steering": {"x": 1}}}); err != nil {
		t.Fatal(err)
	}
	if res := runCommand(t, wb, "reset", "02"); res.status != 0 {
		t.Fatalf("%s: exit status %d, want 0; it printed\n%s%s", res, res.status, res.stdout, res.stderr)
	}
	want := map[string]map[string]int{"06-steering": {"x": 1}}
	if diff := cmp.Diff(want, wb.loadState().Hints); diff != "" {
		t.Errorf("the hints after reset 02 (-want +got):\n%s", diff)
	}
}

func TestSolutionShowsWhatDiffers(t *testing.T) {
	wb := testWorkbook(t, false)
	startLab(t, wb, "02")
	dir := wb.copyDir("02-loop")
	writeFile(t, filepath.Join(dir, "notes.txt"), []byte("mine\n"), 0o644)
	if err := os.Remove(filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}

	res := runCommand(t, wb, "solution", "02")
	wantStatus(t, res, 0)
	rel := wb.rel(dir)
	wantContains(t, res.stdout, "--- "+rel+"/loop.go (yours)\n+++ labs/02-loop/loop.go (the lab's)\n@@ ", "%s: standard output", res)
	wantNotContains(t, res.stdout, firstLine(labOf(t, "02-loop").Exercises[0].Regions[0].TODO.EN), "%s: the starter's TODO, left in place, is no difference", res)
	wantContains(t, res.stdout, "+\t// Step 1: the user's input enters the history.", "%s: standard output", res)
	wantContains(t, res.stdout, rel+"/README.md is missing from your copy (the lab's is labs/02-loop/README.md).", "%s: standard output", res)
	wantContains(t, res.stdout, rel+"/notes.txt is yours alone", "%s: standard output", res)
	wantNotContains(t, res.stdout, "main_test.go", "%s: only the files that differ", res)
	wantNotContains(t, res.stdout, "\x1b[", "%s: no colour off a terminal", res)

	labFiles, err := wb.labFiles("02-loop")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := writeFiles(dir, labFiles); err != nil {
		t.Fatal(err)
	}
	res = runCommand(t, wb, "solution", "02")
	if want := "Your files in " + rel + " are the lab's.\n"; res.stdout != want {
		t.Errorf("%s of the lab's files: standard output is %q, want %q", res, res.stdout, want)
	}
}

func TestStateSurvivesABrokenFile(t *testing.T) {
	wb := testWorkbook(t, false)
	if err := os.MkdirAll(wb.work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, wb.statePath(), []byte("{not json"), 0o644)
	if hints := wb.loadState().Hints; len(hints) != 0 {
		t.Errorf("the hints of a broken state file are %v, want none", hints)
	}
	if err := wb.saveState(state{Hints: map[string]map[string]int{"02-loop": {"run-loop": 1}}}); err != nil {
		t.Fatal(err)
	}
	if got := wb.loadState().Hints["02-loop"]["run-loop"]; got != 1 {
		t.Errorf("the saved count of hints for run-loop reads back as %d, want 1", got)
	}
}

// TestExitStatus checks the statuses of the front door's commands, which
// package cli gives: 0 for -h, 2 for a bad command line, 1 for a command
// that failed, each with its own message and no other.
func TestExitStatus(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "-h")
	wantStatus(t, res, 0)
	if res.stderr != "" {
		t.Errorf("%s: standard error is %q, want nothing", res, res.stderr)
	}

	res = runCommand(t, wb, "nonsense")
	wantStatus(t, res, 2)
	wantNotContains(t, res.stderr, "error:", "%s: the bad command line is reported once, by the front door", res)

	res = runCommand(t, wb, "check", "02")
	if res.status != 1 {
		t.Errorf("%s: exit status %d, want 1: check before start fails", res, res.status)
	}
	wantNotContains(t, res.stdout+res.stderr, "error:", "%s: the failure is reported once, by the command", res)
}

func TestLanguage(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want Lang
		why  string
	}{
		{nil, English, "without a locale"},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, Chinese, "from LANG"},
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, English, "LC_ALL comes first"},
		{map[string]string{"LC_MESSAGES": "zh_TW", "LANG": "en_US"}, Chinese, "then LC_MESSAGES"},
	} {
		if got := langFromEnv(func(name string) string { return tt.env[name] }); got != tt.want {
			t.Errorf("the language of %v is %q, want %q: %s", tt.env, got, tt.want, tt.why)
		}
	}
	if _, ok := parseLang("de"); ok {
		t.Errorf("parseLang(%q) succeeds, want it to fail", "de")
	}
	l, ok := parseLang("zh")
	if !ok {
		t.Fatalf("parseLang(%q) fails, want Chinese", "zh")
	}
	if l != Chinese {
		t.Errorf("parseLang(%q) = %q, want %q", "zh", l, Chinese)
	}
	if got := (Text{EN: "translated", ZH: "译"}).In(Chinese); got != "译" {
		t.Errorf("a translated text in Chinese is %q, want %q", got, "译")
	}
	if got := (Text{EN: "only English"}).In(Chinese); got != "only English" {
		t.Errorf("an untranslated text in Chinese is %q, want the English %q", got, "only English")
	}
}

func TestTextsInEveryLanguageTakeTheSameVerbs(t *testing.T) {
	verbs := func(s string) string {
		var out []string
		for i := 0; i < len(s)-1; i++ {
			if s[i] == '%' {
				out = append(out, s[i:i+2])
				i++
			}
		}
		return strings.Join(out, " ")
	}
	// The front door's texts, messages.go's among them.
	for _, l := range frontDoorTexts(t) {
		if l.text.ZH != "" && verbs(l.text.ZH) != verbs(l.text.EN) {
			t.Errorf("%s: %q: the Chinese text takes the verbs %q, want the English text's, %q", l.pos, l.text.EN, verbs(l.text.ZH), verbs(l.text.EN))
		}
	}
}

// TestFlagMistakesInChinese checks that the mistakes a learner makes with
// the front door's flags are said in the learner's language.
func TestFlagMistakesInChinese(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-lang", "zh", "-x"}, "没有 -x 这个选项\n"},
		{[]string{"-lang", "zh", "reset", "-force", "-force", "02"}, "选项 -force 给了两次\n"},
		{[]string{"-lang", "zh", "-lang"}, "选项 -lang 需要一个值\n"},
		{[]string{"-lang", "fr"}, `-lang "fr"：可选的语言是 en 和 zh` + "\n"},
	} {
		res := runIn(t, wb, func(name string) string { return map[string]string{"LANG": "zh_CN.UTF-8"}[name] }, tt.args...)
		wantStatus(t, res, 2)
		if !strings.HasPrefix(res.stderr, tt.want) {
			t.Errorf("%s: standard error is\n%s\nwant it to begin %q", res, res.stderr, tt.want)
		}
	}
}
