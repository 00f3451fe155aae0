package track

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// start copies the lab into _mywork/, each exercise cut out. It never
// overwrites anything.
func (s *session) start(ctx context.Context, lab *Lab) error {
	wb := s.wb
	dir := wb.copyDir(lab.Name)
	if ok, err := s.copyState(lab, dir); err != nil || ok {
		if ok {
			s.out.say(msgAlreadyStarted, lab.Name, wb.rel(dir), lab.Name)
			return errFailed
		}
		return err
	}
	if err := s.writeStarter(lab, dir); err != nil {
		return err
	}
	if err := wb.forgetLab(lab.Name); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	s.out.say(msgStarted, lab.Name, wb.rel(dir))
	s.sayExercises(lab, dir)
	s.out.say(msgStartNext, lab.Section.In(s.out.lang), lab.Name, lab.Name)
	return nil
}

// sayExercises lists the exercises and where each is written.
func (s *session) sayExercises(lab *Lab, dir string) {
	for i, e := range lab.Exercises {
		var where []string
		for _, r := range e.Regions {
			where = append(where, s.wb.rel(filepath.Join(dir, r.File)))
		}
		s.out.say(msgStartExercise, i+1, e.Title.In(s.out.lang), strings.Join(dedupe(where), msgListComma.In(s.out.lang)))
	}
}

// copyState reports whether the learner's copy exists. A copy that is a
// file, or a _mywork that is a file, is reported to the learner, as
// errFailed.
func (s *session) copyState(lab *Lab, dir string) (bool, error) {
	if info, err := os.Stat(s.wb.work); err == nil && !info.IsDir() {
		s.out.say(msgWorkIsAFile, s.wb.rel(s.wb.work))
		return false, errFailed
	}
	// Stat, not Lstat: a copy may be a symbolic link to a directory
	// elsewhere, which is a copy like any other.
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Lstat(dir); err == nil {
			s.out.say(msgCopyIsABrokenLink, s.wb.rel(dir), lab.Name)
			return false, errFailed
		}
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read %s: %w", s.wb.rel(dir), err)
	case !info.IsDir():
		s.out.say(msgCopyIsAFile, s.wb.rel(dir), lab.Name)
		return false, errFailed
	}
	return true, nil
}

// started checks that the learner has a copy of the lab, and says what to
// do if not. It returns nil if the copy is there.
func (s *session) started(lab *Lab) error {
	ok, err := s.copyState(lab, s.wb.copyDir(lab.Name))
	if err != nil {
		return err
	}
	if !ok {
		s.out.say(msgNotStarted, lab.Name, lab.Name)
		return errFailed
	}
	return nil
}

// writeStarter writes the starter of the lab to dir, which must not exist:
// first into a hidden directory beside it, then renamed, so that no half
// copy is ever left.
func (s *session) writeStarter(lab *Lab, dir string) error {
	f, err := s.starterFiles(lab, s.out.lang)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.wb.work, 0o755); err != nil {
		return fmt.Errorf("make %s: %w", s.wb.rel(s.wb.work), err)
	}
	tmp, err := os.MkdirTemp(s.wb.work, "."+lab.Name+"-")
	if err != nil {
		return fmt.Errorf("copy %s: %w", lab.Name, err)
	}
	// MkdirTemp makes a directory only its owner may read: the copy is an
	// ordinary directory of the learner's.
	err = os.Chmod(tmp, 0o755)
	if err == nil {
		err = writeFiles(tmp, f)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("copy %s: %w", lab.Name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dir); statErr == nil {
			// Another start, in another terminal, made the copy first.
			s.out.say(msgAlreadyStarted, lab.Name, s.wb.rel(dir), lab.Name)
			return errFailed
		}
		return fmt.Errorf("copy %s to %s: %w", lab.Name, s.wb.rel(dir), errors.Unwrap(err))
	}
	return nil
}

// starterFiles returns the files of the lab's starter in lang.
func (s *session) starterFiles(lab *Lab, lang Lang) (files, error) {
	labFiles, err := s.wb.labFiles(lab.Name)
	if err != nil {
		return nil, fmt.Errorf("read labs/%s: %w", lab.Name, err)
	}
	return starter(lab, labFiles, lab.allExercises(), lang)
}

// reset starts the lab over. It refuses to discard work the learner changed
// or added, unless -force.
func (s *session) reset(ctx context.Context, lab *Lab) error {
	// Nothing to start over: a mistyped lab name starts nothing.
	if err := s.started(lab); err != nil {
		return err
	}
	wb := s.wb
	dir := wb.copyDir(lab.Name)
	changed, err := s.changedFiles(lab, dir)
	if err != nil {
		return err
	}
	if len(changed) > 0 && !s.force {
		s.out.say(msgResetRefuses, wb.rel(dir), strings.Join(changed, msgListComma.In(s.out.lang)), lab.Name, wb.rel(dir), wb.rel(wb.keepDir(lab.Name)))
		return errFailed
	}
	// Move the old copy aside first: if anything fails, it is still there.
	old, err := os.MkdirTemp(wb.work, "."+lab.Name+oldMark)
	if err != nil {
		return fmt.Errorf("reset %s: %w", lab.Name, err)
	}
	aside := filepath.Join(old, lab.Name)
	if err := os.Rename(dir, aside); err != nil {
		os.RemoveAll(old)
		return fmt.Errorf("reset %s: %w", lab.Name, err)
	}
	if err := s.writeStarter(lab, dir); err != nil {
		// Put the old copy back. If even that fails, it stays aside,
		// where the next command puts it back (recoverCopy).
		if os.Rename(aside, dir) == nil {
			os.Remove(old)
		}
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("reset %s: remove the old copy: %w", lab.Name, err)
	}
	if err := wb.forgetLab(lab.Name); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	s.out.say(msgResetFresh, lab.Name)
	s.sayExercises(lab, dir)
	return nil
}

// changedFiles returns the files of the copy that are not the starter's in
// any language, and the files the learner added, hidden files and editors'
// backups included: the work reset would discard. A file the learner
// deleted is not work, and neither is the output a golden test keeps
// (*.got), which the next test run writes again.
func (s *session) changedFiles(lab *Lab, dir string) ([]string, error) {
	var starters []files
	for _, lang := range []Lang{English, Chinese} {
		f, err := s.starterFiles(lab, lang)
		if err != nil {
			return nil, err
		}
		starters = append(starters, f)
	}
	var changed []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(path, ".got") {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		var mine []byte
		if d.Type().IsRegular() {
			if mine, err = os.ReadFile(path); err != nil {
				return err
			}
		}
		for _, f := range starters {
			if want, ok := f[name]; ok && d.Type().IsRegular() && bytes.Equal(want, mine) {
				return nil
			}
		}
		changed = append(changed, cli.Quote(name))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.wb.rel(dir), err)
	}
	return changed, nil
}
