package scenario

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parsed parses a scenario that the test knows to be valid.
func parsed(t *testing.T, data string) *Scenario {
	t.Helper()
	s, err := Parse("x.json", []byte(data))
	require.NoError(t, err)
	return s
}

// TestRunsArePromptsOrContinues: prompt and nextPrompts are runs that
// prompt; runs may continue, "" in Prompts, and may be none.
func TestRunsArePromptsOrContinues(t *testing.T) {
	assert.Equal(t, []string{"one", "two"}, parsed(t, `{"prompt": "one", "nextPrompts": ["two"]}`).Prompts())
	assert.Equal(t, []string{"", "two"}, parsed(t, `{"runs": [{"continue": true}, {"prompt": "two"}]}`).Prompts())
	assert.Equal(t, []string{}, parsed(t, `{"runs": []}`).Prompts())
}

// TestTheHistoryBecomesMessages: each message of the history becomes the
// fakemodel message of its role; a tool result takes its tool's name from
// the call it answers, and a reply its default stop reason.
func TestTheHistoryBecomesMessages(t *testing.T) {
	s := parsed(t, `{"runs": [{"continue": true}], "history": [
		{"role": "user", "text": "What is 5 + 3?"},
		{"role": "assistant", "text": "Let me calculate that.", "toolCalls": [{"id": "calc-1", "name": "calculate", "args": {"expression": "5 + 3"}}]},
		{"role": "toolResult", "toolCallId": "calc-1", "text": "5 + 3 = 8"},
		{"role": "assistant", "text": "8.", "stopReason": "length"}
	]}`)
	assert.Equal(t, []fakemodel.Message{
		fakemodel.UserMessage{Text: "What is 5 + 3?"},
		fakemodel.AssistantMessage{Text: "Let me calculate that.", StopReason: fakemodel.StopReasonToolUse,
			ToolCalls: []fakemodel.ToolCall{{ID: "calc-1", Name: "calculate", Arguments: json.RawMessage(`{"expression":"5 + 3"}`)}}},
		fakemodel.ToolResultMessage{ToolCallID: "calc-1", ToolName: "calculate", Content: "5 + 3 = 8"},
		fakemodel.AssistantMessage{Text: "8.", StopReason: fakemodel.StopReasonLength},
	}, s.Messages())
	assert.Equal(t, []string{
		"history: user: What is 5 + 3?",
		`history: assistant: Let me calculate that. [calls calc-1 calculate {"expression":"5 + 3"}]`,
		"history: result of calc-1: 5 + 3 = 8",
		"history: assistant: 8.",
	}, s.Setup())
}

// TestTheModelPlaysOneReplyPerRequest: the model plays its replies in the
// order of the requests, whatever each request holds; a request that is
// cancelled uses up its reply; a reply that does not stream sends no chunk.
func TestTheModelPlaysOneReplyPerRequest(t *testing.T) {
	s := parsed(t, `{"prompt": "hi", "replies": [{"text": "one"}, {"text": "two words", "stream": false}, {"text": "three"}, {"text": "four"}]}`)
	m := s.Model()
	var chunks []string
	req := fakemodel.Request{
		Messages: []fakemodel.Message{fakemodel.AssistantMessage{Text: "a reply in the history"}},
		OnText:   func(c string) { chunks = append(chunks, c) },
	}
	first, err := m.Reply(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "one", first.Text, "the first request plays the first reply, whatever it holds")
	second, err := m.Reply(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "two words", second.Text)
	assert.Equal(t, []string{"one"}, chunks, "a reply that does not stream sends no chunk")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.Reply(ctx, req)
	assert.ErrorIs(t, err, context.Canceled)
	fourth, err := m.Reply(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "four", fourth.Text, "the cancelled request used up the third")
	_, err = m.Reply(context.Background(), req)
	assert.EqualError(t, err, "scripted model: no reply left for request 5: the script holds 4")
}

// TestTheHooksAsData checks each hook the format gives as data: setArgs
// sets keys in a call's arguments, a multi-line object too; afterToolCall
// replaces fields of a tool's results; transformContext keeps the last
// messages and says so; prepareNextTurn swaps the model after its turn,
// once.
func TestTheHooksAsData(t *testing.T) {
	s := parsed(t, `{"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "echo", "args": {"value": "hello", "keep": true}}]}],
		"tools": {"echo": {"echoArgs": true}},
		"calls": {"a": {"setArgs": {
			"value": 123
		}}},
		"transformContext": {"keepLast": 2},
		"afterToolCall": {"echo": {"isError": true}},
		"prepareNextTurn": [{"afterTurn": 2, "replies": [{"text": "swapped"}]}]
	}`)
	h := s.Hooks()
	var said []string
	h.Say = func(text string) { said = append(said, text) }

	args, err := Args(json.RawMessage(`{"value": "hello", "keep": true}`))
	require.NoError(t, err)
	reason, blocked := h.Before("echo", "a", args)
	assert.False(t, blocked)
	assert.Empty(t, reason)
	result, _, err := s.FakeTools()[0].Run(context.Background(), nil, "a", args, func(string) {})
	require.NoError(t, err)
	assert.Equal(t, `{"keep":true,"value":123}`, result, "the tool gets the changed arguments")

	content, isError, terminate := h.After("echo")
	assert.Nil(t, content)
	assert.Equal(t, true, *isError)
	assert.Nil(t, terminate)

	messages := []fakemodel.Message{fakemodel.UserMessage{Text: "1"}, fakemodel.UserMessage{Text: "2"}, fakemodel.UserMessage{Text: "3"}}
	shown, err := h.Transform()(context.Background(), messages)
	require.NoError(t, err)
	assert.Equal(t, messages[1:], shown)
	shown, err = h.Transform()(context.Background(), messages[:1])
	require.NoError(t, err)
	assert.Equal(t, messages[:1], shown, "nothing to leave out")

	assert.Nil(t, h.NextModel(), "after turn 1")
	next := h.NextModel()
	require.NotNil(t, next, "after turn 2")
	reply, err := next.Reply(context.Background(), fakemodel.Request{})
	require.NoError(t, err)
	assert.Equal(t, "swapped", reply.Text)
	assert.Nil(t, h.NextModel(), "after turn 3")
	assert.Equal(t, []string{
		"(transformContext shows the model the last 2 of its 3 messages)",
		"(prepareNextTurn: another model, with 1 reply, answers the rest of this run)",
	}, said)
	assert.Nil(t, parsed(t, `{"prompt": "hi"}`).Hooks().Transform(), "no transform")
}
