package track

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// failureLines is how many lines of one test's failure check shows.
const failureLines = 14

var (
	// locationLine starts a failure that t.Error or testify reported:
	// "    main_test.go:42: message".
	locationLine = regexp.MustCompile(`^ {4}(\S+\.go:\d+): ?(.*)$`)
	// testifyField is a field of testify's report, "\tError:\tNot equal:",
	// or its continuation, "\t      \texpected: 2".
	testifyField = regexp.MustCompile(`^\s+\t([A-Za-z ]*?):?\s*\t(.*)$`)
	// frameLine is a stack frame's location: "\t/path/file.go:12 +0x1d".
	frameLine = regexp.MustCompile(`^\t(\S+\.go:\d+)`)
)

// failure turns a failed test's output into what a learner reads: the
// messages of t.Error and testify, without the test runner's lines,
// testify's "Error Trace" and "Test" fields, and goroutine dumps. A panic
// becomes its value and the line of the copy where it happened. copyDir is
// the copy's directory, to find that line, and copyRel the same from the
// root, to show it.
func failure(lines []string, copyDir, copyRel string) *finding {
	if p := panicOf(lines, copyDir, copyRel); p != nil {
		return p
	}
	var out []string
	drop := false // inside a testify field that is dropped
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "=== "), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "    --- "), l == "":
			continue
		}
		if m := locationLine.FindStringSubmatch(l); m != nil {
			out = append(out, strings.TrimSpace(m[1]+": "+m[2]))
			drop = false
			continue
		}
		if m := testifyField.FindStringSubmatch(l); m != nil {
			key, value := strings.TrimSpace(m[1]), strings.TrimRight(m[2], " ")
			switch key {
			case "Error Trace", "Test":
				drop = true
				continue
			case "Error", "Messages":
				drop = false
				if key == "Messages" && len(out) > 0 {
					// The rule first: "main_test.go:42: the message".
					out = withMessage(out, value)
					continue
				}
			case "":
				if value == "Diff:" {
					// testify's diff of the values printed just above.
					drop = true
				}
				if drop || value == "" {
					continue
				}
			default:
				drop = false
				value = key + ": " + value
			}
			out = append(out, "  "+value)
			continue
		}
		if drop {
			continue
		}
		// A message's next lines, which go test indents by eight spaces.
		out = append(out, "  "+strings.TrimPrefix(l, "        "))
	}
	return &finding{lines: out}
}

// withMessage puts testify's message on the location line of the failure
// it belongs to, the last one in out.
func withMessage(out []string, msg string) []string {
	for i := len(out) - 1; i >= 0; i-- {
		if !strings.HasPrefix(out[i], " ") {
			out[i] = strings.TrimSuffix(out[i], ":") + ": " + msg
			break
		}
	}
	return out
}

// panicOf returns a panic's value and its place in the copy, or nil if the
// output holds no panic. A synctest deadlock and a timeout are panics too,
// and get a sentence of their own.
func panicOf(lines []string, copyDir, copyRel string) *finding {
	for i, l := range lines {
		value, ok := strings.CutPrefix(l, "panic: ")
		if !ok {
			continue
		}
		value = strings.TrimSuffix(strings.TrimSuffix(value, " [recovered, repanicked]"), " [recovered]")
		f := &finding{why: msgPanic, whyArgs: []any{value}}
		var said []string
		switch {
		case strings.HasPrefix(value, "test timed out after "):
			return &finding{why: msgTimeout, whyArgs: []any{testTimeout}}
		case strings.Contains(value, "deadlock"):
			f = &finding{why: msgDeadlock}
			// A test that saw its goroutines stuck may have said why.
			said = failure(lines[:i], copyDir, copyRel).lines
		}
		if where := frameIn(lines[i+1:], copyDir, copyRel); where != "" {
			f.lines = []string{"  at " + where}
		}
		f.lines = append(f.lines, said...)
		return f
	}
	return nil
}

// frameIn returns the first stack frame in the copy's files, preferring
// the learner's code to the tests, as "mywork/02-loop/loop.go:60".
func frameIn(lines []string, copyDir, copyRel string) string {
	var inTest string
	prefix := copyDir + string(filepath.Separator)
	for _, l := range lines {
		m := frameLine.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], prefix) {
			continue
		}
		where := copyRel + "/" + filepath.ToSlash(strings.TrimPrefix(m[1], prefix))
		if !strings.Contains(where, "_test.go:") {
			return where
		}
		if inTest == "" {
			inTest = where
		}
	}
	return inTest
}

// shorten keeps at most n lines, and says how to see the rest.
func shorten(lines []string, n int, more string) []string {
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n:n], fmt.Sprintf("… %d more lines: %s", len(lines)-n, more))
}
