package main

import (
	"context"
	"errors"
	"fmt"
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
	// Sequential runs every batch of tool calls one call at a time, like
	// Pi's toolExecution: "sequential". Without it, a batch runs in
	// parallel unless one of its tools is Sequential.
	Sequential bool
	// BeforeToolCall, if set, sees each call after its arguments are
	// checked and before it runs, and may block it.
	BeforeToolCall func(ctx context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error)
	// AfterToolCall, if set, sees each executed call's result and may
	// replace its content, its error flag and its terminate flag. In a
	// parallel batch it runs on the call's own goroutine, so it must be
	// safe for concurrent use.
	AfterToolCall func(ctx context.Context, c AfterToolCallContext) (AfterToolCallResult, error)
	// TransformContext, if set, changes what the model is shown, for
	// example only the last messages. It gets a copy of the history's
	// slice, so the history keeps its messages and their order; the
	// messages share their tool calls with the history, so it must not
	// write into those.
	TransformContext func(ctx context.Context, messages []fakemodel.Message) ([]fakemodel.Message, error)
	// PrepareNextTurn, if set, runs after turn_end and may swap the model
	// for the next request. It does not run after a turn whose request
	// failed or was aborted: that turn_end ends the run.
	PrepareNextTurn func(ctx context.Context, t TurnContext) NextTurn
	// ShouldStopAfterTurn, if set, runs after PrepareNextTurn and ends the
	// run when it returns true. It runs before the steering poll, so a
	// stop never takes a steering message from its queue.
	ShouldStopAfterTurn func(ctx context.Context, t TurnContext) bool
	// GetSteeringMessages returns the messages to add before the next
	// model request. The loop polls it before its first request and after
	// every turn.
	GetSteeringMessages func() []fakemodel.Message
	// GetFollowUpMessages returns messages to go on with when the run
	// would otherwise end: no tool call and no steering message is left.
	GetFollowUpMessages func() []fakemodel.Message
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
	// Terminate, with Block, marks the blocked call's result as asking
	// the run to stop. (Pi 0.84.1 and later; 0.83.0's beforeToolCall can
	// only block.)
	Terminate bool
}

// AfterToolCallContext is what AfterToolCall sees.
type AfterToolCallContext struct {
	// AssistantMessage, ToolCall and Args are as BeforeToolCall saw them.
	AssistantMessage fakemodel.AssistantMessage
	ToolCall         fakemodel.ToolCall
	Args             any
	// Result, IsError and Terminate are what the tool returned.
	Result    string
	IsError   bool
	Terminate bool
}

// AfterToolCallResult overrides a result field by field: a nil field keeps
// what the tool returned.
type AfterToolCallResult struct {
	// Content, if not nil, replaces the result's text.
	Content *string
	// IsError, if not nil, replaces its error flag.
	IsError *bool
	// Terminate, if not nil, replaces its terminate flag.
	Terminate *bool
}

// TurnContext is what PrepareNextTurn and ShouldStopAfterTurn see of the
// turn that just ended.
type TurnContext struct {
	// Message is the turn's reply.
	Message fakemodel.AssistantMessage
	// ToolResults are the results of its tool calls.
	ToolResults []fakemodel.ToolResultMessage
	// Messages is the history after the turn; NewMessages is the part of it
	// this run added.
	Messages, NewMessages []fakemodel.Message
}

// NextTurn is PrepareNextTurn's decision: a nil field keeps what was there.
type NextTurn struct {
	// Model, if not nil, answers from the next request on.
	Model fakemodel.Model
}

// runLoop returns the run of the agent loop as a sequence of events, the
// counterpart of agentLoop and agentLoopContinue in Pi's
// packages/agent/src/agent-loop.ts. history is the conversation so far;
// prompts, if any, are the messages that start the run; with none, the run
// continues from history as it is. Nothing happens until the caller ranges
// over it; the loop then runs on the caller's goroutine, and every event is
// yielded from there, tool events included.
//
// A caller that stops ranging ends the run: the loop cancels the run's
// context, waits for the tools that are still running, and returns without
// yielding again. No goroutine the loop starts outlives the range statement.
func runLoop(ctx context.Context, cfg Config, history, prompts []fakemodel.Message) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		r := &runState{cfg: cfg, ctx: ctx, cancel: cancel, yield: yield, history: slices.Clip(history)}
		_ = r.start(prompts) // its only error is errStopped: nothing left to do
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

// start is Pi's runAgentLoop and runAgentLoopContinue: it opens the run and
// its first turn, adds the prompts, and hands over to the loop.
func (r *runState) start(prompts []fakemodel.Message) error {
	if err := r.emitAll(AgentStart{}, TurnStart{}); err != nil {
		return err
	}
	for _, m := range prompts {
		r.append(m)
		if err := r.emitAll(MessageStart{m}, MessageEnd{m}); err != nil {
			return err
		}
	}
	return r.loop()
}

