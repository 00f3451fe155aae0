package track

import (
	"strings"
	"unicode"
)

// write prints the report for a learner, in at most about 40 lines: the
// state of each exercise; for the first that fails, its first broken rule
// and what the test saw; then the next thing to do. next is what to do once
// the lab passes: "start " and the next lab, nextContents, or "" after the
// last lab with exercises.
func (r *report) write(p *printer, next string) {
	p.say(msgCheckHeader, r.lab.Name, r.rel)
	// The notes first: a missing file explains the compiler's errors.
	for _, w := range r.warnings {
		p.say(w.text, w.args...)
	}
	if len(r.build) > 0 {
		if r.vet {
			p.say(msgVetFails, r.rel)
		} else {
			p.say(msgDoesNotCompile, r.rel)
		}
		p.text(r.build...)
		if r.buildMore > 0 {
			p.lines(p.moreLines(r.buildMore, "go vet ./"+r.rel))
		}
		p.lines("")
		r.writeBuildNext(p)
		return
	}
	if r.exited || len(r.panicked) > 0 || r.hung != nil {
		switch {
		case r.exited:
			p.say(msgExitBeforeTests, r.rel)
		case r.hung != nil:
			p.say(msgHangBeforeTests, r.rel, testTimeout)
			p.text(r.hung...)
		default:
			p.say(msgPanicBeforeTests, r.rel)
			p.text(r.panicked...)
		}
		p.lines("")
		p.say(msgNextStartUp, r.lab.Name)
		return
	}
	p.lines("")
	first := r.firstFailing()
	for i := range r.exercises {
		e := &r.exercises[i]
		title := e.exercise.Title.In(p.lang)
		switch {
		case e.broken < 0:
			p.sayIn(p.good, msgExercisePasses, i+1, title)
			continue
		case e.notRun() && e != first:
			p.say(msgExerciseNotRun, i+1, title)
			continue
		}
		p.sayIn(p.bad, msgExerciseFails, i+1, title)
		if e == first {
			p.say(msgBrokenRule, e.broken+1, len(e.exercise.Rules), e.exercise.Rules[e.broken].Text.In(p.lang))
			r.writeFinding(p, e.finding)
		}
	}
	switch {
	case !r.checkedAll:
		p.say(msgNotYet)
	case r.other != nil && r.other.test == "":
		// No test failed: the second phase could not run.
		p.say(msgOtherNotChecked, p.sprint(r.other.why, r.other.whyArgs...))
	case r.other != nil:
		p.sayIn(p.bad, msgOtherFails, printable(ruleFromName(r.other.test)))
		r.writeFinding(p, r.other)
	default:
		p.sayIn(p.good, msgOthersPass)
		if r.golden != nil {
			p.sayIn(p.bad, msgGoldenFails, goldenRule.In(p.lang), r.golden.test)
			r.writeFinding(p, r.golden)
		} else {
			p.sayIn(p.good, msgGoldenPasses, goldenRule.In(p.lang))
		}
	}
	p.lines("")
	r.writeNext(p, next)
}

// writeFinding prints what went wrong in a test.
func (r *report) writeFinding(p *printer, f *finding) {
	if f.test != "" {
		p.say(msgBrokenTest, printable(f.test))
	}
	if f.why.EN != "" {
		p.text("    " + p.sprint(f.why, f.whyArgs...))
	}
	lines := f.lines
	for _, fd := range f.found {
		lines = append(lines, p.findingLines(fd)...)
	}
	lines, hidden := shorten(lines, failureLines)
	for _, l := range lines {
		p.text("    " + l)
	}
	if hidden > 0 {
		p.lines("    " + p.moreLines(hidden, f.more))
	}
}

// findingLines writes what a test reported: where, what it checks, and
// what it wanted and got, or the difference, in the learner's language.
// The test's own sentence stays English, as the tests are.
func (p *printer) findingLines(f reported) []string {
	out := []string{"  " + f.at + ": " + f.Message}
	if f.Want != "" || f.Got != "" {
		out = append(out, "    "+p.sprint(msgWant, f.Want), "    "+p.sprint(msgGot, f.Got))
	}
	if len(f.Diff) > 0 {
		out = append(out, "    "+msgDiffHeader.In(p.lang))
		for _, l := range f.Diff {
			out = append(out, "    "+l)
		}
	}
	return out
}

