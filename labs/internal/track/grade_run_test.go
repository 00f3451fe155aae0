package track

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/google/go-cmp/cmp"
)

// grade's tests that grade real copies with go test: part of the
// workbook's proof.

// needGoTest skips a test that runs go test on copies of the labs where
// the verification does not run: without the proof, and under the race
// detector, which adds nothing to the learners' tests.
func needGoTest(t *testing.T) {
	t.Helper()
	expected.Verification(t)
	if raceEnabled {
		t.Skip("grade runs go test on copies of the labs; the race detector adds nothing to it")
	}
}

// lab02With returns lab 02's solution with code at the start of its
// exercise, and the imports the code needs: a learner's copy whose code
// does something a loop should not.
func lab02With(t *testing.T, code string, imports ...string) files {
	t.Helper()
	f := edited(t, solutionOf(t, "02-loop"), "loop.go", "\t// exercise: run-loop\n", "\t// exercise: run-loop\n"+code+"\n")
	for _, imp := range imports {
		f = edited(t, f, "loop.go", "import (\n", "import (\n\t\""+imp+"\"\n")
	}
	return f
}

// listing lists the files under dir with their sizes and times, to tell
// whether anything under it changed.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", path, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGradeAClass grades a class in which each learner does what grade must
// survive: one is done, and keeps a module, a test of her own and a huge
// testdata in her copy; one has not begun; one's loop spins, one's
// panics, one's floods its output, one's ends the test program; one's
// rewrites the lab's golden file; one's copy was made by another version
// of the workbook, beside a copy of no lab; one folder is named twice, and
// one does not exist. Each learner gets their grades and their reasons, the
// others are graded all the same, and nothing is left behind, in the
// repository, in the learners' folders or in TMPDIR.
func TestGradeAClass(t *testing.T) {
	needGoTest(t)
	t.Parallel()
	dir, tmp := t.TempDir(), t.TempDir()
	class := filepath.Join(dir, "class")
	at := func(name string) string { return filepath.Join(class, name) }

	writeCopy(t, at("alice"), "01-no-loop", solutionOf(t, "01-no-loop"))
	alice02 := solutionOf(t, "02-loop")
	alice02["go.mod"] = []byte("module mine\n")
	alice02["mine_test.go"] = []byte("package main\n\nimport \"testing\"\n\nfunc TestMine(t *testing.T) { t.Fatal(\"my own test, which grade leaves out\") }\n")
	writeCopy(t, at("alice"), "02-loop", alice02)
	huge, err := os.Create(filepath.Join(at("alice"), workDir, "02-loop", "testdata.bin"))
	if err != nil {
		t.Fatal(err)
	}
	huge.Truncate(1 << 30)
	huge.Close()
	lab02 := labOf(t, "02-loop")
	bob, err := starter(lab02, solutionOf(t, "02-loop"), lab02.allExercises(), English)
	if err != nil {
		t.Fatal(err)
	}
	writeCopy(t, at("bob"), "02-loop", bob)
	writeCopy(t, at("carol"), "02-loop", lab02With(t, "\tfor {\n\t}"))
	writeCopy(t, at("dave"), "02-loop", lab02With(t, "\tpanic(\"boom\")"))
	writeCopy(t, at("erin"), "02-loop", lab02With(t, "\tfor {\n\t\tfmt.Println(\"flood flood flood flood flood flood flood flood flood flood flood\")\n\t}"))
	writeCopy(t, at("frank"), "02-loop", lab02With(t, "\tos.Exit(3)", "os"))
	writeCopy(t, at("grace"), "02-loop", lab02With(t, "\tos.WriteFile(\"../../../expected/02-loop.txt\", []byte(\"mine\\n\"), 0o644)", "os"))
	older := files{}
	for name, data := range solutionOf(t, "02-loop") {
		older[name] = bytes.ReplaceAll(data, []byte("exercise: run-loop"), []byte("exercise: loop-body"))
	}
	writeCopy(t, at("heidi"), "02-loop", older)
	writeCopy(t, at("heidi"), "07-bonus", files{"main.go": []byte("package main\n")})

	wb := openedWorkbook(t)
	golden := readFile(t, filepath.Join(wb.root, "expected", "02-loop.txt"))
	before := listing(t, class)
	var out, errOut bytes.Buffer
	s := gradeSession(t, English, &out, &errOut, tmp)
	labs, err := s.gradedLabs("01,02")
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{at("alice"), at("bob"), at("carol"), at("dave"), at("erin"), at("frank"), at("grace"), at("heidi"), at("alice"), at("nobody")}
	learners := s.readClass(dirs, labs, false)
	began := time.Now()
	if err := s.gradeClass(t.Context(), learners, labs); err != nil {
		t.Fatalf("grade: %v\n%s", err, errOut.String())
	}
	t.Logf("graded %d learners in %s, %d at a time; load average %s", len(learners), time.Since(began).Round(time.Second), runtime.NumCPU(), loadAverage())

	wantLines := strings.Join([]string{
		"heidi: " + at("heidi") + "/_mywork/02-loop: made by another version of the workbook: its loop.go marks loop-body, which the lab no longer has (its exercises: run-loop); not graded. Grade it with the workbook that made it, or have the learner move their code into a new copy.",
		"heidi: " + at("heidi") + "/_mywork/07-bonus: no lab is named 07-bonus; not graded",
		at("alice") + ": given twice; graded once",
		at("nobody") + ": no such folder",
		"grace: their code changed expected/02-loop.txt, outside their copies, when graded alone; every test of theirs fails",
	}, "\n") + "\n"
	if diff := cmp.Diff(wantLines, errOut.String()); diff != "" {
		t.Errorf("grade's lines about the class (-want +got):\n%s", diff)
	}

	entries := gradeEntries(s.out, learners)
	rule := lab02.Exercises[0].Rules[0]
	broken := fmt.Sprintf("rule 1 of %d broken: %s (%s): ", len(lab02.Exercises[0].Rules), rule.Text.EN, rule.Test)
	for _, c := range []struct {
		student string
		score   int
		reason  string // the start of 02-loop/run-loop's output
	}{
		{"alice", 4, ""},
		{"bob", 0, broken + "step 2: runLoop asks the model before it returns"},
		// Where a loop that calls nothing spins, the dump of goroutines
		// cannot always say: check then names a line of the tests.
		{"carol", 0, broken + "did not finish within 10s at "},
		{"dave", 0, broken + "the test panicked: boom at loop.go:"},
		{"erin", 0, broken + "did not finish within 10s at loop.go:"},
		{"frank", 0, broken + "the test program exited in the middle of the test"},
		{"grace", 0, "not graded: the learner's code changed expected/02-loop.txt, outside their copies"},
		{"heidi", 0, "not graded: made by another version of the workbook"},
	} {
		i := slices.IndexFunc(entries, func(e gradeEntry) bool { return e.Student == c.student })
		if i < 0 {
			t.Errorf("%s is not graded, want them graded", c.student)
			continue
		}
		e := entries[i]
		if e.Score != c.score || e.MaxScore != 4 {
			t.Errorf("%s scores %d of %d, want %d of 4", c.student, e.Score, e.MaxScore, c.score)
		}
		j := slices.IndexFunc(e.Tests, func(t gradeTest) bool { return t.Name == "02-loop/run-loop" })
		if got := e.Tests[j].Output; !strings.HasPrefix(got, c.reason) || (c.reason == "") != (got == "") {
			t.Errorf("%s's 02-loop/run-loop says %q, want %q at its start", c.student, got, c.reason)
		}
	}
	if len(entries) != 8 {
		t.Errorf("%d learners graded, want 8: each folder once, none for the folder that does not exist", len(entries))
	}

	writeTable(s.out, learners, entries, labs)
	t.Logf("the table:\n%s", out.String())
	for _, line := range strings.Split(out.String(), "\n") {
		if cli.Columns(line) > tableWidth {
			t.Errorf("a line of the table takes %d columns, want at most %d:\n%s", cli.Columns(line), tableWidth, line)
		}
	}
	wantContains(t, out.String(), "\nalice    2/2  2/2    4/4\nbob        –  0/2    0/4\n", "the table")
	wantContains(t, out.String(), "\ngrace      !    !    0/4\nheidi      –    ?    0/4\n", "the table")

	wantEmptyDir(t, tmp, "after grading")
	if got := readFile(t, filepath.Join(wb.root, "expected", "02-loop.txt")); !bytes.Equal(got, golden) {
		t.Error("expected/02-loop.txt changed in the repository, want grade's learners to run in a copy of it")
	}
	if after := listing(t, class); after != before {
		t.Errorf("the learners' folders changed while grade graded them, want them as they were:\n%s", cmp.Diff(before, after))
	}
}

