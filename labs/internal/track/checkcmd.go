package track

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// check runs the lab's tests on the learner's copy and prints what they
// found. It fails unless everything passes.
func (s *session) check(ctx context.Context, lab *Lab) error {
	r, err := s.checkOne(ctx, lab, true)
	if err != nil {
		return err
	}
	r.write(s.out, s.nextLab(lab))
	if !r.passes() {
		return errFailed
	}
	return nil
}

// checkOne checks the learner's copy of the lab, and forgets the hints of
// the exercises that pass. fresh is as for workbook.check.
func (s *session) checkOne(ctx context.Context, lab *Lab, fresh bool) (*report, error) {
	if err := s.started(lab); err != nil {
		return nil, err
	}
	reports, err := s.checkCopies(ctx, []target{{lab: lab, dir: s.wb.copyDir(lab.Name)}}, fresh)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, err
	}
	if err := s.wb.forgetPassed(reports); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	return reports[0], nil
}

// checkCopies checks the copies as workbook.check does, and says so on the
// terminal while it runs.
func (s *session) checkCopies(ctx context.Context, targets []target, fresh bool) ([]*report, error) {
	if len(targets) == 1 {
		s.status.show(msgChecking, s.wb.rel(targets[0].dir))
	} else {
		s.status.show(msgCheckingAll, s.wb.rel(s.wb.work))
	}
	defer s.status.clear()
	return s.wb.check(ctx, targets, fresh)
}

// nextContents is nextLab's advice to run the table of contents.
const nextContents = "(contents)"

// nextLab is what to do after the lab passes: start the next lab with
// exercises; if it is started already, look at the table of contents,
// which knows whether it passes too (nextContents); "" after the last.
func (s *session) nextLab(lab *Lab) string {
	after := false
	for _, name := range s.wb.labs {
		if name == lab.Name {
			after = true
			continue
		}
		if !after || registry[name] == nil {
			continue
		}
		if _, err := os.Stat(s.wb.copyDir(name)); err == nil {
			return nextContents
		}
		return "start " + name
	}
	return ""
}

// hint gives the next hint of the first exercise that fails, one more each
// time, and remembers how many it gave.
func (s *session) hint(ctx context.Context, lab *Lab) error {
	r, err := s.checkOne(ctx, lab, false)
	if err != nil {
		return err
	}
	var ex *Exercise
	switch {
	case len(r.build) > 0:
		// A hint may be what the compiler asks for: the exercise whose
		// code the first error is in gets its next hint.
		var file string
		var at place
		if ex, file, at = exerciseAt(lab, r.dir, r.build); ex == nil {
			s.out.say(msgHintBuild, lab.Name)
			return errFailed
		}
		where := s.out.sprint(msgFirstInside)
		switch path := s.wb.rel(filepath.Join(r.dir, file)); at {
		case outsideRegion:
			where = s.out.sprint(msgFirstOutside, path)
		case noRegion:
			where = s.out.sprint(msgFirstInFile, path)
		}
		if r.vet {
			s.out.say(msgHintVetFails, lab.Name, where)
		} else {
			s.out.say(msgHintDoesNotCompile, lab.Name, where)
		}
	case len(r.panicked) > 0, r.exited:
		s.out.say(msgHintPanic, lab.Name)
		return errFailed
	default:
		first := r.firstFailing()
		switch {
		case first == nil && r.passes():
			s.out.say(msgHintAllPass, lab.Name)
			return nil
		case first == nil:
			s.out.say(msgHintExercisePass, lab.Name, lab.Name)
			return nil
		}
		ex = first.exercise
	}
	hints, err := s.hints(lab, ex)
	if err != nil {
		return err
	}
	st := s.wb.loadState()
	if st.Hints[lab.Name] == nil {
		st.Hints[lab.Name] = map[string]int{}
	}
	n := min(st.Hints[lab.Name][ex.ID]+1, len(hints))
	st.Hints[lab.Name][ex.ID] = n
	if err := s.wb.saveState(st); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	s.out.say(msgHintHeader, n, len(hints), lab.number(ex), lab.Name, ex.Title.In(s.out.lang))
	for _, l := range strings.Split(hints[n-1], "\n") {
		s.out.lines("  " + l)
	}
	if n < len(hints) {
		s.out.say(msgHintMore, lab.Name)
	} else {
		s.out.say(msgHintLastAgain)
	}
	return nil
}

// hints returns the exercise's hints in the learner's language, and a last
// one that points to the lines of the lab that solve it.
func (s *session) hints(lab *Lab, ex *Exercise) ([]string, error) {
	var out []string
	for _, h := range ex.Hints {
		out = append(out, h.In(s.out.lang))
	}
	var where []string
	for _, r := range ex.Regions {
		fr, ok, err := regionIn(s.wb.labDir(lab.Name), r)
		if err != nil {
			return nil, fmt.Errorf("labs/%s/%s: %w", lab.Name, r.File, err)
		}
		if ok {
			// The body's lines, counting from 1: after the begin marker,
			// up to the line before the end marker.
			where = append(where, fmt.Sprintf("labs/%s/%s:%d-%d", lab.Name, r.File, fr.begin+2, fr.end))
		}
	}
	return append(out, s.out.sprint(msgHintLines, strings.Join(where, msgListComma.In(s.out.lang)), lab.Name)), nil
}

// buildError is the place of a compiler's message, as in
// "mywork/03-maxturns/loop.go:94:1: missing return".
var buildError = regexp.MustCompile(`^(?:\S*/)?([^/\s]+\.go):(\d+):`)

// A place is where a compiler's message points in an exercise's file.
type place int

const (
	insideRegion  place = iota // between the exercise's markers
	outsideRegion              // elsewhere in the file, which has the markers
	noRegion                   // in a file whose markers the learner broke
)

// exerciseAt returns the exercise whose code the first of the compiler's
// messages is about, the file the message names, and where in it the
// message points. Outside every region, the exercise is the first with a
// region in that file: the code the learner wrote there is the likely
// cause, as with an import it no longer uses. It returns nil if the message
// names no file of an exercise.
func exerciseAt(lab *Lab, dir string, build []string) (*Exercise, string, place) {
	i := slices.IndexFunc(build, func(l string) bool { return buildError.MatchString(strings.TrimSpace(l)) })
	if i < 0 {
		return nil, "", noRegion
	}
	m := buildError.FindStringSubmatch(strings.TrimSpace(build[i]))
	file, line := m[1], 0
	fmt.Sscan(m[2], &line)
	var inFile *Exercise
	marked := false
	for i := range lab.Exercises {
		e := &lab.Exercises[i]
		for _, reg := range e.Regions {
			if reg.File != file {
				continue
			}
			inFile = cmp.Or(inFile, e)
			fr, ok, _ := regionIn(dir, reg) // markers the learner broke: not ok
			if !ok {
				continue
			}
			marked = true
			if fr.begin < line && line <= fr.end+1 {
				return e, file, insideRegion
			}
		}
	}
	if !marked {
		return inFile, file, noRegion
	}
	return inFile, file, outsideRegion
}
