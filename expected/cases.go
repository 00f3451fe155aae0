package expected

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A Case is one run of a lab whose standard output is kept as a golden file.
type Case struct {
	// Name is the golden file's name without ".txt": the lab, then the
	// variant if there is one, as in "03-maxturns.max-turns-1". A name
	// that ends in ".html" is a page (-html -), whose golden file has that
	// name, so that it opens in a browser: expected/02-loop.html.
	Name string
	// Lab is the lab's directory under labs/, as in "03-maxturns".
	Lab string
	// Args are the command-line arguments of the run.
	Args []string
}

// Command is the command line an instructor types for the case, from the
// repository root.
func (c Case) Command() string {
	return strings.Join(append([]string{"go run ./labs/" + c.Lab}, c.Args...), " ")
}

// fixed are the cases that do not come from a directory of scenario files.
var fixed = []Case{
	{Name: "01-no-loop", Lab: "01-no-loop"},
	{Name: "01-no-loop.requests", Lab: "01-no-loop", Args: []string{"-requests"}},
	{Name: "02-loop", Lab: "02-loop"},
	{Name: "02-loop.requests", Lab: "02-loop", Args: []string{"-requests"}},
	{Name: "02-loop.diagram", Lab: "02-loop", Args: []string{"-diagram"}},
	{Name: "02-loop.html", Lab: "02-loop", Args: []string{"-html", "-"}},
	{Name: "03-maxturns", Lab: "03-maxturns"},
	{Name: "03-maxturns.max-turns-1", Lab: "03-maxturns", Args: []string{"-max-turns", "1"}},
	{Name: "03-maxturns.max-turns-100", Lab: "03-maxturns", Args: []string{"-max-turns", "100"}},
	{Name: "03-maxturns.requests", Lab: "03-maxturns", Args: []string{"-requests"}},
	{Name: "03-maxturns.diagram", Lab: "03-maxturns", Args: []string{"-diagram"}},
	{Name: "03-maxturns.html", Lab: "03-maxturns", Args: []string{"-html", "-"}},
	{Name: "04-tool-errors", Lab: "04-tool-errors"},
	{Name: "04-tool-errors.max-turns-1", Lab: "04-tool-errors", Args: []string{"-max-turns", "1"}},
	{Name: "04-tool-errors.requests", Lab: "04-tool-errors", Args: []string{"-requests"}},
	{Name: "04-tool-errors.diagram", Lab: "04-tool-errors", Args: []string{"-diagram"}},
	{Name: "04-tool-errors.html", Lab: "04-tool-errors", Args: []string{"-html", "-"}},
	{Name: "05-parallel", Lab: "05-parallel"},
	{Name: "05-parallel.sequential", Lab: "05-parallel", Args: []string{"-sequential"}},
	{Name: "05-parallel.trace", Lab: "05-parallel", Args: []string{"-trace"}},
	{Name: "05-parallel.diagram", Lab: "05-parallel", Args: []string{"-diagram"}},
	{Name: "05-parallel.timeline", Lab: "05-parallel", Args: []string{"-timeline"}},
	{Name: "05-parallel.sequential.timeline", Lab: "05-parallel", Args: []string{"-sequential", "-timeline"}},
	{Name: "05-parallel.html", Lab: "05-parallel", Args: []string{"-html", "-"}},
	{Name: "06-steering", Lab: "06-steering"},
	{Name: "06-steering.queue-mode-all", Lab: "06-steering", Args: []string{"-queue-mode", "all"}},
	{Name: "06-steering.trace", Lab: "06-steering", Args: []string{"-trace"}},
	{Name: "06-steering.diagram", Lab: "06-steering", Args: []string{"-diagram"}},
	// The demo's tools wait on no clock: one line instead of an empty chart.
	{Name: "06-steering.timeline", Lab: "06-steering", Args: []string{"-timeline"}},
	{Name: "06-steering.html", Lab: "06-steering", Args: []string{"-html", "-"}},
	{Name: "06-steering.zh.html", Lab: "06-steering", Args: []string{"-html", "-", "-lang", "zh"}},
	{Name: "06-steering.scenario-parallel-lookups.diagram", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/scenarios/parallel-lookups.json", "-diagram"}},
	{Name: "06-steering.scenario-parallel-lookups.timeline", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/scenarios/parallel-lookups.json", "-timeline"}},
	// A Ctrl-C, marked at its moment, cuts two calls short.
	{Name: "06-steering.scenario-ctrl-c.timeline", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/scenarios/ctrl-c.json", "-timeline"}},
	{Name: "06-steering.scenario-terminate-vs-steering.diagram", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/scenarios/terminate-vs-steering.json", "-diagram"}},
	// A session of -chat, recorded with -record, drawn: several runs, steering and follow-up messages, two Ctrl-Cs.
	{Name: "06-steering.recorded-chat.diagram", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/testdata/recorded-chat.json", "-diagram"}},
	// The same session as a page to step through.
	{Name: "06-steering.recorded-chat.html", Lab: "06-steering", Args: []string{"-scenario", "labs/06-steering/testdata/recorded-chat.json", "-html", "-"}},
}

// Cases returns every golden case, in a fixed order. Besides the fixed cases,
// every scenario file labs/06-steering/scenarios/NAME.json adds two cases:
// 06-steering.scenario-NAME and 06-steering.scenario-NAME.trace.
func Cases() ([]Case, error) {
	more, err := scenarioFileCases()
	if err != nil {
		return nil, err
	}
	return append(slices.Clone(fixed), more...), nil
}

// scenarioFileCases returns the cases of the scenario files in
// labs/06-steering/scenarios.
func scenarioFileCases() ([]Case, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	scenarios, err := filepath.Glob(filepath.Join(root, "labs", "06-steering", "scenarios", "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list scenario files: %w", err)
	}
	return scenarioCases(scenarios)
}

// scenarioName matches the NAME of a scenario file NAME.json: it names
// golden files and is printed in messages, so it is a plain name.
var scenarioName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// scenarioCases returns the two golden cases of each scenario file, sorted
// by name. A name other than lower-case letters, digits and hyphens is an
// error, which quotes it, so that it cannot break a message over two lines
// or send an escape sequence to the terminal.
func scenarioCases(paths []string) ([]Case, error) {
	paths = slices.Sorted(slices.Values(paths))
	var cases []Case
	for _, path := range paths {
		file := filepath.Base(path)
		name := strings.TrimSuffix(file, ".json")
		if !scenarioName.MatchString(name) {
			return nil, fmt.Errorf("scenario file %q: name it with lower-case letters, digits and hyphens, such as my-scenario.json: its name names its golden files", "labs/06-steering/scenarios/"+file)
		}
		arg := "labs/06-steering/scenarios/" + file
		cases = append(cases,
			Case{Name: "06-steering.scenario-" + name, Lab: "06-steering", Args: []string{"-scenario", arg}},
			Case{Name: "06-steering.scenario-" + name + ".trace", Lab: "06-steering", Args: []string{"-scenario", arg, "-trace"}},
		)
	}
	return cases, nil
}

// LabCases returns the golden cases of one lab. Only lab 06's read the
// scenario files, so that a badly named one fails lab 06 and no other.
func LabCases(lab string) ([]Case, error) {
	cases := slices.DeleteFunc(slices.Clone(fixed), func(c Case) bool { return c.Lab != lab })
	if lab != "06-steering" {
		return cases, nil
	}
	more, err := scenarioFileCases()
	if err != nil {
		return nil, err
	}
	return append(cases, more...), nil
}

// Labs returns the names of the labs, the directories labs/NN-name such as
// "02-loop", in order. Other directories under labs/ hold code the labs
// share and are not labs.
func Labs() ([]string, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(root, "labs"))
	if err != nil {
		return nil, fmt.Errorf("list the labs: %w", err)
	}
	var labs []string
	for _, e := range entries {
		if e.IsDir() && labName.MatchString(e.Name()) {
			labs = append(labs, e.Name())
		}
	}
	return labs, nil // ReadDir sorts by name
}

// labName matches the name of a lab's directory.
var labName = regexp.MustCompile(`^[0-9][0-9]-[a-z0-9-]+$`)

// Root returns the repository's root directory: the nearest directory, from
// the working directory up, whose go.mod declares this module. Tests run in
// their package's directory and the golden command runs anywhere inside the
// repository, so both find it.
var Root = sync.OnceValues(func() (string, error) {
	dir, err := startDir()
	if err != nil {
		return "", fmt.Errorf("find the repository root: %w", err)
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(mod), "module "+module+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("find the repository root: no go.mod of %s above the working directory", module)
		}
		dir = parent
	}
})

// module is the workbook's module path.
const module = "github.com/agent-loop-lab/agent-loop-lab"

// startDir returns the working directory the program started in: for a
// test, its package's directory, even after the test changed directory
// (lab 06's golden test moves to the repository root).
func startDir() (string, error) {
	return initialDir, initialDirErr
}

// initialDir is the working directory when the package was initialised,
// before any test ran.
var initialDir, initialDirErr = os.Getwd()

// isCopy reports whether the test that runs in dir tests a copy of a lab,
// such as a learner's in _mywork/, rather than a lab under labs/.
func isCopy(root, dir string) bool {
	return filepath.Dir(dir) != filepath.Join(root, "labs")
}

// dir returns the directory that holds the golden files.
func dir() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "expected"), nil
}

// paths returns the path of a case's golden file in dir, and of the file
// that keeps the actual output after a mismatch.
func paths(dir, name string) (want, got string) {
	want = filepath.Join(dir, FileName(name))
	return want, want + ".got"
}

// FileName is the name of the golden file of the case named name:
// NAME.txt, or, for a page, NAME itself (NAME.html).
func FileName(name string) string {
	if strings.HasSuffix(name, ".html") {
		return name
	}
	return name + ".txt"
}

// Write makes got the golden file of the case named name.
func Write(name string, got []byte) error {
	d, err := dir()
	if err != nil {
		return err
	}
	want, stale := paths(d, name)
	if err := os.WriteFile(want, got, 0o644); err != nil {
		return fmt.Errorf("write golden file: %w", err)
	}
	if err := os.Remove(stale); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove stale output: %w", err)
	}
	return nil
}
