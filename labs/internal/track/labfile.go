package track

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/strictjson"
)

// This file reads a lab's exercises.json (readLab), with package
// labs/strictjson, and says where each mistake of it is, in one line.

// readLab reads the exercises of the lab in dir, named name. It returns
// nil, and no error, for a lab without exercises.
func readLab(dir, name string) (*Lab, error) {
	data, err := os.ReadFile(filepath.Join(dir, exercisesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	tests, err := declaredTests(dir)
	if err != nil {
		return nil, fmt.Errorf("labs/%s: %w", name, err)
	}
	l, err := parseLab(name, data, tests)
	if err != nil {
		return nil, fmt.Errorf("labs/%s/%s: %w", name, exercisesFile, err)
	}
	l.dir = dir
	return l, nil
}

// declaredTests returns the top-level tests that the test files in dir
// declare: each func TestX without a receiver.
func declaredTests(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	tests := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				tests[fn.Name.Name] = true
			}
		}
	}
	return tests, nil
}

// labFormat is the format of exercises.json, as package strictjson reads
// it: keys spelt exactly, each once, no null, no text that a terminal would
// not print as it is (printsAsItself).
var labFormat = strictjson.Format{Root: "the file", MaxDepth: 16, TooDeep: "exercises.json never needs that many", Strings: printsAsItself}

// parseLab reads a lab's exercises.json, strictly, so that a misspelt field
// is an error rather than an exercise without it. tests are the top-level
// tests the lab declares, which its rules must name; nil checks none. A
// mistake is one line: "line 9, column 24: exercise e: rule TestA: test: …".
func parseLab(name string, data []byte, tests map[string]bool) (*Lab, error) {
	var l Lab
	root, err := labFormat.Decode(data, &l)
	src := labSource{data: data, root: root}
	if err != nil {
		return nil, src.decodeError(err)
	}
	l.Name = name
	if err := l.validate(tests); err != nil {
		var bad *labError
		if !errors.As(err, &bad) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %s: %s", strictjson.Position(data, root.Find(bad.path).Start), src.name(bad.path), bad.problem)
	}
	return &l, nil
}

// printsAsItself refuses a string that holds a character that a terminal
// would not print as itself, but a tab: a line break (a text of many lines
// is a list of lines), a control character such as the escape that starts
// a colour code or a window title, a bidirectional override, a zero-width
// space. Every text of exercises.json reaches a terminal, and these are
// the maintainers' files: a clear error, as the lab is read, beats an
// escape that a learner would read.
func printsAsItself(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r != '\t' && r != ' ' && !unicode.IsPrint(r) })
	if i < 0 {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); r != '\n' {
		return fmt.Sprintf("must not hold %U, which a terminal does not print as itself", r)
	}
	return "must not hold a line break: write a text of many lines as a list of lines"
}

// A labError is a value of exercises.json that is well typed but makes no
// sense. It names the value by its path; parseLab adds the line and column.
type labError struct {
	path    strictjson.Path
	problem string
}

// Error names the value and the problem.
func (e *labError) Error() string { return e.path.String() + ": " + e.problem }

// failAt returns a labError for the value at path.
func failAt(path strictjson.Path, format string, a ...any) error {
	return &labError{path: path, problem: fmt.Sprintf(format, a...)}
}

// A labSource is the text of an exercises.json and the tree of its values,
// as far as they were read: what an error needs to say where it is.
type labSource struct {
	data []byte
	root *strictjson.Node
}

// decodeError writes a mistake that strictjson found in one line: where,
// whose, what.
func (s labSource) decodeError(err error) error {
	var bad *strictjson.Error
	if !errors.As(err, &bad) {
		return err
	}
	at := strictjson.Position(s.data, bad.Offset)
	switch {
	case len(bad.Path) > 0:
		return fmt.Errorf("%s: %s: %s", at, s.name(bad.Path), bad.Problem)
	case bad.Key:
		return fmt.Errorf("%s: %s at the top level", at, bad.Problem)
	}
	return fmt.Errorf("%s: %v", at, bad)
}

// name names the value at path for a maintainer, by whose it is, as
// exercises.json names them: "exercise run-loop: rule TestX: hint 2: zh".
// An exercise is named by its ID, a region by its ID and file, a rule by
// its test, a mistake by its name, and a hint by its number; by its index,
// as in "exercises[2]", when the file does not name it in a way that can be
// shown.
func (s labSource) name(path strictjson.Path) string {
	var parts []string
	var at strictjson.Path
	for len(path) >= 2 {
		list, _ := path[0].(string)
		i, ok := path[1].(int)
		if !ok {
			break
		}
		item := append(slices.Clip(at), list, i)
		var part string
		switch list {
		case "exercises":
			if id, ok := s.stringAt(item, "id"); ok && isID(id) {
				part = "exercise " + id
			}
		case "regions":
			id, _ := s.stringAt(item, "id")
			file, _ := s.stringAt(item, "file")
			if isID(id) && file != "" && cli.Printable(file) == file && !strings.Contains(file, " ") {
				part = "region " + id + " in " + file
			}
		case "rules":
			if test, ok := s.stringAt(item, "test"); ok {
				part = "rule " + test
				if cli.Printable(test) != test || strings.Contains(test, " ") {
					part = "rule " + strconv.Quote(test)
				}
			}
		case "mistakes":
			if name, ok := s.stringAt(item, "name"); ok {
				part = fmt.Sprintf("mistake %q", name)
			}
		case "hints":
			part = fmt.Sprintf("hint %d", i+1)
		default:
			return strings.Join(append(parts, path.String()), ": ")
		}
		if part == "" {
			part = strictjson.Path{list, i}.String()
		}
		parts, at, path = append(parts, part), item, path[2:]
	}
	if len(path) > 0 {
		parts = append(parts, path.String())
	}
	return strings.Join(parts, ": ")
}

// stringAt returns the string at the path at+key, if the file has one
// there that was read whole.
func (s labSource) stringAt(at strictjson.Path, key string) (string, bool) {
	if s.root == nil {
		return "", false
	}
	path := append(slices.Clip(at), key)
	n := s.root.Find(path)
	if len(n.Path()) != len(path) || n.Start < 0 || n.End < 0 {
		return "", false
	}
	var str string
	if err := json.Unmarshal(s.data[n.Start:n.End], &str); err != nil {
		return "", false
	}
	return str, true
}
