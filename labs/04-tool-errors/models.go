package main

import (
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// badCallsPrompt is the prompt of part 2. The scripted model ignores it.
const badCallsPrompt = "Try the tools."

// badCalls is a scripted model that asks, in one reply, for one call that
// works and for every kind of call that fails: an unknown tool, arguments
// that are not JSON, of the wrong type, with a field missing or one too many,
// out of range, and a tool that panics. Then it answers.
var badCalls = fakemodel.Scripted(
	fakemodel.AssistantMessage{
		Text: "I will try several calls at once.",
		ToolCalls: []fakemodel.ToolCall{
			{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":2,"b":3}`)},
			{ID: "call_2", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
			{ID: "call_3", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":2,`)},
			{ID: "call_4", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":"2","b":3}`)},
			{ID: "call_5", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":2}`)},
			{ID: "call_6", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":2,"b":3,"c":4}`)},
			{ID: "call_7", Name: "calculate", Arguments: json.RawMessage(`{"op":"power","a":2,"b":3}`)},
			{ID: "call_8", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":1e20,"b":3}`)},
			{ID: "call_9", Name: "average", Arguments: json.RawMessage(`{"numbers":[]}`)},
		},
	},
	fakemodel.AssistantMessage{Text: "Only the first call worked. The error results tell me what to fix in the others."},
)

// failingModel is a scripted model whose second request fails, as a real
// provider's does when it is overloaded.
var failingModel = fakemodel.Scripted(
	fakemodel.AssistantMessage{
		Text:      "I will use the calculator.",
		ToolCalls: []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)}},
	},
	fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable: the model is overloaded"},
)
