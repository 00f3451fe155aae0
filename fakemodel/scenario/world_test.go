package scenario

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScenarioCallsInheritFromTheirTool(t *testing.T) {
	s, err := Parse("x.json", []byte(`{
		"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x", "args": {"k": [1, 2]}}, {"id": "c", "name": "x"}]}],
		"tools": {"x": {"result": "tool", "durationMs": 100, "sequential": true}},
		"calls": {"b": {"result": "call"}, "c": {"error": "failed"}}
	}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(s.Replies[0].ToolCalls[0].Args), "missing args are an empty object")
	assert.Equal(t, `{"k":[1,2]}`, string(s.Replies[0].ToolCalls[1].Args), "args are compacted onto one line")

	tools := s.FakeTools()
	require.Len(t, tools, 1)
	tool := tools[0]
	assert.Equal(t, "x", tool.Name)
	assert.True(t, tool.Sequential)
	synctest.Test(t, func(t *testing.T) {
		for id, want := range map[string]string{"a": "tool", "b": "call"} {
			start := time.Now()
			got, _, err := tool.Call(id).Do(context.Background(), nil, id, func(string) {})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, 100*time.Millisecond, time.Since(start), "call %s keeps its tool's duration", id)
		}
		_, _, err := tool.Call("c").Do(context.Background(), nil, "c", func(string) {})
		assert.EqualError(t, err, "failed", "a call's error outranks its tool's result")
	})
}

func TestFakeToolsComeInTheOrderOfTheirNames(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "tools": {"zip": {}, "ask": {}, "mid": {"sequential": false}}}`))
	require.NoError(t, err)
	var names []string
	for _, tool := range s.FakeTools() {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"ask", "mid", "zip"}, names)
}

func TestScenarioChoicesAndTheirDefaults(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi"}`))
	require.NoError(t, err)
	assert.False(t, s.Sequential())
	assert.Equal(t, "one-at-a-time", s.Mode())

	s, err = Parse("x.json", []byte(`{"prompt": "hi", "toolExecution": "sequential", "queueMode": "all"}`))
	require.NoError(t, err)
	assert.True(t, s.Sequential())
	assert.Equal(t, "all", s.Mode())
}

func TestTheModelPlaysTheReplies(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [
		{"text": "Looking.", "toolCalls": [{"id": "a", "name": "x", "args": {"q": 1}}]},
		{"text": "503 Service Unavailable", "stopReason": "error"}
	]}`))
	require.NoError(t, err)
	model := s.Model()
	history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
	first, err := model.Reply(context.Background(), fakemodel.Request{Messages: history})
	require.NoError(t, err)
	assert.Equal(t, "Looking.", first.Text)
	assert.Equal(t, fakemodel.StopReasonToolUse, first.StopReason)
	require.Len(t, first.ToolCalls, 1)
	assert.Equal(t, `{"q":1}`, string(first.ToolCalls[0].Arguments))

	history = append(history, first, fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "x"})
	_, err = model.Reply(context.Background(), fakemodel.Request{Messages: history})
	assert.EqualError(t, err, "scripted model: 503 Service Unavailable", "a reply with stop reason error is a failed request")

	history = append(history, fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError})
	_, err = model.Reply(context.Background(), fakemodel.Request{Messages: history})
	assert.EqualError(t, err, "scripted model: no reply left for request 3: the script holds 2")
}

func TestActionDo(t *testing.T) {
	tests := []struct {
		name      string
		a         Action
		result    string
		terminate bool
		err       string
		updates   []time.Duration // when each update came
	}{
		{name: "result", a: Action{Result: "ok", Duration: 90 * time.Millisecond}, result: "ok"},
		{name: "terminate", a: Action{Result: "ok", Terminate: true}, result: "ok", terminate: true},
		{name: "error", a: Action{Error: "disk full", Duration: 10 * time.Millisecond}, err: "disk full"},
		{
			name:    "updates spread evenly",
			a:       Action{Result: "ok", Duration: 90 * time.Millisecond, Updates: []string{"1", "2"}},
			result:  "ok",
			updates: []time.Duration{30 * time.Millisecond, 60 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var updates []time.Duration
				result, terminate, err := tt.a.Do(context.Background(), nil, "id", func(string) { updates = append(updates, time.Since(start)) })
				assert.Equal(t, tt.a.Duration, time.Since(start), "the call takes its duration")
				assert.Equal(t, tt.updates, updates)
				if tt.err != "" {
					assert.EqualError(t, err, tt.err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.result, result)
				assert.Equal(t, tt.terminate, terminate)
			})
		})
	}
}

func TestActionPanics(t *testing.T) {
	assert.PanicsWithValue(t, "boom", func() { _, _, _ = Action{Panic: "boom"}.Do(context.Background(), nil, "id", func(string) {}) })
}

func TestActionStopsWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		time.AfterFunc(time.Second, cancel)
		_, _, err := Action{Result: "ok", Duration: time.Hour}.Do(ctx, nil, "id", func(string) {})
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, time.Second, time.Since(start))
	})
}

// TestUpdatesDoNotStretchACall runs, on the demo clock, a call with
// "durationMs": 1000 and 10,000 "updates", whose every report takes the
// machine 50 µs, as printing it does. The call still takes one second: the
// reports do not push its later deadlines back.
func TestUpdatesDoNotStretchACall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := Action{Result: "done", Duration: time.Second, Updates: make([]string, 10_000)}
		clock := democlock.New()
		clock.Start("a")
		start := time.Now()
		reports := 0
		result, _, err := a.Do(t.Context(), clock, "a", func(string) {
			reports++
			time.Sleep(50 * time.Microsecond)
			clock.Reported("a") // as the lab's event handler tells it
		})
		clock.End("a")
		require.NoError(t, err)
		assert.Equal(t, "done", result)
		assert.Equal(t, 10_000, reports)
		assert.Equal(t, time.Second, time.Since(start))
	})
}

// TestAFailedRequestStreamsItsPartialTextFirst: a reply with stop reason
// error and a partial text streams the text word by word, then fails; if
// the run is cancelled while it streams, the rest does not stream, and the
// request is cancelled.
func TestAFailedRequestStreamsItsPartialTextFirst(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "the stream broke", "stopReason": "error", "partial": "The answer is"}]}`))
	require.NoError(t, err)
	var chunks []string
	_, err = s.Model().Reply(context.Background(), fakemodel.Request{Messages: []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}, OnText: func(c string) { chunks = append(chunks, c) }})
	assert.EqualError(t, err, "scripted model: the stream broke")
	assert.Equal(t, []string{"The ", "answer ", "is"}, chunks)

	ctx, cancel := context.WithCancel(context.Background())
	chunks = nil
	_, err = s.Model().Reply(ctx, fakemodel.Request{Messages: []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}, OnText: func(c string) {
		chunks = append(chunks, c)
		cancel()
	}})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"The "}, chunks)
}

