package scenario

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// What a parsed scenario plays of the fake world: the model and the tools.

// Model returns the model that plays the scenario's replies, one per
// request, in order, whatever the request holds. A reply with stop reason
// error is a failed request whose error is the reply's text; its partial
// text, if it has one, streams first. A reply's thinking streams before
// anything else, to the context's fakemodel.OnThinking. A request that is
// aborted uses up its reply too.
func (s *Scenario) Model() fakemodel.Model { return script(s.Replies) }

// script returns a model that plays replies.
func script(replies []Reply) *played {
	m := &played{}
	for _, r := range replies {
		reply := fakemodel.AssistantMessage{Text: r.Text, StopReason: fakemodel.StopReason(value(r.StopReason))}
		if value(r.StopReason) == "error" {
			reply = fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: r.Text}
		}
		for _, c := range r.ToolCalls {
			reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
		}
		m.replies = append(m.replies, reply)
		m.partial = append(m.partial, r.Partial)
		m.thinking = append(m.thinking, r.Thinking)
		m.whole = append(m.whole, r.Stream != nil && !*r.Stream)
	}
	return m
}

// played is the model of a scenario. It counts the requests it gets, and
// plays the reply of each; a reply streams its thinking first, a reply that
// fails streams its partial text first, as a stream that breaks off does,
// and a reply that does not stream (whole) arrives without chunks.
type played struct {
	replies           []fakemodel.AssistantMessage
	partial, thinking []string
	whole             []bool

	mu       sync.Mutex
	requests int
}

// Reply plays the reply of this request: it streams its thinking, and the
// partial text of a reply that fails, word by word, until ctx is
// cancelled, then lets
// fakemodel.Scripted play the reply, which streams it, fails, or reports
// the cancellation.
func (m *played) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	m.mu.Lock()
	n := m.requests
	m.requests++
	m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fakemodel.AssistantMessage{}, fmt.Errorf("scripted model: %w", err)
	}
	fakemodel.Sent(ctx, req)
	if n >= len(m.replies) {
		return fakemodel.AssistantMessage{}, fmt.Errorf("scripted model: no reply left for request %d: the script holds %d", n+1, len(m.replies))
	}
	// A cancel stops the streams; the script reports it.
	stream(ctx, m.thinking[n], fakemodel.OnThinking(ctx))
	stream(ctx, m.partial[n], req.OnText)
	// Scripted counts the replies in the history it is sent; sent none,
	// it plays the one reply it holds.
	one := fakemodel.Request{Tools: req.Tools, OnText: req.OnText}
	if m.whole[n] {
		one.OnText = nil
	}
	// The script's one request is no request of the session's: it hands
	// no one what it is sent.
	return fakemodel.Scripted(m.replies[n]).Reply(fakemodel.WithOnRequest(ctx, nil), one)
}

// stream sends text to to, word by word, until ctx is cancelled; with no
// to, it does nothing.
func stream(ctx context.Context, text string, to func(string)) {
	if to == nil {
		return
	}
	for _, chunk := range fakemodel.Chunks(text) {
		if ctx.Err() != nil {
			return
		}
		to(chunk)
	}
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

// callTools maps each call ID of the replies, those of prepareNextTurn
// included, to the tool it calls. The calls of the history never run, and
// are not in it.
func (s *Scenario) callTools() map[string]string {
	tools := map[string]string{}
	for _, r := range s.allReplies() {
		for _, c := range r.ToolCalls {
			tools[c.ID] = c.Name
		}
	}
	return tools
}

// allReplies returns the replies of every model of the scenario: its own,
// then those that prepareNextTurn swaps in.
func (s *Scenario) allReplies() []Reply {
	all := slices.Clip(s.Replies)
	for _, swap := range s.PrepareNextTurn {
		all = append(all, swap.Replies...)
	}
	return all
}

// merged returns a call's behaviour b completed from its tool's, def. The
// duration and the updates come from def unless b sets them. How the call
// ends (result, echoArgs, terminate, error, panic) comes all from b if b
// sets any of them, and all from def otherwise: a call that fails does not inherit its
// tool's result, and a call with a result of its own does not inherit its
// tool's error.
func (b Behaviour) merged(def Behaviour) Behaviour {
	b.DurationMs = cmp.Or(b.DurationMs, def.DurationMs)
	if b.Updates == nil {
		// The moments of the updates come with them.
		b.Updates, b.UpdatesAtMs = def.Updates, def.UpdatesAtMs
	}
	if b.Result == nil && b.Terminate == nil && b.Error == nil && b.Panic == nil && b.EchoArgs == nil {
		b.Result, b.Terminate, b.Error, b.Panic, b.EchoArgs = def.Result, def.Terminate, def.Error, def.Panic, def.EchoArgs
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
		EchoArgs:  value(b.EchoArgs),
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
	// EchoArgs makes the result the call's arguments, as JSON (Tool.Run).
	EchoArgs bool
}

// Run does what the call callID does, with args, the arguments the tool
// got (Action.Do): with echoArgs, its result is args, as JSON.
func (t Tool) Run(ctx context.Context, clock *democlock.Clock, callID string, args any, report func(string)) (result string, terminate bool, err error) {
	a := t.Call(callID)
	result, terminate, err = a.Do(ctx, clock, callID, report)
	if err == nil && a.EchoArgs {
		echo, _ := json.Marshal(args) // the arguments decoded from JSON
		result = string(echo)
	}
	return result, terminate, err
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
