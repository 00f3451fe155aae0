package track

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// gradeOptions are grade's flags.
type gradeOptions struct {
	json      bool   // -json: the grades as Gradescope reads them
	classroom bool   // -classroom: the line GitHub Classroom's reporter reads
	labs      string // -labs: the labs to grade, as "01,02"; all if empty
}

// flags defines grade's flags in fs, the front door's.
func (o *gradeOptions) flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "")
	fs.BoolVar(&o.classroom, "classroom", false, "")
	fs.StringVar(&o.labs, "labs", "", "")
}

// given reports whether any of grade's flags is given.
func (o gradeOptions) given() bool { return o.json || o.classroom || o.labs != "" }

// grade grades a class: go run ./labs grade [-json | -classroom] [-labs
// LIST] DIR... Each DIR is a learner's checkout, or a folder that holds
// their copies. Each copy is graded as check grades a learner's: the lab's
// own tests, under check's limits, with every failure read as check reads
// it; but in a copy of the workbook that grade makes (classTree), with
// the lab's tests and data and only the learner's Go code. Problems with
// the folders are one line each on standard error, and the others are
// graded all the same. It succeeds once it has graded, whatever the
// learners' results.
func (s *session) grade(ctx context.Context, dirs []string) error {
	o, lang, stderr := s.grading, s.errOut.lang, s.errOut.w
	switch {
	case len(dirs) == 0:
		return usage(s.wb, lang, stderr, msgGradeNeedsDirs)
	case o.json && o.classroom:
		return usage(s.wb, lang, stderr, msgGradeJSONClassroom)
	case o.classroom && len(dirs) != 1:
		return usage(s.wb, lang, stderr, msgGradeClassroomOne, len(dirs))
	}
	labs, err := s.gradedLabs(o.labs)
	if err != nil {
		return err
	}
	class := s.readClass(dirs, labs, o.classroom)
	if len(class) == 0 {
		s.errOut.say(msgGradeNobody)
		return errFailed
	}
	ctx, stop := takeInterrupts(ctx)
	defer stop()
	err = s.gradeClass(ctx, class, labs)
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	if err != nil {
		return err
	}
	entries := gradeEntries(s.out, class)
	switch {
	case o.json:
		return writeJSON(s.out.w, entries)
	case o.classroom:
		if err := writeClassroom(s.out.w, entries[0]); err != nil {
			return err
		}
		// The step's log shows the table, for the learner to read.
		writeTable(s.errOut, class, entries, labs)
		return nil
	}
	writeTable(s.out, class, entries, labs)
	return nil
}

// gradeClass grades the class's copies of the labs in grade's own copy of
// the workbook, which it removes on every path: after the grades, after an
// error, and once Ctrl-C, SIGTERM or SIGHUP have stopped the go tests. It
// says on standard error which learners it could not grade.
func (s *session) gradeClass(ctx context.Context, class []*learner, labs []*Lab) error {
	tree, err := newClassTree(cmp.Or(s.getenv("TMPDIR"), os.TempDir()), s.wb.root, class, labs)
	if tree != nil {
		defer tree.remove()
	}
	if err != nil {
		return err
	}
	if err := tree.warmUp(ctx, labs); err != nil {
		return err
	}
	g := &grader{s: s, tree: tree, class: class, workers: runtime.NumCPU()}
	if err := g.gradeAll(ctx); err != nil {
		return err
	}
	for _, l := range class {
		if why := raceNotRun(l); why != nil {
			s.errOut.say(msgGradeNoRace, s.errOut.sprint(why.text, why.args...))
			break
		}
	}
	for _, l := range class {
		switch {
		case l.outside != "":
			s.errOut.say(msgGradeOutsideLine, printable(l.name), printable(l.outside))
		case l.failed != "":
			s.errOut.say(msgGradeFailedLine, printable(l.name), printable(l.failed))
		}
	}
	return nil
}

