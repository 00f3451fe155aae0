package track

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A learner is one learner of a class that grade grades: their name, the
// folder the instructor named, and their copies of the labs graded.
type learner struct {
	name string // their folder's name, as the table and -json show it
	arg  string // the folder the instructor named
	labs []*learnerLab
	// slot is their folder in grade's copy of the workbook, from its
	// root: "_class/07".
	slot string
	// outside is the file outside their copies that their code changed,
	// as the note shows it, if it did: every test of theirs then fails.
	outside string
	// failed says why go test could not grade them at all, if it could
	// not.
	failed string
}

// A learnerLab is one lab of a learner: not started, not graded (skip
// says why), or graded (report).
type learnerLab struct {
	lab     *Lab
	started bool
	skip    Text  // why the copy is not graded, if it is not
	code    files // the learner's Go files, tests left out
	report  *report
}

// graded reports whether the lab's copy is graded.
func (ll *learnerLab) graded() bool { return ll.started && ll.skip.EN == "" }

// maxCopyBytes is how much Go code grade reads from one copy. A lab's code
// is tens of kB: a copy with more is not a learner's work.
const maxCopyBytes = 4 << 20

// readClass reads the learners in dirs: for each, the copies of the labs
// graded. Each problem is one line on standard error, and the others are
// read all the same. A folder without copies is no learner, unless
// keepEmpty: GitHub Classroom grades a checkout whatever it holds. The
// learners come sorted by name.
func (s *session) readClass(dirs []string, labs []*Lab, keepEmpty bool) []*learner {
	var class []*learner
	byName := map[string]*learner{}
	for _, arg := range dirs {
		l, copies, ok := s.findLearner(arg)
		if !ok {
			continue
		}
		if first, ok := byName[l.name]; ok {
			if sameFolder(first.arg, arg) {
				s.errOut.say(msgGradeGivenTwice, printable(arg))
			} else {
				s.errOut.say(msgGradeTwice, printable(arg), printable(first.arg), printable(l.name))
			}
			continue
		}
		byName[l.name] = l
		found := copies != "" && s.readCopies(l, arg, copies, filepath.Base(copies) == workDir, labs)
		if !found {
			s.errOut.say(msgGradeNoCopies, printable(arg), workDir+"/"+labs[0].Name)
			if !keepEmpty {
				continue
			}
		}
		for _, lab := range labs {
			if !slices.ContainsFunc(l.labs, func(ll *learnerLab) bool { return ll.lab == lab }) {
				l.labs = append(l.labs, &learnerLab{lab: lab})
			}
		}
		slices.SortStableFunc(l.labs, func(a, b *learnerLab) int { return strings.Compare(a.lab.Name, b.lab.Name) })
		class = append(class, l)
	}
	slices.SortStableFunc(class, func(a, b *learner) int { return strings.Compare(a.name, b.name) })
	return class
}

// sameFolder reports whether two folders are one.
func sameFolder(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// findLearner finds the learner of a folder the instructor named, and the
// folder of their copies: the _mywork of their checkout, or the folder
// itself, which may be a _mywork or hold the copies itself. It reports
// false, after saying why, for a folder that is none. copies is "" when
// the learner has no folder of copies that grade reads.
func (s *session) findLearner(arg string) (l *learner, copies string, ok bool) {
	shown := printable(arg)
	info, err := os.Stat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.errOut.say(msgGradeNoDir, shown)
		return nil, "", false
	case err != nil:
		s.errOut.say(msgGradeUnreadable, shown, errors.Unwrap(err))
		return nil, "", false
	case !info.IsDir():
		s.errOut.say(msgGradeNotDir, shown)
		return nil, "", false
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		s.errOut.say(msgGradeUnreadable, shown, err)
		return nil, "", false
	}
	l = &learner{name: filepath.Base(abs), arg: arg}
	if l.name == workDir {
		// A learner's _mywork itself: the learner is its parent.
		l.name = filepath.Base(filepath.Dir(abs))
		return l, abs, true
	}
	mywork := filepath.Join(abs, workDir)
	switch info, err := os.Lstat(mywork); {
	case err == nil && info.Mode()&fs.ModeSymlink != 0:
		s.errOut.say(msgGradeLink, printable(l.name), printable(filepath.Join(arg, workDir)))
		return l, "", true
	case err == nil && info.IsDir():
		return l, mywork, true
	}
	return l, abs, true
}

