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
	cases, err := expected.LabCases("03-maxturns")
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

func TestStubbornModelIsStoppedAfterThreeTurns(t *testing.T) {
	res, err := runLoop(context.Background(), fakemodel.Stubborn(), []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	require.NoError(t, err, "reaching the limit is a stop reason, not an error")

	assert.Equal(t, 3, res.Turns)
	assert.Equal(t, MaxTurns, res.StopReason)
	assert.Len(t, res.History, 7)
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "toolResult"}, roles(res.History))
	_, ok := res.Answer()
	assert.False(t, ok, "the model never answered")
}

func TestCalculatorCompletesUnderTheLimit(t *testing.T) {
	res, err := runLoop(context.Background(), fakemodel.Calculator(), []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	require.NoError(t, err)

	assert.Equal(t, 2, res.Turns)
	assert.Equal(t, Completed, res.StopReason)
	assert.Len(t, res.History, 4)
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant"}, roles(res.History))
	answer, ok := res.Answer()
	assert.True(t, ok)
	assert.Equal(t, "23 × 17 = 391.", answer)

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
	assert.Empty(t, cmp.Diff(want, res.History), "history (-want +got)")
}

func TestTheLimitCountsTurns(t *testing.T) {
	tests := []struct {
		model    fakemodel.Model
		limit    int
		turns    int
		messages int
		reason   StopReason
	}{
		{model: fakemodel.Stubborn(), limit: 1, turns: 1, messages: 3, reason: MaxTurns},
		{model: fakemodel.Stubborn(), limit: 10, turns: 10, messages: 21, reason: MaxTurns},
		{model: fakemodel.Stubborn(), limit: 100, turns: 100, messages: 201, reason: MaxTurns},
		{model: fakemodel.Calculator(), limit: 1, turns: 1, messages: 3, reason: MaxTurns},
		// A reply without tool calls in the last allowed turn is an answer.
		{model: fakemodel.Calculator(), limit: 2, turns: 2, messages: 4, reason: Completed},
		{model: fakemodel.Calculator(), limit: 10, turns: 2, messages: 4, reason: Completed},
	}
	for _, tt := range tests {
		model := &recorder{model: tt.model}
		res, err := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, tt.limit)
		require.NoError(t, err)
		assert.Equal(t, tt.turns, res.Turns, "limit %d", tt.limit)
		assert.Len(t, model.requests, tt.turns, "one request per turn")
		assert.Len(t, res.History, tt.messages, "limit %d", tt.limit)
		assert.Equal(t, tt.reason, res.StopReason, "limit %d", tt.limit)
	}
}

func TestEveryRequestCarriesTheFullHistory(t *testing.T) {
	model := &recorder{model: fakemodel.Calculator()}
	_, err := runLoop(context.Background(), model, []Tool{calculator}, fakemodel.CalculatorPrompt, 3)
	require.NoError(t, err)

	require.Len(t, model.requests, 2, "one request per turn")
	assert.Equal(t, []fakemodel.Role{"user"}, roles(model.requests[0].Messages))
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult"}, roles(model.requests[1].Messages),
		"step 2 sends everything so far, step 5's result included")
	for _, req := range model.requests {
		assert.Equal(t, []fakemodel.ToolSpec{calculateSpec}, req.Tools, "every request offers the tools")
	}
}

func TestAFailingToolStopsThisLoop(t *testing.T) {
	// Lab 04 fixes this: here a tool error ends the whole run.
	res, err := runLoop(context.Background(), fakemodel.SelfCorrecting(), []Tool{calculator}, fakemodel.SelfCorrectingPrompt, 3)
	require.EqualError(t, err, "turn 1: run calculate: division by zero")
	assert.Equal(t, 1, res.Turns)
	assert.Len(t, res.History, 2, "the failed call has no result in the history")
}

func TestUnknownToolStopsThisLoop(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{{ID: "x", Name: "weather"}}})
	_, err := runLoop(context.Background(), model, []Tool{calculator}, "hi", 3)
	require.EqualError(t, err, "turn 1: the model asked for weather, and there is no such tool")
}

func TestAFailingModelStopsThisLoop(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable"})
	_, err := runLoop(context.Background(), model, []Tool{calculator}, "hi", 3)
	require.EqualError(t, err, "turn 1: ask the model: scripted model: 503 Service Unavailable")
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
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