// loop is Pi's runLoop: two loops, one inside the other. The inner loop runs
// turns while the model asks for tools or steering messages wait. The outer
// loop goes on when follow-up messages arrive after the inner loop would
// have ended the run.
func (r *runState) loop() error {
	// exercise: two-level-loop
	// The first poll comes before the first request: a message steered
	// while the agent was idle belongs in this run's first turn.
	pending := poll(r.cfg.GetSteeringMessages)
	firstTurn := true
	for {
		moreToolCalls := true
		for moreToolCalls || len(pending) > 0 {
			if firstTurn {
				firstTurn = false // start emitted its turn_start
			} else if err := r.emit(TurnStart{}); err != nil {
				return err
			}
			// Pending messages enter the history before the model speaks.
			for _, m := range pending {
				r.append(m)
				if err := r.emitAll(MessageStart{m}, MessageEnd{m}); err != nil {
					return err
				}
			}
			pending = nil

			reply, err := r.streamAssistantResponse()
			if err != nil {
				return err
			}
			r.append(reply)
			if reply.StopReason == fakemodel.StopReasonError || reply.StopReason == fakemodel.StopReasonAborted {
				return r.emitAll(TurnEnd{Message: reply}, AgentEnd{Messages: r.added})
			}

			var b batch
			if len(reply.ToolCalls) > 0 {
				if reply.StopReason == fakemodel.StopReasonLength {
					b, err = r.failTruncatedToolCalls(reply)
				} else {
					b, err = r.executeToolCalls(reply)
				}
				if err != nil {
					return err
				}
				for _, res := range b.results {
					r.append(res)
				}
			}
			moreToolCalls = len(reply.ToolCalls) > 0 && !b.terminate
			if err := r.emit(TurnEnd{Message: reply, ToolResults: b.results}); err != nil {
				return err
			}

			// After turn_end, in Pi's order: prepare the next turn, ask
			// whether to stop, and only then poll for steering messages.
			turn := TurnContext{Message: reply, ToolResults: b.results, Messages: slices.Clip(r.history), NewMessages: slices.Clip(r.added)}
			if r.cfg.PrepareNextTurn != nil {
				if next := r.cfg.PrepareNextTurn(r.ctx, turn); next.Model != nil {
					r.cfg.Model = next.Model
				}
			}
			if r.cfg.ShouldStopAfterTurn != nil && r.cfg.ShouldStopAfterTurn(r.ctx, turn) {
				return r.emit(AgentEnd{Messages: r.added})
			}
			pending = poll(r.cfg.GetSteeringMessages)
		}
		// The run would end here. Follow-up messages keep it going.
		if pending = poll(r.cfg.GetFollowUpMessages); len(pending) == 0 {
			return r.emit(AgentEnd{Messages: r.added})
		}
	}
	// end of exercise: two-level-loop
}

// poll calls a queue hook, if it is set.
func poll(get func() []fakemodel.Message) []fakemodel.Message {
	if get == nil {
		return nil
	}
	return get()
}

// streamAssistantResponse asks the model for its next reply and emits it as
// it streams in: message_start, a message_update per chunk, message_end.
// TransformContext, if set, decides what the model is shown. A failed
// request still gives a reply, stop reason error (aborted if cancelled),
// with the text that streamed before: Pi's provider builds that reply, here
// this function builds it from the Model's error. Its only error is errStopped.
func (r *runState) streamAssistantResponse() (fakemodel.AssistantMessage, error) {
	// Like Pi, transform first, then start the reply.
	shown, transformErr := r.shown()
	if err := r.emit(MessageStart{Message: fakemodel.AssistantMessage{}}); err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	// text grows in place: text += chunk would copy the whole reply so
	// far for every chunk, and a long reply would take quadratic time.
	var text strings.Builder
	var stopped error
	reply, err := fakemodel.AssistantMessage{}, transformErr
	if err == nil {
		reply, err = r.cfg.Model.Reply(r.ctx, fakemodel.Request{
			Messages: shown,
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
	}
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

// shown returns what the model is shown: the history, clipped so that a
// model that appends to the slice cannot overwrite it, or what
// TransformContext makes of a copy of it. Whatever a transform does to its
// slice, the history keeps its messages in their order.
func (r *runState) shown() ([]fakemodel.Message, error) {
	if r.cfg.TransformContext == nil {
		return slices.Clip(r.history), nil
	}
	shown, err := r.cfg.TransformContext(r.ctx, slices.Clone(r.history))
	if err != nil {
		return nil, fmt.Errorf("transform context: %w", err)
	}
	return shown, nil
}
