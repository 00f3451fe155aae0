// Lab 01-no-loop sends one request to a model that wants a tool, and stops
// there. Nothing runs the tool, so the question is never answered. This is
// the hole that the agent loop of lab 02 fills.
//
//	go run ./labs/01-no-loop
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// about is what -h prints above the flags.
const about = `Lab 01 sends one request to a model that wants a tool, and stops there.
The model answers with a tool call, but a model cannot run anything: it
can only ask. Nothing in this program runs the tool, so the question is
never answered. Lab 02 adds the loop that does.`

func main() { cli.Main(run) }

// run is the whole program: cli.Main turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var opts options
	if err := newFlagSet(&opts).Parse(args, stdout, stderr); err != nil {
		return err
	}
	model := &recorder{model: fakemodel.Calculator()}
	history, err := askOnce(ctx, model, fakemodel.CalculatorPrompt)
	if err != nil {
		return err
	}
	p := newPrinter(stdout)
	p.transcript(history, model.shown(opts))
	p.line("program ended after one request: nothing runs the tool")
	for _, call := range unanswered(history) {
		p.line(fmt.Sprintf("unanswered tool call: %s %s", call.ID, call.Name))
	}
	p.line(p.warn.Sprint("answer: none (23 × 17 was never computed)"))
	p.historySize(history)
	return nil
}

// askOnce is all the "agent" this lab has: the prompt goes into the history,
// the history goes to the model once, and the reply is appended. If the
// reply asks for a tool, nobody runs it.
func askOnce(ctx context.Context, model fakemodel.Model, prompt string) ([]fakemodel.Message, error) {
	// exercise: ask-once
	history := []fakemodel.Message{fakemodel.UserMessage{Text: prompt}}
	reply, err := model.Reply(ctx, fakemodel.Request{
		Messages: history,
		Tools:    []fakemodel.ToolSpec{calculateSpec},
	})
	if err != nil {
		return history, fmt.Errorf("ask the model: %w", err)
	}
	return append(history, reply), nil
	// end of exercise: ask-once
}

// unanswered returns the tool calls in history that no tool result answers.
func unanswered(history []fakemodel.Message) []fakemodel.ToolCall {
	// exercise: unanswered
	var calls []fakemodel.ToolCall
	for _, m := range history {
		if a, ok := m.(fakemodel.AssistantMessage); ok {
			for _, call := range a.ToolCalls {
				if _, ok := resultFor(history, call.ID); !ok {
					calls = append(calls, call)
				}
			}
		}
	}
	return calls
	// end of exercise: unanswered
}

// resultFor finds the tool result that answers the call with this ID.
func resultFor(history []fakemodel.Message, id string) (fakemodel.ToolResultMessage, bool) {
	for _, m := range history {
		if r, ok := m.(fakemodel.ToolResultMessage); ok && r.ToolCallID == id {
			return r, true
		}
	}
	return fakemodel.ToolResultMessage{}, false
}
