package track

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// grade runs the learners' code in a copy of the workbook that it makes,
// outside the instructor's repository: a classTree. Every learner's copies
// sit in it, so that the workbook's own packages (fakemodel, expected,
// labs/cli, …) have one directory, which the go command's build cache keys
// a package's compilation by: they compile once for the whole class, and
// only the learners' packages compile for each learner.
//
//	TMP/workbook/                  the copy: go.mod, go.sum, fakemodel/, expected/, labs/, …
//	TMP/workbook/_class/07/02-loop  learner 7's copy of lab 02: the lab's tests and data, the learner's Go code
//
// Learners share the copy, and their code could change it: write a golden
// file that makes its output pass, or another learner's code. So the tree
// remembers the digest of every file it placed, and after each learner's
// run it checks that nothing outside that learner's copies changed
// (changedOutside).
type classTree struct {
	dir  string // TMP: grade's own folder, removed at the end
	root string // TMP/workbook
	// source is the instructor's repository, and labs the lab's files
	// that every copy of it takes, by lab: its tests and data.
	source string
	labs   map[string]files
	// shared is the digest of each file of the copy outside _class;
	// placed is, for each learner's slot, the digest of each file placed
	// in it, by path from the root.
	shared map[string]digest
	placed map[string]map[string]digest
}

// classDir holds the learners' copies in grade's copy of the workbook.
// Its name starts with "_", as _mywork's does, so that ./... leaves it out.
const classDir = "_class"

// A digest is a file's size and SHA-256.
type digest struct {
	size int64
	sum  [sha256.Size]byte
}

// digestOf returns the digest of a file that holds data.
func digestOf(data []byte) digest {
	return digest{size: int64(len(data)), sum: sha256.Sum256(data)}
}

// newClassTree makes grade's folder in parent and copies the workbook at
// source into it, with the copies of the class's learners. Its caller
// removes it (remove), on every path.
func newClassTree(parent, source string, class []*learner, labs []*Lab) (*classTree, error) {
	dir, err := os.MkdirTemp(parent, "agent-loop-lab-grade-")
	if err != nil {
		return nil, fmt.Errorf("grade: make its folder: %w", err)
	}
	t := &classTree{dir: dir, root: filepath.Join(dir, "workbook"), source: source, labs: map[string]files{}}
	width := len(fmt.Sprint(len(class)))
	for i, l := range class {
		l.slot = classDir + "/" + fmt.Sprintf("%0*d", width, i+1)
	}
	for _, lab := range labs {
		f, err := readFiles(filepath.Join(source, "labs", lab.Name))
		if err != nil {
			return t, fmt.Errorf("grade: read labs/%s: %w", lab.Name, err)
		}
		// A copy takes the lab's tests and data; its code is the learner's.
		for name := range f {
			if name == exercisesFile || isCode(name) {
				delete(f, name)
			}
		}
		t.labs[lab.Name] = f
	}
	return t, t.build(class)
}

// isCode reports whether a lab's file is code a learner's copy replaces: a
// Go file at its top that is not a test.
func isCode(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !strings.Contains(name, "/")
}

// build writes the copy of the workbook and every learner's copies, and
// notes the digest of each file.
func (t *classTree) build(class []*learner) error {
	shared, err := copyWorkbook(t.source, t.root)
	if err != nil {
		return fmt.Errorf("grade: copy the workbook: %w", err)
	}
	t.shared = shared
	t.placed = map[string]map[string]digest{}
	for _, l := range class {
		placed := map[string]digest{}
		for _, ll := range l.labs {
			if !ll.graded() {
				continue
			}
			f := files{}
			for name, data := range t.labs[ll.lab.Name] {
				f[name] = data
			}
			for name, data := range ll.code {
				f[name] = data
			}
			dir := t.copyDir(l, ll.lab)
			if err := writeFiles(dir, f); err != nil {
				return fmt.Errorf("grade: place %s's copy of %s: %w", l.name, ll.lab.Name, err)
			}
			for name, data := range f {
				placed[l.slot+"/"+ll.lab.Name+"/"+name] = digestOf(data)
			}
		}
		t.placed[l.slot] = placed
	}
	return nil
}

