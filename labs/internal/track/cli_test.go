package track

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testWorkbook returns the repository as a workbook whose learner's copies
// go to a directory of their own, removed after the test. Commands that run
// go test need it inside the module: then it is a directory whose name
// starts with "_", which go test ./... ignores.
func testWorkbook(t *testing.T, inModule bool) *workbook {
	t.Helper()
	wb := *openedWorkbook(t)
	dir := t.TempDir()
	if inModule {
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
	require.NoError(t, err)
	return wb
}

// labOf returns the track of the lab, which must have exercises.
func labOf(t *testing.T, name string) *Lab {
	t.Helper()
	lab := openedWorkbook(t).lab(name)
	require.NotNil(t, lab, "labs/%s has exercises", name)
	return lab
}

// english is an environment with an English locale and no colour.
func english(name string) string {
	return map[string]string{"LANG": "en_US.UTF-8", "NO_COLOR": "1"}[name]
}

// result is what one command printed and its exit status.
type result struct {
	stdout, stderr string
	status         int
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
	return result{stdout: stdout.String(), stderr: stderr.String(), status: status}
}

func TestHelp(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "-h")
	assert.Equal(t, 0, res.status)
	assert.Empty(t, res.stderr)
	for _, want := range []string{"Usage: go run ./labs", "start LAB", "check LAB", "hint LAB", "watch LAB", "solution LAB", "reset LAB", "-force", "-lang en|zh", "02-loop", "Exit status", "Ctrl-C ends watch"} {
		assert.Contains(t, res.stdout, want)
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
		assert.Equal(t, 2, res.status, "%q", tt.args)
		assert.Empty(t, res.stdout, "%q", tt.args)
		assert.Contains(t, res.stderr, tt.want, "%q", tt.args)
		assert.Contains(t, res.stderr, "The commands: start, check, hint, watch, solution, reset", "%q: the list of commands", tt.args)
		assert.Contains(t, res.stderr, "The labs: 01-no-loop, 02-loop,", "%q: the list of labs", tt.args)
	}
}

func TestLabNamesMayBeShort(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, arg := range []string{"02-loop", "02", "2", "loop", "lo", "02-l"} {
		name, matches := wb.resolve(arg)
		assert.Equal(t, "02-loop", name, "%q", arg)
		assert.Empty(t, matches)
	}
	name, matches := wb.resolve("")
	assert.Empty(t, name)
	assert.Empty(t, matches)
}

func TestALabWithoutExercises(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, name := range wb.labs {
		if labOf(t, name) != nil {
			continue
		}
		res := runCommand(t, wb, "start", name)
		assert.Equal(t, 1, res.status)
		assert.Contains(t, res.stderr, name+" has no exercises yet")
		return
	}
	t.Skip("every lab has exercises")
}

func TestCommandsBeforeStartSayToStart(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, cmd := range []string{"check", "hint", "watch", "solution"} {
		res := runCommand(t, wb, cmd, "02")
		assert.Equal(t, 1, res.status, cmd)
		assert.Equal(t, "You have not started 02-loop yet. Start it with:\n  go run ./labs start 02-loop\n", res.stdout, cmd)
	}
}

func TestStartCopiesTheLabWithTheExercisesCutOut(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "start", "02")
	require.Equal(t, 0, res.status, res.stderr)
	assert.Contains(t, res.stdout, "Started 02-loop: your copy is ")
	ex := labOf(t, "02-loop").Exercises[0]
	reg := ex.Regions[0]
	assert.Contains(t, res.stdout, "exercise 1: "+ex.Title.EN+", in ")

	lab, err := wb.labFiles("02-loop")
	require.NoError(t, err)
	mine, err := readFiles(wb.copyDir("02-loop"))
	require.NoError(t, err)
	assert.Equal(t, lab.names(), mine.names(), "every file of the lab, tests and README included")
	for _, name := range lab.names() {
		if name != reg.File {
			assert.Equal(t, string(lab[name]), string(mine[name]), name)
		}
	}
	assert.Contains(t, string(mine[reg.File]), "\t// exercise: "+reg.ID+"\n\t// "+firstLine(reg.TODO.EN))
	assert.Contains(t, string(mine[reg.File]), "\t"+string(reg.Code)+"\n\t// end of exercise: "+reg.ID+"\n")
	entries, err := os.ReadDir(wb.work)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary directory is left behind")
}

func TestStartNeverOverwritesWork(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	loop := filepath.Join(wb.copyDir("02-loop"), "loop.go")
	require.NoError(t, os.WriteFile(loop, []byte("my work"), 0o644))

	res := runCommand(t, wb, "start", "loop")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, "You have started 02-loop already")
	assert.Contains(t, res.stdout, "go run ./labs reset 02-loop")
	data, err := os.ReadFile(loop)
	require.NoError(t, err)
	assert.Equal(t, "my work", string(data))
}

