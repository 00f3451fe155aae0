package chatcompletions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The body of a request, in the API's own names: the types below are the
// wire format, and nothing outside this package sees them.
type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Tools    []wireTool    `json:"tools,omitempty"`
	Stream   bool          `json:"stream"`
}

// A wireMessage is one message of the API's history. Content is a pointer
// because an assistant message that only calls tools has content null.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// A wireToolCall is a tool call in an assistant message of the history.
// Its arguments travel as a string that holds JSON, not as JSON.
type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// A wireTool describes a tool the model may call.
type wireTool struct {
	Type     string       `json:"type"`
	Function wireToolSpec `json:"function"`
}

type wireToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// errorPrefix starts the content of a tool result whose IsError is set: the
// API's tool messages have no field for it, so the text carries it.
const errorPrefix = "Error: "

// requestBody encodes the request for model as the API's JSON.
func requestBody(model string, req fakemodel.Request) ([]byte, error) {
	body := wireRequest{Model: model, Messages: wireMessages(req.Messages), Stream: true}
	for _, t := range req.Tools {
		if len(t.Parameters) > 0 && !json.Valid(t.Parameters) {
			return nil, fmt.Errorf("tool %q: its parameters (a JSON Schema) are not valid JSON", t.Name)
		}
		body.Tools = append(body.Tools, wireTool{
			Type:     "function",
			Function: wireToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters},
		})
	}
	return json.Marshal(body)
}

// wireMessages maps the history to the API's messages. It leaves out two
// kinds of assistant message, as Pi's providers do: a failed or cancelled
// reply (stop reason error or aborted), which is a note for the user and not
// something the model said, and a reply with neither text nor tool calls,
// which some servers reject.
//
// It also answers every tool call that has no result, as pi-ai 0.83.0's
// transformMessages does: a run cancelled while its tool calls were
// prepared leaves the later calls unanswered, and a server rejects a
// history in which a call has no result (HTTP 400). Each such call gets an
// error result, "No result provided", where the next user or assistant
// message begins, or at the end. The history itself is not changed.
func wireMessages(history []fakemodel.Message) []wireMessage {
	var out []wireMessage
	var unanswered []string // the calls of the last reply, without a result so far
	answer := func() {
		for _, id := range unanswered {
			content := errorPrefix + noResult
			out = append(out, wireMessage{Role: "tool", Content: &content, ToolCallID: id})
		}
		unanswered = nil
	}
	for _, m := range history {
		switch m := m.(type) {
		case fakemodel.UserMessage:
			answer()
			out = append(out, wireMessage{Role: "user", Content: &m.Text})
		case fakemodel.AssistantMessage:
			answer()
			if m.StopReason == fakemodel.StopReasonError || m.StopReason == fakemodel.StopReasonAborted {
				continue
			}
			w := wireMessage{Role: "assistant"}
			if strings.TrimSpace(m.Text) != "" {
				w.Content = &m.Text
			}
			for _, c := range m.ToolCalls {
				w.ToolCalls = append(w.ToolCalls, wireToolCall{
					ID:       c.ID,
					Type:     "function",
					Function: wireFunction{Name: c.Name, Arguments: wireArguments(c.Arguments)},
				})
				unanswered = append(unanswered, c.ID)
			}
			if w.Content == nil && len(w.ToolCalls) == 0 {
				continue
			}
			out = append(out, w)
		case fakemodel.ToolResultMessage:
			unanswered = slices.DeleteFunc(unanswered, func(id string) bool { return id == m.ToolCallID })
			content := m.Content
			if m.IsError {
				content = errorPrefix + content
			}
			out = append(out, wireMessage{Role: "tool", Content: &content, ToolCallID: m.ToolCallID})
		}
	}
	answer()
	return out
}

// noResult is the text of the error result that answers a tool call without
// a result, as pi-ai writes it.
const noResult = "No result provided"

// wireArguments returns the arguments of an earlier tool call as the API
// sends them back. Arguments that are not a JSON object, such as the
// invalid JSON a model wrote, go back as {}: some servers (Ollama is one)
// decode the arguments of every call in the history and reject the whole
// request if they cannot. The model still learns what it sent, from the
// error result that answers the call.
func wireArguments(args json.RawMessage) string {
	if trimmed := bytes.TrimSpace(args); len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		return string(args)
	}
	return "{}"
}
