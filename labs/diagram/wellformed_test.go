package diagram

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// The statements this package writes, one pattern per kind of line. A
// label is text without the characters Mermaid reads as syntax, and codes
// for them (Label); a diagram whose every line is one of these cannot be
// broken by what a run puts in its labels. The node script .ci/mermaid
// has Mermaid itself parse the same diagrams.
const (
	lbl   = `(?:[^#;<>&\n]|#[0-9]+;)*`
	alias = `(?:[^#;<>&:,@\n]|#[0-9]+;)+`
	lane  = `(?:U|L|M|T[0-9]+)`
	task  = `(?:[^#;<>&:%\n]|#[0-9]+;)+`
	qlbl  = `(?:[^#;<>&"\n]|#[0-9]+;)+`
	id    = `[a-z][a-z0-9]*`
)

var (
	participant = regexp.MustCompile(`^    participant (` + lane + `) as ` + alias + `$`)
	message     = regexp.MustCompile(`^    (` + lane + `)(->>\+|->>|-->>-|-->>|--x-|--x|--\))(` + lane + `):(?: ` + lbl + `)?$`)
	noteLine    = regexp.MustCompile(`^    Note over (` + lane + `)(?:,(` + lane + `))?:(?: ` + lbl + `(?:<br/>` + lbl + `)*)?$`)
	section     = regexp.MustCompile(`^    section ` + task + `$`)
	taskLine    = regexp.MustCompile(`^    (` + task + `) :(?:crit, |milestone, )?[0-9]+, [0-9]+$`)
	flowNode    = regexp.MustCompile(`^    ` + id + `(?:\["` + qlbl + `"\]|\{"` + qlbl + `"\}|\(\["` + qlbl + `"\]\)|\[\["` + qlbl + `"\]\])$`)
	flowEdge    = regexp.MustCompile(`^    ` + id + ` -->(?:\|"` + qlbl + `"\|)? ` + id + `$`)
	flowStyle   = regexp.MustCompile(`^    (?:classDef new [a-z0-9:#,-]+|class ` + id + `(?:,` + id + `)* new|linkStyle [0-9]+(?:,[0-9]+)* [a-z0-9:#,-]+)$`)
)

// wellFormed returns the problems of a diagram this package wrote: each
// line that is not a statement it writes, a lane used before it is
// declared, and a lane deactivated while it is not active, which Mermaid
// refuses to draw.
func wellFormed(text string) []string {
	var problems []string
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	bad := func(i int, why string) {
		problems = append(problems, fmt.Sprintf("line %d %q: %s", i+1, lines[i], why))
	}
	switch lines[0] {
	case "sequenceDiagram":
		declared := map[string]bool{}
		active := map[string]int{}
		for i, line := range lines[1:] {
			i++
			if m := participant.FindStringSubmatch(line); m != nil {
				declared[m[1]] = true
				continue
			}
			if m := noteLine.FindStringSubmatch(line); m != nil {
				for _, l := range m[1:] {
					if l != "" && !declared[l] {
						bad(i, "a lane that is not declared yet")
					}
				}
				continue
			}
			m := message.FindStringSubmatch(line)
			if m == nil {
				bad(i, "not a statement of a Sequence")
				continue
			}
			from, arrow, to := m[1], m[2], m[3]
			if !declared[from] || !declared[to] {
				bad(i, "a lane that is not declared yet")
			}
			switch {
			case strings.HasSuffix(arrow, "+"):
				active[to]++
			case strings.HasSuffix(arrow, "-"):
				if active[from] == 0 {
					bad(i, "deactivates a lane that is not active")
				}
				active[from]--
			}
		}
	case "gantt":
		if len(lines) < 4 || strings.Join(lines[1:4], "\n") != "    title Tool calls on the demo clock\n    dateFormat x\n    axisFormat %S.%L s" {
			problems = append(problems, "not the header of a Timeline")
		}
		for i := 4; i < len(lines); i++ {
			if section.MatchString(lines[i]) {
				continue
			}
			m := taskLine.FindStringSubmatch(lines[i])
			switch {
			case m == nil:
				bad(i, "not a statement of a Timeline")
			case ganttKeyword.MatchString(m[1]):
				bad(i, "a task whose name starts like a keyword")
			}
		}
	case "flowchart TD":
		for i, line := range lines[1:] {
			if !flowNode.MatchString(line) && !flowEdge.MatchString(line) && !flowStyle.MatchString(line) {
				bad(i+1, "not a statement of a loop chart")
			}
		}
	default:
		problems = append(problems, "not a diagram this package writes")
	}
	return problems
}

