package fakemodel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatTools are the tools lab 06's -chat offers.
var chatTools = []ToolSpec{{Name: "calculate"}, {Name: "weather"}, {Name: "write"}, {Name: "read"}, {Name: "rm"}}

// converse runs a loop with the assistant: each call gets the result
// results gives it, until the assistant answers. It returns the history and
// the calls, as "name args", in order.
func converse(t *testing.T, history []Message, results func(ToolCall) ToolResultMessage) ([]Message, []string) {
	t.Helper()
	var calls []string
	for range 10 {
		reply := ask(t, Assistant(), chatTools, history...)
		history = append(history, reply)
		if len(reply.ToolCalls) == 0 {
			return history, calls
		}
		for _, c := range reply.ToolCalls {
			calls = append(calls, c.Name+" "+string(c.Arguments))
			history = append(history, results(c))
		}
	}
	t.Fatalf("no answer after 10 turns: %v", calls)
	return nil, nil
}

// services answers calls as the fake world of fakemodel/services does.
func services(c ToolCall) ToolResultMessage {
	r := ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name}
	switch c.Name + " " + string(c.Arguments) {
	case `calculate {"a":2,"b":3,"op":"add"}`:
		r.Content = "5"
	case `calculate {"a":1,"b":0,"op":"divide"}`:
		r.Content, r.IsError = "division by zero", true
	case `weather {"city":"Oslo"}`:
		r.Content = "Oslo 4 °C, light rain"
	case `weather {"city":"Lima"}`:
		r.Content = "Lima 19 °C, overcast"
	case `weather {"city":"Paris"}`:
		r.Content, r.IsError = "no weather station in Paris", true
	default:
		r.Content = "ok"
	}
	return r
}

func TestAssistantUsesItsToolsForSimpleRequests(t *testing.T) {
	tests := []struct {
		prompt string
		calls  []string
		answer string
	}{
		{"What is 2 plus 3?", []string{`calculate {"a":2,"b":3,"op":"add"}`}, "2 plus 3 is 5."},
		{"and 1 / 0", []string{`calculate {"a":1,"b":0,"op":"divide"}`}, "I could not work out 1 divided by 0: division by zero."},
		{"What's the weather in Oslo and Lima?", []string{`weather {"city":"Oslo"}`, `weather {"city":"Lima"}`}, "Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast."},
		{"Is the weather in Paris nice?", []string{`weather {"city":"Paris"}`}, "I could not look up the weather in Paris: no weather station in Paris."},
		{"Remember to call Ana.", []string{`write {"path":"note-1.txt","text":"to call Ana"}`}, "I saved note-1.txt."},
		{"Read my notes.", nil, "There are no notes."},
		{"Hello!", nil, `Noted: "Hello!". I can work out sums such as 2 plus 3, look up the weather in Oslo, Lima or Cairo, and keep notes: say "remember ...", then "read my notes".`},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			history, calls := converse(t, []Message{UserMessage{Text: tt.prompt}}, services)
			assert.Equal(t, tt.calls, calls, "one batch with every call the prompt needs")
			assert.Equal(t, tt.answer, history[len(history)-1].(AssistantMessage).Text)
		})
	}
}

// TestAssistantTakesInASteeringMessage: a message that arrives while the
// calls run adds its calls to the next reply, which says so; the answer
// then covers every call.
func TestAssistantTakesInASteeringMessage(t *testing.T) {
	history := []Message{UserMessage{Text: "What is the weather in Oslo?"}}
	first := ask(t, Assistant(), chatTools, history...)
	require.Len(t, first.ToolCalls, 1)
	history = append(history, first, services(first.ToolCalls[0]), UserMessage{Text: "And in Lima."})
	second := ask(t, Assistant(), chatTools, history...)
	assert.Equal(t, `Noted: "And in Lima.". I will look up the weather in Lima.`, second.Text)
	require.Len(t, second.ToolCalls, 1)
	assert.Equal(t, "call_2", second.ToolCalls[0].ID)
	history = append(history, second, services(second.ToolCalls[0]))
	answer := ask(t, Assistant(), chatTools, history...)
	assert.Equal(t, "Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast.", answer.Text)
}