// rebuild removes the copy and builds it again, at the same paths: the build
// cache keeps what it compiled.
func (t *classTree) rebuild(class []*learner) error {
	if err := removeTree(t.root); err != nil {
		return fmt.Errorf("grade: remove its copy of the workbook: %w", err)
	}
	return t.build(class)
}

// remove removes grade's folder, whatever the learners' code left in it.
func (t *classTree) remove() error { return removeTree(t.dir) }

// copyDir is the learner's copy of the lab in the tree.
func (t *classTree) copyDir(l *learner, lab *Lab) string {
	return filepath.Join(t.root, filepath.FromSlash(l.slot), lab.Name)
}

// copyWorkbook copies the workbook at src to dst: go.mod, go.sum and every
// folder but those go test ./... leaves out (_mywork, .git, …), without the
// output a golden test keeps (*.got). It returns the digest of each file
// copied, by path from dst, with slashes.
func copyWorkbook(src, dst string) (map[string]digest, error) {
	out := map[string]digest{}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case rel == ".":
			return os.MkdirAll(dst, 0o755)
		case d.IsDir() && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular() || strings.HasSuffix(name, ".got"):
			return nil
		case !strings.Contains(rel, string(filepath.Separator)) && name != "go.mod" && name != "go.sum":
			return nil // the root's other files: the README, programs built by hand
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, rel), data, 0o644); err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = digestOf(data)
		return nil
	})
	return out, err
}

// changedOutside returns a file, by path from the root, that changed since
// the tree was built and is not in one of the learner's copies: a file of
// the workbook changed, removed or added, or a file placed in another
// learner's copy changed or removed, or a file added to it other than the
// output a golden test keeps there (testdata/*.got). "" if none did.
func (t *classTree) changedOutside(l *learner) (string, error) {
	var changed []string
	err := filepath.WalkDir(t.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(t.root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == l.slot {
				return filepath.SkipDir
			}
			return nil
		}
		want, ok := t.shared[rel]
		if strings.HasPrefix(rel, classDir+"/") {
			slot := strings.Join(strings.SplitN(rel, "/", 3)[:2], "/")
			want, ok = t.placed[slot][rel]
			if !ok && isKeptOutput(rel) {
				return nil
			}
		}
		if !ok || !d.Type().IsRegular() || !sameDigest(path, want) {
			changed = append(changed, rel)
		}
		return nil
	})
	if err != nil {
		// What cannot be read any more was changed too: a folder made
		// unreadable, for instance.
		return t.firstMissing(l), nil
	}
	for rel := range t.shared {
		if _, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(rel))); err != nil {
			changed = append(changed, rel)
		}
	}
	for slot, placed := range t.placed {
		if slot == l.slot {
			continue
		}
		for rel := range placed {
			if _, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(rel))); err != nil {
				changed = append(changed, rel)
			}
		}
	}
	if len(changed) == 0 {
		return "", nil
	}
	slices.Sort(changed)
	return changed[0], nil
}

// firstMissing returns a file of the tree outside the learner's copies that
// cannot be read, or the root itself.
func (t *classTree) firstMissing(l *learner) string {
	var all []string
	for rel := range t.shared {
		all = append(all, rel)
	}
	for slot, placed := range t.placed {
		if slot != l.slot {
			for rel := range placed {
				all = append(all, rel)
			}
		}
	}
	slices.Sort(all)
	for _, rel := range all {
		f, err := os.Open(filepath.Join(t.root, filepath.FromSlash(rel)))
		if err != nil {
			return rel
		}
		f.Close()
	}
	return "."
}

// isKeptOutput reports whether a file in a learner's copy is the output a
// golden test keeps there: testdata/NAME.txt.got.
func isKeptOutput(rel string) bool {
	return strings.Contains(rel, "/testdata/") && strings.HasSuffix(rel, ".got")
}

// sameDigest reports whether the file at path has the digest want. A file
// of another size is not read.
func sameDigest(path string, want digest) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() != want.size {
		return false
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return bytes.Equal(h.Sum(nil), want.sum[:])
}

// removeTree removes dir and everything in it, even the folders that a
// learner's code made unreadable or unwritable.
func removeTree(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
