package track

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// failureLines is how many lines of one test's failure check shows.
const failureLines = 14

var (
	// locationLine starts a failure that t.Error or testify reported:
	// "    main_test.go:42: message".
	locationLine = regexp.MustCompile(`^ {4}(\S+\.go:\d+): ?(.*)$`)
	// testifyField is a field of testify's report, "\tError:\tNot equal:",
	// or its continuation, "\t      \texpected: 2", which go test indents by
	// eight spaces. The value is all that follows the field's tab, its own
	// leading spaces and tabs included: a line of go-cmp's diff starts with
	// two spaces, or "- " or "+ ", before its indentation.
	testifyField = regexp.MustCompile(`^ {8}\t([A-Za-z ]*?):? *\t(.*)$`)
	// emptyButWas starts testify's report of assert.Empty on a value that is
	// not empty. When the value is go-cmp's diff, assert.Empty(t,
	// cmp.Diff(want, got)), a learner reads it as the opposite of the rule.
	emptyButWas = "Should be empty, but was "
	// cmpDiffLine is the start of a line of go-cmp's diff: ' ', '-' or '+',
	// then a space, which go-cmp makes a regular or a non-breaking one at
	// random.
	cmpDiffLine = regexp.MustCompile("^[-+ \u00a0][ \u00a0]")
	// frameLine is a stack frame's location: "\t/path/file.go:12 +0x1d".
	frameLine = regexp.MustCompile(`^\t(\S+\.go:\d+)`)
)

// failure turns a failed test's output into what a learner reads: the
// messages of t.Error and testify, without the test runner's lines,
// testify's "Error Trace" and "Test" fields, and goroutine dumps. A panic
// becomes its value and the line of the copy where it happened. copyDir is
// the copy's directory, to find that line, and copyRel the same from the
// root, to show it; learner names the files, if any, whose code the
// learner writes, where that line is looked for first.
func failure(lines []string, copyDir, copyRel string, learner ...string) *finding {
	if p := panicOf(lines, copyDir, copyRel, learner...); p != nil {
		return p
	}
	var out []string
	drop := false    // inside a testify field that is dropped
	cmpDiff := false // inside go-cmp's diff, in testify's Error field
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "=== "), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "    --- "), l == "":
			continue
		}
		if m := locationLine.FindStringSubmatch(l); m != nil {
			out = append(out, strings.TrimSpace(m[1]+": "+m[2]))
			drop, cmpDiff = false, false
			continue
		}
		if m := testifyField.FindStringSubmatch(l); m != nil {
			key, value := strings.TrimSpace(m[1]), strings.TrimRight(m[2], " ")
			if key != "" {
				cmpDiff = false
			}
			switch key {
			case "Error Trace", "Test":
				drop = true
				continue
			case "Error", "Messages":
				drop = false
				if key == "Messages" && len(out) > 0 {
					// The rule first: "main_test.go:42: the message".
					// A diff has its header already.
					if slices.Contains(out, "  "+msgDiffHeader.EN) {
						value = strings.TrimSuffix(value, " (-want +got)")
					}
					out = withMessage(out, value)
					continue
				}
				if diff, ok := strings.CutPrefix(value, emptyButWas); ok && cmpDiffLine.MatchString(diff) {
					// A diff, which reads as one: writeFinding says so in
					// the learner's language.
					out = append(out, "  "+msgDiffHeader.EN, "  "+sameSpace(diff))
					cmpDiff = true
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
				if cmpDiff {
					value = sameSpace(value)
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

// sameSpace makes the start of a line of go-cmp's diff the same in every
// run: a regular space where go-cmp chose a non-breaking one.
func sameSpace(line string) string {
	if !cmpDiffLine.MatchString(line) {
		return line
	}
	start := cmpDiffLine.FindString(line)
	return strings.ReplaceAll(start, "\u00a0", " ") + line[len(start):]
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
func panicOf(lines []string, copyDir, copyRel string, learner ...string) *finding {
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
			f = &finding{why: msgTimeout, whyArgs: []any{testTimeout}}
		case strings.Contains(value, "deadlock"):
			f = &finding{why: msgDeadlock}
			// A test that saw its goroutines stuck may have said why.
			said = failure(lines[:i], copyDir, copyRel).lines
		}
		if where := frameIn(lines[i+1:], copyDir, copyRel, learner...); where != "" {
			f.lines = []string{"  at " + where}
		}
		f.lines = append(f.lines, said...)
		return f
	}
	return nil
}

// panicBeforeTests returns the panic that ended a test binary before any
// test ran, as one in a package variable's initializer does: go test's
// "panic: " line, and the line of the copy where it happened. It returns nil
// if a test ran or nothing panicked.
func panicBeforeTests(run *pkgRun, copyDir, copyRel string, learner ...string) []string {
	if len(run.order) > 0 {
		return nil
	}
	for i, l := range run.output {
		if !strings.HasPrefix(l, "panic: ") {
			continue
		}
		lines := []string{"  " + l}
		if where := frameIn(run.output[i+1:], copyDir, copyRel, learner...); where != "" {
			lines = append(lines, "  at "+where)
		}
		return lines
	}
	return nil
}

// frameIn returns the first stack frame in the copy's files, as
// "mywork/02-loop/loop.go:60": the first in one of the learner's files, if
// any, else the first outside the tests, else the first in a test. A tool's
// panic that the learner's code should have recovered happens in the tool,
// and the line to fix is the learner's.
func frameIn(lines []string, copyDir, copyRel string, learner ...string) string {
	var inCode, inTest string
	prefix := copyDir + string(filepath.Separator)
	for _, l := range lines {
		m := frameLine.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], prefix) {
			continue
		}
		file := filepath.ToSlash(strings.TrimPrefix(m[1], prefix))
		where := copyRel + "/" + file
		switch name, _, _ := strings.Cut(file, ":"); {
		case slices.Contains(learner, name):
			return where
		case strings.HasSuffix(name, "_test.go"):
			if inTest == "" {
				inTest = where
			}
		case inCode == "":
			inCode = where
		}
	}
	return firstOf(inCode, inTest)
}

// lockWaiter returns where in the copy a goroutine of a dump of goroutines
// waits to lock a mutex, as frameIn writes it, or "" if none does. Its
// header says so: "goroutine 8 [sync.Mutex.Lock]:".
func lockWaiter(lines []string, copyDir, copyRel string, learner ...string) string {
	for i, l := range lines {
		_, state, header := strings.Cut(l, "[")
		header = header && strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":")
		if !header || !strings.HasPrefix(state, "sync.Mutex.Lock") && !strings.HasPrefix(state, "sync.RWMutex.") {
			continue
		}
		// Its frames run up to the next goroutine's header.
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "goroutine ") {
			end++
		}
		if where := frameIn(lines[i+1:end], copyDir, copyRel, learner...); where != "" {
			return where
		}
	}
	return ""
}

// shorten keeps the first n lines, and returns how many it left out. It
// leaves out none when one or two would go: the note that replaces them
// takes a line itself, and the last line is often the one that matters,
// such as the value the test got.
func shorten(lines []string, n int) (kept []string, hidden int) {
	if len(lines) <= n+2 {
		return lines, 0
	}
	return lines[:n:n], len(lines) - n
}

// moreLines is the note that stands for the lines shorten left out: how
// many, and the command that shows them.
func (p *printer) moreLines(hidden int, command string) string {
	if hidden == 1 {
		return p.sprint(msgMoreLine, command)
	}
	return p.sprint(msgMoreLines, hidden, command)
}