// readCopies reads the copies in the folder dir, which the instructor named
// as arg, and reports whether it found any: a folder named after a lab
// (02-loop), which it reads if the lab is graded. In a _mywork (mywork), every
// other folder but a kept one (02-loop-old, as reset advises) is a copy of
// no lab; elsewhere only a folder named like a lab is, so that a checkout's
// own folders (labs, expected) are not copies.
func (s *session) readCopies(l *learner, arg, dir string, mywork bool, labs []*Lab) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		s.errOut.say(msgGradeUnreadable, printable(arg), errors.Unwrap(err))
		return false
	}
	found := false
	from := relFrom(arg, dir)
	for _, e := range entries {
		name := e.Name()
		shown := printable(filepath.Join(arg, from, name))
		known := slices.Contains(s.wb.labs, name)
		switch {
		case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
			continue
		case !known && !mywork && !labName(name):
			continue
		case !known && e.IsDir() && slices.Contains(s.wb.labs, strings.TrimSuffix(name, "-old")):
			continue // kept aside, as reset advises
		case !known && (e.IsDir() || e.Type()&fs.ModeSymlink != 0):
			s.errOut.say(msgGradeUnknownLab, printable(l.name), shown, printable(name))
			found = true
			continue
		case !known:
			continue // a file of the learner's, such as the track's state
		}
		found = true
		i := slices.IndexFunc(labs, func(lab *Lab) bool { return lab.Name == name })
		if i < 0 {
			if s.wb.lab(name) == nil {
				s.errOut.say(msgGradeNoTrack, printable(l.name), shown, name)
			}
			continue // a lab that -labs leaves out
		}
		ll := &learnerLab{lab: labs[i], started: true}
		l.labs = append(l.labs, ll)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			s.errOut.say(msgGradeLink, printable(l.name), shown)
			ll.skip = msgGradeWhyLink
		case !e.IsDir():
			s.errOut.say(msgGradeCopyNotDir, printable(l.name), shown)
			ll.skip = msgGradeWhyFile
		default:
			s.readCode(l, ll, shown, filepath.Join(dir, name))
		}
	}
	return found
}

// relFrom returns dir from arg, "" when it is arg itself: the copies'
// folder as the instructor would write it.
func relFrom(arg, dir string) string {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(abs, dir)
	if err != nil || rel == "." {
		return ""
	}
	return rel
}

// labName reports whether name has the form of a lab's name: 02-loop.
func labName(name string) bool {
	number, rest, ok := strings.Cut(name, "-")
	return ok && len(number) == 2 && strings.Trim(number, "0123456789") == "" && isID(rest)
}

// readCode reads the learner's Go code in their copy of a lab: the Go
// files at its top, tests left out, for the lab's own tests check it. It
// reads no link, no file in a folder below (testdata, a module's go.mod,
// whatever the learner keeps there) and nothing but Go files. It marks a
// copy made by another version of the workbook, whose markers name
// regions the lab does not have, and one that holds more code than any
// learner writes.
func (s *session) readCode(l *learner, ll *learnerLab, shown, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		s.errOut.say(msgGradeUnreadable, shown, errors.Unwrap(err))
		ll.skip = msgGradeWhyFile
		return
	}
	ll.code = files{}
	size := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			s.errOut.say(msgGradeFileLink, printable(l.name), shown+"/"+printable(name))
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err == nil && size+int(info.Size()) > maxCopyBytes {
			err = errTooLarge
		}
		var data []byte
		if err == nil {
			data, err = os.ReadFile(filepath.Join(dir, name))
		}
		if errors.Is(err, errTooLarge) || size+len(data) > maxCopyBytes {
			s.errOut.say(msgGradeTooLarge, printable(l.name), shown, maxCopyBytes>>20)
			ll.skip, ll.code = msgGradeWhyLarge, nil
			return
		}
		if err != nil {
			s.errOut.say(msgGradeUnreadable, shown+"/"+printable(name), err)
			continue
		}
		size += len(data)
		ll.code[name] = data
	}
	if file, old, ok := olderMarkers(ll.lab, ll.code); ok {
		var ids []string
		for _, e := range ll.lab.Exercises {
			ids = append(ids, e.ID)
		}
		s.errOut.say(msgGradeOlder, printable(l.name), shown, file, printable(strings.Join(old, ", ")), strings.Join(ids, ", "))
		ll.skip = msgGradeWhyOlder
	}
}

// errTooLarge marks a copy with more Go code than grade reads.
var errTooLarge = errors.New("too large")

// olderMarkers finds, in the learner's files with regions, a marker whose
// ID is no region of the lab in that file: the copy was made by another
// version of the workbook, whose exercises were named otherwise. It returns
// the file and those IDs.
func olderMarkers(lab *Lab, code files) (string, []string, bool) {
	for _, file := range lab.learnerFiles() {
		src, ok := code[file]
		if !ok {
			continue
		}
		regions, err := findRegions(src)
		if err != nil {
			continue // markers the learner broke: graded as they are
		}
		var unknown []string
		for _, r := range regions {
			known := slices.ContainsFunc(lab.Exercises, func(e Exercise) bool {
				return slices.ContainsFunc(e.Regions, func(reg Region) bool { return reg.File == file && reg.ID == r.id })
			})
			if !known {
				unknown = append(unknown, r.id)
			}
		}
		if len(unknown) > 0 {
			return file, unknown, true
		}
	}
	return "", nil, false
}
