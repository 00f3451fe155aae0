package fakemodel

import "encoding/json"

// NoteTakerPrompt is the prompt of [NoteTaker]; like any [Scripted] model,
// it plays its replies whatever the prompt says.
const NoteTakerPrompt = "Save a reminder to renew the API key sk-live-4242, and read it back."

// NoteTaker returns a scripted model (see [Scripted]) that sends one batch
// of tool calls through every edge of a loop's pipeline: a write of a note
// that holds an API key, a read of that note, which must see what the write
// wrote, a call to rm, which an application may want to block, and a call to
// search, a tool it is not offered. Then it answers, whatever the results
// said. Lab 05 runs it with the notebook of fakemodel/services.
func NoteTaker() Model {
	return Scripted(
		AssistantMessage{
			Text: "I will save the note, read it back, tidy up and look for more.",
			ToolCalls: []ToolCall{
				{ID: "call_1", Name: "write", Arguments: json.RawMessage(`{"path":"todo.txt","text":"renew the API key sk-live-4242"}`)},
				{ID: "call_2", Name: "read", Arguments: json.RawMessage(`{"path":"todo.txt"}`)},
				{ID: "call_3", Name: "rm", Arguments: json.RawMessage(`{"path":"todo.txt"}`)},
				{ID: "call_4", Name: "search", Arguments: json.RawMessage(`{"query":"API key"}`)},
			},
		},
		AssistantMessage{Text: "The note is saved and reads back with the key hidden. Deleting it needs your approval, and I have no search tool."},
	)
}
