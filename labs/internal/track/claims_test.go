package track

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The READMEs' "change this line, predict, run" exercises make claims that
// a test keeps true. The grammar is in the package documentation; this file
// reads it.

// A readmeEdit is a change a README asks the learner to make: a one-hunk
// diff of one file of the README's lab.
type readmeEdit struct {
	line     int    // where the diff starts in the README
	file     string // the file, relative to the lab's directory
	old, new []string
}

// A readmeClaim is what a README says happens after its edits.
type readmeClaim struct {
	readme string // the README's path from the root
	line   int    // the marker's line
	lab    string // the README's lab
	edits  []readmeEdit

	kind   string   // "fails", "passes", "prints", "stdout", "stderr" or "exit"
	run    string   // for go test: the -run pattern, or ""
	args   []string // for go run: the lab's arguments
	status int      // for "exit"
	block  []string // the fenced block's lines, for every kind but passes and exit
}

func (c readmeClaim) String() string {
	return fmt.Sprintf("%s:%d (%s)", c.readme, c.line, c.kind)
}

var (
	editMarker    = regexp.MustCompile(`^<!-- edit -->$`)
	testClaim     = regexp.MustCompile(`^<!-- claim: go test (?:-run (\S+) )?(fails|passes|prints) -->$`)
	outputClaim   = regexp.MustCompile(`^<!-- claim: (stdout|stderr) of go run \./labs/([0-9a-z-]+)((?: \S+)*) -->$`)
	exitClaim     = regexp.MustCompile(`^<!-- claim: exit status ([0-9]+) of go run \./labs/([0-9a-z-]+)((?: \S+)*) -->$`)
	anyClaim      = regexp.MustCompile(`^<!-- *(claim|edit)`)
	headingLine   = regexp.MustCompile(`^#{1,6} `)
	labOfReadme   = regexp.MustCompile(`^labs/([0-9]{2}-[a-z0-9-]+)/README\.md$`)
	diffFirstLine = regexp.MustCompile(`^--- labs/([0-9]{2}-[a-z0-9-]+)/(\S+)$`)
)

// parseClaims reads the edits and claims of a lab's README, whose path from
// the root is readme. Edits hold until the next heading; each claim carries
// the edits before it in its section.
func parseClaims(readme string, data []byte) ([]readmeClaim, error) {
	m := labOfReadme.FindStringSubmatch(readme)
	if m == nil {
		return nil, nil
	}
	lab := m[1]
	lines := strings.Split(string(data), "\n")
	var claims []readmeClaim
	var edits []readmeEdit
	inFence := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		n := i + 1
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if headingLine.MatchString(l) {
			edits = nil
			continue
		}
		if !anyClaim.MatchString(l) {
			continue
		}
		c := readmeClaim{readme: readme, line: n, lab: lab, edits: edits}
		needsBlock := true
		switch {
		case editMarker.MatchString(l):
			block, next, err := fencedBlock(lines, i+1, "```diff")
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", readme, n, err)
			}
			e, err := parseEdit(block, lab)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", readme, n, err)
			}
			e.line = n
			// A new slice: the claims before this edit keep theirs.
			edits = append(edits[:len(edits):len(edits)], e)
			i = next
			continue
		case testClaim.MatchString(l):
			sm := testClaim.FindStringSubmatch(l)
			c.run, c.kind = sm[1], sm[2]
			needsBlock = c.kind != "passes"
		case outputClaim.MatchString(l):
			sm := outputClaim.FindStringSubmatch(l)
			c.kind, c.args = sm[1], strings.Fields(sm[3])
			if sm[2] != lab {
				return nil, fmt.Errorf("%s:%d: a claim about labs/%s in the README of %s", readme, n, sm[2], lab)
			}
		case exitClaim.MatchString(l):
			sm := exitClaim.FindStringSubmatch(l)
			c.kind, c.args = "exit", strings.Fields(sm[3])
			c.status, _ = strconv.Atoi(sm[1])
			needsBlock = false
			if sm[2] != lab {
				return nil, fmt.Errorf("%s:%d: a claim about labs/%s in the README of %s", readme, n, sm[2], lab)
			}
		default:
			return nil, fmt.Errorf("%s:%d: a malformed claim or edit marker: %s", readme, n, l)
		}
		if needsBlock {
			block, next, err := fencedBlock(lines, i+1, "```")
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", readme, n, err)
			}
			c.block = block
			i = next
		}
		claims = append(claims, c)
	}
	return claims, nil
}

// fencedBlock reads the fenced block that follows a marker, after blank
// lines: its opening line must start with open. It returns the block's lines
// and the index of its closing line.
func fencedBlock(lines []string, from int, open string) ([]string, int, error) {
	i := from
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || !strings.HasPrefix(lines[i], open) {
		return nil, 0, fmt.Errorf("the marker must be followed by a fenced block opened with %s", open)
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.HasPrefix(lines[j], "```") {
			return lines[i+1 : j], j, nil
		}
	}
	return nil, 0, fmt.Errorf("the fenced block is not closed")
}

// parseEdit reads a one-hunk diff: "--- labs/LAB/FILE", an optional "+++"
// line and "@@" lines, then lines that start with ' ', '-' or '+'.
func parseEdit(block []string, lab string) (readmeEdit, error) {
	if len(block) == 0 {
		return readmeEdit{}, fmt.Errorf("an empty diff")
	}
	m := diffFirstLine.FindStringSubmatch(block[0])
	if m == nil || m[1] != lab {
		return readmeEdit{}, fmt.Errorf("a diff must start with --- labs/%s/FILE, not %q", lab, block[0])
	}
	e := readmeEdit{file: m[2]}
	changes := 0
	for _, l := range block[1:] {
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "@@"):
		case l == "":
			e.old, e.new = append(e.old, ""), append(e.new, "")
		case l[0] == ' ':
			e.old, e.new = append(e.old, l[1:]), append(e.new, l[1:])
		case l[0] == '-':
			e.old = append(e.old, l[1:])
			changes++
		case l[0] == '+':
			e.new = append(e.new, l[1:])
			changes++
		default:
			return readmeEdit{}, fmt.Errorf("a diff line must start with ' ', '-' or '+': %q", l)
		}
	}
	if changes == 0 || len(e.old) == 0 {
		return readmeEdit{}, fmt.Errorf("the diff changes nothing, or has no line to find")
	}
	return e, nil
}

// apply makes the edit in a copy of the lab's files.
func (e readmeEdit) apply(f files) error {
	src, ok := f[e.file]
	if !ok {
		return fmt.Errorf("the lab has no file %s", e.file)
	}
	lines := strings.Split(string(src), "\n")
	at := -1
	for i := 0; i+len(e.old) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(e.old)], e.old) {
			if at >= 0 {
				return fmt.Errorf("the diff's lines occur more than once in %s", e.file)
			}
			at = i
		}
	}
	if at < 0 {
		return fmt.Errorf("the diff's lines (context and -) are not in %s: the README is out of date", e.file)
	}
	out := append(append(append([]string(nil), lines[:at]...), e.new...), lines[at+len(e.old):]...)
	f[e.file] = []byte(strings.Join(out, "\n"))
	return nil
}

// editsKey names a set of edits, so that claims under the same edits share
// one copy of the lab.
func editsKey(lab string, edits []readmeEdit) string {
	key := lab
	for _, e := range edits {
		key += fmt.Sprintf("|%d", e.line)
	}
	return key
}
