package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The tests of runLoop follow its six steps, one rule each, as in lab 02. The
// turn limit, the exercise in the README's "Build it yourself", adds its
// rules: TestCalculatorCompletesUnderTheLimit and the last tests here. Each
// test's messages name its rule.
// Every model is guarded: a loop that never ends fails its test within a
// second, with a sentence that names the likely cause, instead of hanging
// until go test's timeout.

// guardTurns is how many turns a test lets the loop run, far more than any
// test here needs.
const guardTurns = 50

// guard wraps model in expected.Guard.
func guard(t *testing.T, model fakemodel.Model, cause string) fakemodel.Model {
	return expected.Guard(t, model, guardTurns, cause)
}

func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("03-maxturns")
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

// hello is a reply without tool calls: the answer.
var hello = fakemodel.AssistantMessage{Text: "Hello."}

func TestTheFirstRequestCarriesThePromptAndTheTools(t *testing.T) {
	model := &recorder{model: guard(t, fakemodel.Scripted(hello), "does runLoop return when a reply has no tool calls (step 3)?")}
	_, err := runLoop(context.Background(), model, []Tool{calculator}, "Hi!", 3)
	if !expected.NotEmpty(t, model.requests, "step 2: runLoop asks the model before it returns (its error: %v)", err) {
		return
	}

	first := model.requests[0]
	expected.AssertHistory(t, []fakemodel.Message{fakemodel.UserMessage{Text: "Hi!"}}, first.Messages,
		"step 1: the first request holds one message, the prompt")
	if !expected.NotEmpty(t, first.Tools, "step 2: the request offers the tools' specs, specs(tools): without them, the model cannot ask for a tool") {
		return
	}
	expected.Equal(t, []fakemodel.ToolSpec{calculateSpec}, first.Tools,
		"step 2: the request offers the tools' specs")
}

func TestAFailingModelStopsThisLoop(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable"})
	_, err := runLoop(context.Background(), guard(t, model, "does a failed request end the run (step 2)?"), []Tool{calculator}, "hi", 3)
	if !expected.EqualError(t, err, "turn 1: ask the model: scripted model: 503 Service Unavailable",
		"step 2: a failed request ends the run with its error, wrapped as \"turn N: ask the model: …\"") {
		return
	}
	expected.True(t, errors.Unwrap(err) != nil,
		"step 2: fmt.Errorf wraps the request's error with %w, not %v, so that errors.Is still finds it")
}

func TestAReplyWithoutToolCallsIsTheAnswer(t *testing.T) {
	model := guard(t, fakemodel.Scripted(hello), "does runLoop return when a reply has no tool calls (step 3)?")
	res, err := runLoop(context.Background(), model, []Tool{calculator}, "Hi!", 3)
	if !expected.NoError(t, err, "step 3: a reply without tool calls ends the loop without an error") {
		return
	}

	expected.AssertHistory(t, []fakemodel.Message{
		fakemodel.UserMessage{Text: "Hi!"},
		fakemodel.AssistantMessage{Text: "Hello.", StopReason: fakemodel.StopReasonStop},
	}, res.History, "step 2: the reply is appended to the history")
	expected.Equal(t, 1, res.Turns, "step 3: the loop ends in the turn of the reply without tool calls")
	expected.Equal(t, Completed, res.StopReason, "step 3: the loop ends with stop reason completed")
	answer, ok := res.Answer()
	expected.True(t, ok, "step 3: a completed run has an answer")
	expected.Equal(t, "Hello.", answer, "the answer is the last reply's text")
}

func TestAFailingToolStopsThisLoop(t *testing.T) {
	// Lab 04 fixes this: here a tool error ends the whole run.
	model := guard(t, fakemodel.SelfCorrecting(), "does a failing tool end the run (step 4)?")
	res, err := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)
	if !expected.EqualError(t, err, "turn 1: run calculate: division by zero",
		"step 4: the loop runs the tool the model asked for; its error ends the run, wrapped as \"turn N: …\"") {
		return
	}
	expected.Equal(t, 1, res.Turns, "step 4: the run ends in the turn of the failed call")
	expected.Equal(t, []fakemodel.Role{"user", "assistant"}, roles(res.History),
		"step 4: the failed call has no result in the history")
}

func TestUnknownToolStopsThisLoop(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{{ID: "x", Name: "weather"}}})
	_, err := runLoop(context.Background(), guard(t, model, "does a call of a tool that does not exist end the run (step 4)?"), []Tool{calculator}, "hi", 3)
	expected.EqualError(t, err, "turn 1: the model asked for weather, and there is no such tool",
		"step 4: a call of a tool that does not exist ends the run with execute's error, wrapped as \"turn N: …\"")
}

