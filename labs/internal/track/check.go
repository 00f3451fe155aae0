package track

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A target is one copy of a lab to check: the learner's, in _mywork/, or one
// the verification made.
type target struct {
	lab *Lab
	dir string // the copy's directory
}

// A report is what check found in one copy.
type report struct {
	lab *Lab
	dir string // the copy's directory
	rel string // the same, from the repository root

	build     []string // the compiler's or vet's first messages; empty if it built
	vet       bool     // build holds vet's messages, not the compiler's
	buildMore int      // how many of build's lines are left out
	// panicked is a panic that ended the tests before any ran, such as
	// one in a package variable's initializer: its value and where.
	panicked []string
	// exited is set when the test program ended before any test ran,
	// without a panic: an init function that calls os.Exit.
	exited bool
	// failedUnseen is set when the test program ended with a failure
	// although none of its tests failed (pkgRun.failedUnseen).
	failedUnseen bool
	// hung is set, with where it hung if the dump says, when the test
	// program never got to its tests: an init function that never ends.
	hung      []string
	exercises []exerciseResult
	// checkedAll is true once the tests outside the exercises ran: the
	// second phase, which runs only when every exercise passes.
	checkedAll bool
	other      *finding // the first failing test that is in no exercise
	golden     *finding // the first failing golden test
	// raceChecked is set once the race detector ran, or tried to: only
	// for a lab with Race, once everything else passes, and only when
	// check was asked to (checkOptions.race).
	raceChecked bool
	race        *finding // a data race, or a test that fails with the race detector
	raceNotRun  *note    // why the race detector could not run
	warnings    []note   // changed or missing test files
	watching    bool     // the report is one of watch's, which does not advise watch
}

// A note is a message and its arguments.
type note struct {
	text Text
	args []any
}

// An exerciseResult is one exercise's state in a copy.
type exerciseResult struct {
	exercise *Exercise
	broken   int // the index of the first broken rule, or -1
	finding  *finding
}

// A finding is a test that failed, did not finish, or is missing.
type finding struct {
	test    string // the test or subtest, as go test names it
	why     Text   // what went wrong, if the test's output does not say
	whyArgs []any
	found   []reported // what the test reported, in order
	lines   []string   // what else to show: where a panic happened, or what a test without Findings printed
	more    string     // the command that shows the test's whole output
	// stuck is set when the test's run got stuck: every goroutine waited,
	// or the test ran out of time. check makes it its headline.
	stuck *stuckRun
}

// cannotRun reports whether the copy's tests could not run: it does not
// compile, or it panics or exits before any test runs.
func (r *report) cannotRun() bool {
	return len(r.build) > 0 || len(r.panicked) > 0 || r.exited || r.failedUnseen || r.hung != nil
}

// exercisesPass reports whether every exercise passes.
func (r *report) exercisesPass() bool {
	if r.cannotRun() {
		return false
	}
	for _, e := range r.exercises {
		if e.broken >= 0 {
			return false
		}
	}
	return true
}

// passes reports whether the whole lab passes: every exercise, every other
// test and the golden tests, and the race detector when it ran.
func (r *report) passes() bool {
	return r.exercisesPass() && r.checkedAll && r.other == nil && r.golden == nil && r.race == nil
}

// firstFailing returns the first exercise that does not pass, or nil. An
// exercise whose test failed comes before one whose test did not run: go
// test runs the tests in the order of their files, so the test that crashed
// may belong to a later exercise than the tests it kept from running.
func (r *report) firstFailing() *exerciseResult {
	var notRun *exerciseResult
	for i := range r.exercises {
		e := &r.exercises[i]
		switch {
		case e.broken < 0:
		case !e.notRun():
			return e
		case notRun == nil:
			notRun = e
		}
	}
	return notRun
}

// notRun reports whether the exercise fails only because a test of its
// rules did not run.
func (e *exerciseResult) notRun() bool {
	return e.broken >= 0 && e.finding != nil && e.finding.why == msgNotRun
}

// checkOptions say how check runs go test.
type checkOptions struct {
	// fresh: go test runs the tests even if it has a result for the same
	// files. check and watch judge the learner's code, and a racy mistake
	// that passed once must be tested again. hint and the table of
	// contents only ask which exercise fails, and take go test's cached
	// result when it has one.
	fresh bool
	// race: the copies of labs with Race that pass everything else have
	// their rules' tests run again with the race detector, as check does
	// before it says Done.
	race bool
	// racing, if set, is called before the race detector runs, so that
	// check can say so on the terminal: its first run builds every
	// package again.
	racing func()
}

