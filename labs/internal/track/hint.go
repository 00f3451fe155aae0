package track

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A hintTopic is what hint helps with: the rule that check reports broken,
// a typical mistake, a stuck run, a data race, or the code of an exercise
// where the compiler's first error is.
type hintTopic struct {
	// key counts the hints given in the state (hintChoice.Key).
	key string
	// header introduces each hint, with the hint's number and the count
	// before its own arguments.
	header Text
	args   []any
	// hints are in the learner's language; the last points to the lab's
	// lines.
	hints []string
}

// A hintKind is what a hintChoice is about.
type hintKind string

const (
	hintNoCode    hintKind = "no-code"   // the code does not compile, and the first error is in no exercise's file
	hintCode      hintKind = "code"      // the code of an exercise does not compile
	hintStartUp   hintKind = "start-up"  // the tests cannot run: a panic, an exit or a hang as the package starts
	hintDone      hintKind = "done"      // everything passes
	hintElsewhere hintKind = "elsewhere" // the exercises pass, and another test fails
	hintRule      hintKind = "rule"      // a broken rule
	hintMistake   hintKind = "mistake"   // a typical mistake of the lab
	hintStuck     hintKind = "stuck"     // a stuck run
	hintRace      hintKind = "race"      // a data race
)

// A hintChoice is what hint helps with, as check's report decides it (see
// choose): data of its own, without the report's texts, so that check can
// keep it for hint, which then answers at once while the copy stays as it
// was (lastCheck), and hint can give it in either language.
type hintChoice struct {
	Kind hintKind `json:"kind"`
	// Exercise is the ID of the exercise it is about, and Rule the index
	// of its broken rule.
	Exercise string `json:"exercise,omitempty"`
	Rule     int    `json:"rule,omitempty"`
	// Key counts the hints given, in the state: the rule's test, or
	// raceKey, then what check found (see about); for code, codeKey.
	Key string `json:"key,omitempty"`
	// Mistake is the name of the typical mistake check's finding shows.
	Mistake string `json:"mistake,omitempty"`
	// Stuck is how the run is stuck.
	Stuck stuckKind `json:"stuck,omitempty"`
	// NoRace is set, with hintDone, when the race detector did not run on
	// a lab that check runs it on.
	NoRace bool `json:"noRace,omitempty"`
	// For code that does not compile: whether go vet found it, where the
	// first error is, and the region there, as "file#id".
	Vet    bool   `json:"vet,omitempty"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	At     place  `json:"at,omitempty"`
	Region string `json:"region,omitempty"`
}

// choose decides what hint helps with, from check's report: code that does
// not compile, the first broken rule, a data race. A broken rule or a race
// whose finding shows a typical mistake of the lab gets the mistake's hints;
// a stuck run that no mistake explains gets the hints about stuck runs.
func choose(lab *Lab, r *report) hintChoice {
	switch {
	case len(r.build) > 0:
		at := firstError(lab, r.dir, r.build)
		if at.region == nil {
			return hintChoice{Kind: hintNoCode}
		}
		return hintChoice{Kind: hintCode, Exercise: at.exercise.ID, Key: codeKey(*at.region), Vet: r.vet,
			File: at.file, Line: at.line, At: at.at, Region: at.region.File + "#" + at.region.ID}
	case r.cannotRun():
		return hintChoice{Kind: hintStartUp}
	}
	if first := r.firstFailing(); first != nil {
		c := hintChoice{Kind: hintRule, Exercise: first.exercise.ID, Rule: first.broken}
		return c.about(lab, first.exercise.Rules[first.broken].Test, first.finding)
	}
	switch {
	case r.race != nil:
		return hintChoice{Kind: hintRace}.about(lab, raceKey, r.race)
	case r.passes():
		return hintChoice{Kind: hintDone, NoRace: lab.Race && !r.raceChecked}
	case r.other != nil && r.other.stuck != nil:
		return hintChoice{Kind: hintRule}.about(lab, otherKey, r.other)
	case r.golden != nil && r.golden.stuck != nil:
		return hintChoice{Kind: hintRule}.about(lab, otherKey, r.golden)
	}
	return hintChoice{Kind: hintElsewhere}
}

// otherKey stands for the tests outside the exercises in hint's counts.
const otherKey = "other"

// about completes the choice for what check found of test, a rule's test or
// raceKey: the lab's first typical mistake that breaks it and whose Seen
// are all in f, or else a stuck run, or else the rule, or the race, itself.
// Each gets a count of its own (Key), so that a new mistake starts at its
// own first hint: a typical mistake's by its name, a stuck run's by where
// it is stuck, and any other by what its test reported (fingerprint).
func (c hintChoice) about(lab *Lab, test string, f *finding) hintChoice {
	if m := lab.mistakeIn(test, f); m != nil {
		c.Kind, c.Mistake, c.Key = hintMistake, m.Name, test+"|mistake: "+m.Name
		return c
	}
	if f != nil && f.stuck != nil {
		c.Kind, c.Stuck, c.Key = hintStuck, f.stuck.kind, test+"|stuck: "+f.stuck.signature()
		return c
	}
	c.Key = test + "|" + f.fingerprint()
	return c
}

// mistakeIn returns the first typical mistake of the lab that breaks test
// and whose Seen all occur in what check shows of f, or nil.
func (l *Lab) mistakeIn(test string, f *finding) *Mistake {
	if f == nil {
		return nil
	}
	text := f.text()
	for i := range l.Mistakes {
		m := &l.Mistakes[i]
		if m.breaks() == test && !slices.ContainsFunc(m.Seen, func(s string) bool { return !strings.Contains(text, s) }) {
			return m
		}
	}
	return nil
}

// mistake returns the lab's typical mistake of that name, or nil.
func (l *Lab) mistake(name string) *Mistake {
	for i := range l.Mistakes {
		if l.Mistakes[i].Name == name {
			return &l.Mistakes[i]
		}
	}
	return nil
}

// text is what check shows of a finding, in English, for a typical
// mistake's Seen: the test, the sentence, the lines, what the test
// reported, and where the run is stuck.
func (f *finding) text() string {
	var b strings.Builder
	b.WriteString(f.test + "\n")
	if f.why.EN != "" {
		fmt.Fprintf(&b, f.why.EN+"\n", f.whyArgs...)
	}
	for _, l := range f.lines {
		b.WriteString(l + "\n")
	}
	for _, fd := range f.found {
		b.WriteString(fd.at + ": " + fd.Finding.String() + "\n")
	}
	if f.stuck != nil {
		for _, p := range f.stuck.places {
			b.WriteString(p + "\n")
		}
	}
	return b.String()
}

// fingerprint tells one failure of a test from another: the test, what it
// reported, and where, without its numbers, which change as the learner
// edits lines or the values they are near. The same mistake, checked
// again, has the same fingerprint.
func (f *finding) fingerprint() string {
	if f == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(f.test + "\n" + f.why.EN + "\n")
	for _, fd := range f.found {
		b.WriteString(fd.Message + "\n")
	}
	for _, l := range f.lines {
		b.WriteString(l + "\n")
	}
	h := fnv.New64a()
	h.Write([]byte(digits.ReplaceAllString(b.String(), "#")))
	return fmt.Sprintf("%016x", h.Sum64())
}

// errStaleChoice is give's error for a choice that names what the lab no
// longer has: hint then asks go test again.
var errStaleChoice = errors.New("the hint kept from check names what the lab no longer has")

// hint gives the next hint about what check reports, one more each time:
// the hints of the typical mistake check's finding shows, of a stuck run,
// of the first broken rule, of a data race, or, for code that does not
// compile, of the exercise's code where the first error is. It remembers
// how many it gave of each. While the copy is as check last saw it, hint
// answers from check's report at once; otherwise it runs go test, which
// answers from its cache when it can.
func (s *session) hint(ctx context.Context, lab *Lab) error {
	if err := s.started(lab); err != nil {
		return err
	}
	dir := s.wb.copyDir(lab.Name)
	if c, ok := s.wb.lastChoice(lab, dir); ok {
		if err := s.give(lab, dir, c); !errors.Is(err, errStaleChoice) {
			return err
		}
	}
	r, err := s.checkOne(ctx, lab, checkOptions{})
	if err != nil {
		return err
	}
	return s.hintFor(lab, r)
}

// hintFor gives the next hint about what the report found.
func (s *session) hintFor(lab *Lab, r *report) error {
	err := s.give(lab, r.dir, choose(lab, r))
	if errors.Is(err, errStaleChoice) {
		return fmt.Errorf("labs/%s/%s: %w", lab.Name, exercisesFile, err)
	}
	return err
}

// give gives the next hint about what c is about, in the copy in dir.
func (s *session) give(lab *Lab, dir string, c hintChoice) error {
	ex := lab.exercise(c.Exercise)
	if c.Exercise != "" && ex == nil {
		return errStaleChoice
	}
	var topic hintTopic
	var err error
	switch c.Kind {
	case hintNoCode:
		s.out.say(msgHintBuild, lab.Name)
		return errFailed
	case hintStartUp:
		s.out.say(msgHintPanic, lab.Name)
		return errFailed
	case hintDone:
		if c.NoRace {
			s.out.say(msgHintAllPassNoRace, lab.Name, lab.Name)
		} else {
			s.out.say(msgHintAllPass, lab.Name)
		}
		return nil
	case hintElsewhere:
		s.out.say(msgHintExercisePass, lab.Name, lab.Name)
		return nil
	case hintCode:
		reg := ex.region(c.Region)
		if reg == nil {
			return errStaleChoice
		}
		at := errorPlace{file: c.File, line: c.Line, at: c.At, region: reg, exercise: ex}
		msg := msgHintDoesNotCompile
		if c.Vet {
			msg = msgHintVetFails
		}
		path := s.wb.rel(filepath.Join(dir, at.file))
		s.out.say(msg, lab.Name, s.out.where(lab, at, path))
		topic, err = s.codeTopic(lab, at, path)
	default:
		topic, err = s.findingTopic(lab, ex, c)
	}
	if err != nil {
		return err
	}
	topic.key = c.Key
	n := s.nextHint(lab, topic)
	s.out.say(topic.header, append([]any{n, len(topic.hints)}, topic.args...)...)
	for _, l := range strings.Split(topic.hints[n-1], "\n") {
		s.out.lines("  " + l)
	}
	if n < len(topic.hints) {
		s.out.say(msgHintMore, lab.Name)
	} else {
		s.out.say(msgHintLastAgain)
	}
	return nil
}

// findingTopic is the topic of what a test or the race detector found: a
// typical mistake's hints, the hints about a stuck run, a rule's own, or
// the hints about a data race; then the lab's lines that solve the
// exercise, or all its exercises when none is the cause.
func (s *session) findingTopic(lab *Lab, ex *Exercise, c hintChoice) (hintTopic, error) {
	var hints []Text
	var topic hintTopic
	switch {
	case ex != nil:
		if c.Rule < 0 || c.Rule >= len(ex.Rules) {
			return hintTopic{}, errStaleChoice
		}
		rule := ex.Rules[c.Rule]
		topic.header = msgHintRuleHeader
		topic.args = []any{lab.number(ex), c.Rule + 1, len(ex.Rules), rule.Text.In(s.out.lang)}
		hints = rule.Hints
	case c.Kind == hintRace || c.Mistake != "":
		topic.header, hints = msgHintRaceHeader, raceHints
	default:
		topic.header = msgHintStuckHeader
	}
	switch c.Kind {
	case hintMistake:
		m := lab.mistake(c.Mistake)
		if m == nil {
			return hintTopic{}, errStaleChoice
		}
		hints = m.Hints
	case hintStuck:
		topic.header, topic.args, hints = msgHintStuckHeader, nil, stuckHints[c.Stuck]
		if hints == nil {
			return hintTopic{}, errStaleChoice
		}
	}
	var last string
	var err error
	if ex != nil {
		last, err = s.labLines(lab, msgHintLines, ex.Regions...)
	} else {
		var all []Region
		for _, e := range lab.Exercises {
			all = append(all, e.Regions...)
		}
		last, err = s.labLines(lab, msgHintLinesAll, all...)
	}
	topic.hints = append(s.inLang(hints), last)
	return topic, err
}

// region returns the exercise's region named "file#id", or nil.
func (e *Exercise) region(name string) *Region {
	for i := range e.Regions {
		if e.Regions[i].File+"#"+e.Regions[i].ID == name {
			return &e.Regions[i]
		}
	}
	return nil
}

// nextHint returns the number, from 1, of the topic's next hint, and
// remembers it. A count that the state should not hold, negative or past
// the last hint, as a state file edited by hand may have, counts as the
// nearest it can be: the first hint, or the last again.
func (s *session) nextHint(lab *Lab, topic hintTopic) int {
	st := s.wb.loadState()
	if st.Hints[lab.Name] == nil {
		st.Hints[lab.Name] = map[string]int{}
	}
	given := min(max(st.Hints[lab.Name][topic.key], 0), len(topic.hints)-1)
	n := given + 1
	st.Hints[lab.Name][topic.key] = n
	if err := s.wb.saveState(st); err != nil {
		s.errOut.say(msgRememberFailed, err)
	}
	return n
}

// codeTopic is the topic of code that does not compile: the hints of the
// region where the first error is, then the lab's lines of that region.
// path is the file with the error, from the repository's root.
func (s *session) codeTopic(lab *Lab, at errorPlace, path string) (hintTopic, error) {
	last, err := s.labLines(lab, msgHintLines, *at.region)
	if err != nil {
		return hintTopic{}, err
	}
	return hintTopic{
		header: msgHintCodeHeader,
		args:   []any{lab.number(at.exercise), at.exercise.Title.In(s.out.lang), path},
		hints:  append(s.inLang(at.region.Hints), last),
	}, nil
}

// codeKey is the key of a region's hint counter in the state. Rules' keys
// are their tests, which start with "Test".
func codeKey(r Region) string { return "code:" + r.File + "#" + r.ID }

// inLang returns the texts in the learner's language.
func (s *session) inLang(texts []Text) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = t.In(s.out.lang)
	}
	return out
}

// labLines is the last hint, the message msg: the lines of the lab that
// hold the regions' code, and the command that shows how the learner's
// code differs.
func (s *session) labLines(lab *Lab, msg Text, regions ...Region) (string, error) {
	var where []string
	for _, r := range regions {
		fr, ok, err := regionIn(s.wb.labDir(lab.Name), r)
		if err != nil {
			return "", fmt.Errorf("labs/%s/%s: %w", lab.Name, r.File, err)
		}
		if ok {
			// The body's lines, counting from 1: after the begin marker,
			// up to the line before the end marker.
			where = append(where, fmt.Sprintf("labs/%s/%s:%d-%d", lab.Name, r.File, fr.begin+2, fr.end))
		}
	}
	return s.out.sprint(msg, strings.Join(where, msgListComma.In(s.out.lang)), lab.Name), nil
}

// A place is where a compiler's message points in an exercise's file.
type place int

const (
	insideRegion  place = iota // between the region's markers
	outsideRegion              // elsewhere in the file, which has the markers
	noRegion                   // in a file whose markers the learner broke
)

// An errorPlace is where the compiler's first message that names a file of
// an exercise points.
type errorPlace struct {
	file     string // the file, relative to the copy
	line     int
	at       place
	region   *Region // the region it is in, or the file's first region
	exercise *Exercise
}

// firstError finds where the first of the compiler's messages that names a
// file and a line points: the region of the exercise it is in, or, outside
// every region, the first region of that file, whose exercise's code is the
// likely cause, as with an import it no longer uses. Its region is nil if
// the message names no file of an exercise.
func firstError(lab *Lab, dir string, build []string) errorPlace {
	var p errorPlace
	for _, l := range build {
		if file, line, ok := fileLine(l); ok {
			p.file, p.line = file, line
			break
		}
	}
	if p.file == "" {
		return p
	}
	p.at = noRegion
	for i := range lab.Exercises {
		e := &lab.Exercises[i]
		for j := range e.Regions {
			reg := &e.Regions[j]
			if reg.File != p.file {
				continue
			}
			if p.region == nil {
				p.region, p.exercise = reg, e
			}
			fr, ok, _ := regionIn(dir, *reg) // markers the learner broke: not ok
			if !ok {
				continue
			}
			p.at = outsideRegion
			// Lines count from 1, and a region's from 0: its code is on
			// lines begin+2 to end. An error on its end marker's line or
			// the next, a function's closing brace, where the compiler
			// says "missing return", is about its code too.
			if fr.begin < p.line && p.line <= fr.end+2 {
				p.region, p.exercise, p.at = reg, e, insideRegion
				return p
			}
		}
	}
	return p
}

// fileLine reads the place a compiler's message starts with, as in
// "_mywork/03-maxturns/loop.go:94:1: missing return": the file's name, with
// no directory, and the line.
func fileLine(msg string) (file string, line int, ok bool) {
	msg = strings.TrimSpace(msg)
	i := strings.Index(msg, ".go:")
	if i < 0 {
		return "", 0, false
	}
	digits, _, _ := strings.Cut(msg[i+len(".go:"):], ":")
	line, err := strconv.Atoi(digits)
	if err != nil || line <= 0 {
		return "", 0, false
	}
	path := msg[:i+len(".go")]
	return path[strings.LastIndexAny(path, `/\`)+1:], line, true
}

// where says where the compiler's first error is, for hint and for check's
// next step: in the code of an exercise, outside it in that exercise's
// file, or in a file whose markers are gone.
func (p *printer) where(lab *Lab, at errorPlace, path string) string {
	switch at.at {
	case outsideRegion:
		return p.sprint(msgFirstOutside, path, lab.number(at.exercise))
	case noRegion:
		return p.sprint(msgFirstInFile, path, lab.number(at.exercise))
	}
	return p.sprint(msgFirstInside, lab.number(at.exercise), path)
}

// dedupe drops repeated strings, keeping the first of each.
func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