func TestCalculatorCompletesUnderTheLimit(t *testing.T) {
	model := guard(t, fakemodel.Calculator(), "does each tool result reach the history (step 5)? Does each request send the whole history (step 2)?")
	res, err := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	if !expected.NoError(t, err, "the calculator model's run ends without an error") {
		return
	}

	want := []fakemodel.Message{
		fakemodel.UserMessage{Text: fakemodel.CalculatorPrompt},
		fakemodel.AssistantMessage{
			Text:       "I will use the calculator.",
			ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"multiply","a":23,"b":17}`)}},
			StopReason: fakemodel.StopReasonToolUse,
		},
		fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"},
		fakemodel.AssistantMessage{Text: "23 × 17 = 391.", StopReason: fakemodel.StopReasonStop},
	}
	expected.Equal(t, 2, res.Turns, "2 turns: one asks for calculate, one answers, within the limit of 3")
	expected.Equal(t, Completed, res.StopReason, "a model that answers within the limit completes as in lab 02")
	if !expected.AssertHistory(t, want, res.History,
		"steps 5 and 6: each tool result reaches the history, with the call's ID and the tool's name, and the loop asks again") {
		return // the answer comes from the history
	}
	answer, ok := res.Answer()
	expected.True(t, ok, "a completed run has an answer")
	expected.Equal(t, "23 × 17 = 391.", answer, "the answer is the last reply's text")
}

// twoSumsCalls are the calls of twoSums' first reply, in its order.
var twoSumsCalls = []fakemodel.ToolCall{
	{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"add","a":2,"b":3}`)},
	{ID: "call_2", Name: "calculate", Arguments: []byte(`{"op":"multiply","a":23,"b":17}`)},
}

// twoSums is a model that asks for two tools in one reply, and answers once
// a request ends with a tool result. It reads only the request's last
// message, so that a loop that sends less than the full history breaks the
// rule of the full history, not this one.
type twoSums struct{}

// Reply answers from the request's last message.
func (twoSums) Reply(_ context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role() == fakemodel.RoleToolResult {
		return fakemodel.AssistantMessage{Text: "5 and 391.", StopReason: fakemodel.StopReasonStop}, nil
	}
	return fakemodel.AssistantMessage{Text: "Two sums at once.", ToolCalls: slices.Clone(twoSumsCalls), StopReason: fakemodel.StopReasonToolUse}, nil
}

func TestEveryToolCallOfAReplyRunsInOrder(t *testing.T) {
	var ran []string // the arguments of each call the tool ran, in order
	counting := Tool{Spec: calculateSpec, Run: func(ctx context.Context, args json.RawMessage) (string, error) {
		ran = append(ran, string(args))
		return calculate(ctx, args)
	}}
	model := guard(t, twoSums{}, "does each tool result reach the history (step 5)?")
	res, err := runLoop(context.Background(), model, []Tool{counting}, "What are 2 + 3 and 23 × 17?", 3)
	if !expected.NoError(t, err, "a run with two tool calls in one reply ends without an error") {
		return
	}

	expected.EqualLines(t, []string{string(twoSumsCalls[0].Arguments), string(twoSumsCalls[1].Arguments)}, ran,
		"step 4: every tool call of a reply runs, not only the first, in the order of the calls: the arguments the tool ran with, a call per line")
	expected.AssertHistory(t, []fakemodel.Message{
		fakemodel.UserMessage{Text: "What are 2 + 3 and 23 × 17?"},
		fakemodel.AssistantMessage{Text: "Two sums at once.", ToolCalls: twoSumsCalls, StopReason: fakemodel.StopReasonToolUse},
		fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "5"},
		fakemodel.ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "391"},
		fakemodel.AssistantMessage{Text: "5 and 391.", StopReason: fakemodel.StopReasonStop},
	}, res.History, "step 5: each call's result reaches the history, in the order of the calls")
	expected.Equal(t, 2, res.Turns, "2 turns: one asks for both tools, one answers")
}

func TestEveryRequestCarriesTheFullHistory(t *testing.T) {
	model := &recorder{model: guard(t, fakemodel.Calculator(), "does each tool result reach the history (step 5)?")}
	_, err := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	if !expected.NoError(t, err, "the calculator model's run ends without an error") {
		return
	}

	if !expected.Equal(t, 2, len(model.requests), "one request per turn") {
		return
	}
	expected.Equal(t, []fakemodel.Role{"user"}, roles(model.requests[0].Messages), "step 2: the first request holds the prompt")
	expected.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult"}, roles(model.requests[1].Messages),
		"step 2 sends everything so far, step 5's result included")
	for i, req := range model.requests {
		expected.Equal(t, []fakemodel.ToolSpec{calculateSpec}, req.Tools, "every request offers the tools: request %d", i+1)
	}
}

// runLimited runs the loop with model, the calculator tool and a turn limit,
// guarded after guardAt turns: the request that would start turn guardAt+1
// fails the test, and says why. The tests that count turns guard at the
// limit itself; the others only against a loop that never ends.
func runLimited(t *testing.T, model fakemodel.Model, limit, guardAt int) (Result, *recorder) {
	t.Helper()
	cause := fmt.Sprintf("with a limit of %d, does the loop check the limit before each request?", limit)
	rec := &recorder{model: model}
	res, err := runLoop(context.Background(), expected.Guard(t, rec, guardAt, cause), []Tool{calculator}, fakemodel.CalculatorPrompt, limit)
	if errors.Is(err, expected.ErrGuard) {
		t.FailNow() // the guard has said why
	}
	if !expected.NoError(t, err, "reaching the limit is a stop reason, not an error") {
		t.FailNow()
	}
	return res, rec
}

