package main

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// Config is what a run of the loop works with, and the hooks through which an
// application changes its behaviour without editing the loop. BeforeToolCall
// and AfterToolCall report a failure by returning an error, which becomes the
// call's error result, as a thrown error does in Pi. Unlike a tool's, a
// hook's panic is not recovered: a hook is the application's own code, and a
// panic there is a bug to fix, not input to survive.
type Config struct {
	// Model is asked for every reply.
	Model fakemodel.Model
	// Tools are the tools the model may ask for.
	Tools []Tool
	// MaxTurns ends the run after this many turns; 0 means no limit. Pi's
	// loop has no such limit: it is the workbook's guard from lab 03.
	MaxTurns int
	// Sequential runs every batch of tool calls one call at a time, like
	// Pi's toolExecution: "sequential". Without it, a batch runs in
	// parallel unless one of its tools is Sequential.
	Sequential bool
	// BeforeToolCall, if set, sees each call after its arguments are
	// checked and before it runs, and may block it.
	BeforeToolCall func(ctx context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error)
	// AfterToolCall, if set, sees each executed call's result and may
	// replace its content and its error flag. In a parallel batch it runs
	// on the call's own goroutine, so it must be safe for concurrent use.
	AfterToolCall func(ctx context.Context, c AfterToolCallContext) (AfterToolCallResult, error)
}

// BeforeToolCallContext is what BeforeToolCall sees.
type BeforeToolCallContext struct {
	// AssistantMessage is the reply that made the call.
	AssistantMessage fakemodel.AssistantMessage
	// ToolCall is the call, as the model wrote it.
	ToolCall fakemodel.ToolCall
	// Args are the decoded and checked arguments.
	Args any
}

// BeforeToolCallResult is BeforeToolCall's decision.
type BeforeToolCallResult struct {
	// Block stops the call: it gets an error result with Reason, or
	// "Tool execution was blocked" if Reason is empty.
	Block bool
	// Reason is the blocked call's result, which the model reads.
	Reason string
}

// AfterToolCallContext is what AfterToolCall sees.
type AfterToolCallContext struct {
	// AssistantMessage, ToolCall and Args are as BeforeToolCall saw them.
	AssistantMessage fakemodel.AssistantMessage
	ToolCall         fakemodel.ToolCall
	Args             any
	// Result and IsError are what the tool returned.
	Result  string
	IsError bool
}

// AfterToolCallResult overrides a result field by field: a nil field keeps
// what the tool returned.
type AfterToolCallResult struct {
	// Content, if not nil, replaces the result's text.
	Content *string
	// IsError, if not nil, replaces its error flag.
	IsError *bool
}

// runLoop returns the run of the agent loop for prompt as a sequence of
// events, the counterpart of agentLoop and runLoop in Pi's
// packages/agent/src/agent-loop.ts. Nothing happens until the caller ranges
// over it; the loop then runs on the caller's goroutine, and every event is
// yielded from there, tool events included.
//
// A caller that stops ranging ends the run: the loop cancels the run's
// context, waits for the tools that are still running, and returns without
// yielding again. No goroutine the loop starts outlives the range statement.
func runLoop(ctx context.Context, cfg Config, prompt string) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		r := &runState{cfg: cfg, ctx: ctx, cancel: cancel, yield: yield}
		_ = r.loop(prompt) // its only error is errStopped: nothing left to do
	}
}

// errStopped reports that the consumer stopped ranging over the events.
var errStopped = errors.New("the consumer stopped the run")

// runState is the state of one run of the loop.
type runState struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	yield  func(Event) bool
	// stopped is set once yield has returned false.
	stopped bool
	// history is the whole conversation; added is what this run appended.
	history, added []fakemodel.Message
}

