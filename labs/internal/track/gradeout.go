package track

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// A gradeEntry is one learner's grades, as -json writes them: the shape
// that autograders such as Gradescope read.
type gradeEntry struct {
	Student  string      `json:"student"`
	Score    int         `json:"score"`
	MaxScore int         `json:"max_score"`
	Tests    []gradeTest `json:"tests"`
}

// A gradeTest is one test of a learner's grades: an exercise of a lab
// ("02-loop/run-loop"), or the lab's output ("02-loop/output"), one point
// each.
type gradeTest struct {
	Name     string `json:"name"`
	Status   string `json:"status"` // testPassed or testFailed
	Score    int    `json:"score"`
	MaxScore int    `json:"max_score"`
	// Output is the one-line reason of a test that fails, "" for one
	// that passes.
	Output string `json:"output"`
	// title says what the test checks, in the instructor's language:
	// "exercise 1: the six steps of runLoop".
	title string
}

// A test's status, as -json writes it.
const (
	testPassed = "passed"
	testFailed = "failed"
)

// outputTest is the name of a lab's last test, after its exercises': its
// output matches the lab's golden files.
const outputTest = "output"

// maxReason is how many characters of a reason a test keeps: one line.
const maxReason = 300

// gradeEntries turns the class's reports into grades, with p's language:
// learners by name, their tests by lab, then exercise, then output.
func gradeEntries(p *printer, class []*learner) []gradeEntry {
	var out []gradeEntry
	for _, l := range class {
		e := gradeEntry{Student: l.name, Tests: []gradeTest{}}
		for _, ll := range l.labs {
			for _, t := range labTests(p, l, ll) {
				e.Score += t.Score
				e.MaxScore += t.MaxScore
				e.Tests = append(e.Tests, t)
			}
		}
		out = append(out, e)
	}
	return out
}

// labTests returns the tests of a learner's lab: one for each exercise,
// then one for its output.
func labTests(p *printer, l *learner, ll *learnerLab) []gradeTest {
	var tests []gradeTest
	for i, ex := range ll.lab.Exercises {
		tests = append(tests, gradeTest{Name: ll.lab.Name + "/" + ex.ID, title: p.sprint(msgGradeExercise, i+1, ex.Title.In(p.lang))})
	}
	tests = append(tests, gradeTest{Name: ll.lab.Name + "/" + outputTest, title: msgGradeOutputTitle.In(p.lang)})
	set := func(i int, reason string) {
		t := &tests[i]
		t.MaxScore = 1
		if reason == "" {
			t.Status, t.Score = testPassed, 1
			return
		}
		t.Status, t.Score, t.Output = testFailed, 0, shortReason(reason)
	}
	all := func(reason string) []gradeTest {
		for i := range tests {
			set(i, reason)
		}
		return tests
	}
	r := ll.report
	switch {
	case l.outside != "":
		return all(p.sprint(msgGradeOutside, printable(l.outside)))
	case !ll.started:
		return all(msgGradeNotStarted.In(p.lang))
	case !ll.graded():
		return all(p.sprint(msgGradeNotGraded, ll.skip.In(p.lang)))
	case l.failed != "":
		return all(p.sprint(msgGradeCouldNot, printable(l.failed)))
	case r == nil:
		return all(p.sprint(msgGradeCouldNot, "no report"))
	case r.cannotRun():
		return all(cannotRunReason(p, r))
	}
	for i := range r.exercises {
		e := &r.exercises[i]
		if e.broken < 0 {
			set(i, "")
			continue
		}
		if e.notRun() {
			set(i, msgNotRun.In(p.lang))
			continue
		}
		rule := e.exercise.Rules[e.broken]
		set(i, p.sprint(msgGradeRule, e.broken+1, len(e.exercise.Rules), rule.Text.In(p.lang), e.finding.test, findingDetail(p, r, e.finding)))
	}
	last := len(tests) - 1
	defer func() {
		// A data race fails the exercise whose rule's test saw it, or
		// else the output, unless it fails already.
		if r.race == nil {
			return
		}
		i := slices.IndexFunc(ll.lab.Exercises, func(e Exercise) bool {
			return slices.ContainsFunc(e.Rules, func(rule Rule) bool { return topLevel(rule.Test) == topLevel(r.race.test) })
		})
		if i < 0 {
			i = last
		}
		if tests[i].Status == testPassed {
			set(i, findingDetail(p, r, r.race))
		}
	}()
	switch {
	case !r.exercisesPass() || !r.checkedAll:
		set(last, msgGradeOutputWaits.In(p.lang))
	case r.other != nil && r.other.test == "":
		set(last, p.sprint(msgGradeNotChecked, p.sprint(r.other.why, r.other.whyArgs...)))
	case r.other != nil:
		set(last, p.sprint(msgGradeOther, r.other.test, findingDetail(p, r, r.other)))
	case r.golden != nil:
		set(last, goldenDetail(p, r, r.golden))
	default:
		set(last, "")
	}
	return tests
}

// cannotRunReason says why a copy's tests could not run.
func cannotRunReason(p *printer, r *report) string {
	switch {
	case len(r.build) > 0:
		msg := msgGradeBuild
		if r.vet {
			msg = msgGradeVet
		}
		return p.sprint(msg, inCopy(r, r.build[0]))
	case len(r.panicked) > 0:
		return p.sprint(msgGradePanicStart, inCopy(r, strings.Join(trimAll(r.panicked), " ")))
	case r.exited:
		return msgGradeExitStart.In(p.lang)
	}
	return strings.Join(append([]string{p.sprint(msgGradeHangStart, testTimeout)}, inCopyAll(r, trimAll(r.hung))...), " ")
}

