package chatcompletions

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

var calculateSpec = fakemodel.ToolSpec{
	Name:        "calculate",
	Description: "Does arithmetic on two numbers.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"op":{"type":"string","enum":["add","multiply"]},"a":{"type":"number"},"b":{"type":"number"}},"required":["op","a","b"]}`),
}

// A history with every kind of message the loop writes.
var everyKindOfMessage = []fakemodel.Message{
	fakemodel.UserMessage{Text: "What is 23 × 17, and 2 + 2?"},
	fakemodel.AssistantMessage{
		Text: "I will use the calculator.",
		ToolCalls: []fakemodel.ToolCall{
			{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)},
			{ID: "call_2", Name: "calculate", Arguments: json.RawMessage(`"{\"op\":\"add\","`)},
		},
		StopReason: fakemodel.StopReasonToolUse,
	},
	fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"},
	fakemodel.ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "arguments must be a JSON object, not a string", IsError: true},
	fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "chat completions: the server answered 500 Internal Server Error"},
	fakemodel.UserMessage{Text: "Only the product, please."},
	fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonAborted, ErrorMessage: "chat completions: context canceled"},
	fakemodel.AssistantMessage{Text: " \n", StopReason: fakemodel.StopReasonStop},
	fakemodel.AssistantMessage{
		ToolCalls:  []fakemodel.ToolCall{{ID: "call_3", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":2,"b":2}`)}},
		StopReason: fakemodel.StopReasonToolUse,
	},
	fakemodel.ToolResultMessage{ToolCallID: "call_3", ToolName: "calculate", Content: "4"},
	fakemodel.AssistantMessage{Text: "23 × 17 = 391.", StopReason: fakemodel.StopReasonStop},
}

// everyKindOfMessageOnTheWire is what the server receives for that history.
const everyKindOfMessageOnTheWire = `{
	"model": "test-model",
	"stream": true,
	"messages": [
		{"role": "user", "content": "What is 23 × 17, and 2 + 2?"},
		{"role": "assistant", "content": "I will use the calculator.", "tool_calls": [
			{"id": "call_1", "type": "function", "function": {"name": "calculate", "arguments": "{\"op\":\"multiply\",\"a\":23,\"b\":17}"}},
			{"id": "call_2", "type": "function", "function": {"name": "calculate", "arguments": "{}"}}
		]},
		{"role": "tool", "tool_call_id": "call_1", "content": "391"},
		{"role": "tool", "tool_call_id": "call_2", "content": "Error: arguments must be a JSON object, not a string"},
		{"role": "user", "content": "Only the product, please."},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "call_3", "type": "function", "function": {"name": "calculate", "arguments": "{\"op\":\"add\",\"a\":2,\"b\":2}"}}
		]},
		{"role": "tool", "tool_call_id": "call_3", "content": "4"},
		{"role": "assistant", "content": "23 × 17 = 391."}
	],
	"tools": [
		{"type": "function", "function": {
			"name": "calculate",
			"description": "Does arithmetic on two numbers.",
			"parameters": {"type":"object","properties":{"op":{"type":"string","enum":["add","multiply"]},"a":{"type":"number"},"b":{"type":"number"}},"required":["op","a","b"]}
		}},
		{"type": "function", "function": {"name": "notes"}}
	]
}`

func TestReplySendsTheHistoryAndTools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		_, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{
			Messages: everyKindOfMessage,
			Tools:    []fakemodel.ToolSpec{calculateSpec, {Name: "notes"}},
		})
		require.NoError(t, err)
		got, err := json.MarshalIndent(srv.requestJSON(t), "", "\t")
		require.NoError(t, err)
		assert.JSONEq(t, everyKindOfMessageOnTheWire, string(got),
			"user → user; assistant → assistant with tool_calls, its arguments as a string, {} for arguments that are not an object; "+
				"toolResult → tool, an error result marked with %q; failed, cancelled and empty replies left out", errorPrefix)
		assert.Equal(t, []string{"application/json"}, srv.header(t, "Content-Type"))
		assert.Empty(t, srv.header(t, "Authorization"), "without OPENAI_API_KEY, no Authorization header")
	})
}

