package expected

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
)

func TestAssertionsThatHoldReportNothing(t *testing.T) {
	rec := &recordingT{TB: t}
	wrapped := fmt.Errorf("turn 1: %w", ErrGuard)
	wantHeld(t, Equal(rec, 2, 2, "two"))
	wantHeld(t, Equal(rec, []fakemodel.Role{"user"}, []fakemodel.Role{"user"}, "roles"))
	wantHeld(t, Equal(rec, calculatorRun, calculatorRun, "a history"))
	wantHeld(t, True(rec, true, "true"))
	wantHeld(t, NoError(rec, nil, "no error"))
	wantHeld(t, EqualError(rec, wrapped, "turn 1: the test's guard stopped the loop", "its text"))
	wantHeld(t, ErrorIs(rec, wrapped, ErrGuard, "wraps"))
	wantHeld(t, Contains(rec, "a long text", "long", "holds"))
	wantHeld(t, Empty(rec, []string(nil), "nothing"))
	wantHeld(t, NotEmpty(rec, []int{1}, "something"))
	wantHeld(t, Includes(rec, []string{"a", "b"}, "b", "holds b"))
	wantHeld(t, EqualLines(rec, []string{"a", "b"}, []string{"a", "b"}, "lines"))
	wantFindings(t, rec)
}

func TestAFindingSaysWhatWasWantedAndWhatCame(t *testing.T) {
	tests := []struct {
		name   string
		assert func(t testing.TB) bool
		want   string
	}{
		{"numbers", func(t testing.TB) bool { return Equal(t, 2, 3, "step %d: 2 turns", 3) },
			"step 3: 2 turns\n    want: 2\n    got:  3"},
		{"texts, quoted so that a trailing space shows", func(t testing.TB) bool { return Equal(t, "Hello.", "Hello. ", "the answer") },
			"the answer\n    want: \"Hello.\"\n    got:  \"Hello. \""},
		{"a named string type", func(t testing.TB) bool {
			return Equal(t, fakemodel.StopReasonStop, fakemodel.StopReasonToolUse, "the stop reason")
		}, "the stop reason\n    want: \"stop\"\n    got:  \"toolUse\""},
		{"a list of texts", func(t testing.TB) bool {
			return Equal(t, []fakemodel.Role{"user", "assistant"}, []fakemodel.Role{"user"}, "who wrote each message")
		}, "who wrote each message\n    want: [\"user\", \"assistant\"]\n    got:  [\"user\"]"},
		{"an empty list", func(t testing.TB) bool { return Equal(t, []string{"a"}, nil, "the calls") },
			"the calls\n    want: [\"a\"]\n    got:  nil"},
		{"a condition", func(t testing.TB) bool { return True(t, false, "the batch ran in parallel") },
			"the batch ran in parallel"},
		{"an error", func(t testing.TB) bool { return NoError(t, errors.New("boom"), "the run ends without an error") },
			"the run ends without an error\n    want: no error\n    got:  error \"boom\""},
		{"an error's text", func(t testing.TB) bool { return EqualError(t, errors.New("boom"), "turn 1: boom", "wrapped") },
			"wrapped\n    want: error \"turn 1: boom\"\n    got:  error \"boom\""},
		{"no error where one is wanted", func(t testing.TB) bool { return EqualError(t, nil, "turn 1: boom", "wrapped") },
			"wrapped\n    want: error \"turn 1: boom\"\n    got:  no error"},
		{"an error that does not wrap", func(t testing.TB) bool { return ErrorIs(t, errors.New("boom"), ErrGuard, "wraps") },
			"wraps\n    want: an error that wraps \"the test's guard stopped the loop\"\n    got:  error \"boom\""},
		{"a missing part", func(t testing.TB) bool { return Contains(t, "abc", "x", "holds x") },
			"holds x\n    want: a text that holds \"x\"\n    got:  \"abc\""},
		{"a list that should be empty", func(t testing.TB) bool { return Empty(t, []string{"event 3"}, "no event from another goroutine") },
			"no event from another goroutine\n    want: none\n    got:  [\"event 3\"]"},
		{"a list that should not be", func(t testing.TB) bool { return NotEmpty(t, []fakemodel.Request(nil), "askOnce asks the model") },
			"askOnce asks the model\n    want: at least one\n    got:  none"},
		{"an item not in a list", func(t testing.TB) bool { return Includes(t, []string{"a", "b"}, "c", "the trace holds c") },
			"the trace holds c\n    want: a list that includes \"c\"\n    got:  [\"a\", \"b\"]"},
		{"lines", func(t testing.TB) bool {
			return EqualLines(t, []string{"turn_start", "turn_end", "agent_end"}, []string{"turn_start", "agent_end"}, "the order of events")
		}, "the order of events\n    want: 3 lines\n    got:  2 lines\n    -want +got:\n    @@ -1,3 +1,2 @@\n     turn_start\n    -turn_end\n     agent_end"},
		{"lines in another order", func(t testing.TB) bool { return EqualLines(t, []string{"a", "b"}, []string{"b", "a"}, "the order") },
			"the order\n    want: 2 lines\n    got:  2 lines, not the same ones\n    -want +got:\n    @@ -1,2 +1,2 @@\n    -a\n     b\n    +a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingT{TB: t}
			wantFailed(t, tt.assert(rec))
			wantFindings(t, rec, tt.want)
		})
	}
}

