package track

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/labs/strictjson"
)

// exercisesFile is the file, in a lab's directory, that holds the lab's
// exercises as data. A lab without one has no exercises.
const exercisesFile = "exercises.json"

// A Lab is the build-it-yourself track of one lab: the exercises a learner
// writes in a copy of it, and the typical mistakes the verification makes
// to prove that check names the broken rule. It is read from the lab's
// exercises.json; the package documentation describes the format.
type Lab struct {
	// Name is the lab's directory under labs/, as in "02-loop".
	Name string `json:"-"`
	// Idea is the idea the lab adds, in one line, for the table of contents.
	Idea Text `json:"idea"`
	// Section is the heading of the README section that explains the
	// exercises, "Build it yourself", with the heading of the Chinese
	// twin's. The starters' TODOs point to it.
	Section Text `json:"section"`
	// Race is set for a lab whose exercises start goroutines. Once every
	// other check passes, check runs the rules' tests again with the race
	// detector, where it can (it needs cgo), and reports a data race as a
	// finding; where it cannot, it says so in a line.
	Race bool `json:"race,omitempty"`
	// Exercises are the lab's exercises, in the order a learner writes them.
	Exercises []Exercise `json:"exercises"`
	// Mistakes are typical mistakes, each an edit inside an exercise's
	// region, with how check's finding shows it and its own hints. The
	// verification makes each in a copy of the lab and checks that check
	// names the rule it breaks, and that hint then gives the mistake's
	// first hint.
	Mistakes []Mistake `json:"mistakes"`
	// dir is the lab's directory, where its tests are.
	dir string
}

// An Exercise is one piece of a lab's idea that a learner writes.
type Exercise struct {
	// ID names the exercise; lower-case letters, digits and '-'.
	ID string `json:"id"`
	// Title says what the learner writes, in a few words.
	Title Text `json:"title"`
	// Regions are the parts of the lab's source the exercise cuts out.
	Regions []Region `json:"regions"`
	// Rules are what the lab's tests check, in the order a learner meets
	// them. check reports the first one broken, and hint gives its hints.
	Rules []Rule `json:"rules"`
}

// A Region is one part of a lab's source that an exercise cuts out: the
// lines between the whole lines
//
//	// exercise: ID
//	// end of exercise: ID
//
// which the starter replaces with a TODO and the least code that compiles.
// The marker lines stay.
type Region struct {
	// File is the file that holds the region, relative to the lab's
	// directory, as in "loop.go".
	File string `json:"file"`
	// ID is the region's ID in the markers.
	ID string `json:"id"`
	// TODO says what to write and points to the README section. Each line
	// becomes a comment line, indented like the markers.
	TODO Text `json:"todo"`
	// Code is the least code that compiles and vets in the region's place,
	// such as `return Result{}, fmt.Errorf("runLoop is not written yet")`.
	// Each line is indented like the markers; tabs after that indentation
	// stay.
	Code Lines `json:"code,omitempty"`
	// Hints are about the code of the region itself: what it must declare
	// and return to compile. hint gives them, one at a time, when the
	// compiler's first error is in the region.
	Hints []Text `json:"hints"`
}

// A Rule is one thing the lab's tests check, in a sentence, and the hints
// that help a learner who broke it.
type Rule struct {
	// Test is the test that checks the rule, as go test -json names it: a
	// top-level test ("TestCalculatorTakesTwoTurnsAndFourMessages") or a
	// subtest ("TestCalculate/divide_by_zero").
	Test string `json:"test"`
	// Text is the rule in one sentence, such as "each tool result reaches
	// the history".
	Text Text `json:"text"`
	// Hints are given one at a time by hint when check reports the rule
	// broken. A last hint is added to them: it points to the lines of the
	// lab that solve the rule's exercise.
	Hints []Text `json:"hints"`
}

