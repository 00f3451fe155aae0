package main

import (
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// notesPrompt is the prompt of part 2.
const notesPrompt = "Save a reminder to renew the API key sk-live-4242, and read it back."

// notesModel is a scripted model that sends one batch through every edge of
// the pipeline: a sequential write, a read that must see it, a call that
// BeforeToolCall blocks, and a call to a tool that does not exist.
var notesModel = fakemodel.Scripted(
	fakemodel.AssistantMessage{
		Text: "I will save the note, read it back, tidy up and look for more.",
		ToolCalls: []fakemodel.ToolCall{
			{ID: "call_1", Name: "write", Arguments: json.RawMessage(`{"path":"todo.txt","text":"renew the API key sk-live-4242"}`)},
			{ID: "call_2", Name: "read", Arguments: json.RawMessage(`{"path":"todo.txt"}`)},
			{ID: "call_3", Name: "rm", Arguments: json.RawMessage(`{"path":"todo.txt"}`)},
			{ID: "call_4", Name: "search", Arguments: json.RawMessage(`{"query":"API key"}`)},
		},
	},
	fakemodel.AssistantMessage{Text: "The note is saved and reads back with the key hidden. Deleting it needs your approval, and I have no search tool."},
)
