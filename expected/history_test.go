package expected

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
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
	want := []string{
		`user "What is 23 × 17?"`,
		`assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse`,
		`toolResult: result of calculate(call_1) "391"`,
		`assistant "23 × 17 = 391.", stop reason stop`,
	}
	if diff := cmp.Diff(want, Transcript(calculatorRun)); diff != "" {
		t.Errorf("the transcript of the calculator's run (-want +got):\n%s", diff)
	}
	want = []string{
		`toolResult: error result of calculate(c) "division by zero"`,
		`assistant "", stop reason error, error "503"`,
	}
	if diff := cmp.Diff(want, Transcript([]fakemodel.Message{
		fakemodel.ToolResultMessage{ToolCallID: "c", ToolName: "calculate", Content: "division by zero", IsError: true},
		fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"},
	})); diff != "" {
		t.Errorf("the transcript of an error result and a failed request (-want +got):\n%s", diff)
	}
}

func TestAssertHistoryPrintsADiffOfTranscripts(t *testing.T) {
	rec := &recordingT{TB: t}
	wantHeld(t, AssertHistory(rec, calculatorRun, calculatorRun, "the same"))
	wantFindings(t, rec)

	withoutResult := []fakemodel.Message{calculatorRun[0], calculatorRun[1], calculatorRun[1]}
	wantFailed(t, AssertHistory(rec, calculatorRun, withoutResult, "each tool result reaches the history (%d)", 5))
	wantFindings(t, rec, `each tool result reaches the history (5)
    want: 4 messages
    got:  3 messages
    -want +got:
    @@ -1,4 +1,3 @@
     user "What is 23 × 17?"
     assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse
    -toolResult: result of calculate(call_1) "391"
    -assistant "23 × 17 = 391.", stop reason stop
    +assistant "I will use the calculator.", calls calculate(call_1) {"op":"multiply","a":23,"b":17}, stop reason toolUse`)
}

func TestAssertHistorySaysWhenTheCountIsRight(t *testing.T) {
	rec := &recordingT{TB: t}
	swapped := []fakemodel.Message{calculatorRun[0], calculatorRun[1], calculatorRun[3], calculatorRun[2]}
	wantFailed(t, AssertHistory(rec, calculatorRun, swapped, "the order of the messages"))
	wantFindingCount(t, rec, 1)
	wantContains(t, "the finding", rec.failures[0], "\n    want: 4 messages\n    got:  4 messages, not the same ones\n")
}

func TestAssertHistoryKeepsLongDiffsShort(t *testing.T) {
	rec := &recordingT{TB: t}
	long := make([]fakemodel.Message, 100)
	for i := range long {
		long[i] = fakemodel.UserMessage{Text: "again"}
	}
	AssertHistory(rec, calculatorRun, long, "a long history")
	wantFindingCount(t, rec, 1)
	if n := len(splitLines(rec.failures[0])); n > 25 {
		t.Errorf("the finding has %d lines, want at most 25", n)
	}
	wantContains(t, "the finding", rec.failures[0], "more lines of diff")
}

func TestJSONAsTextPrintsJSON(t *testing.T) {
	want := fakemodel.ToolSpec{Name: "calculate", Parameters: json.RawMessage(`{"type":"object"}`)}
	got := fakemodel.ToolSpec{Name: "calculate", Parameters: json.RawMessage(`{"type":"array"}`)}
	diff := cmp.Diff(want, got, JSONAsText)
	wantContains(t, "the diff", diff, `{"type":"object"}`)
	if strings.Contains(diff, "0x7b") {
		t.Errorf("the diff shows the JSON as bytes, want it as text; it is:\n%s", diff)
	}
	if diff := cmp.Diff(want, want, JSONAsText); diff != "" {
		t.Errorf("a value differs from itself:\n%s", diff)
	}
}
