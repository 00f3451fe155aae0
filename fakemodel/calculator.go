package fakemodel

import (
	"encoding/json"
	"fmt"
)

// CalculatorPrompt is the question that [Calculator] and [Stubborn] answer.
const CalculatorPrompt = "What is 23 × 17?"

// multiply23by17 is the call both calculator models make.
var multiply23by17 = json.RawMessage(`{"op":"multiply","a":23,"b":17}`)

// Calculator returns a model that answers [CalculatorPrompt] with the help of
// a tool named "calculate". While the history holds no tool result, it asks
// for calculate with op multiply, 23 and 17. Once it sees a result, it
// answers "23 × 17 = 391." (with whatever number the result holds). If the
// result is an error, it says so instead. Without a calculate tool in the
// request, it says that it cannot answer.
func Calculator() Model {
	return fake{name: "calculator", decide: calculator}
}

func calculator(req Request) (AssistantMessage, error) {
	if !offers(req, "calculate") {
		return needs("calculate"), nil
	}
	last, results := lastResult(req.Messages)
	if results == 0 {
		return AssistantMessage{
			Text:      "I will use the calculator.",
			ToolCalls: []ToolCall{{ID: nextCallID(req.Messages, 0), Name: "calculate", Arguments: multiply23by17}},
		}, nil
	}
	if last.IsError {
		return AssistantMessage{Text: fmt.Sprintf("The calculator failed: %s", last.Content)}, nil
	}
	return AssistantMessage{Text: fmt.Sprintf("23 × 17 = %s.", last.Content)}, nil
}

// Stubborn returns a broken model: it asks for calculate with 23 and 17, and
// after every result it asks to check once more. It never gives a final
// answer, so only a turn limit stops a loop that talks to it.
func Stubborn() Model {
	return fake{name: "stubborn", decide: stubborn}
}

func stubborn(req Request) (AssistantMessage, error) {
	if !offers(req, "calculate") {
		return needs("calculate"), nil
	}
	text := "I will use the calculator."
	if _, checks := lastResult(req.Messages); checks > 0 {
		text = fmt.Sprintf("Let me check 23 × 17 once more (check %d).", checks+1)
	}
	return AssistantMessage{
		Text:      text,
		ToolCalls: []ToolCall{{ID: nextCallID(req.Messages, 0), Name: "calculate", Arguments: multiply23by17}},
	}, nil
}
