package main

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// An outcome is what became of one tool call: the text the model will read,
// and whether it reports a failure.
type outcome struct {
	call    fakemodel.ToolCall
	content string
	isError bool
	refused bool // it never ran: ToolExecutionEnd.Refused
}

func failed(call fakemodel.ToolCall, format string, a ...any) outcome {
	return outcome{call: call, content: fmt.Sprintf(format, a...), isError: true}
}

func (o outcome) end() ToolExecutionEnd {
	return ToolExecutionEnd{ToolCallID: o.call.ID, ToolName: o.call.Name, Result: o.content, IsError: o.isError, Refused: o.refused}
}

func (o outcome) message() fakemodel.ToolResultMessage {
	return fakemodel.ToolResultMessage{ToolCallID: o.call.ID, ToolName: o.call.Name, Content: o.content, IsError: o.isError}
}

// A prepared call passed preparation: its tool exists, its arguments are
// checked, and BeforeToolCall let it through. Only prepared calls run.
type prepared struct {
	// slot is the call's position in its batch.
	slot int
	call fakemodel.ToolCall
	tool Tool
	args any
}

// executeToolCalls runs the tool calls of one assistant message and returns
// their results in the order of the calls, like Pi's executeToolCalls. A
// batch runs in parallel, unless the run is sequential or any of its tools
// is: one tool that must not overlap with others serialises the batch.
func (r *runState) executeToolCalls(msg fakemodel.AssistantMessage) ([]fakemodel.ToolResultMessage, error) {
	sequential := r.cfg.Sequential || slices.ContainsFunc(msg.ToolCalls, func(c fakemodel.ToolCall) bool {
		// exercise: sequential-tool
		tool, ok := findTool(r.cfg.Tools, c.Name)
		return ok && tool.Sequential
		// end of exercise: sequential-tool
	})
	if sequential {
		return r.executeSequential(msg)
	}
	return r.executeParallel(msg)
}

// executeParallel is Pi's executeToolCallsParallel. Preparation goes one call
// at a time in the model's order, and a call that fails it ends at once.
// Then the prepared calls run concurrently, and their ends come in the order
// they finish. Only after the whole batch do the results become messages,
// in the model's order, as Pi keeps them, whichever call finished first.
func (r *runState) executeParallel(msg fakemodel.AssistantMessage) ([]fakemodel.ToolResultMessage, error) {
	outcomes := make([]outcome, len(msg.ToolCalls))
	var ready []prepared
	for i, call := range msg.ToolCalls {
		if err := r.emit(toolStart(call)); err != nil {
			return nil, err
		}
		p, immediate := r.prepareToolCall(msg, call)
		if immediate != nil {
			outcomes[i] = *immediate
			if err := r.emit(immediate.end()); err != nil {
				return nil, err
			}
		} else {
			p.slot = i
			ready = append(ready, p)
		}
		if r.ctx.Err() != nil {
			// Cancelled: like Pi, prepare no further calls.
			outcomes = outcomes[:i+1]
			break
		}
	}
	// exercise: parallel-results
	if err := r.execute(msg, ready, outcomes); err != nil {
		return nil, err
	}
	results := make([]fakemodel.ToolResultMessage, len(outcomes))
	for i, o := range outcomes {
		results[i] = o.message()
		if err := r.emitAll(MessageStart{results[i]}, MessageEnd{results[i]}); err != nil {
			return nil, err
		}
	}
	return results, nil
	// end of exercise: parallel-results
}

// executeSequential is Pi's executeToolCallsSequential: each call goes
// through start, preparation, execution, end and its result message before
// the next call starts.
func (r *runState) executeSequential(msg fakemodel.AssistantMessage) ([]fakemodel.ToolResultMessage, error) {
	// exercise: sequential
	var results []fakemodel.ToolResultMessage
	for _, call := range msg.ToolCalls {
		if err := r.emit(toolStart(call)); err != nil {
			return nil, err
		}
		outcomes := make([]outcome, 1)
		p, immediate := r.prepareToolCall(msg, call)
		if immediate != nil {
			outcomes[0] = *immediate
			if err := r.emit(immediate.end()); err != nil {
				return nil, err
			}
		} else if err := r.execute(msg, []prepared{p}, outcomes); err != nil {
			return nil, err
		}
		result := outcomes[0].message()
		results = append(results, result)
		if err := r.emitAll(MessageStart{result}, MessageEnd{result}); err != nil {
			return nil, err
		}
		if r.ctx.Err() != nil {
			break
		}
	}
	return results, nil
	// end of exercise: sequential
}

func toolStart(call fakemodel.ToolCall) ToolExecutionStart {
	return ToolExecutionStart{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments}
}

