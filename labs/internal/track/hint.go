package track

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A hintTopic is what hint helps with: the rule that check reports broken,
// or the code of an exercise where the compiler's first error is.
type hintTopic struct {
	// key counts the hints given in the state: the rule's test, or
	// codeKey of the region.
	key string
	// header introduces each hint, with the hint's number and the count
	// before its own arguments.
	header Text
	args   []any
	// hints are in the learner's language; the last points to the lab's
	// lines.
	hints []string
}

// hint gives the next hint about what check reports, one more each time:
// the hints of the first broken rule, or, for code that does not compile,
// the hints of the exercise's code where the first error is. It remembers
// how many it gave.
func (s *session) hint(ctx context.Context, lab *Lab) error {
	r, err := s.checkOne(ctx, lab, false)
	if err != nil {
		return err
	}
	return s.hintFor(lab, r)
}

// hintFor gives the next hint about what the report found.
func (s *session) hintFor(lab *Lab, r *report) error {
	var topic hintTopic
	var err error
	switch {
	case len(r.build) > 0:
		at := firstError(lab, r.dir, r.build)
		if at.region == nil {
			s.out.say(msgHintBuild, lab.Name)
			return errFailed
		}
		msg := msgHintDoesNotCompile
		if r.vet {
			msg = msgHintVetFails
		}
		s.out.say(msg, lab.Name, s.out.where(lab, at, s.wb.rel(filepath.Join(r.dir, at.file))))
		if topic, err = s.codeTopic(lab, r, at); err != nil {
			return err
		}
	case len(r.panicked) > 0, r.exited, r.hung != nil:
		s.out.say(msgHintPanic, lab.Name)
		return errFailed
	default:
		first := r.firstFailing()
		switch {
		case first == nil && r.passes():
			s.out.say(msgHintAllPass, lab.Name)
			return nil
		case first == nil:
			s.out.say(msgHintExercisePass, lab.Name, lab.Name)
			return nil
		}
		if topic, err = s.ruleTopic(lab, first.exercise, first.broken); err != nil {
			return err
		}
	}
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

// ruleTopic is the topic of a broken rule: its hints, then the lab's lines
// that solve its exercise.
func (s *session) ruleTopic(lab *Lab, ex *Exercise, broken int) (hintTopic, error) {
	rule := ex.Rules[broken]
	last, err := s.labLines(lab, ex.Regions...)
	if err != nil {
		return hintTopic{}, err
	}
	return hintTopic{
		key:    rule.Test,
		header: msgHintRuleHeader,
		args:   []any{lab.number(ex), broken + 1, len(ex.Rules), rule.Text.In(s.out.lang)},
		hints:  append(s.inLang(rule.Hints), last),
	}, nil
}

// codeTopic is the topic of code that does not compile: the hints of the
// region where the first error is, then the lab's lines of that region.
func (s *session) codeTopic(lab *Lab, r *report, at errorPlace) (hintTopic, error) {
	last, err := s.labLines(lab, *at.region)
	if err != nil {
		return hintTopic{}, err
	}
	return hintTopic{
		key:    codeKey(*at.region),
		header: msgHintCodeHeader,
		args:   []any{lab.number(at.exercise), at.exercise.Title.In(s.out.lang), s.wb.rel(filepath.Join(r.dir, at.file))},
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

// labLines is the last hint: the lines of the lab that hold the regions'
// code, and the command that shows how the learner's code differs.
func (s *session) labLines(lab *Lab, regions ...Region) (string, error) {
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
	return s.out.sprint(msgHintLines, strings.Join(where, msgListComma.In(s.out.lang)), lab.Name), nil
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
