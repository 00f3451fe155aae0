package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestEveryScenarioTracesAsPiDoes runs every scenario file of scenarios/
// and checks its trace against the one Pi 0.83.0's own Agent gives the same
// file, which the maintainer's script .ci/pi-traces keeps in expected/pi:
// the same events in the same order, line for line. A file of Pi's tests
// must have that trace; a file added without one, which .ci/pi-traces
// writes only where node and npm are, is skipped, and says so.
func TestEveryScenarioTracesAsPiDoes(t *testing.T) {
	root, err := expected.Root()
	if !expected.NoError(t, err, "find the repository's root") {
		return
	}
	files, err := filepath.Glob(filepath.Join(root, "labs", "06-steering", "scenarios", "*.json"))
	if !expected.NoError(t, err, "list the scenario files") {
		return
	}
	if !expected.NotEmpty(t, files, "scenarios/ holds scenario files") {
		return
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			pi, err := os.ReadFile(filepath.Join(root, "expected", "pi", name+".trace.txt"))
			if os.IsNotExist(err) && !strings.HasPrefix(name, "pi-") {
				t.Skipf("no trace of Pi's for %s: .ci/pi-traces writes it, with node and npm", name)
			}
			if !expected.NoError(t, err, "Pi's trace of %s: run .ci/pi-traces", name) {
				return
			}
			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", file, "-trace"}, &stdout, &stderr), "the scenario runs with -trace without an error") {
					return
				}
				sameLines(t, string(pi), stdout.String(), "lab 06's trace is Pi 0.83.0's")
			})
		})
	}
}

// TestPisTestsAreAllInTheTable checks the table of scenarios/README.md that
// maps Pi's own tests to scenario files: a row for each of the 51 tests of
// packages/agent/test at c13ffe1 (agent-loop 21, agent 20, e2e 10), each
// once; 42 restated by a scenario file that exists, 9 not; and every file
// pi-*.json restating at least one.
func TestPisTestsAreAllInTheTable(t *testing.T) {
	root, err := expected.Root()
	if !expected.NoError(t, err, "find the repository's root") {
		return
	}
	dir := filepath.Join(root, "labs", "06-steering", "scenarios")
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if !expected.NoError(t, err, "read scenarios/README.md") {
		return
	}
	_, section, ok := strings.Cut(string(readme), "\n## Pi's own tests as scenarios\n")
	if !expected.True(t, ok, "scenarios/README.md has a section \"Pi's own tests as scenarios\"") {
		return
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("^\\| `(agent-loop|agent|e2e)`: ([^|]+) \\| (none|\\[(pi-[a-z0-9-]+\\.json)\\]\\((pi-[a-z0-9-]+\\.json)\\)) \\| [^|]+ \\|$")
	seen := map[string]bool{}
	perFile := map[string]int{}
	restated, none := 0, 0
	linked := map[string]bool{}
	for line := range strings.Lines(section) {
		line = strings.TrimSuffix(line, "\n")
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		m := row.FindStringSubmatch(line)
		if !expected.True(t, m != nil, "a row of the table: %s", line) {
			return
		}
		test := m[1] + ": " + strings.TrimSpace(m[2])
		expected.Equal(t, false, seen[test], "%s has one row", test)
		seen[test] = true
		perFile[m[1]]++
		if m[3] == "none" {
			none++
			continue
		}
		restated++
		expected.Equal(t, m[4], m[5], "the link is the file it names")
		info, err := os.Stat(filepath.Join(dir, m[4]))
		expected.True(t, err == nil && !info.IsDir(), "the file a row names exists: %s", m[4])
		linked[m[4]] = true
	}
	expected.Equal(t, map[string]int{"agent-loop": 21, "agent": 20, "e2e": 10}, perFile, "the rows of each test file of Pi's")
	expected.Equal(t, 42, restated, "the tests a scenario file restates")
	expected.Equal(t, 9, none, "the tests no scenario file restates")
	files, err := filepath.Glob(filepath.Join(dir, "pi-*.json"))
	if !expected.NoError(t, err, "list the files pi-*.json") {
		return
	}
	var unlisted []string
	for _, f := range files {
		if !linked[filepath.Base(f)] {
			unlisted = append(unlisted, filepath.Base(f))
		}
	}
	expected.Empty(t, unlisted, "every pi-*.json restates a row")
	expected.Equal(t, len(files), len(linked), "every file a row names is a pi-*.json")
}
