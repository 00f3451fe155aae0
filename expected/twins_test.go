package expected

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// Every README.md has a Chinese twin, README.zh-CN.md, in the same directory:
// the same lesson for a reader who reads Chinese first. The prose is
// translated; everything a reader runs or compares is not. These tests keep
// each pair in step, so that a change to one language that the other misses
// fails here.

// twinName is the file name of a README's Chinese twin.
const twinName = "README.zh-CN.md"

// A skeleton is what a README and its twin must share, in order: what
// translation leaves alone.
type skeleton struct {
	// Headings are the level of each heading: the same sections, in the
	// same order.
	Headings []int
	// Blocks are the fenced blocks, info string and content: commands,
	// code and program output are never translated. A lab's loop chart is
	// the one block drawn in each language (diagram.Loop): it counts as
	// its lab's, and TestEachLabREADMEOpensWithItsPictures checks it.
	Blocks []string
	// Markers are the HTML comments that tests read: a golden file's name
	// before its output, an edit or a claim before its block.
	Markers []string
	// TableRows counts the rows of each table: a table keeps its rows.
	TableRows []int
	// Links are the relative links, a twin's links to other Chinese twins
	// read as links to the English pages, without anchors (headings are
	// translated, and so are their anchors). Sorted: a sentence may put
	// them in another order.
	Links []string
	// LineRefs are the `file.go:N` references, sorted.
	LineRefs []string
}

var (
	// loopChartMarker is the line before a lab's loop chart (loopMarker).
	loopChartMarker = regexp.MustCompile(`^<!-- labs/diagram: the loop of ([0-9a-z-]+) -->$`)
	markdownLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	marker          = regexp.MustCompile(`^\s*<!-- .* -->\s*$`)
)

// skeletonOf reads the skeleton of a README.
func skeletonOf(text string) skeleton {
	var s skeleton
	var block *strings.Builder
	rows := 0
	// chart is the lab whose loop chart follows its marker, until the
	// block that holds it ends.
	chart := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if block != nil {
			switch {
			case strings.HasPrefix(trimmed, "```") && chart != "":
				s.Blocks = append(s.Blocks, "```mermaid\n(the loop chart of "+chart+", in the page's language)\n")
				block, chart = nil, ""
			case strings.HasPrefix(trimmed, "```"):
				s.Blocks = append(s.Blocks, block.String())
				block = nil
			default:
				block.WriteString(line + "\n")
			}
			continue
		}
		if m := loopChartMarker.FindStringSubmatch(line); m != nil {
			chart = m[1]
		} else if trimmed != "" && !strings.HasPrefix(trimmed, "```") {
			chart = ""
		}
		if strings.HasPrefix(trimmed, "|") {
			rows++
		} else if rows > 0 {
			s.TableRows = append(s.TableRows, rows)
			rows = 0
		}
		switch {
		case strings.HasPrefix(trimmed, "```"):
			block = &strings.Builder{}
			block.WriteString(trimmed + "\n")
		case strings.HasPrefix(line, "#"):
			s.Headings = append(s.Headings, len(line)-len(strings.TrimLeft(line, "#")))
		case marker.MatchString(line):
			s.Markers = append(s.Markers, trimmed)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			if link, ok := relativeLink(m[1]); ok {
				s.Links = append(s.Links, link)
			}
		}
		s.LineRefs = append(s.LineRefs, lineRef.FindAllString(line, -1)...)
	}
	if rows > 0 {
		s.TableRows = append(s.TableRows, rows)
	}
	slices.Sort(s.Links)
	slices.Sort(s.LineRefs)
	return s
}

// relativeLink returns a link to a file of the repository without its
// anchor, a twin's name read as its English page's, and false for a link
// that leaves the repository or stays on the page.
func relativeLink(target string) (string, bool) {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
		return "", false
	}
	target, _, _ = strings.Cut(target, "#")
	if path.Base(target) == twinName {
		target = path.Join(path.Dir(target), "README.md")
	}
	return target, true
}

