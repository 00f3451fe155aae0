package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The tests of askOnce and unanswered follow the exercise in the README's
// "Build it yourself", one rule each, in its order; each test's messages
// name its rule. Every model is guarded: a program that asks the model again
// and again fails its test within a second, with a sentence that names the
// likely cause, instead of hanging until go test's timeout.

// guardTurns is how many requests a test lets the program send, far more
// than the one it needs.
const guardTurns = 50

// guard wraps model in expected.Guard.
func guard(t *testing.T, model fakemodel.Model, cause string) fakemodel.Model {
	return expected.Guard(t, model, guardTurns, cause)
}

func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("01-no-loop")
	if !expected.NoError(t, err, "read the lab's cases") {
		return
	}
	if !expected.NotEmpty(t, cases, "the lab has golden files to compare with") {
		return
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if !expected.NoError(t, run(context.Background(), c.Args, &stdout, &stderr), "the program runs without an error") {
				return
			}
			expected.Check(t, c.Name, stdout.Bytes())
			expected.Equal(t, "", stderr.String(), "standard error stays empty")
		})
	}
}

// roles lists who wrote each message of history.
func roles(history []fakemodel.Message) []fakemodel.Role {
	out := make([]fakemodel.Role, len(history))
	for i, m := range history {
		out[i] = m.Role()
	}
	return out
}

// askedAgain is the likely cause when askOnce does not stop asking.
const askedAgain = "does askOnce ask the model once, and return?"

// callOne is the tool call of the calculator model's first reply.
var callOne = fakemodel.ToolCall{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"multiply","a":23,"b":17}`)}

func TestTheRequestCarriesThePromptAndTheTool(t *testing.T) {
	model := &recorder{model: guard(t, fakemodel.Calculator(), askedAgain)}
	_, err := askOnce(context.Background(), model, fakemodel.CalculatorPrompt)
	if !expected.NotEmpty(t, model.requests, "askOnce asks the model before it returns (its error: %v)", err) {
		return
	}

	if !expected.Equal(t, 1, len(model.requests), "askOnce sends one request, and no more") {
		return
	}
	first := model.requests[0]
	expected.AssertHistory(t, []fakemodel.Message{fakemodel.UserMessage{Text: fakemodel.CalculatorPrompt}}, first.Messages,
		"the request holds one message, the prompt")
	if !expected.NotEmpty(t, first.Tools, "the request offers the calculator's spec, calculateSpec: without it, the model cannot ask for calculate") {
		return
	}
	expected.Equal(t, []fakemodel.ToolSpec{calculateSpec}, first.Tools,
		"the request offers the calculator's spec, calculateSpec")
}

func TestModelFailureIsReported(t *testing.T) {
	failing := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable"})
	_, err := askOnce(context.Background(), guard(t, failing, askedAgain), "hi")
	expected.EqualError(t, err, "ask the model: scripted model: 503 Service Unavailable",
		"a failed request ends the program with its error, wrapped as \"ask the model: …\"")
}

func TestTheHistoryHoldsThePromptAndTheReply(t *testing.T) {
	model := guard(t, fakemodel.Calculator(), askedAgain)
	history, err := askOnce(context.Background(), model, fakemodel.CalculatorPrompt)
	if !expected.NoError(t, err, "askOnce asks the calculator model without an error") {
		return
	}

	want := []fakemodel.Message{
		fakemodel.UserMessage{Text: fakemodel.CalculatorPrompt},
		fakemodel.AssistantMessage{
			Text:       "I will use the calculator.",
			ToolCalls:  []fakemodel.ToolCall{callOne},
			StopReason: fakemodel.StopReasonToolUse,
		},
	}
	expected.AssertHistory(t, want, history, "the reply is appended to the history, after the prompt")
	expected.Equal(t, []fakemodel.Role{"user", "assistant"}, roles(history),
		"the history holds 2 messages: nothing ran the tool, so no result exists")
}

func TestOneRequestLeavesTheToolCallUnanswered(t *testing.T) {
	history, err := askOnce(context.Background(), guard(t, fakemodel.Calculator(), askedAgain), fakemodel.CalculatorPrompt)
	if !expected.NoError(t, err, "askOnce asks the calculator model without an error") {
		return
	}

	expected.Equal(t, []fakemodel.ToolCall{callOne}, unanswered(history),
		"the reply asks for calculate, and nothing runs it: unanswered lists call_1")
}

func TestACallWithAResultIsAnswered(t *testing.T) {
	history := []fakemodel.Message{
		fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{{ID: "a"}, {ID: "b"}}},
		fakemodel.ToolResultMessage{ToolCallID: "a"},
	}
	expected.Equal(t, []fakemodel.ToolCall{{ID: "b"}}, unanswered(history),
		"unanswered lists only the calls that no tool result answers: a has one, b has none")
}
