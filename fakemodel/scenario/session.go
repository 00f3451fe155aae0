package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// What a parsed scenario plays of the session: the runs, the history the
// agent starts with, and the hooks, as data.

// Prompts returns the session's runs, in order: the prompt of each, or ""
// for a Continue.
func (s *Scenario) Prompts() []string {
	if s.Runs == nil {
		return append([]string{value(s.Prompt)}, s.NextPrompts...)
	}
	runs := []string{} // a session with no run
	for _, r := range *s.Runs {
		runs = append(runs, r.Prompt) // a Continue's is ""
	}
	return runs
}

// Messages returns the history the agent holds before the first run.
func (s *Scenario) Messages() []fakemodel.Message {
	tools := map[string]string{} // the history's calls, to the tool each calls
	var history []fakemodel.Message
	for _, m := range s.History {
		switch m.Role {
		case "user":
			history = append(history, fakemodel.UserMessage{Text: m.Text})
		case "assistant":
			reply := fakemodel.AssistantMessage{Text: m.Text, StopReason: fakemodel.StopReason(value(m.StopReason))}
			for _, c := range m.ToolCalls {
				reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
				tools[c.ID] = c.Name
			}
			if reply.StopReason == "" {
				reply.StopReason = map[bool]fakemodel.StopReason{true: fakemodel.StopReasonToolUse, false: fakemodel.StopReasonStop}[len(m.ToolCalls) > 0]
			}
			history = append(history, reply)
		case "toolResult":
			history = append(history, fakemodel.ToolResultMessage{
				ToolCallID: m.ToolCallID, ToolName: tools[m.ToolCallID], Content: m.Text, IsError: value(m.IsError),
			})
		}
	}
	return history
}

// Setup returns what the narrative says of the scenario before its first
// run: each message of the history, and what each hook given as data does.
func (s *Scenario) Setup() []string {
	var lines []string
	for _, m := range s.Messages() {
		switch m := m.(type) {
		case fakemodel.UserMessage:
			lines = append(lines, "history: user: "+m.Text)
		case fakemodel.AssistantMessage:
			line := "history: assistant: " + m.Text
			for _, c := range m.ToolCalls {
				line += fmt.Sprintf(" [calls %s %s %s]", c.ID, c.Name, c.Arguments)
			}
			lines = append(lines, line)
		case fakemodel.ToolResultMessage:
			lines = append(lines, fmt.Sprintf("history: result of %s: %s%s", m.ToolCallID, map[bool]string{true: "error: "}[m.IsError], m.Content))
		}
	}
	if t := s.TransformContext; t != nil {
		lines = append(lines, fmt.Sprintf("transformContext shows the model only the last %d of its messages", *t.KeepLast))
	}
	for _, id := range slices.Sorted(maps.Keys(s.Calls)) {
		if set := s.Calls[id].SetArgs; set != nil {
			lines = append(lines, fmt.Sprintf("beforeToolCall sets %s in the arguments of call %s", compact(set), id))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.AfterToolCall)) {
		o := s.AfterToolCall[name]
		var fields []string
		if o.Content != nil {
			fields = append(fields, fmt.Sprintf("content %q", *o.Content))
		}
		if o.IsError != nil {
			fields = append(fields, fmt.Sprintf("isError %v", *o.IsError))
		}
		if o.Terminate != nil {
			fields = append(fields, fmt.Sprintf("terminate %v", *o.Terminate))
		}
		lines = append(lines, fmt.Sprintf("afterToolCall gives every result of %s %s", name, strings.Join(fields, ", ")))
	}
	for _, swap := range s.PrepareNextTurn {
		lines = append(lines, fmt.Sprintf("prepareNextTurn swaps the model, after turn %d of the session, for one with %s, until the run ends", *swap.AfterTurn, plural(len(swap.Replies), "reply", "replies")))
	}
	return lines
}