// sprint formats a message in the printer's language.
func (p *printer) sprint(t Text, args ...any) string {
	var b strings.Builder
	q := *p
	q.w = &b
	q.say(t, args...)
	return strings.TrimSuffix(b.String(), "\n")
}

// markersGone reports whether the learner's copy has none of the
// exercise's regions whole, so that "at the markers" would send them
// looking for lines they deleted.
func (r *report) markersGone(ex *Exercise) bool {
	if r.dir == "" {
		return false
	}
	for _, reg := range ex.Regions {
		if _, ok, _ := regionIn(r.dir, reg); ok {
			return false
		}
	}
	return true
}

// writeBuildNext says what to do about code that does not compile: fix
// the first error, which it places in an exercise's code if it can, and ask
// hint about that code.
func (r *report) writeBuildNext(p *printer) {
	at := firstError(r.lab, r.dir, r.build)
	if at.region == nil {
		p.say(msgNextBuildElsewhere, r.lab.Name)
		return
	}
	p.say(msgNextBuild, p.where(r.lab, at, r.rel+"/"+at.file))
	p.say(msgNextHintCode, r.lab.Name)
	if !r.watching {
		p.say(msgNextWatch, r.lab.Name)
	}
}

// writeNext says what to do next.
func (r *report) writeNext(p *printer, next string) {
	name := r.lab.Name
	switch first := r.firstFailing(); {
	case first != nil && first.finding != nil && first.finding.why == msgMissingTest:
		p.say(msgNextRestore, name)
	case first != nil:
		// The exercise by its number, as check lists it, and by its
		// markers, which is what a learner finds in the file: an
		// exercise's ID need not be one of them.
		ex := first.exercise
		var where, markers []string
		for _, reg := range ex.Regions {
			where = append(where, r.rel+"/"+reg.File)
			markers = append(markers, reg.ID)
		}
		files := strings.Join(dedupe(where), msgListComma.In(p.lang))
		if r.markersGone(ex) {
			p.say(msgNextWriteNoMarkers, r.lab.number(ex), files, r.lab.Section.In(p.lang), p.list(dedupe(markers)))
		} else {
			p.say(msgNextWrite, r.lab.number(ex), p.list(dedupe(markers)), files, r.lab.Section.In(p.lang))
		}
		p.say(msgNextHint, name)
		if !r.watching {
			p.say(msgNextWatch, name)
		}
	case r.other != nil && r.other.test == "":
		p.say(msgNextCheckAgain, name)
	case r.golden != nil && r.golden.why == msgMissingTest:
		p.say(msgNextRestore, name)
	case r.other != nil:
		p.say(msgNextOther, printable(r.other.test), name)
	case r.golden != nil:
		p.say(msgNextGolden, name)
	default:
		p.sayIn(p.good, msgDone, name)
		if r.lab.Race {
			p.say(msgDoneRace, r.rel)
		}
		if next != "" {
			if next == nextContents {
				p.say(msgDoneContents)
			} else {
				p.say(msgDoneNext, next)
			}
		} else {
			p.say(msgDoneLast)
		}
	}
}

// list joins items as a sentence does: "a", "a and b", "a, b and c".
func (p *printer) list(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	last := len(items) - 1
	return p.sprint(msgAnd, strings.Join(items[:last], msgListComma.In(p.lang)), items[last])
}

// ruleFromName makes a sentence of a test's name, for a test no exercise
// names: "TestAFailingToolStopsThisLoop/one_call" is "a failing tool stops
// this loop: one call".
func ruleFromName(test string) string {
	parts := strings.Split(test, "/")
	top := strings.TrimPrefix(parts[0], "Test")
	var words []string
	start := 0
	runes := []rune(top)
	for i := 1; i <= len(runes); i++ {
		if i == len(runes) || (unicode.IsUpper(runes[i]) && (unicode.IsLower(runes[i-1]) || (i+1 < len(runes) && unicode.IsLower(runes[i+1])))) {
			words = append(words, strings.ToLower(string(runes[start:i])))
			start = i
		}
	}
	sentence := strings.Join(words, " ")
	for _, sub := range parts[1:] {
		sentence += ": " + strings.ReplaceAll(sub, "_", " ")
	}
	if sentence == "" {
		return test
	}
	return sentence + " (" + test + ")"
}