// TestGradeEndToEnd runs go run ./labs grade as an instructor does: the
// table, -json and the exit status.
func TestGradeEndToEnd(t *testing.T) {
	needGoTest(t)
	t.Parallel()
	dir, tmp := t.TempDir(), t.TempDir()
	writeCopy(t, filepath.Join(dir, "ada"), "02-loop", solutionOf(t, "02-loop"))
	wb := testWorkbook(t, false)

	res := runIn(t, wb, inTemp(tmp), "grade", "-labs", "02", "-json", filepath.Join(dir, "ada"), filepath.Join(dir, "nobody"))
	wantStatus(t, res, 0)
	var entries []gradeEntry
	if err := json.Unmarshal([]byte(res.stdout), &entries); err != nil {
		t.Fatalf("%s: standard output is not JSON: %v\n%s", res, err, res.stdout)
	}
	if len(entries) != 1 || entries[0].Student != "ada" || entries[0].Score != 2 || entries[0].MaxScore != 2 {
		t.Errorf("%s: %+v, want ada with 2 points of 2", res, entries)
	}
	if want := filepath.Join(dir, "nobody") + ": no such folder\n"; res.stderr != want {
		t.Errorf("%s: standard error %q, want %q", res, res.stderr, want)
	}
	wantEmptyDir(t, tmp, "%s", res)

	res = runIn(t, wb, inTemp(tmp), "-lang", "zh", "grade", "-labs", "02", filepath.Join(dir, "ada"))
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "学员   02  总分\nada   2/2   2/2\n", "%s", res)
	wantEmptyDir(t, tmp, "%s", res)
}