// emit hands ev to the consumer. Once the consumer has stopped, emit never
// calls yield again: it cancels the run and reports errStopped, which every
// caller passes up.
func (r *runState) emit(ev Event) error {
	if r.stopped {
		return errStopped
	}
	if !r.yield(ev) {
		r.stopped = true
		r.cancel()
		return errStopped
	}
	return nil
}

// emitAll emits events in order, until one fails.
func (r *runState) emitAll(events ...Event) error {
	for _, ev := range events {
		if err := r.emit(ev); err != nil {
			return err
		}
	}
	return nil
}

func (r *runState) append(m fakemodel.Message) {
	r.history = append(r.history, m)
	r.added = append(r.added, m)
}

// loop is the agent loop of lab 04, now telling everything it does. The step
// comments are the six steps of lab 02.
func (r *runState) loop(prompt string) error {
	// Step 1: the user's input enters the history.
	user := fakemodel.UserMessage{Text: prompt}
	r.append(user)
	if err := r.emitAll(AgentStart{}, TurnStart{}, MessageStart{user}, MessageEnd{user}); err != nil {
		return err
	}
	for turn := 1; ; turn++ {
		if turn > 1 {
			if err := r.emit(TurnStart{}); err != nil {
				return err
			}
		}
		// Step 2: ask the model with the full history, streaming its reply.
		reply, err := r.streamAssistantResponse()
		if err != nil {
			return err
		}
		r.append(reply)
		if reply.StopReason == fakemodel.StopReasonError || reply.StopReason == fakemodel.StopReasonAborted {
			return r.emitAll(TurnEnd{Message: reply}, AgentEnd{Messages: r.added})
		}

		// Step 3: any tool calls? Steps 4 and 5: run them all, then append
		// their results in the order of the calls.
		var results []fakemodel.ToolResultMessage
		if len(reply.ToolCalls) > 0 {
			if results, err = r.executeToolCalls(reply); err != nil {
				return err
			}
			for _, res := range results {
				r.append(res)
			}
		}
		if err := r.emit(TurnEnd{Message: reply, ToolResults: results}); err != nil {
			return err
		}
		// Step 6, unless the model answered or the turn limit is reached.
		if len(reply.ToolCalls) == 0 || turn == r.cfg.MaxTurns {
			return r.emit(AgentEnd{Messages: r.added})
		}
	}
}

// streamAssistantResponse asks the model for its next reply and emits it as
// it streams in: message_start, a message_update per chunk, message_end.
// A failed request still gives a reply, with stop reason error (aborted if
// cancelled) and the text that streamed before: Pi's provider builds that
// reply, here the Model returns an error and this function builds it. Its
// only error is errStopped.
func (r *runState) streamAssistantResponse() (fakemodel.AssistantMessage, error) {
	if err := r.emit(MessageStart{Message: fakemodel.AssistantMessage{}}); err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	// text grows in place: text += chunk would copy the whole reply so
	// far for every chunk, and a long reply would take quadratic time.
	var text strings.Builder
	var stopped error
	reply, err := r.cfg.Model.Reply(r.ctx, fakemodel.Request{
		// Clip, so that a model that appends to the slice cannot
		// overwrite the history.
		Messages: slices.Clip(r.history),
		Tools:    specs(r.cfg.Tools),
		OnText: func(chunk string) {
			text.WriteString(chunk)
			if stopped == nil {
				// A stopped consumer cancels r.ctx, which ends the
				// stream at its next chunk.
				partial := fakemodel.AssistantMessage{Text: text.String()}
				stopped = r.emit(MessageUpdate{Message: partial, Delta: chunk})
			}
		},
	})
	if stopped != nil {
		return fakemodel.AssistantMessage{}, stopped
	}
	if err != nil {
		reply = fakemodel.AssistantMessage{Text: text.String(), StopReason: fakemodel.StopReasonError, ErrorMessage: err.Error()}
		if r.ctx.Err() != nil {
			reply.StopReason = fakemodel.StopReasonAborted
		}
	}
	return reply, r.emit(MessageEnd{Message: reply})
}