func TestWellFormedCatchesABrokenDiagram(t *testing.T) {
	good := "sequenceDiagram\n    participant U as User\n    participant L as Loop\n    participant T1 as x\n    L->>+T1: a\n    T1-->>-L: b\n"
	if problems := wellFormed(good); len(problems) != 0 {
		t.Fatalf("a good diagram is not well formed:\n%s", strings.Join(problems, "\n"))
	}
	for name, broken := range map[string]string{
		"a raw ;":            strings.Replace(good, ": a", ": a; b", 1),
		"a raw #":            strings.Replace(good, ": a", ": a # b", 1),
		"a line break":       strings.Replace(good, ": a", ": a\nb", 1),
		"HTML":               strings.Replace(good, ": a", ": <b>a</b>", 1),
		"an undeclared lane": strings.Replace(good, "L->>+T1", "L->>+T2", 1),
		"an inactive lane":   strings.Replace(good, "->>+", "->>", 1),
		"a : in an alias":    strings.Replace(good, "as x", "as x:y", 1),
		"another diagram":    "graph LR\n",
	} {
		if len(wellFormed(broken)) == 0 {
			t.Errorf("wellFormed finds no problem in a diagram with %s:\n%s", name, broken)
		}
	}
	if len(wellFormed("gantt\n    title Tool calls on the demo clock\n    dateFormat x\n    axisFormat %S.%L s\n    click me :0, 1\n")) == 0 {
		t.Errorf("wellFormed finds no problem in a timeline with a task named click, a keyword")
	}
}

// TestEveryDiagramOfTheWorkbookIsWellFormed checks every diagram the labs
// print into a golden file, and every diagram a README shows.
func TestEveryDiagramOfTheWorkbookIsWellFormed(t *testing.T) {
	root, err := expected.Root()
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Glob(filepath.Join(root, "expected", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range goldens {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(data), "\n"); first == "sequenceDiagram" || first == "gantt" {
			checked++
			wantWellFormed(t, filepath.Base(path), string(data))
		}
	}
	if want := 11; checked < want {
		t.Errorf("checked %d golden diagrams, want at least %d", checked, want)
	}
	readmes := 0
	for _, lab := range Labs() {
		for _, name := range []string{"README.md", "README.zh-CN.md"} {
			path := filepath.Join(root, "labs", lab, name)
			for i, block := range mermaidBlocks(t, path) {
				readmes++
				wantWellFormed(t, fmt.Sprintf("%s, diagram %d", path, i+1), block)
			}
		}
	}
	if want := 22; readmes < want {
		t.Errorf("checked %d diagrams in the READMEs, want at least %d", readmes, want)
	}
}

// mermaidBlocks returns the fenced blocks of a Markdown file whose info
// string is mermaid.
func mermaidBlocks(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []string
	var block *strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		switch line := sc.Text(); {
		case block == nil && line == "```mermaid":
			block = &strings.Builder{}
		case block != nil && strings.HasPrefix(line, "```"):
			blocks = append(blocks, block.String())
			block = nil
		case block != nil:
			block.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// wantWellFormed reports each problem of a diagram; what names it.
func wantWellFormed(t *testing.T, what, diagram string) {
	t.Helper()
	if problems := wellFormed(diagram); len(problems) != 0 {
		t.Errorf("%s is not well formed:\n%s", what, strings.Join(problems, "\n"))
	}
}