// twinProblems lists how a README and its Chinese twin drift apart: a
// difference in their skeletons, a missing link from one to the other near
// the top, or a twin whose prose is not Chinese.
func twinProblems(en, zh string) []string {
	var problems []string
	if diff := cmp.Diff(skeletonOf(en), skeletonOf(zh)); diff != "" {
		problems = append(problems, "the two differ in what translation must leave alone (-English +Chinese):\n"+diff)
	}
	if !linksNearTop(en, twinName) {
		problems = append(problems, "the English page does not link to "+twinName+" in its first lines")
	}
	if !linksNearTop(zh, "README.md") {
		problems = append(problems, "the Chinese page does not link to README.md in its first lines")
	}
	if share := chineseShare(zh); share < 0.5 {
		problems = append(problems, fmt.Sprintf("only %.0f%% of the Chinese page's prose lines hold Chinese: is it translated?", 100*share))
	}
	return problems
}

// linksNearTop reports whether one of the first lines of text links to the
// file name.
func linksNearTop(text, name string) bool {
	lines := strings.SplitN(text, "\n", 8)
	for _, line := range lines[:min(len(lines), 7)] {
		if strings.Contains(line, "]("+name+")") {
			return true
		}
	}
	return false
}

// chineseShare is the share of prose lines, outside fenced blocks and
// markers, that hold a Chinese character.
func chineseShare(text string) float64 {
	prose, chinese := 0, 0
	inBlock := false
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock || marker.MatchString(line) || !strings.ContainsFunc(trimmed, unicode.IsLetter) {
			continue
		}
		prose++
		if strings.ContainsFunc(trimmed, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			chinese++
		}
	}
	if prose == 0 {
		return 1
	}
	return float64(chinese) / float64(prose)
}

// TestEveryREADMEHasAChineseTwinInStep checks every pair of the repository.
func TestEveryREADMEHasAChineseTwinInStep(t *testing.T) {
	all := readmes(t)
	for name, data := range all {
		if path.Base(name) != "README.md" {
			continue
		}
		twin := path.Join(path.Dir(name), twinName)
		zh, ok := all[twin]
		if !ok {
			t.Errorf("%s has no Chinese twin, %s", name, twin)
			continue
		}
		for _, p := range twinProblems(string(data), string(zh)) {
			t.Errorf("%s and %s: %s", name, twin, p)
		}
	}
	for name := range all {
		if path.Base(name) == twinName {
			if _, ok := all[path.Join(path.Dir(name), "README.md")]; !ok {
				t.Errorf("%s has no English page beside it", name)
			}
		}
	}
}

// TestTwinProblemsCatchADriftedCopy drifts a pair on purpose, one way at a
// time, and checks that each drift is caught.
func TestTwinProblemsCatchADriftedCopy(t *testing.T) {
	en := "# Lab\n\n[中文](README.zh-CN.md)\n\nRun it:\n\n<!-- expected/02-loop.txt -->\n```text\nuser: hi\n```\n\n## Next\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee [lab 03](../03-maxturns/README.md#run-it) and `loop.go:12`.\n"
	zh := "# 实验\n\n[English](README.md)\n\n运行它：\n\n<!-- expected/02-loop.txt -->\n```text\nuser: hi\n```\n\n## 下一步\n\n| 甲 | 乙 |\n|---|---|\n| 1 | 2 |\n\n见 [实验 03](../03-maxturns/README.zh-CN.md#运行) 和 `loop.go:12`。\n"
	if problems := twinProblems(en, zh); len(problems) != 0 {
		t.Fatalf("a faithful twin has problems: %q", problems)
	}

	drifts := map[string]string{
		"a changed output block": strings.Replace(zh, "user: hi", "user: hello", 1),
		"a missing section":      strings.Replace(zh, "## 下一步\n", "", 1),
		"a changed marker":       strings.Replace(zh, "expected/02-loop.txt", "expected/03-maxturns.txt", 1),
		"a missing table row":    strings.Replace(zh, "| 1 | 2 |\n", "", 1),
		"another link":           strings.Replace(zh, "../03-maxturns/", "../04-tool-errors/", 1),
		"another line reference": strings.Replace(zh, "loop.go:12", "loop.go:13", 1),
		"no link back":           strings.Replace(zh, "[English](README.md)", "English", 1),
		"English prose":          strings.NewReplacer("# 实验", "# Lab", "运行它：", "Run it:", "## 下一步", "## Next", "见 [实验 03]", "See [lab 03]").Replace(zh),
	}
	for name, drifted := range drifts {
		if len(twinProblems(en, drifted)) == 0 {
			t.Errorf("%s is not caught", name)
		}
	}
	if len(twinProblems(strings.Replace(en, "[中文](README.zh-CN.md)", "", 1), zh)) == 0 {
		t.Errorf("an English page without its link is not caught")
	}
}