// findingDetail says in one line what went wrong in a test: check's
// sentence for a crash or a timeout, with where it happened, or the first
// thing the test reported, or its first line.
func findingDetail(p *printer, r *report, f *finding) string {
	var parts []string
	if f.why.EN != "" {
		why, ok := shortWhys[f.why]
		if !ok {
			why = f.why
		}
		parts = append(parts, p.sprint(why, f.whyArgs...))
	}
	for i, l := range f.lines {
		switch {
		case f.why == msgRace && i < maxRaces:
			// Where the two goroutines used the memory.
			parts = append(parts, inCopy(r, strings.TrimSpace(l)))
			continue
		case f.why == msgRace:
		case strings.HasPrefix(strings.TrimSpace(l), "at "):
			parts = append(parts, inCopy(r, strings.TrimSpace(l)))
		default:
			continue
		}
		break
	}
	switch {
	case len(f.found) > 0:
		fd := f.found[0]
		s := fd.Message
		if fd.Want != "" || fd.Got != "" {
			s += " (" + p.sprint(msgGradeWantGot, fd.Want, fd.Got) + ")"
		}
		parts = append(parts, s)
	case f.why.EN == "":
		if first := firstSaid(f.lines); first != "" {
			parts = append(parts, inCopy(r, first))
		}
	}
	return strings.Join(parts, " ")
}

// shortWhys are check's sentences that a line of grade says shorter: the
// instructor reads why, check's learner also what to do.
var shortWhys = map[Text]Text{
	msgTimeout:      msgGradeTimeout,
	msgTimeoutLock:  msgGradeTimeoutLock,
	msgExitedInTest: msgGradeExited,
	msgOutOfMemory:  msgGradeMemory,
	msgRace:         msgGradeRace,
}

// A golden test's report of a difference: "your output differs from the
// lab's at line 7", then the two lines.
var (
	differsAt = regexp.MustCompile(`differs from the lab's at line (\d+)`)
	labsLine  = regexp.MustCompile(`^\s*the lab's: (.*)$`)
	yoursLine = regexp.MustCompile(`^\s*yours:\s+(.*)$`)
)

// goldenDetail says in one line how the output differs from the lab's, in
// the instructor's language, or what else made a golden test fail.
func goldenDetail(p *printer, r *report, f *finding) string {
	var line, labs, yours string
	for _, l := range f.lines {
		if m := differsAt.FindStringSubmatch(l); m != nil && line == "" {
			line = m[1]
		} else if m := labsLine.FindStringSubmatch(l); m != nil && labs == "" {
			labs = m[1]
		} else if m := yoursLine.FindStringSubmatch(l); m != nil && yours == "" {
			yours = m[1]
		}
	}
	switch {
	case line != "" && labs != "" && yours != "":
		return p.sprint(msgGradeDiffers, line, labs, yours)
	case line != "":
		return p.sprint(msgGradeDiffersShort, line)
	}
	return findingDetail(p, r, f)
}

// testLine is a line a test printed with t.Error: "main_test.go:42: text".
var testLine = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: (.*)$`)

// firstSaid returns the first line a test printed, without where.
func firstSaid(lines []string) string {
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if m := testLine.FindStringSubmatch(l); m != nil {
			return m[1]
		}
		return l
	}
	return ""
}

// inCopy writes the paths of a line from the learner's copy: loop.go:60,
// not _class/07/02-loop/loop.go:60.
func inCopy(r *report, line string) string {
	line = strings.ReplaceAll(line, "./"+r.rel+"/", "")
	line = strings.ReplaceAll(line, r.rel+"/", "")
	return strings.ReplaceAll(line, r.dir+"/", "")
}

// inCopyAll is inCopy for each line.
func inCopyAll(r *report, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = inCopy(r, l)
	}
	return out
}

// trimAll trims the space around each line.
func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// shortReason makes a reason one printable line of at most maxReason
// characters.
func shortReason(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(strings.TrimSpace(s))
	return truncate(printable(s), maxReason)
}

// truncate shortens s to n characters, the last an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// oneLine joins the lines of s that are not blank with "; ".
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// writeJSON writes the grades as -json does: a list, one entry a learner.
func writeJSON(w io.Writer, entries []gradeEntry) error {
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// A classroomResult is the result that GitHub Classroom's grading reporter
// (classroom-resources/autograding-grading-reporter) reads from a step's
// output "result", encoded in base64: the shape its own graders write.
// The reporter adds up each test's score, and the max_score of each step.
type classroomResult struct {
	Version  int             `json:"version"`
	Status   string          `json:"status"` // "pass" or "fail"
	MaxScore int             `json:"max_score"`
	Tests    []classroomTest `json:"tests"`
}

// A classroomTest is one test of a classroomResult.
type classroomTest struct {
	Name     string `json:"name"`
	Status   string `json:"status"` // "pass" or "fail"
	Score    int    `json:"score"`
	Message  string `json:"message"`
	TestCode string `json:"test_code"`
	Filename string `json:"filename"`
	LineNo   int    `json:"line_no"`
	Duration int    `json:"duration"`
}

// writeClassroom writes a learner's grades as -classroom does: one line,
// result=BASE64, for a step to add to $GITHUB_OUTPUT.
func writeClassroom(w io.Writer, e gradeEntry) error {
	res := classroomResult{Version: 1, Status: "pass", MaxScore: e.MaxScore, Tests: []classroomTest{}}
	for _, t := range e.Tests {
		ct := classroomTest{Name: t.Name + ": " + t.title, Status: "pass", Score: t.Score, Message: t.Output}
		if t.Status != testPassed {
			ct.Status, res.Status = "fail", "fail"
		}
		res.Tests = append(res.Tests, ct)
	}
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "result=%s\n", base64.StdEncoding.EncodeToString(data))
	return err
}
