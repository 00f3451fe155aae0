package scenario

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// What a parsed scenario plays of the fake world: the model and the tools.

// Model returns the model that plays the scenario's replies, in order
// (fakemodel.Scripted). A reply with stop reason error is a failed request
// whose error is the reply's text; its partial text, if it has one,
// streams first.
func (s *Scenario) Model() fakemodel.Model {
	replies := make([]fakemodel.AssistantMessage, len(s.Replies))
	partial := make([]string, len(s.Replies))
	for i, r := range s.Replies {
		partial[i] = r.Partial
		reply := fakemodel.AssistantMessage{Text: r.Text, StopReason: fakemodel.StopReason(value(r.StopReason))}
		if value(r.StopReason) == "error" {
			reply = fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: r.Text}
		}
		for _, c := range r.ToolCalls {
			reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
		}
		replies[i] = reply
	}
	return played{script: fakemodel.Scripted(replies...), partial: partial}
}

// played is the model of a scenario: the Scripted model of its replies,
// which first streams the partial text of a reply that fails, as a stream
// that breaks off does.
type played struct {
	script  fakemodel.Model
	partial []string
}

// Reply streams the partial text of the reply the script plays next, if it
// has one, word by word, until ctx is cancelled, then lets the script
// reply. The script counts the replies in the history as this does.
func (m played) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	n := 0
	for _, msg := range req.Messages {
		if msg.Role() == fakemodel.RoleAssistant {
			n++
		}
	}
	if n < len(m.partial) && req.OnText != nil {
		for _, chunk := range fakemodel.Chunks(m.partial[n]) {
			if ctx.Err() != nil {
				break // the script reports the cancellation
			}
			req.OnText(chunk)
		}
	}
	return m.script.Reply(ctx, req)
}

// Sequential reports whether every batch of tool calls runs one call at a
// time: "toolExecution": "sequential".
func (s *Scenario) Sequential() bool {
	return value(s.ToolExecution) == "sequential"
}

// Mode is the queue mode of both queues: "one-at-a-time", the default, or
// "all".
func (s *Scenario) Mode() string {
	return cmp.Or(value(s.QueueMode), "one-at-a-time")
}

// A Tool is one tool of a scenario, with what each of its calls does.
type Tool struct {
	// Name is the tool's name.
	Name string
	// Sequential makes a batch that calls the tool run one call at a
	// time.
	Sequential bool
	// Default is what a call does unless Calls says otherwise.
	Default Action
	// Calls are what single calls do, by call ID.
	Calls map[string]Action
}

// Call returns what the call with this ID does.
func (t Tool) Call(id string) Action {
	if a, ok := t.Calls[id]; ok {
		return a
	}
	return t.Default
}

// Spec is what the model reads about the tool: its name, and parameters
// that take any JSON object.
func (t Tool) Spec() fakemodel.ToolSpec {
	return fakemodel.ToolSpec{
		Name:        t.Name,
		Description: "A fake tool: what it does is data.",
		Parameters:  json.RawMessage(`{"type":"object"}`),
	}
}

// Args checks a call's arguments as every fake tool does: they may be any
// JSON object, and nothing else (toolargs.Object, in the words of the typed
// tools' checks, so that a replayed session says what the live one said).
// The object's values stay as the model wrote them, so any JSON number is
// kept, 1e999 included, which a float64 cannot hold.
func Args(raw json.RawMessage) (map[string]json.RawMessage, error) {
	return toolargs.Object(raw)
}

// Blocked reports whether the call callID, to the tool named tool, is
// blocked before it runs, by its own entry in "calls" or by "block", and
// the reason its result gives.
func (s *Scenario) Blocked(tool, callID string) (reason string, blocked bool) {
	if b, ok := s.Calls[callID]; ok && b.Block != nil {
		return *b.Block, true
	}
	reason, blocked = s.Block[tool]
	return reason, blocked
}

// Blocks reports whether the scenario blocks any call.
func (s *Scenario) Blocks() bool {
	return len(s.Block) > 0 || slices.ContainsFunc(slices.Collect(maps.Values(s.Calls)), func(b Behaviour) bool { return b.Block != nil })
}

