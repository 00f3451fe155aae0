package expected

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// A Finding is what a test of a lab saw when a rule broke: what the test
// checks, in its own sentence, and what it wanted and got. The assertions of
// this package ([Equal], [NoError], [AssertHistory], …) report each failure
// as a Finding.
//
// Plain go test prints a Finding for a reader:
//
//	main_test.go:42: step 3: the loop ends with stop reason completed
//	    want: "completed"
//	    got:  "max_turns"
//
// go run ./labs check sets the environment variable [FindingsEnv]; the
// tests then write each Finding as one line of JSON after [FindingPrefix],
// which check reads from go test -json and prints in the learner's
// language. So check's report is built from what the tests record, never by
// rewording the text of a test library.
type Finding struct {
	// Message is what the test checks, in one sentence that names the rule:
	// "step 3: the loop ends with stop reason completed".
	Message string `json:"message"`
	// Want and Got are the values the test compared, written as Go writes
	// them, strings quoted so that a trailing space shows. Both are empty
	// when Diff holds the difference, or when the message says it all.
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	// Diff is a line diff of what was wanted and what came, "-" for want
	// and "+" for got, for values that take many lines.
	Diff []string `json:"diff,omitempty"`
	// Stuck, for a run whose goroutines all wait for good, says where each
	// waits, as "batch.go:206 in (*runState).execute.func1: chan send": the
	// file, relative to the lab's directory, with its line, the function,
	// and what it waits for. check makes a stuck run its headline, before
	// any rule, with these places in the learner's copy.
	Stuck []string `json:"stuck,omitempty"`
}

// FindingsEnv is the environment variable that asks the tests for Findings
// as data: go run ./labs check sets it to "1" for the go test it runs.
const FindingsEnv = "AGENT_LOOP_LAB_FINDINGS"

// FindingPrefix starts a test's line that holds a Finding as JSON, after the
// file and line go test puts before it: "main_test.go:42: finding: {…}".
const FindingPrefix = "finding: "

// ParseFinding reads a line of a test's output that holds a Finding, as go
// test -json reports it: "    main_test.go:42: finding: {…}". It returns
// where the test reported it ("main_test.go:42") and the Finding, and false
// if the line holds none.
func ParseFinding(line string) (at string, f Finding, ok bool) {
	before, data, found := strings.Cut(line, ": "+FindingPrefix)
	if !found {
		return "", Finding{}, false
	}
	if err := json.Unmarshal([]byte(data), &f); err != nil || f.Message == "" {
		return "", Finding{}, false
	}
	return strings.TrimSpace(before), f, true
}

// Report fails t with the finding: as a line of JSON when go run ./labs
// check asks for data (FindingsEnv), as text for a reader otherwise. The
// test goes on; the assertions that report it return false, so that a test
// can stop with return.
func Report(t testing.TB, f Finding) {
	t.Helper()
	if os.Getenv(FindingsEnv) == "1" {
		data, err := json.Marshal(f)
		if err == nil {
			t.Error(FindingPrefix + string(data))
			return
		}
	}
	t.Error(f.String())
}

// String writes the finding as plain go test prints it: the message, then
// want and got, or the diff, indented.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Message)
	if f.Want != "" || f.Got != "" {
		fmt.Fprintf(&b, "\n    want: %s\n    got:  %s", f.Want, f.Got)
	}
	if len(f.Diff) > 0 {
		b.WriteString("\n    -want +got:")
		for _, l := range f.Diff {
			b.WriteString("\n    " + l)
		}
	}
	return b.String()
}
