package track

import (
	"bytes"
	"context"
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
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
		mineName, labName := cli.Quote(wb.rel(dir)+"/"+name), cli.Quote("labs/"+lab.Name+"/"+name)
		m, inMine := mine[name]
		l, inLab := theirs[name]
		switch {
		case !inMine:
			s.out.say(msgSolutionMissing, mineName, labName)
		case !inLab && isBinary(m):
			s.out.say(msgSolutionProgram, mineName)
		case !inLab:
			s.out.say(msgSolutionExtra, mineName)
		default:
			// The TODOs the learner left in place are the starter's, not
			// a difference worth reading.
			m = withoutTODOs(lab, name, m)
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

// isBinary reports whether data is not text, as a program that go build
// left in the copy is not: it holds a NUL byte near its start.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0
}

// withoutTODOs returns src, the learner's version of the lab's file name,
// without the TODO comments of the starter that are still right after an
// exercise's begin marker, in either language.
func withoutTODOs(lab *Lab, name string, src []byte) []byte {
	found, err := findRegions(src)
	if err != nil {
		return src
	}
	lines := splitSource(src)
	drop := map[int]bool{}
	for _, e := range lab.Exercises {
		for _, reg := range e.Regions {
			i := slices.IndexFunc(found, func(r region) bool { return r.id == reg.ID })
			if reg.File != name || i < 0 {
				continue
			}
			fr := found[i]
			for _, lang := range []Lang{English, Chinese} {
				todo := reg.todoLines(lang)
				from := fr.begin + 1
				if from+len(todo) > fr.end {
					continue
				}
				same := true
				for j, t := range todo {
					same = same && lines[from+j] == fr.indent+t
				}
				if same {
					for j := range todo {
						drop[from+j] = true
					}
					break
				}
			}
		}
	}
	var out []string
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// writeDiff prints a unified diff, in colour on a terminal. Its lines come
// from the learner's files, which may hold anything: they are escaped as
// check's are (printable).
func (s *session) writeDiff(diff string) {
	p := s.out
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		l = printable(l)
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
