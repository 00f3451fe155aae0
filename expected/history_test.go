package expected

import (
	"encoding/json"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var calculatorRun = []fakemodel.Message{
	fakemodel.UserMessage{Text: "What is 23 × 17?"},
	fakemodel.AssistantMessage{
		Text:       "I will use the calculator.",
		ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)}},
		StopReason: fakemodel.StopReasonToolUse,
	},
	fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"},
	fakemodel.AssistantMessage{Text: "23 × 17 = 391.", StopReason: fakemodel.StopReasonStop},
}

func TestTranscriptShowsJSONAsJSON(t *testing.T) {
	assert.Equal(t, []string{
		`user "What is 23 × 17?"`,
		`assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse`,
		`toolResult: result of calculate(call_1) "391"`,
		`assistant "23 × 17 = 391.", stop reason stop`,
	}, Transcript(calculatorRun))
	assert.Equal(t, []string{
		`toolResult: error result of calculate(c) "division by zero"`,
		`assistant "", stop reason error, error "503"`,
	}, Transcript([]fakemodel.Message{
		fakemodel.ToolResultMessage{ToolCallID: "c", ToolName: "calculate", Content: "division by zero", IsError: true},
		fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"},
	}))
}

func TestAssertHistoryPrintsADiffOfTranscripts(t *testing.T) {
	rec := &recordingT{TB: t}
	assert.True(t, AssertHistory(rec, calculatorRun, calculatorRun, "the same"))
	assert.Empty(t, rec.failures)

	withoutResult := []fakemodel.Message{calculatorRun[0], calculatorRun[1], calculatorRun[1]}
	assert.False(t, AssertHistory(rec, calculatorRun, withoutResult, "each tool result reaches the history (%d)", 5))
	assert.Equal(t, []string{`each tool result reaches the history (5)
    want: 4 messages
    got:  3 messages
    -want +got:
    @@ -1,4 +1,3 @@
     user "What is 23 × 17?"
     assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse
    -toolResult: result of calculate(call_1) "391"
    -assistant "23 × 17 = 391.", stop reason stop
    +assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse`}, rec.failures)
}

func TestAssertHistorySaysWhenTheCountIsRight(t *testing.T) {
	rec := &recordingT{TB: t}
	swapped := []fakemodel.Message{calculatorRun[0], calculatorRun[1], calculatorRun[3], calculatorRun[2]}
	assert.False(t, AssertHistory(rec, calculatorRun, swapped, "the order of the messages"))
	require.Len(t, rec.failures, 1)
	assert.Contains(t, rec.failures[0], "\n    want: 4 messages\n    got:  4 messages, not the same ones\n")
}

func TestAssertHistoryKeepsLongDiffsShort(t *testing.T) {
	rec := &recordingT{TB: t}
	long := make([]fakemodel.Message, 100)
	for i := range long {
		long[i] = fakemodel.UserMessage{Text: "again"}
	}
	AssertHistory(rec, calculatorRun, long, "a long history")
	if assert.Len(t, rec.failures, 1) {
		assert.LessOrEqual(t, len(splitLines(rec.failures[0])), 25)
		assert.Contains(t, rec.failures[0], "more lines of diff")
	}
}

func TestJSONAsTextPrintsJSON(t *testing.T) {
	want := fakemodel.ToolSpec{Name: "calculate", Parameters: json.RawMessage(`{"type":"object"}`)}
	got := fakemodel.ToolSpec{Name: "calculate", Parameters: json.RawMessage(`{"type":"array"}`)}
	diff := cmp.Diff(want, got, JSONAsText)
	assert.Contains(t, diff, `{"type":"object"}`)
	assert.NotContains(t, diff, "0x7b", "no bytes")
	assert.Empty(t, cmp.Diff(want, want, JSONAsText))
}
