package track

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// contents prints the table of contents: each lab with its idea and the
// state of its exercises, then the next thing to do. It checks every lab
// the learner started, all in one go.
func (s *session) contents(ctx context.Context) error {
	wb, p := s.wb, s.out
	var targets []target
	for _, name := range wb.labs {
		if lab := wb.lab(name); lab != nil {
			s.recoverCopy(lab)
			info, err := os.Stat(wb.copyDir(name))
			switch {
			case err == nil && info.IsDir():
				targets = append(targets, target{lab: lab, dir: wb.copyDir(name)})
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				// A copy that cannot be read is not a lab not started.
				return fmt.Errorf("read %s: %w", wb.rel(wb.copyDir(name)), errors.Unwrap(err))
			}
		}
	}
	reports := map[string]*report{}
	if len(targets) > 0 {
		rs, err := s.checkCopies(ctx, targets, checkOptions{})
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		for _, r := range rs {
			wb.keptRace(r)
			reports[r.lab.Name] = r
		}
		if err := wb.forgetPassed(rs); err != nil {
			s.errOut.say(msgRememberFailed, err)
		}
	}
	p.say(msgTOCHeader)
	width := 0
	for _, name := range wb.labs {
		width = max(width, len(name)+2)
	}
	// next is the first started lab that does not pass yet, or else the
	// first lab not started: work in progress comes before a new lab.
	next, unstarted := "", ""
	for _, name := range wb.labs {
		lab := wb.lab(name)
		if lab == nil {
			p.lines(p.strong.Sprintf("%-*s", width, name) + readmeTitle(wb.labDir(name)))
			p.say(msgTOCNoExercises, name)
			continue
		}
		p.lines(p.strong.Sprintf("%-*s", width, name) + lab.Idea.In(p.lang))
		r := reports[name]
		switch {
		case r == nil && s.isFile(name):
			p.sayIn(p.bad, msgTOCIsAFile, wb.rel(wb.copyDir(name)))
			next = firstOf(next, "check "+name)
		case r == nil:
			if len(lab.Exercises) == 1 {
				p.say(msgTOCNotStarted1)
			} else {
				p.say(msgTOCNotStarted, len(lab.Exercises))
			}
			unstarted = firstOf(unstarted, "start "+name)
		default:
			s.contentsOf(r)
			if !r.passes() {
				next = firstOf(next, "check "+name)
			}
		}
	}
	next = firstOf(next, unstarted)
	p.lines("")
	switch {
	case next == "":
		p.sayIn(p.good, msgTOCAllDone)
	case strings.HasPrefix(next, "start "):
		p.say(msgTOCNextStart, strings.TrimPrefix(next, "start "))
	default:
		p.say(msgTOCNextCheck, strings.TrimPrefix(next, "check "))
	}
	return nil
}

// contentsOf prints a started lab's state, one line for each exercise.
func (s *session) contentsOf(r *report) {
	p := s.out
	switch {
	case len(r.build) > 0:
		p.sayIn(p.bad, msgTOCBuild)
		return
	case len(r.panicked) > 0:
		p.sayIn(p.bad, msgTOCPanic)
		return
	case r.exited:
		p.sayIn(p.bad, msgTOCExited)
		return
	case r.failedUnseen:
		p.sayIn(p.bad, msgTOCFailedUnseen)
		return
	case r.hung != nil:
		p.sayIn(p.bad, msgTOCHung)
		return
	}
	for i, e := range r.exercises {
		title := e.exercise.Title.In(p.lang)
		switch {
		case e.broken < 0:
			p.sayIn(p.good, msgTOCPasses, i+1, title)
		case e.notRun():
			p.say(msgTOCNotRun, i+1, title)
		case e.finding != nil && e.finding.stuck != nil:
			p.sayIn(p.bad, msgTOCStuck, i+1, title)
		default:
			p.sayIn(p.bad, msgTOCFails, i+1, title, e.exercise.Rules[e.broken].Text.In(p.lang))
		}
	}
	switch {
	case !r.checkedAll:
	case r.race != nil:
		p.sayIn(p.good, msgTOCOthersPass)
		p.sayIn(p.good, msgTOCDone, goldenRule.In(p.lang))
		p.sayIn(p.bad, msgTOCGolden, raceRule.In(p.lang))
	case r.other != nil && r.other.test == "":
		p.say(msgTOCNotChecked, p.sprint(r.other.why, r.other.whyArgs...))
	case r.other != nil:
		p.sayIn(p.bad, msgTOCOther, printable(r.other.test))
	case r.golden != nil:
		p.sayIn(p.good, msgTOCOthersPass)
		p.sayIn(p.bad, msgTOCGolden, goldenRule.In(p.lang))
	default:
		// As check says it: the other tests pass, and the output too.
		p.sayIn(p.good, msgTOCOthersPass)
		p.sayIn(p.good, msgTOCDone, goldenRule.In(p.lang))
	}
}

// isFile reports whether the learner's copy of the lab is something other
// than a directory.
func (s *session) isFile(name string) bool {
	info, err := os.Lstat(s.wb.copyDir(name))
	return err == nil && !info.IsDir()
}

// firstOf returns a unless it is empty, and b otherwise.
func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// readmeTitle is the title of a lab's README, "Lab 03 · The turn limit",
// for a lab whose track has no idea line yet.
func readmeTitle(dir string) string {
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		return strings.TrimPrefix(sc.Text(), "# ")
	}
	return ""
}

// keptRace adds to a report of a copy that passes, without the race
// detector, the race that check last found in it, while the copy is as it
// was then: the table of contents does not run the race detector, and must
// not call a racy copy done.
func (wb *workbook) keptRace(r *report) {
	if !r.lab.Race || !r.passes() || r.raceChecked {
		return
	}
	c, ok := wb.lastChoice(r.lab, r.dir)
	if !ok {
		return
	}
	if m := r.lab.mistake(c.Mistake); c.Kind == hintRace || c.Kind == hintMistake && m != nil && m.Race {
		r.raceChecked, r.race = true, &finding{why: msgRace}
	}
}
