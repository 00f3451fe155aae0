package track

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake classes for grade's tests and benchmark: learners' folders in a
// temporary directory, each copy made as start makes it and changed as a
// learner changes it.

// A labCopy is the files of one learner's copy of a lab, and what it is:
// "solution", "starter", "exercise-ID" (the exercises before it written),
// or "mistake-N" (the lab's N-th typical mistake).
type labCopy struct {
	kind  string
	files files
}

// copiesOf returns every copy of the lab that the track knows of: the
// solution, the starter, the starter after each exercise, and the solution
// with each typical mistake made.
func copiesOf(t testing.TB, wb *workbook, lab *Lab) []labCopy {
	t.Helper()
	solution, err := wb.labFiles(lab.Name)
	if err != nil {
		t.Fatal(err)
	}
	out := []labCopy{{kind: "solution", files: solution}}
	all := lab.allExercises()
	for i, e := range all {
		f, err := starter(lab, solution, all[i:], English)
		if err != nil {
			t.Fatal(err)
		}
		kind := "starter"
		if i > 0 {
			kind = "exercise-" + e.ID
		}
		out = append(out, labCopy{kind: kind, files: f})
	}
	for i, m := range lab.Mistakes {
		out = append(out, labCopy{kind: fmt.Sprintf("mistake-%d", i+1), files: edited(t, solution, m.File, string(m.Old), string(m.New))})
	}
	return out
}

// edited returns a copy of f with old replaced by new, once, in the file.
func edited(t testing.TB, f files, file, old, new string) files {
	t.Helper()
	src := string(f[file])
	if strings.Count(src, old) != 1 {
		t.Fatalf("%s holds %q %d times, want once", file, old, strings.Count(src, old))
	}
	out := files{}
	for name, data := range f {
		out[name] = data
	}
	out[file] = []byte(strings.Replace(src, old, new, 1))
	return out
}

// writeCopy writes a learner's copy of a lab into their checkout, dir:
// dir/_mywork/LAB, as start writes it.
func writeCopy(t testing.TB, dir, lab string, f files) {
	t.Helper()
	if err := writeFiles(filepath.Join(dir, workDir, lab), f); err != nil {
		t.Fatal(err)
	}
}

// classOf writes a class of n learners, learner-01 to learner-NN, into
// dir, each with a copy of every lab that has exercises, and returns their
// checkouts. Each copy is one the track knows of (copiesOf), picked so that
// the class holds each kind and the learners differ, as a class does on the
// day of a deadline: a third of the copies are done, and the others stop at
// a starter, an exercise or a typical mistake.
func classOf(t testing.TB, wb *workbook, dir string, n int) []string {
	t.Helper()
	var dirs []string
	kinds := map[string][]labCopy{}
	for _, name := range wb.labs {
		if lab := wb.lab(name); lab != nil {
			kinds[name] = copiesOf(t, wb, lab)
		}
	}
	for i := range n {
		learner := filepath.Join(dir, fmt.Sprintf("learner-%02d", i+1))
		for j, name := range wb.labs {
			copies := kinds[name]
			if copies == nil {
				continue
			}
			c := copies[(i*7+j*3)%len(copies)]
			if (i+j)%3 == 0 {
				c = copies[0] // a third of the copies are done
			}
			writeCopy(t, learner, name, c.files)
		}
		dirs = append(dirs, learner)
	}
	return dirs
}

// loadAverage is the machine's load: /proc/loadavg's first three figures,
// or "unknown".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(bytes.TrimSpace(data)))[:3], " ")
}