// A Mistake is a typical mistake: Old replaced by New in File, inside a
// region. check must then name the rule whose Test is Rule, or, for a
// mistake that races, find the race; hint must recognise the mistake by
// what check shows of it (Seen), and give its own hints.
type Mistake struct {
	// Name says what the mistake is, as in "a result not appended".
	Name string `json:"name"`
	// File is the file to change, relative to the lab's directory.
	File string `json:"file"`
	// Old is a piece of the file that occurs once, inside a region, and
	// New replaces it.
	Old Lines `json:"old"`
	New Lines `json:"new"`
	// Rule is the Test of the rule that check must report broken. A
	// mistake that races has none, and Race set instead.
	Rule string `json:"rule,omitempty"`
	// Race is set for a mistake that every rule lets pass and the race
	// detector finds: check must report the race (see Lab.Race).
	Race bool `json:"race,omitempty"`
	// Seen are pieces of what check shows, in English, of the broken
	// rule's test, or of the race: each occurs in it, for this mistake, and
	// together they tell the mistake from the rule's other failures. hint
	// gives the hints of the first mistake of the lab whose rule and Seen
	// match what check found.
	Seen []string `json:"seen"`
	// Hints are the mistake's own, given one at a time by hint, from the
	// first, instead of the rule's. A last hint is added to them, as to a
	// rule's: it points to the lines of the lab that solve the rule's
	// exercise.
	Hints []Text `json:"hints"`
}

// breaks is what a mistake breaks, for messages: its rule's test, or the
// race detector's check.
func (m Mistake) breaks() string {
	if m.Race {
		return raceKey
	}
	return m.Rule
}

// goldenTests are the tests, in every lab, that compare the lab's output with
// its golden files. They are the lab's last rule.
var goldenTests = []string{"TestOutputMatchesGoldenFile", "TestProgram"}

// goldenRule is that last rule.
var goldenRule = Text{EN: "your output matches the lab's, byte for byte", ZH: "你的输出和实验的输出逐字节相同"}

// validate checks what can be checked without the lab's other files, and
// that each rule names a test of tests, unless tests is nil.
func (l *Lab) validate(tests map[string]bool) error {
	if len(l.Exercises) == 0 {
		return failAt(strictjson.Path{"exercises"}, "needs at least one exercise")
	}
	if err := l.Idea.check(strictjson.Path{"idea"}); err != nil {
		return err
	}
	if err := l.Section.check(strictjson.Path{"section"}); err != nil {
		return err
	}
	seen := map[string]bool{}
	ruleTests := map[string]bool{}
	for i, e := range l.Exercises {
		at := strictjson.Path{"exercises", i}
		if !isID(e.ID) {
			return failAt(append(at, "id"), "%q is not an ID: use lower-case letters, digits and '-'", e.ID)
		}
		if seen["exercise "+e.ID] {
			return failAt(append(at, "id"), "an earlier exercise has the same ID")
		}
		seen["exercise "+e.ID] = true
		if err := e.Title.check(append(at, "title")); err != nil {
			return err
		}
		if len(e.Regions) == 0 || len(e.Rules) == 0 {
			return failAt(at, "needs regions and rules")
		}
		for j, r := range e.Regions {
			at := slices.Clip(append(slices.Clip(at), "regions", j))
			key := "region " + r.File + ":" + r.ID
			switch {
			case !isID(r.ID) || r.File == "":
				return failAt(at, "a region needs a file and an ID of lower-case letters, digits and '-'")
			case seen[key]:
				return failAt(at, "is listed twice")
			}
			seen[key] = true
			if err := r.TODO.check(append(at, "todo")); err != nil {
				return err
			}
			if err := r.checkStarter(at); err != nil {
				return err
			}
			if err := checkHints(append(at, "hints"), r.Hints); err != nil {
				return err
			}
		}
		for j, r := range e.Rules {
			at := slices.Clip(append(slices.Clip(at), "rules", j))
			switch {
			case !strings.HasPrefix(r.Test, "Test"):
				return failAt(append(at, "test"), "a rule's test starts with Test")
			case ruleTests[r.Test]:
				return failAt(append(at, "test"), "is the test of an earlier rule too")
			case slices.Contains(goldenTests, topLevel(r.Test)):
				return failAt(append(at, "test"), "the golden tests are every lab's last rule, and no exercise's")
			case tests != nil && !tests[topLevel(r.Test)]:
				return failAt(append(at, "test"), "no _test.go file of labs/%s declares %s", l.Name, topLevel(r.Test))
			}
			ruleTests[r.Test] = true
			if err := r.Text.check(append(at, "text")); err != nil {
				return err
			}
			if err := checkHints(append(at, "hints"), r.Hints); err != nil {
				return err
			}
		}
	}
	names := map[string]bool{}
	for k, m := range l.Mistakes {
		at := strictjson.Path{"mistakes", k}
		switch {
		case m.Name == "" || m.File == "" || m.Old == "":
			return failAt(at, "needs a name, a file and the text it changes")
		case names[m.Name]:
			return failAt(append(at, "name"), "is the name of an earlier mistake too")
		case m.Race && m.Rule != "":
			return failAt(at, "a mistake that races breaks no rule: give it race or a rule, not both")
		case m.Race && !l.Race:
			return failAt(append(at, "race"), "races, and the lab does not run the race detector (race)")
		case !m.Race && !ruleTests[m.Rule]:
			return failAt(append(at, "rule"), "needs a rule of the lab, or race")
		case len(m.Seen) == 0 || slices.Contains(m.Seen, ""):
			return failAt(append(at, "seen"), "needs what check shows of it (seen), to be recognised")
		}
		names[m.Name] = true
		if err := checkHints(append(at, "hints"), m.Hints); err != nil {
			return err
		}
	}
	return nil
}

