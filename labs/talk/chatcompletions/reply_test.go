package chatcompletions

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// showJSON makes cmp print json.RawMessage as text, not as bytes.
var showJSON = cmp.Transformer("json", func(r json.RawMessage) string { return string(r) })

// weatherQuestion is a history with no tool call yet, so that a call
// without an ID gets the first number, call_1.
var weatherQuestion = []fakemodel.Message{
	fakemodel.UserMessage{Text: "Weather in Oslo and Lima?"},
}

func TestReplyAssemblesTheStream(t *testing.T) {
	tests := []struct {
		fixture string
		want    fakemodel.AssistantMessage
		chunks  []string // what OnText receives, in order
	}{
		{
			fixture: "text.sse",
			want:    fakemodel.AssistantMessage{Text: "23 × 17 = 391.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"23 × 17", " = ", "391."},
		},
		{
			fixture: "tool-call-in-pieces.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_Xy7", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "parallel-tool-calls.sse",
			want: fakemodel.AssistantMessage{
				Text: "Let me look both up.",
				ToolCalls: []fakemodel.ToolCall{
					{ID: "call_oslo", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
					{ID: "call_lima", Name: "weather", Arguments: json.RawMessage(`{"city":"Lima"}`)},
				},
				StopReason: fakemodel.StopReasonToolUse,
			},
			chunks: []string{"Let me look both up."},
		},
		{
			fixture: "length-cut-off-call.sse",
			want: fakemodel.AssistantMessage{
				Text:       "Checking.",
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_cut", Name: "weather", Arguments: json.RawMessage(`{"city":"Os"}`)}},
				StopReason: fakemodel.StopReasonLength,
			},
			chunks: []string{"Checking."},
		},
		{
			fixture: "arguments-trailing-comma.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_bad", Name: "calculate", Arguments: json.RawMessage(`{"op":"add","a":1}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "arguments-raw-line-break.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_w", Name: "write", Arguments: json.RawMessage(`{"path":"a.txt","text":"line1\nline2"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "arguments-windows-path.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_r", Name: "read", Arguments: json.RawMessage(`{"path":"C:\\Users\\ana\\Desktop\\list.txt"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "arguments-unclosed.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_o", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "arguments-unreadable.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_u", Name: "weather", Arguments: json.RawMessage(`{"city": Oslo}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "arguments-as-object.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_obj", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "calls-in-order-of-appearance.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls: []fakemodel.ToolCall{
					{ID: "call_lima", Name: "weather", Arguments: json.RawMessage(`{"city":"Lima"}`)},
					{ID: "call_oslo", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
				},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "whole-calls-without-index.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls: []fakemodel.ToolCall{
					{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
					{ID: "call_2", Name: "weather", Arguments: json.RawMessage(`{"city":"Lima"}`)},
				},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "choice-index-1.sse",
			want:    fakemodel.AssistantMessage{Text: "Sunny in Lima.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"Sunny", " in Lima."},
		},
		{
			fixture: "error-event-then-stop.sse",
			want:    fakemodel.AssistantMessage{Text: "Let me think.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"Let", " me think."},
		},
		{
			fixture: "thinking-reasoning-content.sse",
			want:    fakemodel.AssistantMessage{Text: "23 × 17 = 391.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"23 × 17 = 391."},
		},
		{
			fixture: "thinking-reasoning.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_t", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "ollama-style.sse",
			want:    fakemodel.AssistantMessage{Text: "Hello there.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"Hello", " there."},
		},
		{
			fixture: "comments-crlf.sse",
			want:    fakemodel.AssistantMessage{Text: "one two", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"one", " two"},
		},
		{
			// A piece with neither index nor ID starts a call of its own,
			// as in pi-ai: the last one, whose arguments cannot be read.
			fixture: "calls-without-index.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls: []fakemodel.ToolCall{
					{ID: "call_a", Name: "notes", Arguments: json.RawMessage(`{}`)},
					{ID: "call_b", Name: "weather", Arguments: json.RawMessage(`{}`)},
					{ID: "call_3", Name: "", Arguments: json.RawMessage(`"Lima"}`)},
				},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "call-without-id.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "finish-reason-end.sse",
			want:    fakemodel.AssistantMessage{Text: "Sunny in Lima.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"Sunny", " in Lima."},
		},
		{
			fixture: "finish-reason-function-call.sse",
			want: fakemodel.AssistantMessage{
				ToolCalls:  []fakemodel.ToolCall{{ID: "call_fc", Name: "weather", Arguments: json.RawMessage(`{"city":"Lima"}`)}},
				StopReason: fakemodel.StopReasonToolUse,
			},
		},
		{
			fixture: "no-done.sse",
			want:    fakemodel.AssistantMessage{Text: "Done.", StopReason: fakemodel.StopReasonStop},
			chunks:  []string{"Done."},
		},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.fixture, ".sse"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, sse(t, tt.fixture))
				var chunks []string
				reply, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{
					Messages: weatherQuestion,
					OnText:   func(chunk string) { chunks = append(chunks, chunk) },
				})
				require.NoError(t, err)
				assert.Empty(t, cmp.Diff(tt.want, reply, showJSON), "the reply assembled from the stream (-want +got)")
				assert.Equal(t, tt.chunks, chunks, "OnText receives each piece of text as it arrives")
				assert.Equal(t, reply.Text, strings.Join(chunks, ""), "joined, the chunks are the reply's text")
				for _, c := range reply.ToolCalls {
					_, readable, _ := readArguments(string(c.Arguments))
					assert.True(t, json.Valid(c.Arguments) || !readable, "a tool call's arguments are JSON, or a text that cannot be read as JSON: %s", c.Arguments)
				}
				synctest.Wait()
				srv.requireHungUp(t)
			})
		})
	}
}

func TestReplyStreamsTextBeforeTheReplyEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The server sends the first words, then waits for the test.
		next := make(chan struct{})
		srv := startServer(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"First"}}]}`+"\n\n")
			w.(http.Flusher).Flush()
			<-next
			_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":" words."},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		})
		var chunks []string
		go func() {
			synctest.Wait()
			assert.Equal(t, []string{"First"}, chunks, "the first piece must reach OnText while the server still writes the reply")
			close(next)
		}()
		reply, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{
			Messages: weatherQuestion,
			OnText:   func(chunk string) { chunks = append(chunks, chunk) },
		})
		require.NoError(t, err)
		assert.Equal(t, "First words.", reply.Text)
		assert.Equal(t, []string{"First", " words."}, chunks)
		synctest.Wait()
		srv.requireHungUp(t)
	})
}
