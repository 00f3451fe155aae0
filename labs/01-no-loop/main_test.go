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
	cases, err := expected.LabCases("01-no-loop")
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

func TestOneRequestLeavesTheToolCallUnanswered(t *testing.T) {
	history, err := askOnce(context.Background(), fakemodel.Calculator(), fakemodel.CalculatorPrompt)
	require.NoError(t, err)

	want := []fakemodel.Message{
		fakemodel.UserMessage{Text: fakemodel.CalculatorPrompt},
		fakemodel.AssistantMessage{
			Text:       "I will use the calculator.",
			ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: []byte(`{"op":"multiply","a":23,"b":17}`)}},
			StopReason: fakemodel.StopReasonToolUse,
		},
	}
	assert.Empty(t, cmp.Diff(want, history), "history (-want +got)")
	assert.Len(t, history, 2, "the history holds 2 messages")

	calls := unanswered(history)
	require.Len(t, calls, 1, "the tool call is left unanswered")
	assert.Equal(t, "call_1", calls[0].ID)
	for _, m := range history {
		assert.NotEqual(t, fakemodel.RoleToolResult, m.Role(), "nothing ran the tool, so no result exists")
	}
}

func TestUnanswered(t *testing.T) {
	history := []fakemodel.Message{
		fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{{ID: "a"}, {ID: "b"}}},
		fakemodel.ToolResultMessage{ToolCallID: "a"},
	}
	calls := unanswered(history)
	require.Len(t, calls, 1)
	assert.Equal(t, "b", calls[0].ID)
}

func TestModelFailureIsReported(t *testing.T) {
	failing := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable"})
	_, err := askOnce(context.Background(), failing, "hi")
	require.EqualError(t, err, "ask the model: scripted model: 503 Service Unavailable")
}
