package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// parsed parses a scenario that the test knows to be valid.
func parsed(t *testing.T, data string) *Scenario {
	t.Helper()
	s, err := Parse("x.json", []byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// TestRunsArePromptsOrContinues: prompt and nextPrompts are runs that
// prompt; runs may continue, "" in Prompts, and may be none.
func TestRunsArePromptsOrContinues(t *testing.T) {
	for _, tt := range []struct {
		scenario string
		want     []string
	}{
		{`{"prompt": "one", "nextPrompts": ["two"]}`, []string{"one", "two"}},
		{`{"runs": [{"continue": true}, {"prompt": "two"}]}`, []string{"", "two"}},
		{`{"runs": []}`, []string{}},
	} {
		if diff := cmp.Diff(tt.want, parsed(t, tt.scenario).Prompts()); diff != "" {
			t.Errorf("the prompts of %s (-want +got):\n%s", tt.scenario, diff)
		}
	}
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
	messages := []fakemodel.Message{
		fakemodel.UserMessage{Text: "What is 5 + 3?"},
		fakemodel.AssistantMessage{Text: "Let me calculate that.", StopReason: fakemodel.StopReasonToolUse,
			ToolCalls: []fakemodel.ToolCall{{ID: "calc-1", Name: "calculate", Arguments: json.RawMessage(`{"expression":"5 + 3"}`)}}},
		fakemodel.ToolResultMessage{ToolCallID: "calc-1", ToolName: "calculate", Content: "5 + 3 = 8"},
		fakemodel.AssistantMessage{Text: "8.", StopReason: fakemodel.StopReasonLength},
	}
	if diff := cmp.Diff(messages, s.Messages()); diff != "" {
		t.Errorf("Messages() (-want +got):\n%s", diff)
	}
	setup := []string{
		"history: user: What is 5 + 3?",
		`history: assistant: Let me calculate that. [calls calc-1 calculate {"expression":"5 + 3"}]`,
		"history: result of calc-1: 5 + 3 = 8",
		"history: assistant: 8.",
	}
	if diff := cmp.Diff(setup, s.Setup()); diff != "" {
		t.Errorf("Setup() (-want +got):\n%s", diff)
	}
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
	if err != nil {
		t.Fatalf("the first request: %v", err)
	}
	if first.Text != "one" {
		t.Errorf("the first request got %q, want %q: the first request plays the first reply, whatever it holds", first.Text, "one")
	}
	second, err := m.Reply(context.Background(), req)
	if err != nil {
		t.Fatalf("the second request: %v", err)
	}
	if second.Text != "two words" {
		t.Errorf("the second request got %q, want %q", second.Text, "two words")
	}
	if want := []string{"one"}; !slices.Equal(chunks, want) {
		t.Errorf("the chunks are %q, want %q: a reply that does not stream sends no chunk", chunks, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Reply(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("the third request, cancelled: error %v, want context.Canceled", err)
	}
	fourth, err := m.Reply(context.Background(), req)
	if err != nil {
		t.Fatalf("the fourth request: %v", err)
	}
	if fourth.Text != "four" {
		t.Errorf("the fourth request got %q, want %q: the cancelled request used up the third", fourth.Text, "four")
	}
	_, err = m.Reply(context.Background(), req)
	wantError(t, "the fifth request", err, "scripted model: no reply left for request 5: the script holds 4")
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
	if err != nil {
		t.Fatal(err)
	}
	reason, blocked := h.Before("echo", "a", args)
	if blocked {
		t.Errorf("Before blocks call a, want it to run")
	}
	if reason != "" {
		t.Errorf("Before gives the reason %q, want none", reason)
	}
	result, _, err := s.FakeTools()[0].Run(context.Background(), nil, "a", args, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"keep":true,"value":123}`; result != want {
		t.Errorf("echo returned %s, want %s: the tool gets the changed arguments", result, want)
	}

	content, isError, terminate := h.After("echo")
	if content != nil {
		t.Errorf("After replaces the content with %q, want the tool's", *content)
	}
	switch {
	case isError == nil:
		t.Errorf("After keeps the tool's isError, want it replaced with true")
	case !*isError:
		t.Errorf("After replaces isError with false, want true")
	}
	if terminate != nil {
		t.Errorf("After replaces terminate with %v, want the tool's", *terminate)
	}

	messages := []fakemodel.Message{fakemodel.UserMessage{Text: "1"}, fakemodel.UserMessage{Text: "2"}, fakemodel.UserMessage{Text: "3"}}
	shown, err := h.Transform()(context.Background(), messages)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(messages[1:], shown); diff != "" {
		t.Errorf("the transform of 3 messages (-want +got):\n%s", diff)
	}
	shown, err = h.Transform()(context.Background(), messages[:1])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(messages[:1], shown); diff != "" {
		t.Errorf("the transform of 1 message, with nothing to leave out (-want +got):\n%s", diff)
	}

	if h.NextModel() != nil {
		t.Errorf("after turn 1, NextModel swaps the model, want it kept")
	}
	next := h.NextModel()
	if next == nil {
		t.Fatalf("after turn 2, NextModel keeps the model, want another")
	}
	reply, err := next.Reply(context.Background(), fakemodel.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "swapped" {
		t.Errorf("the new model says %q, want %q", reply.Text, "swapped")
	}
	if h.NextModel() != nil {
		t.Errorf("after turn 3, NextModel swaps the model, want it kept")
	}
	if want := []string{
		"(transformContext shows the model the last 2 of its 3 messages)",
		"(prepareNextTurn: another model, with 1 reply, answers the rest of this run)",
	}; !slices.Equal(said, want) {
		t.Errorf("the hooks said %q, want %q", said, want)
	}
	if parsed(t, `{"prompt": "hi"}`).Hooks().Transform() != nil {
		t.Errorf("a scenario without transformContext has a transform, want none")
	}
}

// TestASwapToAModelWithNoReply: "replies": [] is a model with no reply,
// whose first request fails.
func TestASwapToAModelWithNoReply(t *testing.T) {
	h := parsed(t, `{"prompt": "hi", "prepareNextTurn": [{"afterTurn": 1, "replies": []}]}`).Hooks()
	next := h.NextModel()
	if next == nil {
		t.Fatalf("after turn 1, NextModel keeps the model, want another")
	}
	if _, err := next.Reply(context.Background(), fakemodel.Request{}); err == nil || !strings.Contains(err.Error(), "no reply left for request 1") {
		t.Errorf("the first request of a model with no reply: error %v, want one that says no reply is left", err)
	}
}
