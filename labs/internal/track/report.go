package track

import (
	"slices"
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
	if r.exited || r.failedUnseen || len(r.panicked) > 0 || r.hung != nil {
		switch {
		case r.exited:
			p.say(msgExitBeforeTests, r.rel)
		case r.failedUnseen:
			p.say(msgFailedUnseen, r.rel)
		case r.hung != nil:
			p.say(msgHangBeforeTests, r.rel, testTimeout)
			p.text(r.hung...)
		default:
			p.say(msgPanicBeforeTests, r.rel)
			p.text(r.panicked...)
		}
		p.lines("")
		if r.failedUnseen {
			p.say(msgNextFailedUnseen, r.lab.Name)
		} else {
			p.say(msgNextStartUp, r.lab.Name)
		}
		return
	}
	p.lines("")
	// A stuck run is the headline: whichever rule's test got stuck, the
	// learner's first task is to find where, and why.
	if f := r.stuckFinding(); f != nil {
		r.writeStuck(p, f)
		p.lines("")
	}
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
			break
		}
		p.sayIn(p.good, msgGoldenPasses, goldenRule.In(p.lang))
		switch {
		case r.race != nil:
			p.sayIn(p.bad, msgRaceFails, raceRule.In(p.lang))
			r.writeFinding(p, r.race)
		case r.raceNotRun != nil:
			p.say(msgRaceNotRun, p.sprint(r.raceNotRun.text, r.raceNotRun.args...))
		case r.raceChecked:
			p.sayIn(p.good, msgRacePasses, raceRule.In(p.lang))
		}
	}
	p.lines("")
	r.writeNext(p, next)
}

// stuckFinding returns the finding that check reports whose run got
// stuck, or nil: the first failing exercise's, or, once the exercises
// pass, that of the test outside them or of the golden test.
func (r *report) stuckFinding() *finding {
	var f *finding
	switch first := r.firstFailing(); {
	case first != nil:
		f = first.finding
	case r.other != nil:
		f = r.other
	case r.golden != nil:
		f = r.golden
	}
	if f == nil || f.stuck == nil {
		return nil
	}
	return f
}

// writeStuck prints the headline of a stuck run: how it is stuck, the
// test, and where the goroutines wait or run in the copy.
func (r *report) writeStuck(p *printer, f *finding) {
	switch f.stuck.kind {
	case stuckLock:
		p.say(msgStuckLock, testTimeout, printable(f.test))
	case stuckSpins:
		p.say(msgStuckSpins, testTimeout, printable(f.test))
	default:
		p.say(msgStuckWaits, printable(f.test))
	}
	if f.stuck.unseen > 0 {
		p.say(msgStuckUnseen, f.stuck.unseen)
	}
	places, hidden := shorten(f.stuck.places, maxStuckPlaces)
	for _, pl := range places {
		p.text("  " + pl)
	}
	if hidden > 0 {
		p.lines("  " + p.moreLines(hidden, f.more))
	}
	if len(places) == 0 && f.stuck.unseen == 0 {
		p.say(msgStuckNowhere)
	}
}

// writeFinding prints what went wrong in a test. Of a stuck run, which the
// headline shows, it says only so, and what else the test reported.
func (r *report) writeFinding(p *printer, f *finding) {
	if f.test != "" {
		p.say(msgBrokenTest, printable(f.test))
	}
	found := f.found
	switch {
	case f.stuck != nil:
		p.say(msgStuckAbove)
		found = slices.DeleteFunc(slices.Clone(found), func(fd reported) bool { return len(fd.Stuck) > 0 })
	case f.why.EN != "":
		p.text("    " + p.sprint(f.why, f.whyArgs...))
	}
	var lines []string
	if f.stuck == nil {
		lines = f.lines
	}
	for _, fd := range found {
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
	case first != nil && first.finding != nil && first.finding.why == msgNoSuchTest:
		p.say(msgNextReportMistake)
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
	case r.race != nil:
		p.say(msgNextRace)
		p.say(msgNextHint, name)
		if !r.watching {
			p.say(msgNextWatch, name)
		}
	default:
		p.sayIn(p.good, msgDone, name)
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