// TestREADMELinksResolve checks that every relative link of every README,
// in both languages, names a file or directory of the repository.
func TestREADMELinksResolve(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range readmes(t) {
		for _, m := range markdownLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(root, filepath.Dir(name), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links to %s: %v", name, m[1], err)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text, as a set: the heading's text in lower case, with its
// punctuation left out and each space a hyphen, and "-1", "-2"… after a
// text that came before.
func headingAnchors(text string) map[string]bool {
	inlineLink := regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	anchors := map[string]bool{}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if fenced || level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		heading := inlineLink.ReplaceAllString(strings.TrimSpace(line[level:]), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		for n := 1; anchors[anchor]; n++ {
			anchor = fmt.Sprintf("%s-%d", b.String(), n)
		}
		anchors[anchor] = true
	}
	return anchors
}

// TestREADMEAnchorsResolve checks that every link to a section, in the same
// README or another, names a heading that the README has: a heading
// renamed in one language must take its links along.
func TestREADMEAnchorsResolve(t *testing.T) {
	all := readmes(t)
	anchors := map[string]map[string]bool{}
	for name, data := range all {
		anchors[name] = headingAnchors(string(data))
	}
	checked := 0
	for name, data := range all {
		for _, m := range markdownLink.FindAllStringSubmatch(string(data), -1) {
			page, anchor, ok := strings.Cut(m[1], "#")
			if !ok || strings.Contains(page, "://") {
				continue
			}
			target := name
			if page != "" {
				target = path.Join(path.Dir(name), page)
			}
			if _, ok := anchors[target]; !ok {
				t.Errorf("%s links to %s, which is no README", name, m[1])
				continue
			}
			checked++
			if !anchors[target][anchor] {
				t.Errorf("%s links to %s: %s has no heading with that anchor", name, m[1], target)
			}
		}
	}
	if checked <= 40 {
		t.Errorf("the READMEs link to %d sections, want more than 40: the READMEs link to sections", checked)
	}
}

// TestHeadingAnchorsAreGitHubs checks headingAnchors against the anchors
// GitHub gives these headings of the READMEs.
func TestHeadingAnchorsAreGitHubs(t *testing.T) {
	text := strings.Join([]string{
		"## Pi, and where the labs differ",
		"## Talk to the agent: -chat",
		"### `hooks.go`: changing behaviour without editing the loop",
		"## 与 Agent 对话：-chat",
		"### 更新的 Pi 哪里不同，各实验怎么做",
		"### 用户消息：`steer` 与 `followUp`",
		"```",
		"# not a heading",
		"```",
		"## [Start](#start) again",
		"## Start again",
	}, "\n")
	want := map[string]bool{
		"pi-and-where-the-labs-differ":                        true,
		"talk-to-the-agent--chat":                             true,
		"hooksgo-changing-behaviour-without-editing-the-loop": true,
		"与-agent-对话-chat":                                     true,
		"更新的-pi-哪里不同各实验怎么做":                                   true,
		"用户消息steer-与-followup":                                true,
		"start-again":                                         true,
		"start-again-1":                                       true,
	}
	if diff := cmp.Diff(want, headingAnchors(text)); diff != "" {
		t.Errorf("headingAnchors (-want +got):\n%s", diff)
	}
}