// TestGradeStopsOnASignal checks that Ctrl-C, SIGTERM and SIGHUP stop grade
// while it grades a learner whose loop spins: the learner's go test ends,
// with its test binary, and grade's folder is removed before grade ends,
// with 130 after Ctrl-C, by the signal after the others.
func TestGradeStopsOnASignal(t *testing.T) {
	needGoTest(t)
	if runtime.GOOS != "linux" {
		t.Skip("finding the test binary needs /proc")
	}
	spin := filepath.Join(t.TempDir(), "spin")
	writeCopy(t, spin, "02-loop", lab02With(t, "\tfor {\n\t}"))
	for _, c := range []struct {
		signal os.Signal // nil for Ctrl-C
		status int
		stderr string
	}{
		{nil, 130, cli.ErrInterrupted.Error() + "\n"},
		{syscall.SIGTERM, 128 + int(syscall.SIGTERM), ""},
		{syscall.SIGHUP, 128 + int(syscall.SIGHUP), ""},
	} {
		tmp := t.TempDir()
		interrupts := make(chan struct{}, 1)
		hangups := make(chan os.Signal, 1)
		wb := testWorkbook(t, false)
		// The signal comes once the learner's go test runs.
		wb.goTestStarted = func() {
			if c.signal == nil {
				interrupts <- struct{}{}
			} else {
				hangups <- c.signal
			}
		}
		ctx := cli.WithHangups(cli.WithInterrupts(context.Background(), interrupts), hangups)
		var stdout, stderr bytes.Buffer
		program := func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return runEnding(ctx, wb, inTemp(tmp), args, stdout, stderr)
		}
		status := cli.Run(ctx, program, []string{"grade", "-labs", "02", spin}, &stdout, &stderr)
		if status != c.status || stderr.String() != c.stderr {
			t.Errorf("grade, stopped by %v: exit status %d, standard error %q; want %d and %q", c.signal, status, stderr.String(), c.status, c.stderr)
		}
		wantEmptyDir(t, tmp, "grade, stopped by %v", c.signal)
		if n := binariesNamed("02-loop.test"); n != 0 {
			t.Errorf("grade, stopped by %v: %d test binaries still run, want none", c.signal, n)
		}
	}
}