func TestAStructIsShownAsADiff(t *testing.T) {
	rec := &recordingT{TB: t}
	want := fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}
	got := want
	got.IsError = true
	wantFailed(t, Equal(rec, want, got, "the result"))
	wantFindingCount(t, rec, 1)
	wantContains(t, "the finding", rec.failures[0], "the result\n    -want +got:\n")
	wantContains(t, "the finding", rec.failures[0], "- \tIsError:    false,\n    + \tIsError:    true,")
	if strings.Contains(rec.failures[0], "\u00a0") {
		t.Errorf("the finding holds a non-breaking space, want plain spaces only; it is:\n%s", rec.failures[0])
	}
}

func TestAListOfStructsThatShouldBeEmptyIsShownAsADiff(t *testing.T) {
	rec := &recordingT{TB: t}
	wantFailed(t, Empty(rec, []fakemodel.ToolCall{{ID: "call_1"}}, "no call"))
	wantFindingCount(t, rec, 1)
	wantContains(t, "the finding", rec.failures[0], "no call\n    want: none\n    got:  1 item\n    -want +got:\n")
	wantContains(t, "the finding", rec.failures[0], `ID: "call_1"`)
}

// TestEqualLinesKeepsALongRunShort compares a few lines with the thousands a
// loop that never ends may produce: the diff stops after diffLines lines,
// and its work stops with it.
func TestEqualLinesKeepsALongRunShort(t *testing.T) {
	rec := &recordingT{TB: t}
	long := make([]string, 100_000)
	for i := range long {
		long[i] = "turn_start"
	}
	wantFailed(t, EqualLines(rec, []string{"turn_start", "agent_end"}, long, "the run ends"))
	wantFindingCount(t, rec, 1)
	wantContains(t, "the finding", rec.failures[0], "the run ends\n    want: 2 lines\n    got:  100000 lines\n")
	wantContains(t, "the finding", rec.failures[0], "more lines of diff")
	if n := len(splitLines(rec.failures[0])); n > 25 {
		t.Errorf("the finding has %d lines, want at most 25", n)
	}
}

func TestFindingsAsDataForCheck(t *testing.T) {
	t.Setenv(FindingsEnv, "1")
	rec := &recordingT{TB: t}
	Equal(rec, 2, 3, "2 turns")
	wantFindingCount(t, rec, 1)
	if want := `finding: {"message":"2 turns","want":"2","got":"3"}`; rec.failures[0] != want {
		t.Errorf("the finding is %q, want %q", rec.failures[0], want)
	}

	at, f, ok := ParseFinding("    main_test.go:42: " + rec.failures[0])
	if !ok {
		t.Fatalf("ParseFinding of the finding: not a finding, want one")
	}
	if at != "main_test.go:42" {
		t.Errorf("ParseFinding's place is %q, want %q", at, "main_test.go:42")
	}
	if diff := cmp.Diff(Finding{Message: "2 turns", Want: "2", Got: "3"}, f); diff != "" {
		t.Errorf("ParseFinding's finding (-want +got):\n%s", diff)
	}

	for _, line := range []string{
		"    main_test.go:42: 2 turns",
		"    main_test.go:42: finding: {not JSON",
		`    main_test.go:42: finding: {"want":"2"}`,
	} {
		if _, _, ok := ParseFinding(line); ok {
			t.Errorf("ParseFinding(%q) found a finding, want none", line)
		}
	}
}

// TestNotContains checks that NotContains reports nothing for a text
// without the part, and that its Finding shows the text that holds it.
func TestNotContains(t *testing.T) {
	rec := &recordingT{TB: t}
	if !NotContains(rec, "turn 1", "turn 2", "one turn") || len(rec.failures) != 0 {
		t.Errorf("NotContains of a part the text does not hold reported %q", rec.failures)
	}
	if NotContains(rec, "turn 1\nturn 2\n", "turn 2", "the limit of %d turn holds", 1) {
		t.Error("NotContains of a part the text holds reported that it held")
	}
	want := "the limit of 1 turn holds\n    want: a text without \"turn 2\"\n    got:  \"turn 1\\nturn 2\\n\""
	if len(rec.failures) != 1 || rec.failures[0] != want {
		t.Errorf("NotContains reported %q, want %q", rec.failures, want)
	}
}