func TestACopyThatIsAFile(t *testing.T) {
	wb := testWorkbook(t, false)
	require.NoError(t, os.MkdirAll(wb.work, 0o755))
	require.NoError(t, os.WriteFile(wb.copyDir("02-loop"), []byte("x"), 0o644))
	for _, cmd := range []string{"start", "check", "hint", "watch", "solution", "reset"} {
		res := runCommand(t, wb, cmd, "02")
		assert.Equal(t, 1, res.status, cmd)
		assert.Contains(t, res.stdout, "mywork/02-loop is a file, not your copy of the lab", cmd)
	}
	res := runCommand(t, wb, "reset", "-force", "02")
	assert.Equal(t, 1, res.status, "reset -force does not remove a file it did not make")
	data, err := os.ReadFile(wb.copyDir("02-loop"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))
}

func TestAWorkDirectoryThatIsAFile(t *testing.T) {
	wb := testWorkbook(t, false)
	require.NoError(t, os.WriteFile(wb.work, []byte("x"), 0o644))
	res := runCommand(t, wb, "start", "02")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, "is a file; the track keeps your copies of the labs in a directory of that name")
}

func TestResetRefusesToDiscardChangedWork(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "reset", "02")
	assert.Equal(t, 1, res.status, "there is nothing to start over")
	assert.Contains(t, res.stdout, "You have not started 02-loop yet. Start it with:\n  go run ./labs start 02-loop\n")
	assert.NoDirExists(t, wb.copyDir("02-loop"), "reset starts nothing")

	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	res = runCommand(t, wb, "reset", "02")
	assert.Equal(t, 0, res.status, "an untouched copy resets without -force")
	assert.Contains(t, res.stdout, "Reset 02-loop: your copy is the starter again.")

	dir := wb.copyDir("02-loop")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loop.go"), []byte("my work"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "README.md")))
	res = runCommand(t, wb, "reset", "02")
	assert.Equal(t, 1, res.status)
	assert.Contains(t, res.stdout, "holds work of yours that reset would discard: loop.go, notes.txt.")
	assert.Contains(t, res.stdout, "go run ./labs reset -force 02-loop")
	data, err := os.ReadFile(filepath.Join(dir, "loop.go"))
	require.NoError(t, err)
	assert.Equal(t, "my work", string(data), "the work is left as it is")

	res = runCommand(t, wb, "reset", "02", "-force")
	assert.Equal(t, 0, res.status, res.stderr)
	data, err = os.ReadFile(filepath.Join(dir, "loop.go"))
	require.NoError(t, err)
	assert.Contains(t, string(data), firstLine(labOf(t, "02-loop").Exercises[0].Regions[0].TODO.EN))
	assert.NoFileExists(t, filepath.Join(dir, "notes.txt"))
	assert.FileExists(t, filepath.Join(dir, "README.md"))
	entries, err := os.ReadDir(wb.work)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary directory is left behind")
}

// TestResetAdvisesAPlaceToKeepWork checks that the place reset advises
// for work a learner keeps is one that git ignores and go test ./... skips,
// as go list ./... shows.
func TestResetAdvisesAPlaceToKeepWork(t *testing.T) {
	wb := testWorkbook(t, true)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	dir := wb.copyDir("02-loop")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loop.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	res := runCommand(t, wb, "reset", "02")
	require.Equal(t, 1, res.status)
	_, command, ok := strings.Cut(res.stdout, "\n  mv ")
	require.True(t, ok, res.stdout)
	from, to, _ := strings.Cut(strings.TrimSuffix(command, "\n"), " ")
	assert.Equal(t, wb.rel(dir), from)
	assert.Equal(t, wb.rel(wb.keepDir("02-loop")), to)

	// git ignores _mywork/, and the place is in it.
	real := openedWorkbook(t)
	assert.Equal(t, real.work, filepath.Dir(real.keepDir("02-loop")))
	gitignore, err := os.ReadFile(filepath.Join(real.root, ".gitignore"))
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(gitignore), "\n"), "/"+filepath.Base(real.work)+"/")

	// go test ./... leaves the copies out, and go test ./_mywork/02-loop,
	// as the README says, tests a copy: go list lists them so.
	list := func(pattern string) string {
		cmd := exec.Command("go", "list", pattern)
		cmd.Dir = wb.root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	assert.NotContains(t, list("./..."), filepath.Base(wb.work))
	assert.Contains(t, list("./"+wb.rel(dir)), "/"+wb.rel(dir)+"\n")
}

