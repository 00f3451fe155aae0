package expected

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The lab READMEs quote code by line and output by copy. These tests keep
// both true when the code or a golden file changes.

// readmes returns every README of the repository, in English (README.md)
// and in Chinese (README.zh-CN.md), by path from the root.
func readmes(t *testing.T) map[string][]byte {
	t.Helper()
	return repoFiles(t, func(name string) bool { return name == "README.md" || name == twinName })
}

// repoFiles returns the files of the repository whose names keep accepts,
// by path from the root. It leaves out the directories whose names start
// with "_" or ".", as go test ./... does: a learner's copies, in _mywork/,
// and the copies that tests make.
func repoFiles(t *testing.T, keep func(name string) bool) map[string][]byte {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !keep(name) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var lineRef = regexp.MustCompile("`((?:[a-z0-9_./-]+/)?[a-z0-9_]+\\.go):([0-9]+)(?:-([0-9]+))?`")

// TestREADMELineReferencesExist checks that every `file.go:N` a README cites
// names a file of its lab (or a path from the repository root) with a line N.
func TestREADMELineReferencesExist(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	for readme, data := range readmes(t) {
		dir := filepath.Join(root, filepath.Dir(readme))
		for _, m := range lineRef.FindAllSubmatch(data, -1) {
			file, first := string(m[1]), string(m[2])
			path := filepath.Join(dir, file)
			if _, err := os.Stat(path); err != nil {
				path = filepath.Join(root, file)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s cites %s: %v", readme, m[0], err)
				continue
			}
			lines := bytes.Count(src, []byte("\n"))
			for _, n := range []string{first, string(m[3])} {
				if n == "" {
					continue
				}
				if i, _ := strconv.Atoi(n); i < 1 || i > lines {
					t.Errorf("%s cites %s, but %s has %d lines", readme, m[0], file, lines)
				}
			}
		}
	}
}

var (
	// testRef is a test, fuzz target or benchmark that a README cites as the
	// proof of a claim, with or without a subtest: `TestProgram/Ctrl-C`.
	testRef = regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*)(?:/[^`]*)?`")
	// testFunc is where a _test.go file declares one.
	testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)\(`)
)

// TestREADMEsCiteTestsThatExist checks that every test a README names as the
// proof of a claim is declared in a _test.go file of the repository, so that
// renaming or deleting a test cannot leave a claim without its proof.
func TestREADMEsCiteTestsThatExist(t *testing.T) {
	declared := map[string]bool{}
	for _, src := range repoFiles(t, func(name string) bool { return strings.HasSuffix(name, "_test.go") }) {
		for _, m := range testFunc.FindAllSubmatch(src, -1) {
			declared[string(m[1])] = true
		}
	}
	if !declared["TestREADMEsCiteTestsThatExist"] {
		t.Fatal("the walk did not find this file's own tests")
	}
	cited := 0
	for readme, data := range readmes(t) {
		for _, m := range testRef.FindAllSubmatch(data, -1) {
			cited++
			if !declared[string(m[1])] {
				t.Errorf("%s cites %s, which no _test.go file declares", readme, m[0])
			}
		}
	}
	if cited <= 100 {
		t.Errorf("the READMEs cite %d tests, want more than 100: the READMEs cite their tests", cited)
	}
}

// TestLab02NamesEachStepAtItsLine checks the table of lab 02's README that
// puts each of the six steps at its line of loop.go.
func TestLab02NamesEachStepAtItsLine(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	data := readmes(t)["labs/02-loop/README.md"]
	if len(data) == 0 {
		t.Fatal("labs/02-loop/README.md is missing or empty")
	}
	src, err := os.ReadFile(filepath.Join(root, "labs", "02-loop", "loop.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")

	row := regexp.MustCompile("(?m)^\\| *([1-6]) *\\| *`loop\\.go:([0-9]+)`")
	rows := row.FindAllSubmatch(data, -1)
	if len(rows) != 6 {
		t.Fatalf("the README's table has %d rows, want 6: one per step", len(rows))
	}
	for i, r := range rows {
		step, _ := strconv.Atoi(string(r[1]))
		line, _ := strconv.Atoi(string(r[2]))
		if step != i+1 {
			t.Errorf("row %d is step %d, want %d: the steps are in order", i+1, step, i+1)
		}
		if line > len(lines) {
			t.Fatalf("step %d is at loop.go:%d, but loop.go has %d lines", step, line, len(lines))
		}
		if want := "// Step " + string(r[1]) + ":"; !strings.Contains(lines[line-1], want) {
			t.Errorf("loop.go:%d is %q, want it to hold %q", line, lines[line-1], want)
		}
	}
}

// TestREADMEOutputMatchesGoldenFiles checks every fenced block that follows a
// line <!-- expected/NAME.txt -->: it must hold that golden file exactly.
func TestREADMEOutputMatchesGoldenFiles(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`^<!-- (expected/[A-Za-z0-9_.-]+\.txt) -->$`)
	for readme, data := range readmes(t) {
		sc := bufio.NewScanner(bytes.NewReader(data))
		var golden string
		var block *strings.Builder
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			switch {
			case block != nil && strings.HasPrefix(line, "```"):
				want, err := os.ReadFile(filepath.Join(root, golden))
				switch {
				case err != nil:
					t.Errorf("%s:%d: %v", readme, n, err)
				case block.String() != string(want):
					t.Errorf("%s: the block before line %d is not %s:\n%s", readme, n, golden, UnifiedDiff(golden, readme, string(want), block.String()))
				}
				golden, block = "", nil
			case block != nil:
				block.WriteString(line + "\n")
			case golden != "" && strings.HasPrefix(line, "```"):
				block = &strings.Builder{}
			case marker.MatchString(line):
				golden = marker.FindStringSubmatch(line)[1]
			}
		}
	}
}

// TestEachTermIsInTheLabThatIntroducesIt checks the table of terms in
// README.md: each term appears in the README of the lab it names.
func TestEachTermIsInTheLabThatIntroducesIt(t *testing.T) {
	data := string(readmes(t)["README.md"])
	_, table, ok := strings.Cut(data, "### Terms\n")
	if !ok {
		t.Fatal("README.md has no section Terms")
	}
	labs, err := Labs()
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| ([a-z -]+) \| .* \| ([0-9]{2}) \|$`)
	rows := row.FindAllStringSubmatch(strings.SplitN(table, "\n#", 2)[0], -1)
	if len(rows) < 15 {
		t.Fatalf("the table of terms has %d rows, want at least 15: the table lists the terms", len(rows))
	}
	for _, r := range rows {
		term, n := r[1], r[2]
		i := slices.IndexFunc(labs, func(l string) bool { return strings.HasPrefix(l, n+"-") })
		if i < 0 {
			t.Errorf("term %q: no lab %s", term, n)
			continue
		}
		readme := strings.ToLower(string(readmes(t)["labs/"+labs[i]+"/README.md"]))
		if !strings.Contains(readme, term) {
			t.Errorf("term %q: lab %s's README does not use it", term, labs[i])
		}
	}
}