// TestThinkingStreamsBeforeTheReply: a reply's thinking streams word by
// word to the context's fakemodel.OnThinking, before the reply's text, and
// is no part of it; without a function there, nothing streams.
func TestThinkingStreamsBeforeTheReply(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "391.", "thinking": "23 times 17"}, {"text": "x", "stopReason": "error", "partial": "Half", "thinking": "Hmm."}]}`))
	require.NoError(t, err)
	var got []string
	ctx := fakemodel.WithOnThinking(context.Background(), func(c string) { got = append(got, "thinks "+c) })
	history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
	model := s.Model() // one reply per request, in order
	reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, OnText: func(c string) { got = append(got, "says "+c) }})
	require.NoError(t, err)
	assert.Equal(t, "391.", reply.Text)
	assert.Equal(t, []string{"thinks 23 ", "thinks times ", "thinks 17", "says 391."}, got)

	got = nil
	history = append(history, reply)
	_, err = model.Reply(ctx, fakemodel.Request{Messages: history, OnText: func(c string) { got = append(got, "says "+c) }})
	assert.Error(t, err)
	assert.Equal(t, []string{"thinks Hmm.", "says Half"}, got, "a failed request streams its thinking, then its partial text")

	_, err = s.Model().Reply(context.Background(), fakemodel.Request{Messages: history[:1]})
	assert.NoError(t, err, "without OnThinking, the thinking is dropped")

	_, err = Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "391.", "thinking": "two\nlines"}]}`))
	assert.ErrorContains(t, err, "replies[0].thinking")
}

// TestUpdatesComeAtTheirMoments: updatesAtMs says when each update comes.
func TestUpdatesComeAtTheirMoments(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "tools": {"x": {"durationMs": 400, "updates": ["a", "b"], "updatesAtMs": [100, 100]}}}`))
	require.NoError(t, err)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		_, _, err := s.FakeTools()[0].Call("c").Do(context.Background(), nil, "c", func(string) { at = append(at, time.Since(start)) })
		require.NoError(t, err)
		assert.Equal(t, []time.Duration{100 * time.Millisecond, 100 * time.Millisecond}, at)
		assert.Equal(t, 400*time.Millisecond, time.Since(start))
	})
}

// TestACallOfItsOwnIsBlocked: "block" in a call's entry blocks that call,
// and the top-level block every call of a tool.
func TestACallOfItsOwnIsBlocked(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x"}]}],
		"tools": {"x": {}}, "calls": {"a": {"block": "invalid"}}, "block": {"y": ""}}`))
	require.NoError(t, err)
	assert.True(t, s.Blocks())
	for _, tt := range []struct {
		tool, id, reason string
		blocked          bool
	}{{"x", "a", "invalid", true}, {"x", "b", "", false}, {"y", "c", "", true}} {
		reason, blocked := s.Hooks().Before(tt.tool, tt.id, nil)
		assert.Equal(t, tt.reason, reason, tt.id)
		assert.Equal(t, tt.blocked, blocked, tt.id)
	}
}
