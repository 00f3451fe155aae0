package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The tests of runLoop check the lab's second exercise, in the README's
// "Build it yourself": each failing call's result reaches the history and the
// loop goes on, and a failed request ends it. tools_test.go checks the first
// exercise, execute. Each test's messages name its rule.
// Every model is guarded: a loop that never ends fails its test within a
// second, with a sentence that names the likely cause, instead of hanging
// until go test's timeout. And every test that runs a tool defers
// failOnPanic.

// guardTurns is how many turns a test lets the loop run, far more than any
// test here needs.
const guardTurns = 50

// guard wraps model in expected.Guard.
func guard(t *testing.T, model fakemodel.Model, cause string) fakemodel.Model {
	return expected.Guard(t, model, guardTurns, cause)
}

// failOnPanic, deferred by a test, turns a panic that escapes the code it
// tests into a failure of that test, which says where the panic happened.
// Unrecovered, the panic would crash the test binary: the tests after it
// would not run, and check would blame their rules.
func failOnPanic(t *testing.T) {
	v := recover()
	if v == nil {
		return
	}
	at, inExecute := panicSite()
	if inExecute {
		expected.Fail(t, "a panic escaped execute: %v (at %s)", v, at)
	} else {
		expected.Fail(t, "the test panicked: %v (at %s)", v, at)
	}
	t.FailNow()
}

// panicSite returns where the panic that a deferred function recovers
// happened: the first frame of the lab's code, tests aside, as
// "average.go:19". inExecute is true if the panic went through execute.
func panicSite() (at string, inExecute bool) {
	_, self, _, _ := runtime.Caller(0)
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		if filepath.Dir(f.File) == filepath.Dir(self) && !strings.HasSuffix(f.File, "_test.go") {
			if at == "" {
				at = fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
			}
			// The test binary names the function by the package's path.
			inExecute = inExecute || strings.HasSuffix(f.Function, ".execute")
		}
		if !more {
			return at, inExecute
		}
	}
}

