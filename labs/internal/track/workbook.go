package track

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// A workbook is the repository as the front door sees it: the labs, and
// the directory of the learner's copies.
type workbook struct {
	root string   // the repository's root
	work string   // the learner's copies: root/_mywork
	labs []string // every lab's name, in order
	// tracks are the labs' exercises, by name; a lab without
	// exercises has none.
	tracks map[string]*Lab
	// testTimeout, if set, replaces testTimeout. The verification sets a
	// longer one: it checks what check reports, not how fast, and runs
	// beside other packages' tests on a busy machine.
	testTimeout time.Duration
	// vetted is true when every copy it checks has passed go vet already,
	// as in the verification: go test then skips its own vet checks.
	vetted bool
	// goTestStarted, if set, is called once go test has started: for a
	// test that sends a signal while go test runs.
	goTestStarted func()
	// testFlags, if set, are added to the flags of every go test the
	// workbook runs: grade's, which builds one package at a time.
	testFlags []string
}

// timeout is go test's -timeout for a copy.
func (wb *workbook) timeout() time.Duration {
	return cmp.Or(wb.testTimeout, testTimeout)
}

// openWorkbook finds the repository the command runs in.
func openWorkbook() (*workbook, error) {
	root, err := expected.Root()
	if err != nil {
		return nil, err
	}
	labs, err := expected.Labs()
	if err != nil {
		return nil, err
	}
	wb := &workbook{root: root, work: filepath.Join(root, workDir), labs: labs, tracks: map[string]*Lab{}}
	for _, name := range labs {
		lab, err := readLab(wb.labDir(name), name)
		if err != nil {
			return nil, err
		}
		if lab != nil {
			wb.tracks[name] = lab
		}
	}
	return wb, nil
}

// workDir is the directory of the learner's copies, in the repository's
// root. Its name starts with "_", so that go test ./... and go vet ./...
// leave the copies out: the copies are checked by check, and by
// TestYourCopies, which says in a few lines what is unfinished.
const workDir = "_mywork"

// lab returns the lab's track, or nil if the lab has no exercises.
func (wb *workbook) lab(name string) *Lab { return wb.tracks[name] }

// labDir is the lab's own directory.
func (wb *workbook) labDir(name string) string { return filepath.Join(wb.root, "labs", name) }

// labFiles reads the lab's files, as a copy of it holds them: all but its
// exercises.json, which is the track's, not the lab's code.
func (wb *workbook) labFiles(name string) (files, error) {
	f, err := readFiles(wb.labDir(name))
	delete(f, exercisesFile)
	return f, err
}

// copyDir is the learner's copy of the lab.
func (wb *workbook) copyDir(name string) string { return filepath.Join(wb.work, name) }

// keepDir is where reset advises to move a copy the learner wants to keep:
// beside it in _mywork/, which git ignores, under a name that is no lab's.
func (wb *workbook) keepDir(name string) string { return filepath.Join(wb.work, name+"-old") }

// rel writes path from the repository root, with slashes, as messages and
// commands show it.
func (wb *workbook) rel(path string) string {
	r, err := filepath.Rel(wb.root, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// resolve finds the lab a learner means: its full name ("02-loop"), its
// number ("02" or "2"), or the start of its name with or without the number
// ("02-l", "loop"). If arg names no lab, or more than one, it returns ""
// and the labs arg names.
func (wb *workbook) resolve(arg string) (string, []string) {
	if slices.Contains(wb.labs, arg) {
		return arg, nil
	}
	var found []string
	for _, name := range wb.labs {
		number, rest, _ := strings.Cut(name, "-")
		if arg != "" && (number == arg || strings.TrimLeft(number, "0") == arg ||
			strings.HasPrefix(name, arg) || strings.HasPrefix(rest, arg)) {
			found = append(found, name)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return "", found
}

// files are the files of a lab or of a copy, by path relative to its
// directory, with slashes.
type files map[string][]byte

// names returns the paths, sorted.
func (f files) names() []string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ignored reports whether a file in a copy is the track's and not the
// learner's: a golden test's kept output, or an editor's backup or swap
// file.
func ignored(name string) bool {
	base := filepath.Base(name)
	return strings.HasSuffix(base, ".got") || strings.HasSuffix(base, "~") || strings.HasPrefix(base, ".")
}

// readFiles reads every regular file under dir that is not ignored.
func readFiles(dir string) (files, error) {
	out := files{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || ignored(path) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	return out, err
}

// writeFiles writes files into dir, which it creates.
func writeFiles(dir string, f files) error {
	for _, name := range f.names() {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// regionsIn finds the regions of every Go file of a lab.
func regionsIn(f files) (map[string][]region, error) {
	out := map[string][]region{}
	for _, name := range f.names() {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		regions, err := findRegions(f[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(regions) > 0 {
			out[name] = regions
		}
	}
	return out, nil
}

// starter returns the lab's files with the regions of the exercises cut out
// and replaced by their starters in lang.
func starter(lab *Lab, labFiles files, exercises []*Exercise, lang Lang) (files, error) {
	found, err := regionsIn(labFiles)
	if err != nil {
		return nil, err
	}
	bodies := map[string]map[string][]string{} // file → region ID → lines
	for _, e := range exercises {
		for _, r := range e.Regions {
			if !slices.ContainsFunc(found[r.File], func(fr region) bool { return fr.id == r.ID }) {
				return nil, fmt.Errorf("exercise %s: labs/%s/%s has no region %s", e.ID, lab.Name, r.File, r.ID)
			}
			if bodies[r.File] == nil {
				bodies[r.File] = map[string][]string{}
			}
			bodies[r.File][r.ID] = r.starterLines(lang)
		}
	}
	out := files{}
	for name, data := range labFiles {
		if b, ok := bodies[name]; ok {
			data = replaceRegions(data, found[name], b)
		}
		out[name] = data
	}
	return out, nil
}
