package track

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A region is where a pair of markers stands in a source file.
type region struct {
	id     string
	indent string // the markers' indentation, which the starter's lines take
	begin  int    // the index of the line "// exercise: ID"
	end    int    // the index of the line "// end of exercise: ID"
}

var (
	beginMarker = regexp.MustCompile(`^([ \t]*)// exercise: ([a-z0-9-]+)$`)
	endMarker   = regexp.MustCompile(`^([ \t]*)// end of exercise: ([a-z0-9-]+)$`)
	// anyMarker finds lines that look like markers, so that a misspelt one
	// is an error rather than code.
	anyMarker = regexp.MustCompile(`//\s*(end of )?exercise\s*:`)
)

// regionIn finds where the markers of reg stand in its file under dir. It
// reports false if the file cannot be read or lacks them whole; err says
// why, when the file could not be read or its markers are malformed.
func regionIn(dir string, reg Region) (region, bool, error) {
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(reg.File)))
	if err != nil {
		return region{}, false, err
	}
	regions, err := findRegions(src)
	for _, fr := range regions {
		if fr.id == reg.ID {
			return fr, true, err
		}
	}
	return region{}, false, err
}

// splitSource splits a source file into lines, without their "\n".
func splitSource(src []byte) []string {
	return strings.Split(string(src), "\n")
}

// findRegions returns the regions of a source file in order. Regions do
// not nest, each ID occurs once, and each begin has its end.
func findRegions(src []byte) ([]region, error) {
	var regions []region
	var open *region
	ids := map[string]bool{}
	for i, line := range splitSource(src) {
		b, e := beginMarker.FindStringSubmatch(line), endMarker.FindStringSubmatch(line)
		switch {
		case b != nil && open != nil:
			return nil, fmt.Errorf("line %d: region %s begins inside region %s", i+1, b[2], open.id)
		case b != nil:
			if ids[b[2]] {
				return nil, fmt.Errorf("line %d: region %s occurs twice", i+1, b[2])
			}
			ids[b[2]] = true
			open = &region{id: b[2], indent: b[1], begin: i}
		case e != nil && (open == nil || open.id != e[2]):
			return nil, fmt.Errorf("line %d: the end of region %s has no beginning", i+1, e[2])
		case e != nil:
			if e[1] != open.indent {
				return nil, fmt.Errorf("line %d: the end of region %s is indented differently from its beginning", i+1, e[2])
			}
			open.end = i
			regions = append(regions, *open)
			open = nil
		case anyMarker.MatchString(line):
			return nil, fmt.Errorf("line %d: a malformed region marker: %q", i+1, strings.TrimSpace(line))
		}
	}
	if open != nil {
		return nil, fmt.Errorf("region %s has no end", open.id)
	}
	return regions, nil
}

// replaceRegions returns src with the body of each region whose ID is a
// key of bodies replaced by its lines, indented like the region's markers.
func replaceRegions(src []byte, regions []region, bodies map[string][]string) []byte {
	lines := splitSource(src)
	var out []string
	next := 0
	for _, r := range regions {
		body, ok := bodies[r.id]
		if !ok {
			continue
		}
		out = append(out, lines[next:r.begin+1]...)
		for _, l := range body {
			if l == "" {
				out = append(out, "")
			} else {
				out = append(out, r.indent+l)
			}
		}
		next = r.end
	}
	out = append(out, lines[next:]...)
	return []byte(strings.Join(out, "\n"))
}

// starterLines returns the lines that replace a region's body in the
// starter: its TODO as comments, then its code, both not yet indented.
func (r Region) starterLines(lang Lang) []string {
	out := r.todoLines(lang)
	if r.Code != "" {
		out = append(out, strings.Split(string(r.Code), "\n")...)
	}
	return out
}

// todoLines returns the region's TODO as comment lines, not yet indented.
func (r Region) todoLines(lang Lang) []string {
	var out []string
	for _, l := range strings.Split(r.TODO.In(lang), "\n") {
		if l == "" {
			out = append(out, "//")
		} else {
			out = append(out, "// "+l)
		}
	}
	return out
}

// outside returns the lines of src outside the regions' bodies, the marker
// lines included: the lines a starter and its solution share.
func outside(src []byte, regions []region) []string {
	lines := splitSource(src)
	var out []string
	next := 0
	for _, r := range regions {
		out = append(out, lines[next:r.begin+1]...)
		next = r.end
	}
	return append(out, lines[next:]...)
}
