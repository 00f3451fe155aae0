package track

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestREADMEsFoldTheAnswers checks that a learner who builds a lab before
// reading its walkthrough meets no line of an exercise's solution in the
// lab's README, in either language, outside a fold (<details>): GitHub
// shows a fold closed, and the learner opens it once the exercise is
// written. A line counts when it is code, not a comment, and long enough to
// give something away: a closing brace or "return nil" gives nothing, but
// "wg.Wait()" says where lab 05's batch waits for its goroutines.
func TestREADMEsFoldTheAnswers(t *testing.T) {
	wb := openedWorkbook(t)
	for _, name := range wb.labs {
		lab := wb.lab(name)
		if lab == nil {
			continue
		}
		answers := answerLines(t, wb, lab)
		for _, readme := range []string{"README.md", "README.zh-CN.md"} {
			data, err := os.ReadFile(filepath.Join(wb.labDir(name), readme))
			if err != nil {
				t.Errorf("labs/%s/%s: %v", name, readme, err)
				continue
			}
			lines, err := unfolded(string(data))
			if err != nil {
				t.Errorf("labs/%s/%s: %v", name, readme, err)
				continue
			}
			var shown []string
			for _, l := range lines {
				for _, a := range answers {
					if strings.Contains(l.text, a.code) {
						shown = append(shown, fmt.Sprintf("line %d shows %s:%d: %s", l.n, a.file, a.n, a.code))
					}
				}
			}
			if len(shown) > 0 {
				t.Errorf("labs/%s/%s shows the answers of exercises outside a <details> fold:\n  %s", name, readme, strings.Join(shown, "\n  "))
			}
		}
	}
}

// TestTwinsFoldTheSameBlocks checks that a lab's README and its Chinese twin
// fold the same fenced blocks, fold by fold: the twins test compares their
// blocks, not where they stand, and a block folded in one language alone
// would give the answer away, or hide a command, in the other.
func TestTwinsFoldTheSameBlocks(t *testing.T) {
	wb := openedWorkbook(t)
	for _, name := range wb.labs {
		var folds [2][][]string
		for i, readme := range []string{"README.md", "README.zh-CN.md"} {
			data, err := os.ReadFile(filepath.Join(wb.labDir(name), readme))
			if err != nil {
				t.Fatalf("labs/%s/%s: %v", name, readme, err)
			}
			folds[i] = foldedBlocks(string(data))
		}
		if len(folds[0]) != len(folds[1]) {
			t.Errorf("labs/%s: README.md has %d folds, README.zh-CN.md %d", name, len(folds[0]), len(folds[1]))
			continue
		}
		for i := range folds[0] {
			if !slices.Equal(folds[0][i], folds[1][i]) {
				t.Errorf("labs/%s: fold %d of README.md and of README.zh-CN.md hold different fenced blocks:\n%q\n%q", name, i+1, folds[0][i], folds[1][i])
			}
		}
	}
}

// An answerLine is a line of code between an exercise's markers.
type answerLine struct {
	file string
	n    int // from 1
	// code is the line without its indentation, and without the "{" that
	// opens a block: a README may quote a loop's header without it.
	code string
}

// minAnswer is how long a line of an answer must be, without its
// indentation, to give something away: as long as "wg.Wait()".
const minAnswer = 9

// answerLines returns the lines of the lab's exercises that give an answer
// away: the code, not the comments, between the markers, that the starter
// does not show, as it shows "if err != nil {" outside the regions and the
// least code that compiles inside them (lab 06's starter holds lab 05's
// loop).
func answerLines(t *testing.T, wb *workbook, lab *Lab) []answerLine {
	t.Helper()
	labFiles, err := wb.labFiles(lab.Name)
	if err != nil {
		t.Fatal(err)
	}
	found, err := regionsIn(labFiles)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for name, data := range labFiles {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, l := range outside(data, found[name]) {
			shown[strings.TrimSpace(l)] = true
		}
	}
	for _, e := range lab.Exercises {
		for _, reg := range e.Regions {
			for _, l := range strings.Split(string(reg.Code), "\n") {
				shown[strings.TrimSpace(l)] = true
			}
		}
	}
	var out []answerLine
	for _, e := range lab.Exercises {
		for _, reg := range e.Regions {
			fr, ok, err := regionIn(wb.labDir(lab.Name), reg)
			if !ok || err != nil {
				t.Errorf("labs/%s/%s: region %s: %v", lab.Name, reg.File, reg.ID, err)
				continue
			}
			src, err := os.ReadFile(filepath.Join(wb.labDir(lab.Name), reg.File))
			if err != nil {
				t.Fatal(err)
			}
			lines := splitSource(src)
			for i := fr.begin + 1; i < fr.end; i++ {
				code := strings.TrimSpace(lines[i])
				if strings.HasPrefix(code, "//") || len(code) < minAnswer || !strings.ContainsFunc(code, unicode.IsLetter) || shown[code] {
					continue
				}
				code = strings.TrimSpace(strings.TrimSuffix(code, "{"))
				out = append(out, answerLine{file: reg.File, n: i + 1, code: code})
			}
		}
	}
	return out
}

// A readmeLine is a line of a README and its number, from 1.
type readmeLine struct {
	n    int
	text string
}

// unfolded returns the lines of a README outside its folds: the lines
// between a line that starts with <details> and the line that starts with
// </details> are left out. A table cell's "\|" reads as the "|" it stands
// for. It refuses a fold that never closes, which would hide the rest of
// the README, and a </details> that closes nothing.
func unfolded(readme string) ([]readmeLine, error) {
	var out []readmeLine
	depth, opened := 0, 0
	for i, l := range strings.Split(readme, "\n") {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "<details"):
			if depth == 0 {
				opened = i + 1
			}
			depth++
		case strings.HasPrefix(t, "</details>"):
			if depth == 0 {
				return nil, fmt.Errorf("line %d: </details> closes no fold", i+1)
			}
			depth--
		case depth == 0:
			out = append(out, readmeLine{n: i + 1, text: strings.ReplaceAll(l, `\|`, "|")})
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("line %d: the fold that opens here never closes", opened)
	}
	return out, nil
}

// foldedBlocks returns, for each fold of a README that stands at the top
// level, the fenced blocks inside it, fence lines included.
func foldedBlocks(readme string) [][]string {
	var folds [][]string
	var block *strings.Builder
	depth := 0
	for _, l := range strings.Split(readme, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case block != nil:
			block.WriteString(l + "\n")
			if strings.HasPrefix(t, "```") {
				folds[len(folds)-1] = append(folds[len(folds)-1], block.String())
				block = nil
			}
		case strings.HasPrefix(t, "<details"):
			if depth == 0 {
				folds = append(folds, []string{})
			}
			depth++
		case strings.HasPrefix(t, "</details>"):
			depth = max(depth-1, 0)
		case depth > 0 && strings.HasPrefix(t, "```"):
			block = &strings.Builder{}
			block.WriteString(l + "\n")
		}
	}
	return folds
}
