package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Researcher returns a model that behaves like a chat assistant with one tool,
// named tool. For the first request it asks for that tool with the first user
// message as its query. For every later request it answers in text: it quotes
// each user message that arrived since its last reply ("Noted: ..."), then
// each tool result that arrived since then ("The search found: ..."). So its
// replies show exactly which turn saw which message: a steering message typed
// during a tool call, a follow-up, or two messages delivered together.
func Researcher(tool string) Model {
	return fake{name: "researcher", decide: func(req Request) (AssistantMessage, error) {
		return researcher(req, tool)
	}}
}

func researcher(req Request, tool string) (AssistantMessage, error) {
	if !offers(req, tool) {
		return needs(tool), nil
	}
	lastReply := -1
	for i, m := range req.Messages {
		if m.Role() == RoleAssistant {
			lastReply = i
		}
	}
	if lastReply < 0 {
		var query string
		for _, m := range req.Messages {
			if u, ok := m.(UserMessage); ok {
				query = u.Text
				break
			}
		}
		args, err := json.Marshal(map[string]string{"query": query})
		if err != nil {
			return AssistantMessage{}, err
		}
		return AssistantMessage{
			Text:      fmt.Sprintf("I will %s for that.", tool),
			ToolCalls: []ToolCall{{ID: nextCallID(req.Messages, 0), Name: tool, Arguments: args}},
		}, nil
	}
	var said, found []string
	for _, m := range req.Messages[lastReply+1:] {
		switch m := m.(type) {
		case UserMessage:
			said = append(said, fmt.Sprintf("%q", m.Text))
		case ToolResultMessage:
			found = append(found, m.Content)
		}
	}
	var text []string
	if len(said) > 0 {
		text = append(text, "Noted: "+strings.Join(said, " and "))
	}
	if len(found) > 0 {
		text = append(text, fmt.Sprintf("The %s found: %s.", tool, strings.Join(found, "; ")))
	}
	if len(text) == 0 {
		text = append(text, "I have nothing new to add.")
	}
	return AssistantMessage{Text: strings.Join(text, " ")}, nil
}
