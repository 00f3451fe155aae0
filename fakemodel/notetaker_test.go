package fakemodel

import (
	"fmt"
	"slices"
	"testing"
)

func TestNoteTakerSendsOneBatchThenAnswers(t *testing.T) {
	history := []Message{UserMessage{Text: NoteTakerPrompt}}
	first := ask(t, NoteTaker(), nil, history...)
	if len(first.ToolCalls) != 4 {
		t.Fatalf("the first reply asks for %d calls, want 4", len(first.ToolCalls))
	}
	var names []string
	for i, c := range first.ToolCalls {
		if want := fmt.Sprintf("call_%d", i+1); c.ID != want {
			t.Errorf("call %d has the ID %q, want %q: the calls are numbered in order", i+1, c.ID, want)
		}
		names = append(names, c.Name)
	}
	if want := []string{"write", "read", "rm", "search"}; !slices.Equal(names, want) {
		t.Errorf("the calls are to %q, want %q", names, want)
	}
	wantJSON(t, "the write's arguments", first.ToolCalls[0].Arguments, `{"path":"todo.txt","text":"renew the API key sk-live-4242"}`)
	wantJSON(t, "the read's arguments (it reads what the write wrote)", first.ToolCalls[1].Arguments, `{"path":"todo.txt"}`)
	if first.StopReason != StopReasonToolUse {
		t.Errorf("the first reply's stop reason is %q, want %q", first.StopReason, StopReasonToolUse)
	}

	history = append(history, first)
	for _, c := range first.ToolCalls {
		history = append(history, ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: "whatever", IsError: true})
	}
	second := ask(t, NoteTaker(), nil, history...)
	if len(second.ToolCalls) != 0 {
		t.Errorf("the second reply asks for %+v, want no call: it answers, whatever the results said", second.ToolCalls)
	}
	if second.StopReason != StopReasonStop {
		t.Errorf("the second reply's stop reason is %q, want %q", second.StopReason, StopReasonStop)
	}
	if want := "The note is saved and reads back with the key hidden. Deleting it needs your approval, and I have no search tool."; second.Text != want {
		t.Errorf("the second reply says %q, want %q", second.Text, want)
	}
}
