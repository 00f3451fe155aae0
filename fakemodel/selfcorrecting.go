package fakemodel

import (
	"encoding/json"
	"fmt"
)

// SelfCorrectingPrompt is the question that [SelfCorrecting] answers.
const SelfCorrectingPrompt = "What is 100 ÷ 4?"

// SelfCorrecting returns a model that makes a mistake and repairs it from the
// error it reads. In its first turn it asks calculate to divide 100 by 0. If
// the result is an error, it quotes the error and asks again with 4. Once a
// result succeeds, it answers "100 ÷ 4 = 25." (with the number the result
// holds). After a second error it gives up and says why.
func SelfCorrecting() Model {
	return fake{name: "self-correcting", decide: selfCorrecting}
}

func selfCorrecting(req Request) (AssistantMessage, error) {
	if !offers(req, "calculate") {
		return needs("calculate"), nil
	}
	divide := func(text string, by int) AssistantMessage {
		args := json.RawMessage(fmt.Sprintf(`{"op":"divide","a":100,"b":%d}`, by))
		return AssistantMessage{
			Text:      text,
			ToolCalls: []ToolCall{{ID: nextCallID(req.Messages, 0), Name: "calculate", Arguments: args}},
		}
	}
	last, results := lastResult(req.Messages)
	if results == 0 {
		return divide("I will use the calculator.", 0), nil
	}
	switch {
	case !last.IsError:
		return AssistantMessage{Text: fmt.Sprintf("100 ÷ 4 = %s.", last.Content)}, nil
	case results == 1:
		return divide(fmt.Sprintf("The calculator says %q. I meant to divide by 4.", last.Content), 4), nil
	default:
		return AssistantMessage{Text: fmt.Sprintf("The calculator keeps failing: %s", last.Content)}, nil
	}
}
