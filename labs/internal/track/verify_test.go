package track

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/google/go-cmp/cmp"
)

// TestVerify proves the track of every lab that has one, as issue 10 asks:
// for each exercise, that its starter (the lab's starter with the exercises
// before it written) compiles and vets, fails its checks, and that check on
// it names the exercise's first rule in at most 40 lines;
// that the solution passes in a copy as in the lab; that a starter differs
// from the solution only inside the regions, and every region belongs to an
// exercise; that each typical mistake makes check name its rule. It also
// applies every README's edits and checks their claims.
//
// It writes the copies into a directory of the repository whose name starts
// with "_", which go test ./... ignores, and runs one go vet and one go
// test per phase for all of them at once.
func TestVerify(t *testing.T) {
	expected.Verification(t)
	if raceEnabled {
		t.Skip("the verification runs go test on copies of the labs; the race detector adds nothing to it, and .ci/run runs it once without")
	}
	t.Parallel()
	wb, err := openWorkbook()
	if err != nil {
		t.Fatal(err)
	}
	// go test ./... runs other packages' tests beside this one: give each
	// copy's tests more than a learner's check does, which is about speed.
	wb.testTimeout = 2 * time.Minute
	tmp, err := os.MkdirTemp(wb.root, "_track-verify-")
	if err != nil {
		t.Skipf("the checkout is read-only, so the verification cannot write its copies of the labs: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	v := &verifier{wb: wb, dir: tmp}
	began := time.Now()

	for _, name := range wb.labs {
		if lab := wb.lab(name); lab != nil {
			t.Run(name+"/regions", func(t *testing.T) { v.plan(t, lab) })
		}
	}
	for _, name := range wb.labs {
		readme := "labs/" + name + "/README.md"
		t.Run(name+"/readme-claims", func(t *testing.T) { v.planClaims(t, readme) })
	}
	for _, c := range v.copies {
		if err := writeFiles(c.dir, c.files); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	ctx := context.Background()

	t.Logf("%d copies planned in %s", len(v.copies), time.Since(began).Round(100*time.Millisecond))
	t.Run("vet", func(t *testing.T) {
		// The starters, which the learner gets. The solutions are the
		// labs, which go vet ./... vets; a mistake only has to make check
		// name its rule; the README's edits run with go test's own vet
		// checks, as the learner's go test does.
		args := []string{"vet"}
		for _, c := range v.copies {
			if c.starter {
				args = append(args, "./"+wb.rel(c.dir))
			}
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = wb.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go vet: %v; want every starter to compile and vet:\n%s", err, out)
		}
	})

	t.Logf("vetted in %s", time.Since(began).Round(100*time.Millisecond))
	// The README claims' go commands run while check runs, so that
	// neither waits for the other to end.
	finishClaims := v.verifyClaims(ctx)
	// check runs go test without its vet checks, a part of go vet's, for
	// the reasons above.
	checker := *wb
	checker.vetted = true
	var targets []target
	for _, c := range v.copies {
		if c.expect != nil {
			targets = append(targets, target{lab: c.lab, dir: c.dir})
		}
	}
	reports, err := checker.check(ctx, targets, checkOptions{fresh: true, race: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reports {
		c := v.copies[slices.IndexFunc(v.copies, func(c *verifyCopy) bool { return c.dir == targets[i].dir })]
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			r.write(newPrinter(&out, English, false), "")
			text := out.String()
			if lines := strings.Count(text, "\n"); lines > 40 {
				t.Errorf("check prints %d lines, want at most 40:\n%s", lines, text)
			}
			c.expect(t, r, text)
		})
	}
	t.Logf("copies checked in %s", time.Since(began).Round(100*time.Millisecond))

	finishClaims(t)
	t.Logf("verification took %s", time.Since(began).Round(100*time.Millisecond))
}

// A verifier holds the copies of the labs that TestVerify makes.
type verifier struct {
	wb     *workbook
	dir    string
	copies []*verifyCopy
	claims []claimCopy
}

// A verifyCopy is one copy of a lab, and what check must say about it.
type verifyCopy struct {
	name    string
	lab     *Lab
	dir     string
	files   files
	expect  func(t *testing.T, r *report, text string) // nil: not checked, only vetted
	starter bool                                       // a starter, as the learner gets it
}

// A claimCopy is a copy of a lab with a README's edits made, and the claims
// that hold for it.
type claimCopy struct {
	copy   *verifyCopy
	claims []readmeClaim
}

// add plans a copy of lab under a directory named kind, so that the copy's
// own directory has the lab's name, as the learner's has. A copy with the
// same files as one planned before is that one, which then meets both
// expectations: a README's edit is often a typical mistake, and each copy
// costs a build.
func (v *verifier) add(kind string, lab *Lab, f files, expect func(*testing.T, *report, string)) *verifyCopy {
	for _, c := range v.copies {
		if c.lab.Name != lab.Name || !sameFiles(c.files, f) {
			continue
		}
		switch first := c.expect; {
		case first == nil:
			c.expect = expect
		case expect != nil:
			c.expect = func(t *testing.T, r *report, text string) {
				first(t, r, text)
				expect(t, r, text)
			}
		}
		return c
	}
	c := &verifyCopy{
		name:   lab.Name + "/" + kind,
		lab:    lab,
		dir:    filepath.Join(v.dir, kind, lab.Name),
		files:  f,
		expect: expect,
	}
	v.copies = append(v.copies, c)
	return c
}

// plan checks a lab's regions against its exercises and plans its copies:
// the solution, the starter, the starter after each exercise, one copy per
// mistake.
func (v *verifier) plan(t *testing.T, lab *Lab) {
	solution, err := v.wb.labFiles(lab.Name)
	if err != nil {
		t.Fatal(err)
	}
	found, err := regionsIn(solution)
	if err != nil {
		t.Fatal(err)
	}

	// Every region in the source belongs to an exercise, and every
	// exercise's region is in the source.
	owner := map[string]string{}
	for _, e := range lab.Exercises {
		for _, r := range e.Regions {
			owner[r.File+"#"+r.ID] = e.ID
		}
	}
	for file, regions := range found {
		for _, r := range regions {
			if _, ok := owner[file+"#"+r.id]; !ok {
				t.Errorf("region %s in %s belongs to no exercise", r.id, file)
			}
			delete(owner, file+"#"+r.id)
		}
	}
	if len(owner) != 0 {
		t.Errorf("regions of exercises that the source does not mark (file#region: exercise): %v", owner)
	}

	// The section each exercise points to names its rules' tests in order,
	// in the README and in its Chinese twin, where there is one.
	for _, r := range []struct {
		lang Lang
		name string
	}{{English, "README.md"}, {Chinese, "README.zh-CN.md"}} {
		lang, name := r.lang, r.name
		readme, ok := solution[name]
		if !ok {
			t.Errorf("%s has no %s", lab.Name, name)
			continue
		}
		for _, e := range lab.Exercises {
			heading := lab.Section.In(lang)
			section := sectionOf(string(readme), heading)
			if section == "" {
				t.Errorf("exercise %s: %s has no section %q", e.ID, name, heading)
				continue
			}
			at := 0
			for _, rule := range e.Rules {
				i := strings.Index(section[at:], "`"+rule.Test+"`")
				if i < 0 {
					t.Errorf("exercise %s: %s, section %q, lists the rules in order; %s is missing or out of order", e.ID, name, heading, rule.Test)
					continue
				}
				at += i
			}
		}
	}

	// The starter, and the copy a learner has after each exercise: the
	// exercises before it written, it and those after it still to write.
	all := lab.allExercises()
	for i, e := range all {
		kind := "starter"
		if i > 0 {
			kind = "exercise-" + e.ID
		}
		v.planStarter(t, lab, kind, solution, all[i:], e.ID)
	}
	v.add("solution", lab, solution, func(t *testing.T, r *report, text string) {
		if !r.passes() {
			t.Errorf("the solution fails in a copy, want it to pass as in the lab:\n%s", text)
		}
	})
	// Each mistake's first hint begins as no other hint of the lab does,
	// so that a hint that holds its first line is the mistake's own.
	firsts := map[string]string{}
	note := func(what string, hints []Text) {
		if len(hints) == 0 {
			return
		}
		first := firstLine(hints[0].EN)
		if other, ok := firsts[first]; ok {
			t.Errorf("%s and %s begin their first hints alike, %q: want each mistake's first hint to be its own", other, what, first)
		}
		firsts[first] = what
	}
	for _, m := range lab.Mistakes {
		note(fmt.Sprintf("mistake %q", m.Name), m.Hints)
	}
	for _, e := range lab.Exercises {
		for _, r := range e.Rules {
			note("rule "+r.Test, r.Hints)
		}
	}
	if lab.Race && !slices.ContainsFunc(lab.Mistakes, func(m Mistake) bool { return m.Race }) {
		t.Errorf("check runs the race detector on the lab (race), and none of its typical mistakes races: want one, to prove that check finds a race")
	}
	for i, m := range lab.Mistakes {
		v.planMistake(t, lab, fmt.Sprintf("mistake-%d", i+1), solution, found, m)
	}
	v.planCompileErrors(t, lab, solution, found)
}

// planStarter plans a copy with the exercises cut out, and checks that it
// differs from the solution only inside their regions and is gofmt'd. check
// must name the first rule of the exercise first.
func (v *verifier) planStarter(t *testing.T, lab *Lab, kind string, solution files, cut []*Exercise, first string) {
	for _, lang := range []Lang{English, Chinese} {
		f, err := starter(lab, solution, cut, lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range solution.names() {
			if bytes.Equal(f[name], solution[name]) {
				continue
			}
			regions, err := findRegions(solution[name])
			if err != nil {
				t.Fatalf("%s: the solution's markers: %v", name, err)
			}
			mine, err := findRegions(f[name])
			if err != nil {
				t.Fatalf("%s: the starter's markers: %v", name, err)
			}
			if diff := cmp.Diff(outside(solution[name], regions), outside(f[name], mine)); diff != "" {
				t.Errorf("%s: the starter differs from the solution outside the regions (-solution +starter):\n%s", name, diff)
			}
			formatted, err := format.Source(f[name])
			switch {
			case err != nil:
				t.Errorf("%s: the starter: %v", name, err)
			case string(formatted) != string(f[name]):
				t.Errorf("%s: gofmt changes the starter (-gofmt +starter):\n%s", name, cmp.Diff(string(formatted), string(f[name])))
			}
		}
		if lang != English {
			continue
		}
		ex := lab.exercise(first)
		c := v.add(kind, lab, f, func(t *testing.T, r *report, text string) {
			if len(r.build) != 0 {
				t.Fatalf("the starter does not compile, want it to:\n%s", text)
			}
			failing := r.firstFailing()
			if failing == nil {
				t.Fatalf("the starter passes its checks, want it to fail them: an exercise that passes before the learner writes anything is a defect:\n%s", text)
			}
			if failing.exercise.ID != first {
				t.Errorf("check names exercise %s, want %s:\n%s", failing.exercise.ID, first, text)
			}
			if failing.broken != 0 {
				t.Errorf("check names rule %d of the exercise, want the first: the starter breaks the exercise's first rule:\n%s", failing.broken+1, text)
			}
			wantContains(t, text, ex.Rules[0].Text.EN, "check names the rule")
		})
		c.starter = true
	}
}

// planMistake plans a copy of the solution with a typical mistake made,
// which must be inside a region: check must name the mistake's rule.
func (v *verifier) planMistake(t *testing.T, lab *Lab, kind string, solution files, found map[string][]region, m Mistake) {
	src, old := string(solution[m.File]), string(m.Old)
	if n := strings.Count(src, old); n != 1 {
		t.Errorf("mistake %q: its text occurs %d times in %s, want once", m.Name, n, m.File)
		return
	}
	line := strings.Count(src[:strings.Index(src, old)], "\n")
	lastLine := line + strings.Count(old, "\n")
	inside := slices.ContainsFunc(found[m.File], func(r region) bool { return r.begin < line && lastLine < r.end })
	if !inside {
		t.Errorf("mistake %q: the edit is outside the regions of %s, want it inside one", m.Name, m.File)
	}
	f := files{}
	for k, data := range solution {
		f[k] = data
	}
	f[m.File] = []byte(strings.Replace(src, old, string(m.New), 1))
	v.add(kind, lab, f, func(t *testing.T, r *report, text string) {
		if m.Race {
			wantRace(t, m, r, text)
		} else {
			failing := r.firstFailing()
			if failing == nil {
				t.Fatalf("mistake %q: check does not find it, want it to:\n%s", m.Name, text)
			}
			rule := failing.exercise.Rules[failing.broken]
			if rule.Test != m.Rule {
				t.Errorf("mistake %q: check names the rule %s, want its rule, %s:\n%s", m.Name, rule.Test, m.Rule, text)
				return
			}
			if f := r.stuckFinding(); f != nil {
				stuck, broken := strings.Index(text, "✗ Your run is stuck: "), strings.Index(text, "broken rule (")
				if stuck < 0 || broken < stuck {
					t.Errorf("mistake %q: the run is stuck, and check's headline does not say so before the rule:\n%s", m.Name, text)
				}
				if len(f.stuck.places) == 0 || !strings.HasPrefix(f.stuck.places[0], r.rel+"/"+m.File+":") {
					t.Errorf("mistake %q: the run is stuck, and check's first place, %q, is not in the file of the mistake, %s:\n%s", m.Name, f.stuck.places, m.File, text)
				}
			}
		}
		// hint follows the mistake: its own first hint, whose first line
		// is the lab's only hint that begins so (plan checks it).
		hint := v.hint(t, lab, r)
		wantContains(t, hint, "\n  "+firstLine(m.Hints[0].EN), "mistake %q: hint gives the mistake's own first hint; check shows\n%s\nand hint gives", m.Name, text)
	})
}

// wantRace checks that check found the race of a mistake that races, and
// only it: every rule passes, and the race detector names a line of the
// mistake's file.
func wantRace(t *testing.T, m Mistake, r *report, text string) {
	t.Helper()
	switch {
	case r.raceNotRun != nil:
		t.Fatalf("mistake %q: the race detector cannot run here, so the proof that check finds the race cannot be made:\n%s", m.Name, text)
	case !r.exercisesPass() || !r.checkedAll || r.other != nil || r.golden != nil:
		t.Fatalf("mistake %q: races, and want every other check to pass, as the race detector is check's last:\n%s", m.Name, text)
	case r.race == nil:
		t.Fatalf("mistake %q: check does not find the race, want it to:\n%s", m.Name, text)
	}
	wantContains(t, text, "✗ "+raceRule.EN, "mistake %q: check names the race detector's check", m.Name)
	wantContains(t, text, r.rel+"/"+m.File+":", "mistake %q: check names the lines of the race in the mistake's file", m.Name)
}

// planCompileErrors plans, for each region of the lab, a copy of the
// solution with a compile error at the region's start: check must name the
// first error and end with a next step, and hint must give a hint about
// that region's code. A line that declares a variable is code at the top
// level and in a function alike.
func (v *verifier) planCompileErrors(t *testing.T, lab *Lab, solution files, found map[string][]region) {
	for _, e := range lab.Exercises {
		for _, reg := range e.Regions {
			i := slices.IndexFunc(found[reg.File], func(r region) bool { return r.id == reg.ID })
			if i < 0 {
				t.Errorf("region %s is not in %s", reg.ID, reg.File)
				continue
			}
			fr := found[reg.File][i]
			lines := splitSource(solution[reg.File])
			broken := slices.Concat(lines[:fr.begin+1], []string{fr.indent + `var _ int = "a compile error"`}, lines[fr.begin+1:])
			f := files{}
			for k, data := range solution {
				f[k] = data
			}
			f[reg.File] = []byte(strings.Join(broken, "\n"))
			v.add("compile-"+reg.ID, lab, f, func(t *testing.T, r *report, text string) {
				if len(r.build) == 0 {
					t.Errorf("region %s: the copy compiles, want a compile error:\n%s", reg.ID, text)
					return
				}
				wantContains(t, text, "Next: fix the first error above. The first is in the code of exercise", "region %s: check says what to do next", reg.ID)
				hint := v.hint(t, lab, r)
				wantContains(t, hint, "\n  "+firstLine(reg.Hints[0].EN), "region %s: hint gives the first hint about that code", reg.ID)
			})
		}
	}
}

// hint returns what go run ./labs hint prints for the report, the first
// time, in English.
func (v *verifier) hint(t *testing.T, lab *Lab, r *report) string {
	t.Helper()
	wb := *v.wb
	wb.work = t.TempDir() // where hint keeps its count
	var out bytes.Buffer
	s := &session{wb: &wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
	if err := s.hintFor(lab, r); err != nil && !errors.Is(err, errFailed) {
		t.Errorf("hint: %v", err)
	}
	return out.String()
}

// firstLine is a text's first line.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// sameFiles reports whether a and b hold the same files, byte for byte.
func sameFiles(a, b files) bool {
	if len(a) != len(b) {
		return false
	}
	for name, data := range a {
		if other, ok := b[name]; !ok || !bytes.Equal(data, other) {
			return false
		}
	}
	return true
}

// sectionOf returns the text of the README's section with that heading, up
// to the next heading of the same or a higher level.
func sectionOf(readme, heading string) string {
	lines := strings.Split(readme, "\n")
	level := 0
	var out []string
	for _, l := range lines {
		h := headingLine.FindString(l)
		switch {
		case level == 0 && h != "" && strings.TrimSpace(l[len(h):]) == heading:
			level = len(h) - 1
		case level > 0 && h != "" && len(h)-1 <= level:
			return strings.Join(out, "\n")
		case level > 0:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// planClaims reads a README's edits and claims and plans a copy of its lab
// for each set of edits.
func (v *verifier) planClaims(t *testing.T, readme string) {
	data, err := os.ReadFile(filepath.Join(v.wb.root, filepath.FromSlash(readme)))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := parseClaims(readme, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) == 0 {
		return
	}
	lab := &Lab{Name: claims[0].lab}
	solution, err := v.wb.labFiles(lab.Name)
	if err != nil {
		t.Fatal(err)
	}
	byEdits := map[string]*claimCopy{}
	var keys []string
	for _, c := range claims {
		key := editsKey(c.lab, c.edits)
		cc, ok := byEdits[key]
		if ok && cc == nil {
			continue // its edits do not apply: reported once
		}
		if !ok {
			f := files{}
			for k, data := range solution {
				f[k] = data
			}
			ok := true
			for _, e := range c.edits {
				if err := e.apply(f); err != nil {
					t.Errorf("%s:%d: the edit: %v", readme, e.line, err)
					ok = false
				}
			}
			if !ok {
				byEdits[key] = nil
				continue
			}
			cc = &claimCopy{copy: v.add(fmt.Sprintf("claims-%d", len(v.claims)+len(keys)), lab, f, nil)}
			byEdits[key] = cc
			keys = append(keys, key)
		}
		cc.claims = append(cc.claims, c)
	}
	for _, k := range keys {
		v.claims = append(v.claims, *byEdits[k])
	}
}

// verifyClaims starts what the claims are about: one go test per -run
// pattern for every copy at once, and one build per copy that a go run
// claim is about, two go commands at a time. finish waits for them, and
// compares.
func (v *verifier) verifyClaims(ctx context.Context) (finish func(t *testing.T)) {
	byRun := map[string][]claimCopy{}
	var runs []string
	for _, cc := range v.claims {
		for _, c := range cc.claims {
			if c.kind != "fails" && c.kind != "passes" && c.kind != "prints" {
				continue
			}
			if !slices.ContainsFunc(byRun[c.run], func(x claimCopy) bool { return x.copy == cc.copy }) {
				byRun[c.run] = append(byRun[c.run], cc)
			}
			if !slices.Contains(runs, c.run) {
				runs = append(runs, c.run)
			}
		}
	}
	bin := filepath.Join(v.dir, "bin")
	programs := make([]string, len(v.claims))
	results := make([]map[string]*pkgRun, len(runs))
	errs := make([]error, len(runs)+len(v.claims))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	start := func(slot int, job func() error) {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			errs[slot] = job()
		})
	}
	for i, pattern := range runs {
		var pkgs []string
		for _, cc := range byRun[pattern] {
			pkgs = append(pkgs, v.wb.rel(cc.copy.dir))
		}
		var args []string
		if pattern != "" {
			args = []string{"-run", pattern}
		}
		start(i, func() (err error) {
			results[i], err = v.wb.runTests(ctx, pkgs, args...)
			return err
		})
	}
	for i, cc := range v.claims {
		if !slices.ContainsFunc(cc.claims, readmeClaim.aboutProgram) {
			continue
		}
		programs[i] = filepath.Join(bin, fmt.Sprintf("claims-%d", i))
		start(len(runs)+i, func() error {
			cmd := exec.CommandContext(ctx, "go", "build", "-gcflags=-N -l -dwarf=false", "-ldflags=-s -w", "-o", programs[i], "./"+v.wb.rel(cc.copy.dir))
			cmd.Dir = v.wb.root
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("build %s: %v\n%s", cc.copy.name, err, out)
			}
			return nil
		})
	}
	return func(t *testing.T) {
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}

		for i, pattern := range runs {
			for _, cc := range byRun[pattern] {
				run := results[i][v.wb.rel(cc.copy.dir)]
				for _, c := range cc.claims {
					if c.run == pattern && (c.kind == "fails" || c.kind == "passes" || c.kind == "prints") {
						t.Run(c.String(), func(t *testing.T) {
							for _, p := range testClaimProblems(c, run) {
								t.Error(p)
							}
						})
					}
				}
			}
		}
		for i, cc := range v.claims {
			for _, c := range cc.claims {
				if c.aboutProgram() {
					t.Run(c.String(), func(t *testing.T) { v.checkProgramClaim(t, ctx, c, programs[i]) })
				}
			}
		}
	}
}

// aboutProgram reports whether the claim is about go run of the lab.
func (c readmeClaim) aboutProgram() bool {
	return c.kind == "stdout" || c.kind == "stderr" || c.kind == "exit"
}

// testClaimProblems checks a claim about go test on the edited copy, and
// returns what is not as the README says.
func testClaimProblems(c readmeClaim, run *pkgRun) []string {
	switch {
	case run == nil:
		return []string{"go test reported nothing"}
	case !run.built:
		return []string{"the edited lab does not compile:\n" + strings.Join(run.buildOutput, "\n")}
	}
	failing := func(name string) bool {
		tr := run.tests[name]
		return tr != nil && tr.status != passed && tr.status != skipped
	}
	var failedTop []string
	for _, name := range run.order {
		if !strings.Contains(name, "/") && failing(name) {
			failedTop = append(failedTop, name)
		}
	}
	var problems []string
	switch c.kind {
	case "passes":
		if len(run.order) == 0 {
			problems = append(problems, "no test ran")
		}
		for _, name := range failedTop {
			problems = append(problems, name+" fails, and the README says the tests pass")
		}
	case "prints":
		// The README quotes what plain go test prints: a Finding, which
		// the copies' tests write as data for check, as its text.
		var all []string
		for _, name := range run.order {
			for _, line := range run.tests[name].output {
				if _, f, ok := expected.ParseFinding(line); ok {
					line = f.String()
				}
				all = append(all, line)
			}
		}
		text := strings.Join(append(all, run.output...), "\n")
		for _, want := range c.block {
			if !strings.Contains(text, want) {
				problems = append(problems, fmt.Sprintf("the tests do not print %q", want))
			}
		}
	case "fails":
		var listed []string
		for _, l := range c.block {
			if l = strings.TrimSpace(l); l != "" {
				listed = append(listed, l)
			}
		}
		for _, name := range listed {
			if !failing(name) {
				problems = append(problems, name+" does not fail, and the README says it does")
			}
		}
		for _, top := range failedTop {
			if slices.Contains(listed, top) {
				continue
			}
			if !slices.ContainsFunc(listed, func(l string) bool { return strings.HasPrefix(l, top+"/") }) {
				problems = append(problems, top+" fails too, and the README's list misses it")
				continue
			}
			// The list names subtests of top: it must name each that fails.
			for _, name := range run.order {
				if !strings.HasPrefix(name, top+"/") || !failing(name) || firstFailedLeaf(run, name) != run.tests[name] {
					continue
				}
				if !slices.ContainsFunc(listed, func(l string) bool { return name == l || strings.HasPrefix(name, l+"/") }) {
					problems = append(problems, name+" fails too, and the README's list misses it")
				}
			}
		}
	}
	return problems
}

// checkProgramClaim checks a claim about what the edited lab prints, or
// its exit status, when it runs from the repository root as go run does.
func (v *verifier) checkProgramClaim(t *testing.T, ctx context.Context, c readmeClaim, program string) {
	cmd := exec.CommandContext(ctx, program, c.args...)
	cmd.Dir = v.wb.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	want := strings.Join(c.block, "\n")
	if len(c.block) > 0 {
		want += "\n"
	}
	switch c.kind {
	case "stdout":
		if diff := cmp.Diff(want, stdout.String()); diff != "" {
			t.Errorf("standard output differs from the README's (-README +got):\n%s", diff)
		}
	case "stderr":
		if diff := cmp.Diff(want, stderr.String()); diff != "" {
			t.Errorf("standard error differs from the README's (-README +got):\n%s", diff)
		}
	case "exit":
		if got := cmd.ProcessState.ExitCode(); got != c.status {
			t.Errorf("exit status %d, want %d; stderr: %s", got, c.status, stderr.String())
		}
	}
}