// compact returns JSON on one line.
func compact(data json.RawMessage) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	var v any
	_ = json.Unmarshal(data, &v)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// plural writes n and a noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Hooks are the scenario's hooks, as data, for lab 06 to bind to its
// Agent: BeforeToolCall's blocks and changed arguments, AfterToolCall's
// overrides, TransformContext's transform, and PrepareNextTurn's swaps.
// The hooks but AfterToolCall run on the loop's goroutine.
type Hooks struct {
	s *Scenario

	// Say, if set, prints what a hook does while a run goes on.
	Say func(string)

	mu    sync.Mutex
	turns int // how many times PrepareNextTurn was asked
}

// Hooks returns the scenario's hooks.
func (s *Scenario) Hooks() *Hooks { return &Hooks{s: s} }

// Before is BeforeToolCall: it reports whether the call callID, to the tool
// named tool, is blocked before it runs, by its own entry in "calls" or by
// "block", and the reason its result gives. A call that is not blocked
// gets the keys of its setArgs set in args, the arguments it runs with,
// which a fake tool gets as a map (Args).
func (h *Hooks) Before(tool, callID string, args any) (reason string, blocked bool) {
	s := h.s
	if b, ok := s.Calls[callID]; ok && b.Block != nil {
		return *b.Block, true
	}
	if reason, blocked = s.Block[tool]; blocked {
		return reason, true
	}
	set, _ := Args(s.Calls[callID].SetArgs)
	if m, ok := args.(map[string]json.RawMessage); ok {
		maps.Copy(m, set)
	}
	return "", false
}

// Blocks reports whether the scenario has a BeforeToolCall hook: whether it
// blocks any call, or changes the arguments of one.
func (s *Scenario) Blocks() bool {
	return len(s.Block) > 0 || slices.ContainsFunc(slices.Collect(maps.Values(s.Calls)), func(b Behaviour) bool { return b.Block != nil || b.SetArgs != nil })
}

// After is AfterToolCall: the fields of a result of the tool named tool
// that it replaces, each nil if it keeps the tool's. It is safe for
// concurrent use.
func (h *Hooks) After(tool string) (content *string, isError, terminate *bool) {
	o := h.s.AfterToolCall[tool]
	return o.Content, o.IsError, o.Terminate
}

// Transform returns TransformContext: the history's last messages, as many
// as keepLast says; or nil if the scenario has no transform.
func (h *Hooks) Transform() func(context.Context, []fakemodel.Message) ([]fakemodel.Message, error) {
	t := h.s.TransformContext
	if t == nil {
		return nil
	}
	return func(_ context.Context, messages []fakemodel.Message) ([]fakemodel.Message, error) {
		n := min(*t.KeepLast, len(messages))
		if n < len(messages) && h.Say != nil {
			h.Say(fmt.Sprintf("(transformContext shows the model the last %d of its %d messages)", n, len(messages)))
		}
		return messages[len(messages)-n:], nil
	}
}

// NextModel is PrepareNextTurn: the model that answers from the next
// request on, until the run ends, as in Pi, or nil to keep the one there
// is. Each call is one turn.
func (h *Hooks) NextModel() fakemodel.Model {
	h.mu.Lock()
	h.turns++
	turn := h.turns
	h.mu.Unlock()
	i := slices.IndexFunc(h.s.PrepareNextTurn, func(swap Swap) bool { return *swap.AfterTurn == turn })
	if i < 0 {
		return nil
	}
	if h.Say != nil {
		h.Say(fmt.Sprintf("(prepareNextTurn: another model, with %s, answers the rest of this run)", plural(len(h.s.PrepareNextTurn[i].Replies), "reply", "replies")))
	}
	return script(h.s.PrepareNextTurn[i].Replies)
}

// HasPrepareNextTurn reports whether the scenario swaps a model.
func (s *Scenario) HasPrepareNextTurn() bool { return len(s.PrepareNextTurn) > 0 }
