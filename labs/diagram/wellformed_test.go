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
// for them (Lines); a diagram whose every line is one of these cannot be
// broken by what a run puts in its labels, nor configured by it: % is
// coded, so no %% comment or %%{init}%% directive comes from a run. The
// node script .ci/mermaid has Mermaid itself parse and draw the same
// diagrams.
const (
	lbl   = `(?:[^#;%<>&\n]|#[0-9]+;)*`
	lines = lbl + `(?:<br/>` + lbl + `)*`
	lane  = `(?:U|L|M|T[0-9]+)`
	task  = `(?:[^#;%<>&:\n]|#[0-9]+;)+`
	qlbl  = `(?:[^#;%<>&"\n]|#[0-9]+;)+`
	qline = qlbl + `(?:<br/>` + qlbl + `)*`
	id    = `[a-z][a-zA-Z0-9]*`
	ind   = `(?:    )+`
)

var (
	participant = regexp.MustCompile(`^    participant (` + lane + `) as (?:User|Loop|Model|Tools)$`)
	message     = regexp.MustCompile(`^    (` + lane + `)(->>\+|->>|-->>-|-->>|--x-|--x|--\))(` + lane + `):(?: ` + lines + `)?$`)
	noteLine    = regexp.MustCompile(`^    Note over (` + lane + `)(?:,(` + lane + `))?:(?: ` + lines + `)?$`)
	section     = regexp.MustCompile(`^    section (?:part [0-9]+<br>)?turn [0-9]+$`)
	taskLine    = regexp.MustCompile(`^    (` + task + `) :(crit, |active, |done, |milestone, )*[0-9]+, [0-9]+$`)
	flowNode    = regexp.MustCompile(`^` + ind + id + `(?:\["` + qline + `"\]|\{"` + qline + `"\}|\(\["` + qline + `"\]\)|\[\["` + qline + `"\]\])$`)
	flowGroup   = regexp.MustCompile(`^` + ind + `(?:subgraph ` + id + `\[" "\]|end)$`)
	flowEdge    = regexp.MustCompile(`^    ` + id + ` -->(?:\|"` + qline + `"\|)? ` + id + `$`)
	flowStyle   = regexp.MustCompile(`^    (?:classDef (?:new|newGroup|groupTitle) [a-z0-9:#,-]+|class ` + id + `(?:,` + id + `)* (?:new|newGroup|groupTitle)|linkStyle [0-9]+(?:,[0-9]+)* [a-z0-9:#,-]+)$`)
)

// timelineHeader are the first lines of every timeline.
const timelineHeader = "gantt\n    title Tool calls on the demo clock\n    dateFormat x\n    axisFormat %S.%L s\n"

// noTimeline is what a timeline with nothing to draw writes instead.
const noTimeline = "no timeline: no tool call waited on the demo clock (-diagram draws the run)\n"

// wellFormed returns the problems of a diagram this package wrote: each
// line that is not a statement it writes, a lane used before it is
// declared, a lane deactivated while it is not active, which Mermaid
// refuses to draw, and a lane activated while it is active, which would
// draw two bars on one lane. The lines that start a diagram, its
// configuration among them, are the only ones that may hold a %.
func wellFormed(text string) []string {
	var problems []string
	if text == noTimeline {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	bad := func(i int, why string) {
		problems = append(problems, fmt.Sprintf("line %d %q: %s", i+1, lines[i], why))
	}
	switch {
	case len(lines) > 1 && lines[0] == sequenceConfig && lines[1] == "sequenceDiagram":
		declared := map[string]bool{}
		active := map[string]int{}
		for i, line := range lines[2:] {
			i += 2
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
				if active[to] > 0 {
					bad(i, "activates a lane that is active: two bars on one lane")
				}
				active[to]++
			case strings.HasSuffix(arrow, "-"):
				if active[from] == 0 {
					bad(i, "deactivates a lane that is not active")
				}
				active[from]--
			}
		}
	case strings.HasPrefix(text, timelineHeader):
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
	case lines[0] == "flowchart TD" || (len(lines) > 1 && lines[0] == compactConfig && lines[1] == "flowchart TD"):
		first := 1
		if lines[0] == compactConfig {
			first = 2
		}
		for i, line := range lines[first:] {
			if !flowNode.MatchString(line) && !flowGroup.MatchString(line) && !flowEdge.MatchString(line) && !flowStyle.MatchString(line) {
				bad(i+first, "not a statement of a loop chart")
			}
		}
	default:
		problems = append(problems, "not a diagram this package writes")
	}
	return problems
}

func TestWellFormedCatchesABrokenDiagram(t *testing.T) {
	good := sequenceConfig + "\nsequenceDiagram\n    participant U as User\n    participant L as Loop\n    participant T1 as Tools\n    L->>+T1: a<br/>c\n    T1-->>-L: b\n"
	if problems := wellFormed(good); len(problems) != 0 {
		t.Fatalf("a good diagram is not well formed:\n%s", strings.Join(problems, "\n"))
	}
	for name, broken := range map[string]string{
		"a raw ;":            strings.Replace(good, ": a", ": a; b", 1),
		"a raw %":            strings.Replace(good, ": a", ": %%{init: {}}%%", 1),
		"another config":     strings.Replace(good, "100", "900", 1),
		"two bars, one lane": strings.Replace(good, "    T1-->>-L: b\n", "    L->>+T1: d\n    T1-->>-L: b\n    T1-->>-L: e\n", 1),
		"a raw #":            strings.Replace(good, ": a", ": a # b", 1),
		"a line break":       strings.Replace(good, ": a", ": a\nb", 1),
		"HTML":               strings.Replace(good, ": a", ": <b>a</b>", 1),
		"an undeclared lane": strings.Replace(good, "L->>+T1", "L->>+T2", 1),
		"an inactive lane":   strings.Replace(good, "->>+", "->>", 1),
		"a lane's name":      strings.Replace(good, "as Tools", "as x", 1),
		"another diagram":    "graph LR\n",
	} {
		if len(wellFormed(broken)) == 0 {
			t.Errorf("wellFormed finds no problem in a diagram with %s:\n%s", name, broken)
		}
	}
	for name, timeline := range map[string]string{
		"a task named click, a keyword": timelineHeader + "    click me :0, 1\n",
		"a raw %":                       timelineHeader + "    50% :0, 1\n",
		"a %% comment":                  timelineHeader + "    %% x\n",
	} {
		if len(wellFormed(timeline)) == 0 {
			t.Errorf("wellFormed finds no problem in a timeline with %s", name)
		}
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
		if text := string(data); strings.HasPrefix(text, sequenceConfig) || strings.HasPrefix(text, "gantt\n") || text == noTimeline {
			checked++
			wantWellFormed(t, filepath.Base(path), text)
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
