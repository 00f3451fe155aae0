package track

import (
	"context"
	"os"
)

// check runs the lab's tests on the learner's copy and prints what they
// found, with the race detector once everything else passes in a lab whose
// exercises start goroutines. It fails unless everything passes.
func (s *session) check(ctx context.Context, lab *Lab) error {
	r, err := s.checkOne(ctx, lab, checkOptions{fresh: true, race: true})
	if err != nil {
		return err
	}
	r.watching = s.watching
	r.write(s.out, s.nextLab(lab))
	if !r.passes() {
		return errFailed
	}
	return nil
}

// checkOne checks the learner's copy of the lab, forgets the hints of the
// exercises that pass, and keeps what hint needs of the report.
func (s *session) checkOne(ctx context.Context, lab *Lab, opts checkOptions) (*report, error) {
	if err := s.started(lab); err != nil {
		return nil, err
	}
	dir := s.wb.copyDir(lab.Name)
	digest := s.wb.digest(lab, dir)
	opts.racing = func() {
		s.status.clear()
		s.status.show(msgCheckingRace, s.wb.rel(dir))
	}
	reports, err := s.checkCopies(ctx, []target{{lab: lab, dir: dir}}, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, err
	}
	if err := s.wb.forgetPassed(reports); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	if err := s.wb.remember(lab, digest, choose(lab, reports[0])); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	return reports[0], nil
}

// checkCopies checks the copies as workbook.check does, and says so on the
// terminal while it runs.
func (s *session) checkCopies(ctx context.Context, targets []target, opts checkOptions) ([]*report, error) {
	if len(targets) == 1 {
		s.status.show(msgChecking, s.wb.rel(targets[0].dir))
	} else {
		s.status.show(msgCheckingAll, s.wb.rel(s.wb.work))
	}
	defer s.status.clear()
	return s.wb.check(ctx, targets, opts)
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
		if !after || s.wb.lab(name) == nil {
			continue
		}
		if _, err := os.Stat(s.wb.copyDir(name)); err == nil {
			return nextContents
		}
		return "start " + name
	}
	return ""
}
