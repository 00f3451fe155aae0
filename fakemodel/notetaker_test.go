package fakemodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNoteTakerSendsOneBatchThenAnswers(t *testing.T) {
	history := []Message{UserMessage{Text: NoteTakerPrompt}}
	first := ask(t, NoteTaker(), nil, history...)
	require.Len(t, first.ToolCalls, 4)
	var names []string
	for i, c := range first.ToolCalls {
		assert.Equal(t, fmt.Sprintf("call_%d", i+1), c.ID, "the calls are numbered in order")
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"write", "read", "rm", "search"}, names)
	assert.JSONEq(t, `{"path":"todo.txt","text":"renew the API key sk-live-4242"}`, string(first.ToolCalls[0].Arguments))
	assert.JSONEq(t, `{"path":"todo.txt"}`, string(first.ToolCalls[1].Arguments), "the read reads what the write wrote")
	assert.Equal(t, StopReasonToolUse, first.StopReason)

	history = append(history, first)
	for _, c := range first.ToolCalls {
		history = append(history, ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: "whatever", IsError: true})
	}
	second := ask(t, NoteTaker(), nil, history...)
	assert.Empty(t, second.ToolCalls, "the second reply answers, whatever the results said")
	assert.Equal(t, StopReasonStop, second.StopReason)
	assert.Equal(t, "The note is saved and reads back with the key hidden. Deleting it needs your approval, and I have no search tool.", second.Text)
}