func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("04-tool-errors")
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
	runLoop(context.Background(), model, []Tool{calculator}, "Hi!", 3)
	if !expected.NotEmpty(t, model.requests, "step 2: runLoop asks the model before it returns") {
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

func TestAReplyWithoutToolCallsIsTheAnswer(t *testing.T) {
	model := guard(t, fakemodel.Scripted(hello), "does runLoop return when a reply has no tool calls (step 3)?")
	res := runLoop(context.Background(), model, []Tool{calculator}, "Hi!", 3)

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

func TestSelfCorrectingModelAnswersInTurnThree(t *testing.T) {
	defer failOnPanic(t)
	model := guard(t, fakemodel.SelfCorrecting(), "does each result, an error result too, reach the history (step 5)?")
	res := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)

	expected.Equal(t, Completed, res.StopReason, "a failing tool does not end the run: the model, asked again, corrects itself, and the run completes")
	expected.Equal(t, 3, res.Turns, "the model corrects itself in turn 2 and answers in turn 3")
	want := []fakemodel.Message{
		fakemodel.UserMessage{Text: fakemodel.SelfCorrectingPrompt},
		fakemodel.AssistantMessage{
			Text:       "I will use the calculator.",
			ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"divide","a":100,"b":0}`)}},
			StopReason: fakemodel.StopReasonToolUse,
		},
		fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "division by zero", IsError: true},
		fakemodel.AssistantMessage{
			Text:       `The calculator says "division by zero". I meant to divide by 4.`,
			ToolCalls:  []fakemodel.ToolCall{{ID: "call_2", Name: "calculate", Arguments: []byte(`{"op":"divide","a":100,"b":4}`)}},
			StopReason: fakemodel.StopReasonToolUse,
		},
		fakemodel.ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "25"},
		fakemodel.AssistantMessage{Text: "100 ÷ 4 = 25.", StopReason: fakemodel.StopReasonStop},
	}
	if !expected.AssertHistory(t, want, res.History, "each result, an error result too, reaches the history: user, assistant, toolResult, assistant, toolResult, assistant") {
		return // the answer comes from the history
	}
	answer, ok := res.Answer()
	expected.True(t, ok, "a completed run has an answer")
	expected.Equal(t, "100 ÷ 4 = 25.", answer, "the answer is the last reply's text")
}

func TestEveryFailingCallGetsAnErrorResultAndTheLoopGoesOn(t *testing.T) {
	defer failOnPanic(t)
	model := guard(t, badCalls, "does each result, an error result too, reach the history (step 5)?")
	res := runLoop(context.Background(), model, []Tool{calculator, average}, badCallsPrompt, 3)

	const rule = "every call of a reply gets a result, in the order of the calls, and the loop goes on"
	expected.Equal(t, Completed, res.StopReason, "%s: the model answers after the failures", rule)
	expected.Equal(t, 2, res.Turns, "%s: the model was asked again after the failures", rule)
	if !expected.Equal(t, 12, len(res.History), "%s: the history holds the prompt, the reply, its 9 results and the answer", rule) {
		return
	}
	reply, ok := res.History[1].(fakemodel.AssistantMessage)
	if !expected.True(t, ok, "message 1 is the reply with the calls") {
		return
	}
	// One line per result, compared at once, so that a rule broken for
	// every call fails once.
	var want, got []string
	for i, call := range reply.ToolCalls {
		result, ok := res.History[2+i].(fakemodel.ToolResultMessage)
		if !expected.True(t, ok, "%s: message %d is a tool result", rule, 2+i) {
			return
		}
		want = append(want, fmt.Sprintf("message %d answers %s, IsError %t", 2+i, call.ID, i > 0))
		got = append(got, fmt.Sprintf("message %d answers %s, IsError %t", 2+i, result.ToolCallID, result.IsError))
	}
	expected.EqualLines(t, want, got, "%s: the results come in the order of the calls, and only call 1 succeeds", rule)
}

func TestEveryRequestCarriesTheFullHistory(t *testing.T) {
	defer failOnPanic(t)
	model := &recorder{model: guard(t, fakemodel.SelfCorrecting(), "does each result, an error result too, reach the history (step 5)?")}
	runLoop(context.Background(), model, []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)

	if !expected.Equal(t, 3, len(model.requests), "one request per turn") {
		return
	}
	if !expected.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult"}, roles(model.requests[1].Messages),
		"the error result is in the history the model reads") {
		return
	}
	result := model.requests[1].Messages[2].(fakemodel.ToolResultMessage)
	expected.True(t, result.IsError, "the model reads that its call failed")
	for i, req := range model.requests {
		expected.Equal(t, []fakemodel.ToolSpec{calculateSpec}, req.Tools, "every request offers the tools: request %d", i+1)
	}
}

func TestAFailedModelRequestEndsTheLoopWithStopReasonError(t *testing.T) {
	defer failOnPanic(t)
	// failingModel's second request fails: a third is a loop that went on.
	model := expected.Guard(t, failingModel, 2, "does a failed request end the loop, with stop reason error?")
	res := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)

	expected.Equal(t, ModelError, res.StopReason, "a failed request ends the loop with stop reason error")
	expected.Equal(t, 2, res.Turns, "the failed request is turn 2, and the last")
	want := []fakemodel.Message{
		fakemodel.UserMessage{Text: fakemodel.CalculatorPrompt},
		fakemodel.AssistantMessage{
			Text:       "I will use the calculator.",
			ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"multiply","a":23,"b":17}`)}},
			StopReason: fakemodel.StopReasonToolUse,
		},
		fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"},
		fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "scripted model: 503 Service Unavailable: the model is overloaded"},
	}
	expected.AssertHistory(t, want, res.History,
		"the history records the failed reply, as Pi does: an assistant message with stop reason error and the request's error")
	_, ok := res.Answer()
	expected.Equal(t, false, ok, "a run that ends on a failed request has no answer")
}

func TestTheTurnLimitStillHolds(t *testing.T) {
	defer failOnPanic(t)
	model := guard(t, fakemodel.Stubborn(), "does the loop check the limit before each request?")
	res := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	expected.Equal(t, 3, res.Turns, "a limit of 3 allows 3 turns")
	expected.Equal(t, MaxTurns, res.StopReason, "a run the limit ends has stop reason max_turns")
	expected.Equal(t, 7, len(res.History), "the prompt, then a reply and a result per turn")
}