// TestAssistantKeepsNotes: a follow-up "Remember that." saves the last
// answer; the notes read back and delete in the order they were written.
func TestAssistantKeepsNotes(t *testing.T) {
	history, _ := converse(t, []Message{UserMessage{Text: "What is 2 plus 3?"}}, services)
	history, calls := converse(t, append(history, UserMessage{Text: "Remember that."}), services)
	assert.Equal(t, []string{`write {"path":"note-1.txt","text":"2 plus 3 is 5."}`}, calls)
	history, _ = converse(t, append(history, UserMessage{Text: "Note: buy milk."}), services)
	history, calls = converse(t, append(history, UserMessage{Text: "Read my notes."}), services)
	assert.Equal(t, []string{`read {"path":"note-1.txt"}`, `read {"path":"note-2.txt"}`}, calls)
	history, calls = converse(t, append(history, UserMessage{Text: "Delete my notes."}), services)
	assert.Equal(t, []string{`rm {"path":"note-1.txt"}`, `rm {"path":"note-2.txt"}`}, calls)
	_, calls = converse(t, append(history, UserMessage{Text: "Read my notes."}), services)
	assert.Empty(t, calls, "no note is left to read")
}

// TestAssistantStartsAfreshAfterAFailedReply: a run that failed, or that
// Ctrl-C stopped, ends its exchange; the next prompt is answered alone.
func TestAssistantStartsAfreshAfterAFailedReply(t *testing.T) {
	for _, stop := range []StopReason{StopReasonAborted, StopReasonError} {
		history := []Message{
			UserMessage{Text: "What is the weather in Oslo?"},
			AssistantMessage{Text: "I will look up the weather in Oslo.", ToolCalls: []ToolCall{{ID: "call_1", Name: "weather", Arguments: []byte(`{"city":"Oslo"}`)}}, StopReason: StopReasonToolUse},
			AssistantMessage{StopReason: stop, ErrorMessage: "cancelled"},
			UserMessage{Text: "What is 2 plus 3?"},
		}
		_, calls := converse(t, history, services)
		assert.Equal(t, []string{`calculate {"a":2,"b":3,"op":"add"}`}, calls, "after stop reason %s", stop)
	}
}

func TestAssistantNeedsItsTools(t *testing.T) {
	reply := ask(t, Assistant(), []ToolSpec{{Name: "weather"}}, UserMessage{Text: "What is 2 plus 3?"})
	assert.Equal(t, "I need a calculate tool to answer that.", reply.Text)
}

// TestAssistantDecidesFromTheRequestAlone: the same request gets the same
// reply, and every conversation ends with an answer.
func TestAssistantDecidesFromTheRequestAlone(t *testing.T) {
	prompts := []string{"What is 2 plus 3?", "Weather in Cairo, Oslo and Lima?", "Remember that.", "Read my notes.", "3 x 4 and 5 - 6", "hi", "Forget my notes."}
	var history []Message
	for i, p := range prompts {
		history = append(history, UserMessage{Text: p})
		first := ask(t, Assistant(), chatTools, history...)
		again := ask(t, Assistant(), chatTools, history...)
		assert.Empty(t, cmp.Diff(first, again), "prompt %d", i)
		history, _ = converse(t, history, func(c ToolCall) ToolResultMessage {
			return ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: fmt.Sprintf("result of %s", c.ID)}
		})
		last := history[len(history)-1].(AssistantMessage)
		assert.False(t, strings.HasPrefix(last.Text, "I will"), "prompt %d ends with an answer: %q", i, last.Text)
	}
	ids := map[string]bool{}
	for _, m := range history {
		if a, ok := m.(AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				assert.False(t, ids[c.ID], "call IDs are unique: %s", c.ID)
				ids[c.ID] = true
			}
		}
	}
	_, err := Assistant().Reply(context.Background(), Request{Messages: history, Tools: chatTools})
	require.NoError(t, err)
}