func TestReplySendsNoToolsWhenThereAreNone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		_, err := srv.model(t, Config{ModelName: "qwen3:8b"}).Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
		require.NoError(t, err)
		body := srv.requestJSON(t)
		assert.NotContains(t, body, "tools", "some servers reject an empty tools array")
		assert.Equal(t, "qwen3:8b", body["model"])
		assert.Equal(t, true, body["stream"])
		assert.NotContains(t, body, "stream_options", "usage is of no use here, and not every server accepts stream_options")
	})
}

func TestReplySendsTheKeyAsABearerToken(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789")
	key := APIKeyFromEnv()
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		_, err := srv.model(t, Config{APIKey: key}).Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
		require.NoError(t, err)
		assert.Equal(t, []string{"Bearer sk-test-0123456789"}, srv.header(t, "Authorization"))
	})
}

func TestReplyRejectsToolParametersThatAreNotJSON(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		_, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{
			Messages: weatherQuestion,
			Tools:    []fakemodel.ToolSpec{{Name: "weather", Parameters: json.RawMessage(`{"type":`)}},
		})
		require.Error(t, err)
		assert.Equal(t, `chat completions: tool "weather": its parameters (a JSON Schema) are not valid JSON`, err.Error())
		synctest.Wait()
		srv.mu.Lock()
		defer srv.mu.Unlock()
		assert.Empty(t, srv.bodies, "a request that cannot be encoded is not sent")
	})
}

// TestACallWithoutAResultGetsOne: a run cancelled while its tool calls were
// prepared leaves the later calls without a result, and a reply aborted
// after them. A server rejects such a history (HTTP 400), so the request
// answers each such call with an error result, "No result provided", as
// pi-ai 0.83.0's transformMessages does: where the next user or assistant
// message begins, after the results that did come, or at the end.
func TestACallWithoutAResultGetsOne(t *testing.T) {
	call := func(id string) fakemodel.ToolCall {
		return fakemodel.ToolCall{ID: id, Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}
	}
	history := []fakemodel.Message{
		fakemodel.UserMessage{Text: "Weather in Oslo, Lima and Cairo?"},
		fakemodel.AssistantMessage{Text: "Looking.", ToolCalls: []fakemodel.ToolCall{call("a"), call("b"), call("c")}, StopReason: fakemodel.StopReasonToolUse},
		fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "weather", Content: "Operation aborted", IsError: true},
		fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonAborted, ErrorMessage: "chat completions: context canceled"},
		fakemodel.UserMessage{Text: "Only Oslo."},
		fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{call("d")}, StopReason: fakemodel.StopReasonToolUse},
	}
	want := `[
		{"role": "user", "content": "Weather in Oslo, Lima and Cairo?"},
		{"role": "assistant", "content": "Looking.", "tool_calls": [
			{"id": "a", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}},
			{"id": "b", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}},
			{"id": "c", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}
		]},
		{"role": "tool", "tool_call_id": "a", "content": "Error: Operation aborted"},
		{"role": "tool", "tool_call_id": "b", "content": "Error: No result provided"},
		{"role": "tool", "tool_call_id": "c", "content": "Error: No result provided"},
		{"role": "user", "content": "Only Oslo."},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "d", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}
		]},
		{"role": "tool", "tool_call_id": "d", "content": "Error: No result provided"}
	]`
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		_, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{Messages: history})
		require.NoError(t, err)
		got, err := json.Marshal(srv.requestJSON(t)["messages"])
		require.NoError(t, err)
		assert.JSONEq(t, want, string(got), "every call has a result on the wire, the history aside")
	})
	assert.Len(t, history, 6, "the history itself is not changed")
}

func TestEveryCallWithAResultKeepsItsOwn(t *testing.T) {
	for _, m := range wireMessages(everyKindOfMessage) {
		if m.Role == "tool" {
			assert.NotContains(t, *m.Content, noResult, "call %s has a result of its own", m.ToolCallID)
		}
	}
}