// FakeTools returns the scenario's tools, in the order of their names.
func (s *Scenario) FakeTools() []Tool {
	callTools := s.callTools()
	var tools []Tool
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		def := s.Tools[name]
		t := Tool{Name: name, Sequential: value(def.Sequential), Default: def.action(), Calls: map[string]Action{}}
		for id, b := range s.Calls {
			if callTools[id] == name {
				t.Calls[id] = b.merged(def).action()
			}
		}
		tools = append(tools, t)
	}
	return tools
}

// callTools maps each call ID of the replies to the tool it calls.
func (s *Scenario) callTools() map[string]string {
	tools := map[string]string{}
	for _, r := range s.Replies {
		for _, c := range r.ToolCalls {
			tools[c.ID] = c.Name
		}
	}
	return tools
}

// merged returns a call's behaviour b completed from its tool's, def. The
// duration and the updates come from def unless b sets them. How the call
// ends (result, terminate, error, panic) comes all from b if b sets any of
// them, and all from def otherwise: a call that fails does not inherit its
// tool's result, and a call with a result of its own does not inherit its
// tool's error.
func (b Behaviour) merged(def Behaviour) Behaviour {
	b.DurationMs = cmp.Or(b.DurationMs, def.DurationMs)
	if b.Updates == nil {
		// The moments of the updates come with them.
		b.Updates, b.UpdatesAtMs = def.Updates, def.UpdatesAtMs
	}
	if b.Result == nil && b.Terminate == nil && b.Error == nil && b.Panic == nil {
		b.Result, b.Terminate, b.Error, b.Panic = def.Result, def.Terminate, def.Error, def.Panic
	}
	return b
}

// action turns a behaviour into what a call does, with its defaults.
func (b Behaviour) action() Action {
	var at []time.Duration
	for _, ms := range value(b.UpdatesAtMs) {
		at = append(at, time.Duration(ms)*time.Millisecond)
	}
	return Action{
		Result:    value(b.Result),
		Duration:  time.Duration(value(b.DurationMs)) * time.Millisecond,
		Updates:   value(b.Updates),
		UpdatesAt: at,
		Error:     value(b.Error),
		Panic:     value(b.Panic),
		Terminate: value(b.Terminate),
	}
}

// value is what p points to, or the zero value if p is nil: a field the
// file leaves out takes its default.
func value[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// An Action is what one call of a fake tool does. Lab 06's tests build
// fake tools from Actions too.
type Action struct {
	// Result is the text the call returns.
	Result string
	// Duration is how long the call takes.
	Duration time.Duration
	// Updates are progress notes, spread evenly over Duration: with two,
	// one comes at a third of it and one at two thirds.
	Updates []string
	// UpdatesAt, if it has one moment per update, says when each comes,
	// from the call's start.
	UpdatesAt []time.Duration
	// Error, if set, makes the call fail with this message.
	Error string
	// Panic, if set, makes the call panic with this value.
	Panic string
	// Terminate makes the result ask the run to stop after its batch.
	Terminate bool
}

// Do does what a says, for the call callID: it reports each update at its
// moment and waits out the duration on clock (the machine's clock if clock
// is nil), then panics, fails, or returns the result and whether it asks
// to terminate. A cancelled ctx ends the wait with ctx's error.
func (a Action) Do(ctx context.Context, clock *democlock.Clock, callID string, report func(string)) (result string, terminate bool, err error) {
	at := a.UpdatesAt
	if len(at) != len(a.Updates) {
		step := a.Duration / time.Duration(len(a.Updates)+1)
		at = make([]time.Duration, len(a.Updates))
		for i := range at {
			at[i] = step * time.Duration(i+1)
		}
	}
	var done time.Duration
	for i, note := range a.Updates {
		if err := clock.Sleep(ctx, callID, at[i]-done); err != nil {
			return "", false, err
		}
		done = at[i]
		clock.Report(ctx, callID) // no other call goes on before the report is shown
		report(note)
	}
	if err := clock.Sleep(ctx, callID, a.Duration-done); err != nil {
		return "", false, err
	}
	if a.Panic != "" {
		panic(a.Panic)
	}
	if a.Error != "" {
		return "", false, errors.New(a.Error)
	}
	return a.Result, a.Terminate, nil
}