// gradedLabs returns the labs that -labs names, in order, or every lab with
// exercises.
func (s *session) gradedLabs(list string) ([]*Lab, error) {
	lang, stderr := s.errOut.lang, s.errOut.w
	names := s.wb.labs
	if list != "" {
		names = nil
		for _, arg := range strings.Split(list, ",") {
			name, matches := s.wb.resolve(strings.TrimSpace(arg))
			switch {
			case name == "" && len(matches) == 0:
				return nil, usage(s.wb, lang, stderr, msgUnknownLab, arg)
			case name == "":
				return nil, usage(s.wb, lang, stderr, msgAmbiguousLab, arg, strings.Join(matches, msgListComma.In(lang)))
			case s.wb.lab(name) == nil:
				s.errOut.say(msgNoExercises, name, name)
				return nil, errUsage
			}
			names = append(names, name)
		}
	}
	var labs []*Lab
	for _, name := range s.wb.labs {
		if lab := s.wb.lab(name); lab != nil && slices.Contains(names, name) {
			labs = append(labs, lab)
		}
	}
	if len(labs) == 0 {
		return nil, errors.New("grade: no lab has exercises")
	}
	return labs, nil
}

// takeInterrupts returns a copy of ctx that the first Ctrl-C cancels, and
// a function that releases it. grade takes every Ctrl-C for itself
// (cli.Interrupts), as the golden command does, so that a second one does
// not end the process before grade has ended the go tests and removed its
// folder. SIGTERM and SIGHUP cancel ctx itself (runEnding).
func takeInterrupts(ctx context.Context) (context.Context, func()) {
	interrupts := cli.Interrupts(ctx)
	ctx, stop := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-interrupts:
			stop(errInterrupted)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { stop(nil) }
}

// A grader runs the learners' tests in the tree, several learners at once.
type grader struct {
	s       *session
	tree    *classTree
	class   []*learner
	workers int
	// mu guards done, which the terminal's status line counts.
	mu   sync.Mutex
	done int
}

// gradeAll grades every learner, workers at a time. After each learner's
// run, it checks that nothing outside their copies changed. If something
// did, it grades no one new; the learners whose runs were under way, the
// one just graded among them, are graded again, each alone, in a copy built
// again, and the one whose run changes the tree alone is failed. The others
// are graded as before.
func (g *grader) gradeAll(ctx context.Context) error {
	g.s.status.show(msgGrading, len(g.class), 0)
	defer g.s.status.clear()
	pending := g.class
	for len(pending) > 0 {
		suspects, rest, err := g.together(ctx, pending)
		if err != nil {
			return err
		}
		if len(suspects) > 0 {
			if err := g.tree.rebuild(g.class); err != nil {
				return err
			}
			for _, l := range suspects {
				if err := g.alone(ctx, l); err != nil {
					return err
				}
			}
		}
		pending = rest
	}
	return nil
}

