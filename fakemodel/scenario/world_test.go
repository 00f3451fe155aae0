package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/google/go-cmp/cmp"
)

func TestScenarioCallsInheritFromTheirTool(t *testing.T) {
	s, err := Parse("x.json", []byte(`{
		"prompt": "hi",
		"replies": [{"toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x", "args": {"k": [1, 2]}}, {"id": "c", "name": "x"}]}],
		"tools": {"x": {"result": "tool", "durationMs": 100, "sequential": true}},
		"calls": {"b": {"result": "call"}, "c": {"error": "failed"}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "the args of call a (missing args are an empty object)", s.Replies[0].ToolCalls[0].Args, `{}`)
	if got, want := string(s.Replies[0].ToolCalls[1].Args), `{"k":[1,2]}`; got != want {
		t.Errorf("the args of call b are %s, want %s: args are compacted onto one line", got, want)
	}

	tools := s.FakeTools()
	if len(tools) != 1 {
		t.Fatalf("FakeTools() returns %d tools, want 1", len(tools))
	}
	tool := tools[0]
	if tool.Name != "x" {
		t.Errorf("the tool's name is %q, want %q", tool.Name, "x")
	}
	if !tool.Sequential {
		t.Errorf("the tool is not sequential, want it sequential")
	}
	synctest.Test(t, func(t *testing.T) {
		for id, want := range map[string]string{"a": "tool", "b": "call"} {
			start := time.Now()
			got, _, err := tool.Call(id).Do(context.Background(), nil, id, func(string) {})
			if err != nil {
				t.Fatalf("call %s: %v", id, err)
			}
			if got != want {
				t.Errorf("call %s returned %q, want %q", id, got, want)
			}
			if took := time.Since(start); took != 100*time.Millisecond {
				t.Errorf("call %s took %v, want 100ms: it keeps its tool's duration", id, took)
			}
		}
		_, _, err := tool.Call("c").Do(context.Background(), nil, "c", func(string) {})
		wantError(t, "call c, whose error outranks its tool's result", err, "failed")
	})
}

// wantJSON checks that got is the JSON value want, whatever its spacing
// and the order of its keys.
func wantJSON(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Errorf("%s: the wanted %s is not JSON: %v", what, want, err)
		return
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s = %s, which is not JSON: %v", what, got, err)
		return
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func TestFakeToolsComeInTheOrderOfTheirNames(t *testing.T) {
	s := parsed(t, `{"prompt": "hi", "tools": {"zip": {}, "ask": {}, "mid": {"sequential": false}}}`)
	var names []string
	for _, tool := range s.FakeTools() {
		names = append(names, tool.Name)
	}
	if want := []string{"ask", "mid", "zip"}; !slices.Equal(names, want) {
		t.Errorf("FakeTools() returns %q, want %q", names, want)
	}
}

func TestScenarioChoicesAndTheirDefaults(t *testing.T) {
	s := parsed(t, `{"prompt": "hi"}`)
	if s.Sequential() {
		t.Errorf("by default, Sequential() = true, want false")
	}
	if got := s.Mode(); got != "one-at-a-time" {
		t.Errorf("by default, Mode() = %q, want %q", got, "one-at-a-time")
	}

	s = parsed(t, `{"prompt": "hi", "toolExecution": "sequential", "queueMode": "all"}`)
	if !s.Sequential() {
		t.Errorf(`with "toolExecution": "sequential", Sequential() = false, want true`)
	}
	if got := s.Mode(); got != "all" {
		t.Errorf(`with "queueMode": "all", Mode() = %q, want %q`, got, "all")
	}
}

func TestTheModelPlaysTheReplies(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [
		{"text": "Looking.", "toolCalls": [{"id": "a", "name": "x", "args": {"q": 1}}]},
		{"text": "503 Service Unavailable", "stopReason": "error"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	model := s.Model()
	history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
	first, err := model.Reply(context.Background(), fakemodel.Request{Messages: history})
	if err != nil {
		t.Fatalf("the first request: %v", err)
	}
	if first.Text != "Looking." {
		t.Errorf("the first reply says %q, want %q", first.Text, "Looking.")
	}
	if first.StopReason != fakemodel.StopReasonToolUse {
		t.Errorf("the first reply's stop reason is %q, want %q", first.StopReason, fakemodel.StopReasonToolUse)
	}
	if len(first.ToolCalls) != 1 {
		t.Fatalf("the first reply asks for %d calls, want 1", len(first.ToolCalls))
	}
	if got, want := string(first.ToolCalls[0].Arguments), `{"q":1}`; got != want {
		t.Errorf("the call's arguments are %s, want %s", got, want)
	}

	history = append(history, first, fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "x"})
	_, err = model.Reply(context.Background(), fakemodel.Request{Messages: history})
	wantError(t, "the second request (a reply with stop reason error is a failed request)", err, "scripted model: 503 Service Unavailable")

	history = append(history, fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError})
	_, err = model.Reply(context.Background(), fakemodel.Request{Messages: history})
	wantError(t, "the third request", err, "scripted model: no reply left for request 3: the script holds 2")
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
				if took := time.Since(start); took != tt.a.Duration {
					t.Errorf("the call took %v, want its duration, %v", took, tt.a.Duration)
				}
				if !slices.Equal(updates, tt.updates) {
					t.Errorf("the updates came at %v, want %v", updates, tt.updates)
				}
				if tt.err != "" {
					wantError(t, "Do", err, tt.err)
					return
				}
				if err != nil {
					t.Fatalf("Do: %v", err)
				}
				if result != tt.result {
					t.Errorf("Do returned %q, want %q", result, tt.result)
				}
				if terminate != tt.terminate {
					t.Errorf("Do returned terminate %v, want %v", terminate, tt.terminate)
				}
			})
		})
	}
}

func TestActionPanics(t *testing.T) {
	defer func() {
		if got := recover(); got != "boom" {
			t.Errorf("Do of an action with panic %q panicked with %#v, want %q", "boom", got, "boom")
		}
	}()
	_, _, _ = Action{Panic: "boom"}.Do(context.Background(), nil, "id", func(string) {})
}

func TestActionStopsWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		time.AfterFunc(time.Second, cancel)
		_, _, err := Action{Result: "ok", Duration: time.Hour}.Do(ctx, nil, "id", func(string) {})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Do, cancelled after a second: error %v, want context.Canceled", err)
		}
		if took := time.Since(start); took != time.Second {
			t.Errorf("Do took %v, want 1s: it ends at the cancel", took)
		}
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
		if err != nil {
			t.Fatal(err)
		}
		if result != "done" {
			t.Errorf("Do returned %q, want %q", result, "done")
		}
		if reports != 10_000 {
			t.Errorf("the call reported %d times, want 10000", reports)
		}
		if took := time.Since(start); took != time.Second {
			t.Errorf("the call took %v, want 1s", took)
		}
	})
}

// TestAFailedRequestStreamsItsPartialTextFirst: a reply with stop reason
// error and a partial text streams the text word by word, then fails; if
// the run is cancelled while it streams, the rest does not stream, and the
// request is cancelled.
func TestAFailedRequestStreamsItsPartialTextFirst(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "the stream broke", "stopReason": "error", "partial": "The answer is"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var chunks []string
	_, err = s.Model().Reply(context.Background(), fakemodel.Request{Messages: []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}, OnText: func(c string) { chunks = append(chunks, c) }})
	wantError(t, "Reply", err, "scripted model: the stream broke")
	if want := []string{"The ", "answer ", "is"}; !slices.Equal(chunks, want) {
		t.Errorf("the chunks are %q, want %q", chunks, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	chunks = nil
	_, err = s.Model().Reply(ctx, fakemodel.Request{Messages: []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}, OnText: func(c string) {
		chunks = append(chunks, c)
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Reply, cancelled at the first chunk: error %v, want context.Canceled", err)
	}
	if want := []string{"The "}; !slices.Equal(chunks, want) {
		t.Errorf("Reply, cancelled at the first chunk: the chunks are %q, want %q", chunks, want)
	}
}

// TestThinkingStreamsBeforeTheReply: a reply's thinking streams word by
// word to the context's fakemodel.OnThinking, before the reply's text, and
// is no part of it; without a function there, nothing streams.
func TestThinkingStreamsBeforeTheReply(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "391.", "thinking": "23 times 17"}, {"text": "x", "stopReason": "error", "partial": "Half", "thinking": "Hmm."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ctx := fakemodel.WithOnThinking(context.Background(), func(c string) { got = append(got, "thinks "+c) })
	history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
	model := s.Model() // one reply per request, in order
	reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, OnText: func(c string) { got = append(got, "says "+c) }})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "391." {
		t.Errorf("the reply says %q, want %q", reply.Text, "391.")
	}
	if want := []string{"thinks 23 ", "thinks times ", "thinks 17", "says 391."}; !slices.Equal(got, want) {
		t.Errorf("the stream is %q, want %q", got, want)
	}

	got = nil
	history = append(history, reply)
	_, err = model.Reply(ctx, fakemodel.Request{Messages: history, OnText: func(c string) { got = append(got, "says "+c) }})
	if err == nil {
		t.Errorf("the second request, whose reply has stop reason error: no error, want one")
	}
	if want := []string{"thinks Hmm.", "says Half"}; !slices.Equal(got, want) {
		t.Errorf("the stream of a failed request is %q, want %q: its thinking, then its partial text", got, want)
	}

	if _, err := s.Model().Reply(context.Background(), fakemodel.Request{Messages: history[:1]}); err != nil {
		t.Errorf("Reply without OnThinking: %v, want the thinking dropped", err)
	}

	_, err = Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "391.", "thinking": "two\nlines"}]}`))
	if want := "replies[0].thinking"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a thinking of two lines: error %v, want one that holds %q", err, want)
	}
}

