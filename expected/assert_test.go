package expected

import (
	"errors"
	"fmt"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAssertionsThatHoldReportNothing(t *testing.T) {
	rec := &recordingT{TB: t}
	wrapped := fmt.Errorf("turn 1: %w", ErrGuard)
	assert.True(t, Equal(rec, 2, 2, "two"))
	assert.True(t, Equal(rec, []fakemodel.Role{"user"}, []fakemodel.Role{"user"}, "roles"))
	assert.True(t, Equal(rec, calculatorRun, calculatorRun, "a history"))
	assert.True(t, True(rec, true, "true"))
	assert.True(t, NoError(rec, nil, "no error"))
	assert.True(t, EqualError(rec, wrapped, "turn 1: the test's guard stopped the loop", "its text"))
	assert.True(t, ErrorIs(rec, wrapped, ErrGuard, "wraps"))
	assert.True(t, Contains(rec, "a long text", "long", "holds"))
	assert.Empty(t, rec.failures)
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingT{TB: t}
			assert.False(t, tt.assert(rec))
			assert.Equal(t, []string{tt.want}, rec.failures)
		})
	}
}

func TestAStructIsShownAsADiff(t *testing.T) {
	rec := &recordingT{TB: t}
	want := fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}
	got := want
	got.IsError = true
	assert.False(t, Equal(rec, want, got, "the result"))
	require.Len(t, rec.failures, 1)
	assert.Contains(t, rec.failures[0], "the result\n    -want +got:\n")
	assert.Contains(t, rec.failures[0], "- \tIsError:    false,\n    + \tIsError:    true,")
	assert.NotContains(t, rec.failures[0], "\u00a0", "plain spaces only")
}

func TestFindingsAsDataForCheck(t *testing.T) {
	t.Setenv(FindingsEnv, "1")
	rec := &recordingT{TB: t}
	Equal(rec, 2, 3, "2 turns")
	require.Len(t, rec.failures, 1)
	assert.Equal(t, `finding: {"message":"2 turns","want":"2","got":"3"}`, rec.failures[0])

	at, f, ok := ParseFinding("    main_test.go:42: " + rec.failures[0])
	require.True(t, ok)
	assert.Equal(t, "main_test.go:42", at)
	assert.Equal(t, Finding{Message: "2 turns", Want: "2", Got: "3"}, f)

	for _, line := range []string{
		"    main_test.go:42: 2 turns",
		"    main_test.go:42: finding: {not JSON",
		`    main_test.go:42: finding: {"want":"2"}`,
	} {
		_, _, ok := ParseFinding(line)
		assert.False(t, ok, line)
	}
}