// workflowShell returns the command that runs a step's command with sh in
// dir, as GitHub Actions runs it with bash, ended after two minutes.
func workflowShell(t *testing.T, command, dir string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	return cmd
}

// TestTheClassroomWorkflowRunsFromAFreshCopy runs each command of
// .github/workflows/classroom.yml, as its steps run them, in a copy of the
// workbook with nothing but Go, and a learner's copies in _mywork: each
// writes to $GITHUB_OUTPUT the result its step's id names for the reporter,
// the grades of its lab.
func TestTheClassroomWorkflowRunsFromAFreshCopy(t *testing.T) {
	needGoTest(t)
	needShell(t)
	t.Parallel()
	wf := readWorkflow(t)
	wb := openedWorkbook(t)
	repo := filepath.Join(t.TempDir(), "repo")
	if _, err := copyWorkbook(wb.root, repo); err != nil {
		t.Fatal(err)
	}
	writeCopy(t, repo, "02-loop", solutionOf(t, "02-loop"))
	lab01 := labOf(t, "01-no-loop")
	started, err := starter(lab01, solutionOf(t, "01-no-loop"), lab01.allExercises(), English)
	if err != nil {
		t.Fatal(err)
	}
	writeCopy(t, repo, "01-no-loop", started)
	output := filepath.Join(t.TempDir(), "github-output")
	writeFile(t, output, nil, 0o644)
	tmp := t.TempDir()
	for _, step := range wf.labs {
		cmd := workflowShell(t, step.run, repo)
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+output, "TMPDIR="+tmp, "LANG=C.UTF-8", "LC_ALL=", "LC_MESSAGES=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("step %s: %s: %v\n%s", step.name, step.run, err, out)
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(readFile(t, output)), "\n"), "\n")
	if len(lines) != len(wf.labs) {
		t.Fatalf("$GITHUB_OUTPUT holds %d lines, want one for each lab's step, %d:\n%s", len(lines), len(wf.labs), strings.Join(lines, "\n"))
	}
	for i, step := range wf.labs {
		data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[i], "result="))
		if !strings.HasPrefix(lines[i], "result=") || err != nil {
			t.Errorf("step %s wrote %q, want result=BASE64 (%v)", step.name, lines[i], err)
			continue
		}
		var res classroomResult
		if err := json.Unmarshal(data, &res); err != nil {
			t.Errorf("step %s: its result is not JSON: %v", step.name, err)
			continue
		}
		lab := labOf(t, step.name)
		want := "fail"
		if step.name == "02-loop" {
			want = "pass"
		}
		score := 0
		for _, test := range res.Tests {
			score += test.Score
			if !strings.HasPrefix(test.Name, step.name+"/") {
				t.Errorf("step %s grades %s, want only its lab", step.name, test.Name)
			}
		}
		if res.Status != want || res.MaxScore != len(lab.Exercises)+1 || len(res.Tests) != len(lab.Exercises)+1 || (want == "pass") != (score == res.MaxScore) {
			t.Errorf("step %s: %s, %d of %d points, %d tests; want %s, a point for each exercise and one for the output", step.name, res.Status, score, res.MaxScore, len(res.Tests), want)
		}
		if step.name == "03-maxturns" && res.Tests[0].Message != "not started" {
			t.Errorf("step %s: %q, want %q", step.name, res.Tests[0].Message, "not started")
		}
	}
	wantEmptyDir(t, tmp, "after the workflow's steps")
}