// TestUpdatesComeAtTheirMoments: updatesAtMs says when each update comes.
func TestUpdatesComeAtTheirMoments(t *testing.T) {
	s := parsed(t, `{"prompt": "hi", "tools": {"x": {"durationMs": 400, "updates": ["a", "b"], "updatesAtMs": [100, 100]}}}`)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		_, _, err := s.FakeTools()[0].Call("c").Do(context.Background(), nil, "c", func(string) { at = append(at, time.Since(start)) })
		if err != nil {
			t.Fatal(err)
		}
		if want := []time.Duration{100 * time.Millisecond, 100 * time.Millisecond}; !slices.Equal(at, want) {
			t.Errorf("the updates came at %v, want %v", at, want)
		}
		if took := time.Since(start); took != 400*time.Millisecond {
			t.Errorf("the call took %v, want 400ms", took)
		}
	})
}

// TestACallOfItsOwnIsBlocked: "block" in a call's entry blocks that call,
// and the top-level block every call of a tool.
func TestACallOfItsOwnIsBlocked(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"toolCalls": [{"id": "a", "name": "x"}, {"id": "b", "name": "x"}]}],
		"tools": {"x": {}}, "calls": {"a": {"block": "invalid"}}, "block": {"y": ""}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Blocks() {
		t.Errorf("Blocks() = false, want true")
	}
	for _, tt := range []struct {
		tool, id, reason string
		blocked          bool
	}{{"x", "a", "invalid", true}, {"x", "b", "", false}, {"y", "c", "", true}} {
		reason, blocked := s.Hooks().Before(tt.tool, tt.id, nil)
		if reason != tt.reason || blocked != tt.blocked {
			t.Errorf("Before(%q, %q) = %q, %v, want %q, %v", tt.tool, tt.id, reason, blocked, tt.reason, tt.blocked)
		}
	}
}

// TestTheModelHandsOnEachRequest asks a scenario's model through a context
// from fakemodel.WithOnRequest: the function gets each request the session
// sends, once, with its history, and not the one the model makes of it to
// play its reply.
func TestTheModelHandsOnEachRequest(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi", "replies": [{"text": "Hello."}, {"text": "Again."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]fakemodel.Message
	ctx := fakemodel.WithOnRequest(context.Background(), func(req fakemodel.Request) { got = append(got, req.Messages) })
	model := s.Model()
	history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
	first, err := model.Reply(ctx, fakemodel.Request{Messages: history})
	if err != nil {
		t.Fatal(err)
	}
	second := append(history, first, fakemodel.UserMessage{Text: "more"})
	if _, err := model.Reply(ctx, fakemodel.Request{Messages: second}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]fakemodel.Message{history, second}, got); diff != "" {
		t.Errorf("the requests handed on, by their messages (-want +got):\n%s", diff)
	}
}