// check runs the lab's tests on each copy, in two phases, and a third for
// the race detector when opts ask for it. The first runs the tests of the
// exercises' rules, which guard every model so that they end even when the
// loop does not. The second runs every other test, the golden tests
// included, on the copies whose exercises all pass: those tests run the
// whole program, whose loop nothing guards, and would hang on a loop that
// never ends. The third runs the rules' tests again with the race detector
// (-race) on the copies of labs whose exercises start goroutines (Lab.Race)
// that pass everything else; where the race detector cannot run, the
// report says why. Each phase is one go test for every copy.
func (wb *workbook) check(ctx context.Context, targets []target, opts checkOptions) ([]*report, error) {
	reports := make([]*report, len(targets))
	var pkgs, rules []string
	for i, t := range targets {
		reports[i] = &report{lab: t.lab, dir: t.dir, rel: wb.rel(t.dir)}
		pkgs = append(pkgs, reports[i].rel)
		rules = append(rules, t.lab.ruleTests()...)
	}
	count := countFlag(opts.fresh)
	runs, err := wb.runTests(ctx, pkgs, append(count, "-run", anyOf(rules))...)
	if err != nil {
		return nil, err
	}
	var second []*report
	var secondPkgs []string
	for _, r := range reports {
		r.first(runs[r.rel])
		if r.exercisesPass() {
			second = append(second, r)
			secondPkgs = append(secondPkgs, r.rel)
		}
	}
	if len(second) > 0 {
		var skip []string
		for _, r := range second {
			skip = append(skip, r.lab.ruleTests()...)
		}
		runs, err := wb.runTests(ctx, secondPkgs, append(count, "-skip", anyOf(skip))...)
		if err != nil {
			return nil, err
		}
		for _, r := range second {
			r.rest(runs[r.rel])
		}
	}
	if opts.race {
		if err := wb.checkRaces(ctx, reports, opts); err != nil {
			return nil, err
		}
	}
	for _, r := range reports {
		if err := wb.compareTests(r); err != nil {
			return nil, err
		}
	}
	return reports, nil
}

// checkRaces runs the rules' tests with the race detector on the copies of
// labs with Race that pass everything else: always afresh, as a race shows
// only on some runs.
func (wb *workbook) checkRaces(ctx context.Context, reports []*report, opts checkOptions) error {
	var racing []*report
	var pkgs, rules []string
	for _, r := range reports {
		if r.lab.Race && r.passes() {
			racing = append(racing, r)
			pkgs = append(pkgs, r.rel)
			rules = append(rules, r.lab.ruleTests()...)
		}
	}
	if len(racing) == 0 {
		return nil
	}
	if why := wb.raceUnavailable(ctx); why != nil {
		for _, r := range racing {
			r.raceChecked, r.raceNotRun = true, why
		}
		return nil
	}
	if opts.racing != nil {
		opts.racing()
	}
	args := append(slices.Clone(raceFlags), "-count=1", "-run", anyOf(rules))
	if !wb.vetted {
		// The first phase vetted the same files; vet's checks of the
		// packages built for the race detector would take as long again.
		args = append(args, "-vet=off")
	}
	runs, err := wb.runTests(ctx, pkgs, args...)
	if err != nil {
		return err
	}
	for _, r := range racing {
		r.raced(runs[r.rel])
	}
	return nil
}

// countFlag is go test's flag for fresh: -count=1 runs the tests even when
// go test has a result for the same files.
func countFlag(fresh bool) []string {
	if fresh {
		return []string{"-count=1"}
	}
	return nil
}

