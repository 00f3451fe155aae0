package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("04-tool-errors")
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.NoError(t, run(context.Background(), c.Args, &stdout, &stderr))
			expected.Check(t, c.Name, stdout.Bytes())
			assert.Empty(t, stderr.String())
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

func TestSelfCorrectingModelAnswersInTurnThree(t *testing.T) {
	res := runLoop(context.Background(), fakemodel.SelfCorrecting(), []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)

	assert.Equal(t, 3, res.Turns)
	assert.Equal(t, Completed, res.StopReason, "a failing tool does not stop the loop")
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant", "toolResult", "assistant"}, roles(res.History))
	answer, ok := res.Answer()
	assert.True(t, ok)
	assert.Equal(t, "100 ÷ 4 = 25.", answer)

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
	assert.Empty(t, cmp.Diff(want, res.History), "history (-want +got)")
}

func TestEveryFailingCallGetsAnErrorResultAndTheLoopGoesOn(t *testing.T) {
	res := runLoop(context.Background(), badCalls, []Tool{calculator, average}, badCallsPrompt, 3)

	assert.Equal(t, 2, res.Turns, "the model was asked again after the failures")
	assert.Equal(t, Completed, res.StopReason)
	require.Len(t, res.History, 12)
	calls := res.History[1].(fakemodel.AssistantMessage).ToolCalls
	for i, call := range calls {
		result, ok := res.History[2+i].(fakemodel.ToolResultMessage)
		require.True(t, ok, "message %d is a tool result", 2+i)
		assert.Equal(t, call.ID, result.ToolCallID, "results come in the order of the calls")
		assert.Equal(t, i > 0, result.IsError, "only the first call succeeds: %s", result.Content)
	}
}

func TestAFailedModelRequestEndsTheLoopWithStopReasonError(t *testing.T) {
	res := runLoop(context.Background(), failingModel, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)

	assert.Equal(t, 2, res.Turns, "the failed request is turn 2")
	assert.Equal(t, ModelError, res.StopReason)
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant"}, roles(res.History))
	last := res.History[len(res.History)-1].(fakemodel.AssistantMessage)
	assert.Equal(t, fakemodel.StopReasonError, last.StopReason, "the history records the failed reply, as Pi does")
	assert.Equal(t, "scripted model: 503 Service Unavailable: the model is overloaded", last.ErrorMessage)
	_, ok := res.Answer()
	assert.False(t, ok)
}

func TestTheTurnLimitStillHolds(t *testing.T) {
	res := runLoop(context.Background(), fakemodel.Stubborn(), []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	assert.Equal(t, 3, res.Turns)
	assert.Equal(t, MaxTurns, res.StopReason)
	assert.Len(t, res.History, 7)
}

func TestEveryRequestCarriesTheFullHistory(t *testing.T) {
	model := &recorder{model: fakemodel.SelfCorrecting()}
	runLoop(context.Background(), model, []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)

	require.Len(t, model.requests, 3, "one request per turn")
	require.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult"}, roles(model.requests[1].Messages),
		"the error result is in the history the model reads")
	result := model.requests[1].Messages[2].(fakemodel.ToolResultMessage)
	assert.True(t, result.IsError, "the model reads that its call failed")
	for _, req := range model.requests {
		assert.Equal(t, []fakemodel.ToolSpec{calculateSpec}, req.Tools, "every request offers the tools")
	}
}
