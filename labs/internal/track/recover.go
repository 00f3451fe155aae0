package track

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// start and reset never leave half a copy: each writes the starter into a
// hidden folder beside the copy and renames it into place, and reset first
// moves the old copy aside, into another hidden folder, so that it is still
// there if anything fails. The track takes SIGTERM and SIGHUP, so that they
// let a command finish (see Run); a process that is killed (kill -9, a
// power cut) may still stop between two of those steps. recoverCopy, at the
// next command, finishes or undoes what was left.

// The hidden folders, in _mywork/, of a lab named NAME: ".NAME-*" for a
// starter being written (writeStarter), ".NAME-old-*" for a copy set aside
// by reset, which holds it as NAME.
const oldMark = "-old-"

// abandonedAfter is how old a starter being written must be before
// recoverCopy takes it for abandoned: a start in another terminal may be
// writing it right now.
const abandonedAfter = time.Minute

// recoverCopy puts back the learner's copy of lab that an interrupted reset
// had set aside, if the copy is missing, and removes the hidden folders that
// an interrupted start or reset left: a set-aside copy whose lab has a copy
// again (the reset had written the new one, which the learner asked for
// with -force), and a half-written starter. It says so when it put a copy
// back. What it cannot do, it leaves as it is: the next command tries again.
func (s *session) recoverCopy(lab *Lab) {
	work := s.wb.work
	entries, err := os.ReadDir(work)
	if err != nil {
		return
	}
	dir := s.wb.copyDir(lab.Name)
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "."+lab.Name+"-") {
			continue
		}
		hidden := filepath.Join(work, name)
		if !strings.HasPrefix(name, "."+lab.Name+oldMark) {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > abandonedAfter {
				os.RemoveAll(hidden)
			}
			continue
		}
		aside := filepath.Join(hidden, lab.Name)
		if _, err := os.Lstat(aside); err == nil {
			if _, err := os.Lstat(dir); err == nil {
				os.RemoveAll(hidden)
				continue
			}
			if os.Rename(aside, dir) != nil {
				continue
			}
			s.out.say(msgCopyRecovered, lab.Name, s.wb.rel(dir))
		}
		os.Remove(hidden)
	}
}
