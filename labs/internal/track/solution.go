package track

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// solution prints a diff of the learner's files against the lab's, file by
// file, only the files that differ.
func (s *session) solution(ctx context.Context, lab *Lab) error {
	if err := s.started(lab); err != nil {
		return err
	}
	wb := s.wb
	dir := wb.copyDir(lab.Name)
	theirs, err := wb.labFiles(lab.Name)
	if err != nil {
		return fmt.Errorf("read labs/%s: %w", lab.Name, err)
	}
	mine, err := readFiles(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", wb.rel(dir), err)
	}
	names := append(theirs.names(), mine.names()...)
	slices.Sort(names)
	names = slices.Compact(names)
	same := true
	for _, name := range names {
		mineName, labName := wb.rel(dir)+"/"+name, "labs/"+lab.Name+"/"+name
		m, inMine := mine[name]
		l, inLab := theirs[name]
		switch {
		case !inMine:
			s.out.say(msgSolutionMissing, mineName, labName)
		case !inLab:
			s.out.say(msgSolutionExtra, mineName)
		default:
			diff := expected.UnifiedDiff(s.out.sprint(msgDiffYours, mineName), s.out.sprint(msgDiffLab, labName), string(m), string(l))
			if diff == "" {
				continue
			}
			s.writeDiff(diff)
		}
		same = false
	}
	if same {
		s.out.say(msgSolutionSame, wb.rel(dir))
	}
	return nil
}

// writeDiff prints a unified diff, in colour on a terminal.
func (s *session) writeDiff(diff string) {
	p := s.out
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "):
			l = p.strong.Sprint(l)
		case strings.HasPrefix(l, "@@"):
			l = p.faint.Sprint(l)
		case strings.HasPrefix(l, "-"):
			l = p.bad.Sprint(l)
		case strings.HasPrefix(l, "+"):
			l = p.good.Sprint(l)
		}
		p.lines(l)
	}
}