// prepareToolCall is Pi's prepareToolCall: find the tool, decode and check
// the arguments, then ask BeforeToolCall. A call that fails any of these gets
// an immediate outcome, an error, and never runs.
func (r *runState) prepareToolCall(msg fakemodel.AssistantMessage, call fakemodel.ToolCall) (prepared, *outcome) {
	fail := func(format string, a ...any) (prepared, *outcome) {
		o := failed(call, format, a...)
		o.refused = true
		return prepared{}, &o
	}
	tool, ok := findTool(r.cfg.Tools, call.Name)
	if !ok {
		return fail("Tool %s not found", call.Name)
	}
	args, err := tool.decode(call.Arguments)
	if err != nil {
		return fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)
	}
	if r.cfg.BeforeToolCall != nil {
		before, err := r.cfg.BeforeToolCall(r.ctx, BeforeToolCallContext{AssistantMessage: msg, ToolCall: call, Args: args})
		switch {
		case err != nil:
			return fail("%v", err)
		case r.ctx.Err() != nil:
			// Like Pi, a run cancelled while the hook decided
			// reports that, whatever the hook said.
			return fail("Operation aborted")
		case before.Block && before.Reason != "":
			return fail("%s", before.Reason)
		case before.Block:
			return fail("Tool execution was blocked")
		}
	}
	if r.ctx.Err() != nil {
		return fail("Operation aborted")
	}
	return prepared{call: call, tool: tool, args: args}, nil
}

// execute runs calls concurrently, each on its own goroutine, which writes
// only its own slot of outcomes. The run's goroutine meanwhile forwards the
// goroutines' events to the consumer: each progress update as it comes, and
// each end as its call finishes, so ends arrive in completion order. It
// returns when every call has ended, even if the consumer stopped.
func (r *runState) execute(msg fakemodel.AssistantMessage, calls []prepared, outcomes []outcome) error {
	if r.ctx.Err() != nil {
		// Cancelled before they start: none of the calls runs, so no tool
		// acts after the user stopped the run. Pi 0.85.0 does the same;
		// Pi 0.83.0 still starts them, with the cancelled signal.
		for _, p := range calls {
			outcomes[p.slot] = failed(p.call, "Operation aborted")
			outcomes[p.slot].refused = true
			if err := r.emit(outcomes[p.slot].end()); err != nil {
				return err
			}
		}
		return nil
	}
	// exercise: execute-at-once
	events := make(chan Event)
	var wg sync.WaitGroup
	for _, p := range calls {
		wg.Go(func() {
			updates := &reporter{send: func(partial string) {
				events <- ToolExecutionUpdate{ToolCallID: p.call.ID, ToolName: p.call.Name, Args: p.call.Arguments, PartialResult: partial}
			}}
			o := executePreparedToolCall(r.ctx, p, updates.report)
			updates.close()
			o = r.finalizeExecutedToolCall(msg, p, o)
			outcomes[p.slot] = o
			events <- o.end()
		})
	}
	var stopped error
	for ended := 0; ended < len(calls); {
		ev := <-events
		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
		if stopped == nil {
			stopped = r.emit(ev)
		}
	}
	wg.Wait()
	return stopped
	// end of exercise: execute-at-once
}

// A reporter passes a running call's progress notes on to the loop, until
// the call returns. Like Pi, it drops a note that comes later, from a
// goroutine the tool left behind: no update may follow the call's end, and
// no goroutine may wait for a loop that has moved on.
type reporter struct {
	mu     sync.Mutex
	closed bool
	send   func(partial string)
}

func (u *reporter) report(partial string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.closed {
		u.send(partial)
	}
}

// close drops every later note. It waits for a note being sent.
func (u *reporter) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
}

// executePreparedToolCall is Pi's executePreparedToolCall: it runs the tool.
// An error from the tool becomes an error outcome, and so does a panic: a
// bug in one tool must not take the agent down.
func executePreparedToolCall(ctx context.Context, p prepared, report func(partial string)) (o outcome) {
	defer func() {
		if v := recover(); v != nil {
			o = failed(p.call, "Tool %q panicked: %v", p.call.Name, v)
		}
	}()
	content, err := p.tool.run(ctx, p.call.ID, p.args, report)
	if err != nil {
		return failed(p.call, "%v", err)
	}
	return outcome{call: p.call, content: content}
}

// finalizeExecutedToolCall is Pi's finalizeExecutedToolCall: AfterToolCall
// may replace the result's content and error flag; if the hook fails, the
// result becomes an error result.
func (r *runState) finalizeExecutedToolCall(msg fakemodel.AssistantMessage, p prepared, o outcome) outcome {
	if r.cfg.AfterToolCall == nil {
		return o
	}
	after, err := r.cfg.AfterToolCall(r.ctx, AfterToolCallContext{
		AssistantMessage: msg, ToolCall: p.call, Args: p.args, Result: o.content, IsError: o.isError,
	})
	if err != nil {
		return failed(p.call, "%v", err)
	}
	if after.Content != nil {
		o.content = *after.Content
	}
	if after.IsError != nil {
		o.isError = *after.IsError
	}
	return o
}
