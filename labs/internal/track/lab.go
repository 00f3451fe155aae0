package track

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A Lab is the build-it-yourself track of one lab: the exercises a learner
// writes in a copy of it, and the typical mistakes the verification makes
// to prove that check names the broken rule. Each lab's Lab is in its own
// file, labNN.go, which registers it.
type Lab struct {
	// Name is the lab's directory under labs/, as in "02-loop".
	Name string
	// Idea is the idea the lab adds, in one line, for the table of contents.
	Idea Text
	// Exercises are the lab's exercises, in the order a learner writes them.
	Exercises []Exercise
	// Mistakes are typical mistakes, each an edit inside an exercise's
	// region. The verification makes each in a copy of the lab and checks
	// that check names the rule it breaks.
	Mistakes []Mistake
	// Race is set for a lab whose exercises start goroutines. check does
	// not run the race detector, which needs cgo and a C compiler, and
	// builds every package again the first time; once check passes, it
	// asks the learner to run the tests with it.
	Race bool
}

// An Exercise is one piece of a lab's idea that a learner writes.
type Exercise struct {
	// ID names the exercise in commands and in the hint counters; lower-case
	// letters, digits and '-'.
	ID string
	// Title says what the learner writes, in a few words.
	Title Text
	// Section is the heading of the lab README's section that explains the
	// exercise, as in "Build it yourself". The starter's TODO points to it.
	// The Chinese twin's heading is in sectionsZH; see sectionIn.
	Section string
	// Regions are the parts of the lab's source the exercise cuts out.
	Regions []Region
	// Rules are what the lab's tests check, in the order a learner meets
	// them. check reports the first one broken.
	Rules []Rule
	// Hints are given one at a time by hint. A last hint is added to them:
	// it points to the lines of the lab that solve the exercise.
	Hints []Text
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
	File string
	// ID is the region's ID in the markers. An exercise with one region
	// usually gives it its own ID.
	ID string
	// TODO says what to write and points to the README section. Each line
	// becomes a comment line, indented like the markers.
	TODO Text
	// Code is the least code that compiles and vets in the region's place,
	// such as `return Result{}, fmt.Errorf("runLoop is not written yet")`.
	// Each line is indented like the markers; tabs after that indentation
	// stay.
	Code string
}

// A Rule is one thing the lab's tests check, in a sentence.
type Rule struct {
	// Test is the test that checks the rule, as go test -json names it: a
	// top-level test ("TestCalculatorTakesTwoTurnsAndFourMessages") or a
	// subtest ("TestCalculate/divide_by_zero").
	Test string
	// Text is the rule in one sentence, such as "each tool result reaches
	// the history".
	Text Text
}

// A Mistake is a typical mistake: Old replaced by New in File, inside a
// region. check must then name the rule whose Test is Rule.
type Mistake struct {
	// Name says what the mistake is, as in "a result not appended".
	Name string
	// File is the file to change, relative to the lab's directory.
	File string
	// Old is a piece of the file that occurs once, inside a region, and
	// New replaces it.
	Old, New string
	// Rule is the Test of the rule that check must report broken.
	Rule string
}

// goldenTests are the tests, in every lab, that compare the lab's output with
// its golden files. They are the lab's last rule.
var goldenTests = []string{"TestOutputMatchesGoldenFile", "TestProgram"}

// goldenRule is that last rule.
var goldenRule = Text{EN: "your output matches the lab's, byte for byte", ZH: "你的输出和实验的输出逐字节相同"}

// sectionsZH are the headings that the Chinese twins of the labs' READMEs,
// README.zh-CN.md, give the sections an Exercise's Section names, by the
// English heading.
var sectionsZH = map[string]string{
	"Build it yourself": "自己动手写（Build it yourself）",
}

// sectionIn returns the heading of the section that explains the exercise
// in the README of lang: README.md, or README.zh-CN.md in Chinese.
func (e *Exercise) sectionIn(lang Lang) string {
	return Text{EN: e.Section, ZH: sectionsZH[e.Section]}.In(lang)
}

// registry holds every registered Lab by name.
var registry = map[string]*Lab{}

// register adds a lab's track. Each labNN.go calls it from init. A malformed
// Lab is a mistake in this package, found by its tests; register panics on
// it so that no learner ever sees a half-defined exercise.
func register(l Lab) {
	if err := l.validate(); err != nil {
		panic(fmt.Sprintf("track: lab %s: %v", l.Name, err))
	}
	if _, ok := registry[l.Name]; ok {
		panic(fmt.Sprintf("track: lab %s registered twice", l.Name))
	}
	registry[l.Name] = &l
}

// idPattern is what an exercise or region ID may look like.
var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// validate checks what can be checked without the lab's files.
func (l Lab) validate() error {
	if len(l.Exercises) == 0 {
		return fmt.Errorf("no exercises")
	}
	if l.Idea.EN == "" {
		return fmt.Errorf("no idea")
	}
	seen := map[string]bool{}
	tests := map[string]bool{}
	for _, e := range l.Exercises {
		if !idPattern.MatchString(e.ID) {
			return fmt.Errorf("exercise ID %q: use lower-case letters, digits and '-'", e.ID)
		}
		if e.Title.EN == "" || e.Section == "" || len(e.Regions) == 0 || len(e.Rules) == 0 {
			return fmt.Errorf("exercise %s needs a title, a README section, regions and rules", e.ID)
		}
		for _, r := range e.Regions {
			key := "region " + r.File + ":" + r.ID
			if !idPattern.MatchString(r.ID) || seen[key] || r.TODO.EN == "" {
				return fmt.Errorf("exercise %s: region %q in %s is duplicated, malformed or has no TODO", e.ID, r.ID, r.File)
			}
			seen[key] = true
		}
		for _, r := range e.Rules {
			if !strings.HasPrefix(r.Test, "Test") || r.Text.EN == "" || tests[r.Test] || slices.Contains(goldenTests, topLevel(r.Test)) {
				return fmt.Errorf("exercise %s: rule %q is duplicated, malformed, a golden test or has no text", e.ID, r.Test)
			}
			tests[r.Test] = true
		}
		for _, h := range e.Hints {
			if h.EN == "" {
				return fmt.Errorf("exercise %s: an empty hint", e.ID)
			}
		}
		if seen["exercise "+e.ID] {
			return fmt.Errorf("exercise %s is listed twice", e.ID)
		}
		seen["exercise "+e.ID] = true
	}
	for _, m := range l.Mistakes {
		if m.Name == "" || m.File == "" || m.Old == "" || !tests[m.Rule] {
			return fmt.Errorf("mistake %q: needs a file, the text it changes, and a rule of the lab", m.Name)
		}
	}
	return nil
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

// topLevel returns the top-level test of a test name: "TestA" for "TestA/b".
func topLevel(test string) string {
	name, _, _ := strings.Cut(test, "/")
	return name
}
