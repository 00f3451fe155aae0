package expected

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// loopMarker is the line before the loop chart of a lab's README.
func loopMarker(lab string) string { return "<!-- labs/diagram: the loop of " + lab + " -->" }

// fencedAfter returns the fenced block that follows the line marker in
// text, its info string first, and whether there is one right after it.
func fencedAfter(text, marker string) (info, block string, ok bool) {
	_, rest, found := strings.Cut(text, "\n"+marker+"\n")
	if !found || !strings.HasPrefix(rest, "```") {
		return "", "", false
	}
	info, rest, _ = strings.Cut(rest, "\n")
	block, _, found = strings.Cut(rest, "\n```")
	return info, block + "\n", found
}

// TestEachLabREADMEOpensWithItsPictures checks that every lab's README, in
// both languages, shows before its second section the loop as the lab
// leaves it, which labs/diagram draws (diagram.Loop) in the page's
// language, and, for a lab with -diagram, the sequence diagram of its
// default run, the golden file that -diagram prints
// (TestREADMEOutputMatchesGoldenFiles compares the copy). A twin embeds
// the same run diagram: program output is English in both languages.
func TestEachLabREADMEOpensWithItsPictures(t *testing.T) {
	labs, err := Labs()
	if err != nil {
		t.Fatal(err)
	}
	if charted := diagram.Labs(); !slices.Equal(charted, labs) {
		t.Errorf("the labs are %q, and the loop charts %q, want the same: every lab has a loop chart, and every loop chart a lab", labs, charted)
	}
	cases, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	all := readmes(t)
	for _, lab := range labs {
		drawn := slices.ContainsFunc(cases, func(c Case) bool { return c.Name == lab+".diagram" })
		for name, lang := range map[string]string{"README.md": diagram.English, twinName: diagram.Chinese} {
			want, err := diagram.Loop(lab, lang)
			if err != nil {
				t.Fatal(err)
			}
			path := "labs/" + lab + "/" + name
			text := all[path]
			if len(text) == 0 {
				t.Fatalf("%s is missing or empty", path)
			}
			top := string(text)
			if parts := strings.SplitN(top, "\n## ", 3); len(parts) == 3 {
				top = parts[0] + "\n## " + parts[1]
			}
			info, got, ok := fencedAfter(top, loopMarker(lab))
			if !ok {
				t.Errorf("%s: no loop chart after %s before its second section", path, loopMarker(lab))
			} else {
				if info != "```mermaid" {
					t.Errorf("%s: the loop chart's block opens with %q, want %q", path, info, "```mermaid")
				}
				if got != want {
					t.Errorf("%s: the loop chart is not what diagram.Loop(%q, %q) draws; paste this:\n%s", path, lab, lang, want)
				}
			}
			if drawn {
				info, _, ok := fencedAfter(top, "<!-- expected/"+lab+".diagram.txt -->")
				if !ok {
					t.Errorf("%s: no run diagram (expected/%s.diagram.txt) before its second section", path, lab)
				}
				if info != "```mermaid" {
					t.Errorf("%s: the run diagram's block opens with %q, want %q", path, info, "```mermaid")
				}
			}
		}
	}
}