func TestResetForgetsTheHints(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	require.NoError(t, wb.saveState(state{Hints: map[string]map[string]int{"02-loop": {"run-loop": 2}, "06-steering": {"x": 1}}}))
	require.Equal(t, 0, runCommand(t, wb, "reset", "02").status)
	assert.Equal(t, map[string]map[string]int{"06-steering": {"x": 1}}, wb.loadState().Hints)
}

func TestSolutionShowsWhatDiffers(t *testing.T) {
	wb := testWorkbook(t, false)
	require.Equal(t, 0, runCommand(t, wb, "start", "02").status)
	dir := wb.copyDir("02-loop")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "README.md")))

	res := runCommand(t, wb, "solution", "02")
	assert.Equal(t, 0, res.status)
	rel := wb.rel(dir)
	assert.Contains(t, res.stdout, "--- "+rel+"/loop.go (yours)\n+++ labs/02-loop/loop.go (the lab's)\n@@ ")
	assert.NotContains(t, res.stdout, firstLine(labOf(t, "02-loop").Exercises[0].Regions[0].TODO.EN), "the starter's TODO, left in place, is no difference")
	assert.Contains(t, res.stdout, "+\t// Step 1: the user's input enters the history.")
	assert.Contains(t, res.stdout, rel+"/README.md is missing from your copy (the lab's is labs/02-loop/README.md).")
	assert.Contains(t, res.stdout, rel+"/notes.txt is yours alone")
	assert.NotContains(t, res.stdout, "main_test.go", "only the files that differ")
	assert.NotContains(t, res.stdout, "\x1b[", "no colour off a terminal")

	labFiles, err := wb.labFiles("02-loop")
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, writeFiles(dir, labFiles))
	res = runCommand(t, wb, "solution", "02")
	assert.Equal(t, "Your files in "+rel+" are the lab's.\n", res.stdout)
}

func TestStateSurvivesABrokenFile(t *testing.T) {
	wb := testWorkbook(t, false)
	require.NoError(t, os.MkdirAll(wb.work, 0o755))
	require.NoError(t, os.WriteFile(wb.statePath(), []byte("{not json"), 0o644))
	assert.Empty(t, wb.loadState().Hints)
	require.NoError(t, wb.saveState(state{Hints: map[string]map[string]int{"02-loop": {"run-loop": 1}}}))
	assert.Equal(t, 1, wb.loadState().Hints["02-loop"]["run-loop"])
}

// TestExitStatus checks the statuses of the front door's commands, which
// package cli gives: 0 for -h, 2 for a bad command line, 1 for a command
// that failed, each with its own message and no other.
func TestExitStatus(t *testing.T) {
	wb := testWorkbook(t, false)
	res := runCommand(t, wb, "-h")
	assert.Equal(t, 0, res.status)
	assert.Empty(t, res.stderr)

	res = runCommand(t, wb, "nonsense")
	assert.Equal(t, 2, res.status)
	assert.NotContains(t, res.stderr, "error:", "the bad command line is reported once, by the front door")

	res = runCommand(t, wb, "check", "02")
	assert.Equal(t, 1, res.status, "check before start fails")
	assert.NotContains(t, res.stdout+res.stderr, "error:", "the failure is reported once, by the command")
}

func TestLanguage(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(name string) string { return vars[name] }
	}
	assert.Equal(t, English, langFromEnv(env(nil)))
	assert.Equal(t, Chinese, langFromEnv(env(map[string]string{"LANG": "zh_CN.UTF-8"})))
	assert.Equal(t, English, langFromEnv(env(map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"})), "LC_ALL comes first")
	assert.Equal(t, Chinese, langFromEnv(env(map[string]string{"LC_MESSAGES": "zh_TW", "LANG": "en_US"})), "then LC_MESSAGES")
	_, ok := parseLang("de")
	assert.False(t, ok)
	l, ok := parseLang("zh")
	require.True(t, ok)
	assert.Equal(t, Chinese, l)
	assert.Equal(t, "译", Text{EN: "translated", ZH: "译"}.In(Chinese))
	assert.Equal(t, "only English", Text{EN: "only English"}.In(Chinese))
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
		if l.text.ZH != "" {
			assert.Equal(t, verbs(l.text.EN), verbs(l.text.ZH), "%s: %q", l.pos, l.text.EN)
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
		assert.Equal(t, 2, res.status, "%q", tt.args)
		assert.True(t, strings.HasPrefix(res.stderr, tt.want), "%q: %s", tt.args, res.stderr)
	}
}
