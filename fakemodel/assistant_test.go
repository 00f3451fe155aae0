package fakemodel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
			if diff := cmp.Diff(tt.calls, calls); diff != "" {
				t.Errorf("the calls differ from one batch with every call the prompt needs (-want +got):\n%s", diff)
			}
			if got := history[len(history)-1].(AssistantMessage).Text; got != tt.answer {
				t.Errorf("the answer is %q, want %q", got, tt.answer)
			}
		})
	}
}

// TestAssistantTakesInASteeringMessage: a message that arrives while the
// calls run adds its calls to the next reply, which says so; the answer
// then covers every call.
func TestAssistantTakesInASteeringMessage(t *testing.T) {
	history := []Message{UserMessage{Text: "What is the weather in Oslo?"}}
	first := ask(t, Assistant(), chatTools, history...)
	if len(first.ToolCalls) != 1 {
		t.Fatalf("the first reply asks for %d calls, want 1", len(first.ToolCalls))
	}
	history = append(history, first, services(first.ToolCalls[0]), UserMessage{Text: "And in Lima."})
	second := ask(t, Assistant(), chatTools, history...)
	if want := `Noted: "And in Lima.". I will look up the weather in Lima.`; second.Text != want {
		t.Errorf("the reply to the steering message says %q, want %q", second.Text, want)
	}
	if len(second.ToolCalls) != 1 {
		t.Fatalf("the reply to the steering message asks for %d calls, want 1", len(second.ToolCalls))
	}
	if got := second.ToolCalls[0].ID; got != "call_2" {
		t.Errorf("its call has the ID %q, want %q", got, "call_2")
	}
	history = append(history, second, services(second.ToolCalls[0]))
	answer := ask(t, Assistant(), chatTools, history...)
	if want := "Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast."; answer.Text != want {
		t.Errorf("the answer is %q, want %q", answer.Text, want)
	}
}

// TestAssistantKeepsNotes: a follow-up "Remember that." saves the last
// answer; the notes read back and delete in the order they were written.
func TestAssistantKeepsNotes(t *testing.T) {
	history, _ := converse(t, []Message{UserMessage{Text: "What is 2 plus 3?"}}, services)
	history, calls := converse(t, append(history, UserMessage{Text: "Remember that."}), services)
	wantCalls(t, "Remember that.", calls, `write {"path":"note-1.txt","text":"2 plus 3 is 5."}`)
	history, _ = converse(t, append(history, UserMessage{Text: "Note: buy milk."}), services)
	history, calls = converse(t, append(history, UserMessage{Text: "Read my notes."}), services)
	wantCalls(t, "Read my notes.", calls, `read {"path":"note-1.txt"}`, `read {"path":"note-2.txt"}`)
	history, calls = converse(t, append(history, UserMessage{Text: "Delete my notes."}), services)
	wantCalls(t, "Delete my notes.", calls, `rm {"path":"note-1.txt"}`, `rm {"path":"note-2.txt"}`)
	_, calls = converse(t, append(history, UserMessage{Text: "Read my notes."}), services)
	if len(calls) != 0 {
		t.Errorf("after the delete, %q led to the calls %q, want none: no note is left to read", "Read my notes.", calls)
	}
}

// wantCalls checks the calls, as "name args", that a prompt led to.
func wantCalls(t *testing.T, prompt string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%q led to the calls %q, want %q", prompt, got, want)
	}
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
		if want := []string{`calculate {"a":2,"b":3,"op":"add"}`}; !slices.Equal(calls, want) {
			t.Errorf("after stop reason %s: the calls are %q, want %q", stop, calls, want)
		}
	}
}

func TestAssistantNeedsItsTools(t *testing.T) {
	reply := ask(t, Assistant(), []ToolSpec{{Name: "weather"}}, UserMessage{Text: "What is 2 plus 3?"})
	if want := "I need a calculate tool to answer that."; reply.Text != want {
		t.Errorf("the reply says %q, want %q", reply.Text, want)
	}
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
		if diff := cmp.Diff(first, again); diff != "" {
			t.Errorf("prompt %d: the same request got another reply (-first +again):\n%s", i, diff)
		}
		history, _ = converse(t, history, func(c ToolCall) ToolResultMessage {
			return ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: fmt.Sprintf("result of %s", c.ID)}
		})
		last := history[len(history)-1].(AssistantMessage)
		if strings.HasPrefix(last.Text, "I will") {
			t.Errorf("prompt %d ends with %q, want an answer", i, last.Text)
		}
	}
	ids := map[string]bool{}
	for _, m := range history {
		if a, ok := m.(AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				if ids[c.ID] {
					t.Errorf("two calls have the ID %s: call IDs are unique", c.ID)
				}
				ids[c.ID] = true
			}
		}
	}
	if _, err := Assistant().Reply(context.Background(), Request{Messages: history, Tools: chatTools}); err != nil {
		t.Fatalf("Reply to the whole conversation: %v", err)
	}
}