// checkStarter checks that no line of the region's starter, at path, reads
// as a region marker: a TODO line, which becomes a comment, or a line of its
// code. findRegions would take it for one, and the starter's region would
// end early, or be malformed.
func (r Region) checkStarter(path strictjson.Path) error {
	for _, lang := range []Lang{English, Chinese} {
		for i, line := range r.todoLines(lang) {
			if anyMarker.MatchString(line) {
				return failAt(append(slices.Clip(path), "todo", string(lang)), "line %d would be a region marker in the starter: %q", i+1, line)
			}
		}
	}
	for i, line := range strings.Split(string(r.Code), "\n") {
		if anyMarker.MatchString(line) {
			return failAt(append(slices.Clip(path), "code"), "line %d would be a region marker in the starter: %q", i+1, line)
		}
	}
	return nil
}

// checkHints checks that there is a hint, and that each has both languages.
func checkHints(path strictjson.Path, hints []Text) error {
	if len(hints) == 0 {
		return failAt(path, "needs at least one hint")
	}
	for i, h := range hints {
		if err := h.check(append(slices.Clip(path), i)); err != nil {
			return err
		}
	}
	return nil
}

// testsAsInLab reports whether the copy in dir has every test file of the
// lab as it is in the lab: then a test that did not run there is not one
// the learner deleted or renamed.
func (l *Lab) testsAsInLab(dir string) bool {
	if l.dir == "" {
		return false
	}
	files, err := filepath.Glob(filepath.Join(l.dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		return false
	}
	for _, name := range files {
		lab, err := os.ReadFile(name)
		if err != nil {
			return false
		}
		copied, err := os.ReadFile(filepath.Join(dir, filepath.Base(name)))
		if err != nil || !bytes.Equal(lab, copied) {
			return false
		}
	}
	return true
}

// isID reports whether s is an exercise's or a region's ID: lower-case
// letters and digits, in words joined by single hyphens.
func isID(s string) bool {
	for _, word := range strings.Split(s, "-") {
		if word == "" || strings.TrimFunc(word, func(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }) != "" {
			return false
		}
	}
	return true
}

// exercise returns the exercise with the ID, or nil.
func (l *Lab) exercise(id string) *Exercise {
	for i := range l.Exercises {
		if l.Exercises[i].ID == id {
			return &l.Exercises[i]
		}
	}
	return nil
}

// number returns the exercise's number in the lab, from 1.
func (l *Lab) number(ex *Exercise) int {
	for i := range l.Exercises {
		if &l.Exercises[i] == ex {
			return i + 1
		}
	}
	return 0
}

// learnerFiles returns the files the learner writes code in: those with
// an exercise's region, each once.
func (l *Lab) learnerFiles() []string {
	var out []string
	for _, e := range l.Exercises {
		for _, r := range e.Regions {
			if !slices.Contains(out, r.File) {
				out = append(out, r.File)
			}
		}
	}
	return out
}

// ruleTests returns the top-level tests that check the lab's rules, in
// order, each once.
func (l *Lab) ruleTests() []string {
	var out []string
	for _, e := range l.Exercises {
		for _, r := range e.Rules {
			if t := topLevel(r.Test); !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// allExercises returns pointers to every exercise of the lab.
func (l *Lab) allExercises() []*Exercise {
	out := make([]*Exercise, len(l.Exercises))
	for i := range l.Exercises {
		out[i] = &l.Exercises[i]
	}
	return out
}

// topLevel returns the top-level test of a test name: "TestA" for "TestA/b".
func topLevel(test string) string {
	name, _, _ := strings.Cut(test, "/")
	return name
}