// turnsReported tells a wrong count of turns from a wrong number of
// requests: a loop that sent as many requests as it should, and reports
// another number of turns, only counts them wrong.
func turnsReported(requests, turns int) string {
	return fmt.Sprintf("Result.Turns counts the turns that ran, one per request (requests sent: %d, Result.Turns: %d)", requests, turns)
}

// TestStubbornModelIsStoppedAfterThreeTurns guards the loop one turn past
// the limit, unlike the tests after it: a loop that runs one turn too many
// then says so, "requests sent", and only a loop that never stops meets
// the guard.
func TestStubbornModelIsStoppedAfterThreeTurns(t *testing.T) {
	res, model := runLimited(t, fakemodel.Stubborn(), 3, 4)
	expected.Equal(t, 3, len(model.requests), "requests sent: a limit of 3 allows 3 turns, one request each")
	expected.Equal(t, 3, res.Turns, "%s: a limit of 3 allows 3 turns", turnsReported(len(model.requests), res.Turns))
	expected.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "toolResult"}, roles(res.History),
		"the history holds 7 messages: the prompt, then a reply and a result per turn, turn 3's result included")
}

// limits are runs of the two models under several limits: the turns each
// takes, the messages its history then holds, and why it ends.
var limits = []struct {
	name     string
	model    fakemodel.Model
	limit    int
	turns    int
	messages int
	reason   StopReason
}{
	{name: "a model that never stops asking", model: fakemodel.Stubborn(), limit: 1, turns: 1, messages: 3, reason: MaxTurns},
	{name: "a model that never stops asking", model: fakemodel.Stubborn(), limit: 3, turns: 3, messages: 7, reason: MaxTurns},
	{name: "a model that never stops asking", model: fakemodel.Stubborn(), limit: 10, turns: 10, messages: 21, reason: MaxTurns},
	{name: "a model that never stops asking", model: fakemodel.Stubborn(), limit: 100, turns: 100, messages: 201, reason: MaxTurns},
	{name: "the calculator model", model: fakemodel.Calculator(), limit: 1, turns: 1, messages: 3, reason: MaxTurns},
	// A reply without tool calls in the last allowed turn is an answer.
	{name: "the calculator model", model: fakemodel.Calculator(), limit: 2, turns: 2, messages: 4, reason: Completed},
	{name: "the calculator model", model: fakemodel.Calculator(), limit: 10, turns: 2, messages: 4, reason: Completed},
}

func TestTheLimitCountsTurns(t *testing.T) {
	for _, tt := range limits {
		t.Run(fmt.Sprintf("%s, limit %d", tt.name, tt.limit), func(t *testing.T) {
			res, model := runLimited(t, tt.model, tt.limit, tt.limit)
			expected.Equal(t, tt.turns, len(model.requests), "requests sent: a limit of %d allows %d turns, one request each; this model takes %d", tt.limit, tt.limit, tt.turns)
			expected.Equal(t, tt.turns, res.Turns, "%s under a limit of %d", turnsReported(len(model.requests), res.Turns), tt.limit)
			expected.Equal(t, tt.messages, len(res.History), "messages in the history: the prompt, then a reply and its results per turn")
		})
	}
}

func TestTheStopReasonSaysWhyTheLoopEnded(t *testing.T) {
	for _, tt := range limits {
		t.Run(fmt.Sprintf("%s, limit %d", tt.name, tt.limit), func(t *testing.T) {
			res, _ := runLimited(t, tt.model, tt.limit, tt.limit+guardTurns)
			expected.Equal(t, tt.reason, res.StopReason,
				"a run the limit ends has stop reason max_turns; a run that ends with an answer, even in the last allowed turn, completed")
			_, ok := res.Answer()
			expected.Equal(t, tt.reason == Completed, ok, "only a completed run has an answer")
		})
	}
}

func TestCalculate(t *testing.T) {
	tests := []struct {
		args, want, err string
	}{
		{args: `{"op":"add","a":2,"b":3}`, want: "5"},
		{args: `{"op":"subtract","a":2,"b":3}`, want: "-1"},
		{args: `{"op":"multiply","a":23,"b":17}`, want: "391"},
		{args: `{"op":"divide","a":100,"b":4}`, want: "25"},
		{args: `{"op":"divide","a":1,"b":3}`, want: "0.3333333333333333"},
		{args: `{"op":"divide","a":1,"b":0}`, err: "division by zero"},
		{args: `{"op":"power","a":1,"b":0}`, err: `unknown op "power"`},
		{args: `{"op":`, err: "decode arguments: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			got, err := calculate(context.Background(), []byte(tt.args))
			if tt.err != "" {
				expected.EqualError(t, err, tt.err, "calculate's error")
				return
			}
			if !expected.NoError(t, err, "calculate answers without an error") {
				return
			}
			expected.Equal(t, tt.want, got, "calculate's answer")
		})
	}
}
