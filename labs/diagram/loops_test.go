package diagram

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestEachLoopNamesItsLabsCode checks that every name a box of a lab's
// loop chart gives as its code is in the lab's Go code, tests left out: a
// step's comment ("Step 4:"), a hook, a stop reason. A chart whose lab
// drops or renames what a box stands for fails here.
func TestEachLoopNamesItsLabsCode(t *testing.T) {
	root, err := expected.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, lab := range Labs() {
		files, err := filepath.Glob(filepath.Join(root, "labs", lab, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var code strings.Builder
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			code.Write(src)
		}
		names := Code(lab)
		if len(names) == 0 {
			t.Errorf("Code(%q) names nothing, want the code of the chart's boxes", lab)
		}
		for _, name := range names {
			if !strings.Contains(code.String(), name) {
				t.Errorf("the loop chart of %s names %s, which its Go code does not hold", lab, name)
			}
		}
	}
}

// TestWhatIsNewIsMarked checks the marks of lab 02's chart, whose steps 4
// and 5 and the way back to step 2 are what lab 01 lacks, in both
// languages.
func TestWhatIsNewIsMarked(t *testing.T) {
	for _, lang := range []string{English, Chinese} {
		chart, err := Loop("02-loop", lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range []string{"\n    class done,s4,s5 new\n", "\n    linkStyle 4,5,6 stroke:#e8590c,stroke-width:3px\n"} {
			if !strings.Contains(chart, line) {
				t.Errorf("lab 02's chart in %s lacks the line %q; it is:\n%s", lang, strings.Trim(line, "\n"), chart)
			}
		}
		first, err := Loop("01-no-loop", lang)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(first, "new") {
			t.Errorf("lab 01's chart in %s marks something new, want nothing marked: in the first lab, all is new; it is:\n%s", lang, first)
		}
	}
	if _, err := Loop("07-none", English); err == nil {
		t.Errorf("Loop(%q, %q): no error, want one", "07-none", English)
	}
	if _, err := Loop("02-loop", "fr"); err == nil {
		t.Errorf("Loop(%q, %q): no error, want one", "02-loop", "fr")
	}
}

// TestEachLoopIsDrawnInBothLanguages checks that a chart in Chinese is the
// chart in English with every label translated: the same lines, but for
// the labels, and no label left in English.
func TestEachLoopIsDrawnInBothLanguages(t *testing.T) {
	label := regexp.MustCompile(`"[^"]*"`)
	for _, lab := range Labs() {
		en, err := Loop(lab, English)
		if err != nil {
			t.Fatal(err)
		}
		zh, err := Loop(lab, Chinese)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := label.ReplaceAllString(zh, `"…"`), label.ReplaceAllString(en, `"…"`); got != want {
			t.Errorf("the chart of %s in Chinese is not the chart in English with other labels:\n%s\nwant the shape of\n%s", lab, zh, en)
		}
		for _, l := range label.FindAllString(strings.TrimPrefix(zh, compactConfig), -1) {
			if l != `" "` && !hasChinese(l) {
				t.Errorf("the chart of %s in Chinese has the label %s, in English", lab, l)
			}
		}
	}
}

// hasChinese reports whether text holds a Chinese character.
func hasChinese(text string) bool {
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestLab06DrawsItsTwoLoops checks that the chart of lab 06 shows Pi's two
// loops as two groups, the inner one inside the outer one, each with its
// title: the turn's steps and its two questions in the inner loop, whose
// "yes" goes back to its top; the follow-up question in the outer loop,
// whose "yes" runs the inner loop again.
func TestLab06DrawsItsTwoLoops(t *testing.T) {
	chart, err := Loop("06-steering", English)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n    subgraph outer[\" \"]\n        outerTitle[\"outer loop: ",
		"\n        subgraph inner[\" \"]\n            innerTitle[\"inner loop: ",
		"\n            more{\"",
		"\n        end\n        follow{\"follow-ups queued?\"}\n    end\n",
		"\n    more -->|\"yes: 6 · next turn\"| enter\n",
		"\n    follow -->|\"yes: next turn\"| enter\n",
		"\n    follow -->|\"no\"| done\n",
		"\n    class outer,inner newGroup\n",
	} {
		if !strings.Contains(chart, want) {
			t.Errorf("lab 06's chart lacks %q; it is:\n%s", want, chart)
		}
	}
	// The steps of a turn sum up lab 05's: not new.
	if marked := regexp.MustCompile(`\n    class ([a-z0-9,]+) new\n`).FindStringSubmatch(chart); marked == nil || strings.Contains(","+marked[1]+",", ",calls,") || strings.Contains(","+marked[1]+",", ",s3,") {
		t.Errorf("lab 06's chart marks the steps it sums up from lab 05 as new; it is:\n%s", chart)
	}
}

// TestEveryLoopIsWellFormed checks every chart, line by line, in both
// languages.
func TestEveryLoopIsWellFormed(t *testing.T) {
	for _, lab := range Labs() {
		for _, lang := range []string{English, Chinese} {
			chart, err := Loop(lab, lang)
			if err != nil {
				t.Fatal(err)
			}
			wantWellFormed(t, "the loop chart of "+lab+" in "+lang, chart)
		}
	}
}