// together grades learners, workers at a time, until one's run changes the
// tree outside their copies. It returns the learners whose grades that
// change may have touched, and those it did not start.
func (g *grader) together(ctx context.Context, learners []*learner) (suspects, rest []*learner, err error) {
	var mu sync.Mutex // guards next, tainted, suspects and errs
	next, tainted := 0, false
	var errs []error
	var wg sync.WaitGroup
	for range min(g.workers, len(learners)) {
		wg.Go(func() {
			for {
				mu.Lock()
				if tainted || next == len(learners) || len(errs) > 0 || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				l := learners[next]
				next++
				mu.Unlock()

				err := g.run(ctx, l)
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, err)
				case tainted:
					suspects = append(suspects, l)
				default:
					changed, err := g.tree.changedOutside(l)
					switch {
					case err != nil:
						errs = append(errs, err)
					case changed != "":
						tainted = true
						suspects = append(suspects, l)
					default:
						g.count()
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	// The order of the class, whichever run ended first.
	slices.SortFunc(suspects, func(a, b *learner) int { return strings.Compare(a.slot, b.slot) })
	return suspects, learners[next:], nil
}

// alone grades a learner with no other run under way: a change outside
// their copies is theirs. Their grades are then void, and the tree is built
// again for the next.
func (g *grader) alone(ctx context.Context, l *learner) error {
	if err := g.run(ctx, l); err != nil {
		return err
	}
	changed, err := g.tree.changedOutside(l)
	if err != nil {
		return err
	}
	g.count()
	if changed == "" {
		return nil
	}
	l.outside = g.shownPath(changed)
	return g.tree.rebuild(g.class)
}

// count counts a learner graded, on the terminal's status line.
func (g *grader) count() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done++
	g.s.status.clear()
	g.s.status.show(msgGrading, len(g.class), g.done)
}

// shownPath writes a path of the tree as the instructor knows it: a file of
// the workbook from its root (expected/02-loop.txt), a file of another
// learner's copy after their name (bob/02-loop/loop.go).
func (g *grader) shownPath(rel string) string {
	for _, l := range g.class {
		if rest, ok := strings.CutPrefix(rel, l.slot+"/"); ok {
			return l.name + "/" + rest
		}
	}
	return rel
}

// run grades the learner's copies, as check checks a learner's: the lab's
// tests, in two phases, in one go test for all their copies, under check's
// limits, each in its own process group. The learner's tests get a
// temporary folder of their own, and go test builds one package at a time:
// grade runs a learner for each core, and a test binary that waits for a
// core could run past check's timeout. The error is grade's own failure,
// or Ctrl-C; a learner whose copies go test could not grade at all is
// noted on the learner.
func (g *grader) run(ctx context.Context, l *learner) error {
	wb := &workbook{
		root:      g.tree.root,
		work:      filepath.Join(g.tree.root, classDir),
		labs:      g.s.wb.labs,
		tracks:    g.s.wb.tracks,
		testFlags: []string{"-p=1"},
		// A test's hook, which sends a signal while go test runs.
		goTestStarted: g.s.wb.goTestStarted,
	}
	var targets []target
	var graded []*learnerLab
	for _, ll := range l.labs {
		ll.report = nil
		if ll.graded() {
			targets = append(targets, target{lab: ll.lab, dir: g.tree.copyDir(l, ll.lab)})
			graded = append(graded, ll)
		}
	}
	l.failed = ""
	if len(targets) == 0 {
		return nil
	}
	reports, err := wb.check(ctx, targets, checkOptions{fresh: true, race: true})
	var notFound *exec.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &notFound):
		return err // no go command: no learner can be graded
	case err != nil:
		l.failed = truncate(oneLine(err.Error()), maxReason)
		return nil
	}
	for i, ll := range graded {
		ll.report = reports[i]
	}
	return nil
}

// warmUp compiles, once, in the tree, the packages that the graded labs
// and their tests import, other than the standard library's: the
// workbook's own (fakemodel, expected, labs/cli, …) and the modules'; for
// the race detector too, when a lab needs it. The learners' go tests then
// find them in the build cache. Without it, the first learners, graded at
// once, would each compile them at the same time.
func (t *classTree) warmUp(ctx context.Context, labs []*Lab) error {
	list := []string{"list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}
	var mine []string
	for _, lab := range labs {
		list = append(list, "./labs/"+lab.Name)
		mine = append(mine, "/labs/"+lab.Name)
	}
	out, err := t.goCommand(ctx, list...)
	if err != nil {
		return err
	}
	build := []string{"build"}
	for _, pkg := range strings.Fields(string(out)) {
		if !strings.HasSuffix(pkg, ".test") && !strings.HasPrefix(pkg, "[") && !slices.ContainsFunc(mine, func(lab string) bool { return strings.HasSuffix(pkg, lab) }) {
			build = append(build, pkg)
		}
	}
	if len(build) == 1 {
		return nil
	}
	if _, err := t.goCommand(ctx, build...); err != nil {
		return err
	}
	// check runs the race detector on the copies of a lab with Race that
	// pass everything else: the same packages, built for it.
	if !slices.ContainsFunc(labs, func(lab *Lab) bool { return lab.Race }) {
		return nil
	}
	wb := &workbook{root: t.root}
	if wb.raceUnavailable(ctx) != nil {
		return nil
	}
	_, err = t.goCommand(ctx, slices.Insert(build, 1, raceFlags...)...)
	return err
}

// goCommand runs the go command with args in the tree, in a process group
// of its own that Ctrl-C ends whole, and returns its standard output.
func (t *classTree) goCommand(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = t.root
	cmd.Env = append(os.Environ(), "GOTMPDIR="+t.dir)
	ownGroup(cmd)
	cmd.Cancel = func() error { return signalGroup(cmd.Process, kill) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("grade: go %s: %w\n%s", args[0], err, firstLines(strings.TrimSpace(stderr.String()), 10))
	}
	return out, nil
}

// raceNotRun returns why the race detector did not run on a learner's
// copies, if it did not on one.
func raceNotRun(l *learner) *note {
	for _, ll := range l.labs {
		if ll.report != nil && ll.report.raceNotRun != nil {
			return ll.report.raceNotRun
		}
	}
	return nil
}