// anyOf returns a -run or -skip pattern that matches the top-level tests.
func anyOf(tests []string) string {
	quoted := make([]string, 0, len(tests))
	for _, t := range tests {
		if q := regexp.QuoteMeta(t); !slices.Contains(quoted, q) {
			quoted = append(quoted, q)
		}
	}
	slices.Sort(quoted)
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// maxBuildLines is how many of the compiler's messages check shows.
const maxBuildLines = 10

// first reads the first phase: the build and the exercises' rules.
func (r *report) first(run *pkgRun) {
	if run == nil {
		r.build = []string{"go test reported nothing for ./" + r.rel}
		return
	}
	if !run.built {
		for _, l := range run.buildOutput {
			switch {
			case strings.HasPrefix(l, "# ["):
				r.vet = true
			case strings.HasPrefix(l, "# "):
			case l != "":
				if r.dir != "" {
					// "no Go files in /home/…/_mywork/02-loop": the path
					// as the learner knows it.
					l = strings.ReplaceAll(l, r.dir, r.rel)
				}
				r.build = append(r.build, l)
			}
		}
		if len(r.build) == 0 {
			r.build = []string{"go test could not build " + r.rel}
		}
		r.build, r.buildMore = shorten(r.build, maxBuildLines)
		return
	}
	if r.panicked = panicBeforeTests(run, r.dir, r.rel, r.lab.learnerFiles()...); r.panicked != nil {
		return
	}
	if run.hung && len(run.order) == 0 {
		// The track ended a test binary that never got to its tests.
		r.hung = []string{}
		if where := frameIn(run.output, r.dir, r.rel, r.lab.learnerFiles()...); where != "" {
			r.hung = []string{"  at " + where}
		}
		return
	}
	if len(run.order) == 0 && hasAnyTest(r.dir, r.lab.ruleTests()) {
		// No test ran, although the copy has the rules' tests: the test
		// program ended as the package started.
		r.exited = true
		return
	}
	if run.failedUnseen() {
		r.failedUnseen = true
		return
	}
	for i := range r.lab.Exercises {
		e := &r.lab.Exercises[i]
		res := exerciseResult{exercise: e, broken: -1}
		for j, rule := range e.Rules {
			f := r.findingOf(run, rule.Test)
			if f == nil || res.broken >= 0 && f.why == msgNotRun {
				continue
			}
			res.broken, res.finding = j, f
			// A rule whose test did not run is broken only if no later
			// rule's test says why: go test runs the tests in the order
			// of their files, and the test that crashed or hung may check
			// a later rule.
			if f.why != msgNotRun {
				break
			}
		}
		r.exercises = append(r.exercises, res)
	}
}

// rest reads the second phase: every other test, the golden tests last.
func (r *report) rest(run *pkgRun) {
	r.checkedAll = true
	if run == nil {
		r.other = &finding{why: msgNothingReported, whyArgs: []any{r.rel}}
		return
	}
	if !run.built {
		// The first phase built the same package: only a file changed
		// since can make this happen.
		r.other = &finding{why: msgChangedMeanwhile}
		return
	}
	if r.panicked = panicBeforeTests(run, r.dir, r.rel, r.lab.learnerFiles()...); r.panicked != nil {
		return
	}
	if run.failedUnseen() {
		r.failedUnseen = true
		return
	}
	for _, name := range run.order {
		if strings.Contains(name, "/") || slices.Contains(goldenTests, name) {
			continue
		}
		if f := r.findingOf(run, name); f != nil {
			r.other = f
			return
		}
	}
	for _, name := range goldenTests {
		if f := r.findingOf(run, name); f != nil {
			r.golden = f
			return
		}
	}
}

// findingOf returns what went wrong with the test, or nil if it passed or
// was skipped. For a test whose subtests failed, it is the first subtest
// that failed.
func (r *report) findingOf(run *pkgRun, test string) *finding {
	t := run.tests[test]
	switch {
	case t == nil && run.crashed:
		return &finding{test: test, why: msgNotRun}
	case t == nil:
		if top := topLevel(test); top != test && run.tests[top] != nil && run.tests[top].status != passed {
			// The test failed, or was skipped, before it ran the subtest.
			return r.findingOf(run, top)
		}
		if r.lab.testsAsInLab(r.dir) {
			// Not the learner's doing: the rule names a test that is not.
			return &finding{test: test, why: msgNoSuchTest, whyArgs: []any{test, r.lab.Name}}
		}
		return &finding{test: test, why: msgMissingTest, whyArgs: []any{test, r.lab.Name}}
	case t.status == passed, t.status == skipped:
		return nil
	}
	// A panic or a timeout in a subtest is in the subtest's output, which
	// is the leaf's: the subtest that never ended.
	leaf := firstFailedLeaf(run, test)
	switch {
	case t.status == unfinished && run.fatal != "":
		// A fatal error, such as running out of memory, ended the test
		// binary: no deferred function or recover sees it.
		f := &finding{test: leaf.name, why: msgFatal, whyArgs: []any{strings.TrimPrefix(run.fatal, "fatal error: ")}}
		if strings.Contains(run.fatal, "out of memory") {
			f.why, f.whyArgs = msgOutOfMemory, []any{memoryLimit >> 30}
		}
		if where := frameIn(append(leaf.output, run.output...), r.dir, r.rel, r.lab.learnerFiles()...); where != "" {
			f.lines = []string{"  at " + where}
		}
		return f
	case t.status == unfinished && !run.timedOut && panicOf(leaf.output, "", "") == nil && panicOf(run.output, "", "") == nil:
		// The test never ended, and nothing panicked: the test program
		// exited in its middle.
		return &finding{test: leaf.name, why: msgExitedInTest}
	case t.status == unfinished && run.timedOut:
		f := timedOut(leaf.output, r.dir, r.rel, r.lab.learnerFiles()...)
		f.test = leaf.name
		return f
	}
	f := failure(leaf.output, r.dir, r.rel, r.lab.learnerFiles()...)
	f.test = leaf.name
	if f.why.EN == "" && len(f.lines) == 0 && len(f.found) == 0 {
		f.why = msgNoMessage
	}
	f.more = "go test -run " + shellQuote(runPattern(leaf.name)) + " ./" + r.rel
	return f
}

// firstFailedLeaf returns the first test at or under name that failed and
// has no failed subtest itself.
func firstFailedLeaf(run *pkgRun, name string) *testRun {
	var failedUnder []string
	for _, n := range run.order {
		if (n == name || strings.HasPrefix(n, name+"/")) && run.tests[n].status != passed && run.tests[n].status != skipped {
			failedUnder = append(failedUnder, n)
		}
	}
	for _, n := range failedUnder {
		if !slices.ContainsFunc(failedUnder, func(m string) bool { return strings.HasPrefix(m, n+"/") }) {
			return run.tests[n]
		}
	}
	return run.tests[name]
}

// runPattern is a -run pattern for exactly one test or subtest.
func runPattern(test string) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// shellQuote quotes s as one word for a POSIX shell, in single quotes. A
// single quote in s, as in the test name "part_1's_lookups", ends the
// quoted part, is written escaped (\'), and the quoted part starts again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// compareTests warns when the copy's tests are not the lab's: a changed or
// missing test file, or test data. check then runs the learner's tests,
// which may not check what the lab's check. It also warns about a file of
// the lab's code missing from the copy.
func (wb *workbook) compareTests(r *report) error {
	lab, err := wb.labFiles(r.lab.Name)
	if err != nil {
		return fmt.Errorf("read labs/%s: %w", r.lab.Name, err)
	}
	mine, err := readFiles(r.dir)
	if err != nil {
		return nil // the copy's state is in the report already
	}
	learner := r.lab.learnerFiles()
	// restore is the command, from the root, that copies the lab's file
	// or directory (cp -R) back into the copy.
	restore := func(cp, name string) string {
		return fmt.Sprintf("%s labs/%s/%s %s/%s", cp, r.lab.Name, name, r.rel, name)
	}
	for _, name := range lab.names() {
		if !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "testdata/") {
			// Code: only a missing file is news, which the compiler
			// would report as undefined names.
			if _, ok := mine[name]; !ok && strings.HasSuffix(name, ".go") && !strings.Contains(name, "/") {
				if slices.Contains(learner, name) {
					r.warnings = append(r.warnings, note{msgCodeMissingMine, []any{name, r.lab.Name}})
				} else {
					r.warnings = append(r.warnings, note{msgCodeMissing, []any{name, restore("cp", name)}})
				}
			}
			continue
		}
		got, ok := mine[name]
		switch {
		case !ok:
			// A directory the learner deleted is one note, not one for
			// each of its files.
			missing, cp := name, "cp"
			if dir := r.missingDir(name); dir != "" {
				missing, cp = dir+"/", "cp -R"
				if slices.ContainsFunc(r.warnings, func(n note) bool { return n.args[0] == missing }) {
					continue
				}
				name = dir
			}
			r.warnings = append(r.warnings, note{msgTestMissing, []any{missing, restore(cp, name)}})
		case !bytes.Equal(got, lab[name]):
			r.warnings = append(r.warnings, note{msgTestChanged, []any{name, restore("cp", name)}})
		}
	}
	return nil
}

// missingDir returns the outermost directory of the file's path that the
// copy lacks, as in "testdata", or "" if the file's directory is there.
func (r *report) missingDir(name string) string {
	parts := strings.Split(name, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		if _, err := os.Stat(filepath.Join(r.dir, filepath.FromSlash(dir))); err != nil {
			return dir
		}
	}
	return ""
}

// hasAnyTest reports whether a test file of the directory declares one of
// the tests: if go test ran none of them, they are missing, or the test
// program ended before it could run them.
func hasAnyTest(dir string, tests []string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, t := range tests {
			if strings.Contains(string(src), "func "+t+"(") {
				return true
			}
		}
	}
	return false
}
