package main

import (
	"context"
	"fmt"

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
func runLoop(ctx context.Context, model fakemodel.Model, tools []Tool, prompt string, maxTurns int) (Result, error) {
	// Step 1: the user's input enters the history.
	history := []fakemodel.Message{fakemodel.UserMessage{Text: prompt}}

	// exercise: turn-limit
	// The loop's guard: a turn limit. Every turn costs a request, and a model
	// that always asks for another tool would otherwise never stop.
	for turn := 1; turn <= maxTurns; turn++ {
		// Step 2: ask the model, sending the full history, because a model
		// remembers nothing between requests.
		reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)})
		if err != nil {
			return Result{History: history, Turns: turn}, fmt.Errorf("turn %d: ask the model: %w", turn, err)
		}
		history = append(history, reply)

		// Step 3: branch on the reply. A reply without tool calls is the
		// answer; nobody has to understand what it says.
		if len(reply.ToolCalls) == 0 {
			return Result{History: history, Turns: turn, StopReason: Completed}, nil
		}

		for _, call := range reply.ToolCalls {
			// Step 4: run the tool the model asked for.
			output, err := execute(ctx, tools, call)
			if err != nil {
				return Result{History: history, Turns: turn}, fmt.Errorf("turn %d: %w", turn, err)
			}
			// Step 5: append the result to the history. Without it the
			// model never sees the result, and asks for the tool again.
			history = append(history, fakemodel.ToolResultMessage{
				ToolCallID: call.ID,
				ToolName:   call.Name,
				Content:    output,
			})
		}
		// Step 6: back to step 2, with a longer history.
	}
	// The guard's exit: a graceful stop with a reason, not an error. The
	// caller still gets the history, and decides what to tell the user.
	return Result{History: history, Turns: maxTurns, StopReason: MaxTurns}, nil
	// end of exercise: turn-limit
}
