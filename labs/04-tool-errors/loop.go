package main

import (
	"context"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Result is what one run of the loop reports.
type Result struct {
	// History is the whole conversation: the prompt and every message the
	// run appended to it.
	History []fakemodel.Message
	// Turns counts turns: requests to the model, each with the tool calls
	// its reply triggers. It is not the number of messages.
	Turns int
	// StopReason says why the loop ended.
	StopReason StopReason
}

// StopReason says why the loop ended. It belongs to the loop, not to one
// reply: an assistant message has a stop reason of its own
// (fakemodel.StopReason).
type StopReason string

// The ways the loop ends.
const (
	// Completed: the model answered without asking for a tool.
	Completed StopReason = "completed"
	// MaxTurns: the turn limit was reached while the model still wanted
	// tools. The user gets no answer.
	MaxTurns StopReason = "max_turns"
	// ModelError: a request to the model failed. There is no reply to act
	// on, so the loop cannot go on.
	ModelError StopReason = "error"
)

// Answer returns what the user finally reads: the text of the last reply,
// if the model completed its answer.
func (r Result) Answer() (string, bool) {
	if r.StopReason != Completed {
		return "", false
	}
	for i := len(r.History) - 1; i >= 0; i-- {
		if a, ok := r.History[i].(fakemodel.AssistantMessage); ok {
			return a.Text, true
		}
	}
	return "", false
}

// runLoop is the agent loop, the counterpart of runLoop in Pi's
// packages/agent/src/agent-loop.ts. The comments number its six steps.
//
// It runs at most maxTurns turns. Pi's loop has no such limit; see the
// README for where Pi puts this policy instead.
//
// Nothing that goes wrong inside a run is an error of runLoop: a failing tool
// becomes a result the model reads, and a failed request becomes the run's
// stop reason.
func runLoop(ctx context.Context, model fakemodel.Model, tools []Tool, prompt string, maxTurns int) Result {
	// Step 1: the user's input enters the history.
	history := []fakemodel.Message{fakemodel.UserMessage{Text: prompt}}

	// The loop's guard: a turn limit. Every turn costs a request, and a model
	// that always asks for another tool would otherwise never stop.
	for turn := 1; turn <= maxTurns; turn++ {
		// Step 2: ask the model, sending the full history, because a model
		// remembers nothing between requests.
		reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)})
		// exercise: failed-request
		if err != nil {
			// The one failure the loop cannot work around. Like Pi, it
			// records the failed reply in the history and stops.
			history = append(history, fakemodel.AssistantMessage{
				StopReason:   fakemodel.StopReasonError,
				ErrorMessage: err.Error(),
			})
			return Result{History: history, Turns: turn, StopReason: ModelError}
		}
		// end of exercise: failed-request
		history = append(history, reply)

		// Step 3: branch on the reply. A reply without tool calls is the
		// answer; nobody has to understand what it says.
		if len(reply.ToolCalls) == 0 {
			return Result{History: history, Turns: turn, StopReason: Completed}
		}

		// exercise: tool-results
		for _, call := range reply.ToolCalls {
			// Step 4: run the tool the model asked for. Whatever goes
			// wrong comes back as a result marked as an error.
			result := execute(ctx, tools, call)
			// Step 5: append the result to the history, an error result
			// too: reading it is how the model corrects itself.
			history = append(history, result)
		}
		// end of exercise: tool-results
		// Step 6: back to step 2, with a longer history.
	}
	// The guard's exit: a graceful stop with a reason, not an error. The
	// caller still gets the history, and decides what to tell the user.
	return Result{History: history, Turns: maxTurns, StopReason: MaxTurns}
}
