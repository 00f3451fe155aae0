package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ForecasterPrompt is the question that [Forecaster] answers.
const ForecasterPrompt = "What is the weather in Oslo, Lima and Cairo?"

// ForecasterCities are the cities [Forecaster] asks about, in the order of
// its tool calls.
var ForecasterCities = []string{"Oslo", "Lima", "Cairo"}

// Forecaster returns a model that asks for three independent lookups in one
// reply: a call to the tool "weather" for each of [ForecasterCities], in that
// order. When the history holds their results, it answers by quoting them in
// the order they appear in the history, so its answer shows the order the
// loop handed them over in.
func Forecaster() Model {
	return fake{name: "forecaster", decide: forecaster}
}

func forecaster(req Request) (AssistantMessage, error) {
	if !offers(req, "weather") {
		return needs("weather"), nil
	}
	results := toolResults(req.Messages)
	if len(results) == 0 {
		calls := make([]ToolCall, len(ForecasterCities))
		for i, city := range ForecasterCities {
			args, err := json.Marshal(map[string]string{"city": city})
			if err != nil {
				return AssistantMessage{}, err
			}
			calls[i] = ToolCall{ID: nextCallID(req.Messages, i), Name: "weather", Arguments: args}
		}
		return AssistantMessage{Text: "I will look up all three at once.", ToolCalls: calls}, nil
	}
	parts := make([]string, len(results))
	for i, r := range results {
		parts[i] = r.Content
		if r.IsError {
			parts[i] = fmt.Sprintf("%s failed (%s)", r.ToolCallID, r.Content)
		}
	}
	return AssistantMessage{Text: "Here is what I found: " + strings.Join(parts, "; ") + "."}, nil
}
