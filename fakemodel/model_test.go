package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"

	"github.com/google/go-cmp/cmp"
)

var calculate = ToolSpec{Name: "calculate", Description: "Does arithmetic."}

// ask sends history and tools to model and fails the test on an error.
func ask(t *testing.T, model Model, tools []ToolSpec, history ...Message) AssistantMessage {
	t.Helper()
	reply, err := model.Reply(context.Background(), Request{Messages: history, Tools: tools})
	if err != nil {
		t.Fatalf("Reply: %v", err)
	}
	return reply
}

// wantJSON checks that got is the JSON value want, whatever its spacing
// and the order of its keys.
func wantJSON(t *testing.T, what string, got []byte, want string) {
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

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestReplyDependsOnlyOnTheRequest(t *testing.T) {
	models := map[string]Model{
		"calculator":      Calculator(),
		"stubborn":        Stubborn(),
		"self-correcting": SelfCorrecting(),
		"forecaster":      Forecaster(),
		"researcher":      Researcher("calculate"),
		"scripted":        Scripted(AssistantMessage{Text: "one"}, AssistantMessage{Text: "two"}),
	}
	history := []Message{UserMessage{Text: "hi"}}
	tools := []ToolSpec{calculate, {Name: "weather"}}
	for name, model := range models {
		t.Run(name, func(t *testing.T) {
			first := ask(t, model, tools, history...)
			second := ask(t, model, tools, history...)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("the same request must get the same reply (-first +second):\n%s", diff)
			}
		})
	}
}

func TestAHistoryBeyondTheContextWindowFails(t *testing.T) {
	// A loop that forgets step 5 sends one more message each turn: the
	// calculator's reply, never a result. It fails once the history no
	// longer fits, instead of running forever.
	history := []Message{UserMessage{Text: CalculatorPrompt}}
	for len(history) < ContextWindow {
		history = append(history, ask(t, Calculator(), []ToolSpec{calculate}, history...))
	}
	if len(history) != ContextWindow {
		t.Fatalf("the history holds %d messages, want %d: a full window is still answered", len(history), ContextWindow)
	}
	overflow := append(history, ask(t, Calculator(), []ToolSpec{calculate}, history...))
	_, err := Calculator().Reply(context.Background(), Request{Messages: overflow, Tools: []ToolSpec{calculate}})
	if got, want := errText(err), fmt.Sprintf("calculator model: the request holds %d messages, more than the context window of %d", ContextWindow+1, ContextWindow); got != want {
		t.Fatalf("Reply of %d messages: error %q, want %q", len(overflow), got, want)
	}
}

func TestReplyFailsWhenTheContextIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Calculator().Reply(ctx, Request{Tools: []ToolSpec{calculate}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Reply on a cancelled context: error %v, want context.Canceled", err)
	}
	if got, want := err.Error(), "calculator model: context canceled"; got != want {
		t.Errorf("Reply on a cancelled context: error %q, want %q", got, want)
	}
}

func TestReplyStreamsItsTextInChunks(t *testing.T) {
	var chunks []string
	history := []Message{
		UserMessage{Text: CalculatorPrompt},
		AssistantMessage{ToolCalls: []ToolCall{{ID: "call_1", Name: "calculate"}}},
		ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"},
	}
	reply, err := Calculator().Reply(context.Background(), Request{
		Messages: history,
		Tools:    []ToolSpec{calculate},
		OnText:   func(chunk string) { chunks = append(chunks, chunk) },
	})
	if err != nil {
		t.Fatalf("Reply: %v", err)
	}
	if want := []string{"23 ", "× ", "17 ", "= ", "391."}; !slices.Equal(chunks, want) {
		t.Errorf("the chunks are %q, want %q", chunks, want)
	}
	if joined := strings.Join(chunks, ""); joined != reply.Text {
		t.Errorf("the chunks join to %q, want the reply's text, %q", joined, reply.Text)
	}
}

func TestReplyStopsStreamingWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var chunks []string
	_, err := Scripted(AssistantMessage{Text: "one two three"}).Reply(ctx, Request{OnText: func(chunk string) {
		chunks = append(chunks, chunk)
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Reply, cancelled at the first chunk: error %v, want context.Canceled", err)
	}
	if want := []string{"one "}; !slices.Equal(chunks, want) {
		t.Errorf("the chunks are %q, want %q: no chunk may arrive after the cancellation", chunks, want)
	}
}

// TestACancelAtAnyChunkCancelsTheReply: Reply keeps its contract at every
// moment of the stream. A cancel while any chunk is handled, the last one
// included, makes Reply fail with the cancellation: the reply is never
// returned whole once its context is cancelled. So are the tool calls it
// asks for: a caller gets none of them.
func TestACancelAtAnyChunkCancelsTheReply(t *testing.T) {
	reply := AssistantMessage{Text: "I will look that up.", ToolCalls: []ToolCall{{ID: "a", Name: "search", Arguments: []byte(`{}`)}}}
	n := len(Chunks(reply.Text))
	if n != 5 {
		t.Fatalf("%q streams in %d chunks, want 5", reply.Text, n)
	}
	for at := range n {
		t.Run(fmt.Sprintf("at chunk %d of %d", at+1, n), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got := 0
			msg, err := Scripted(reply).Reply(ctx, Request{OnText: func(string) {
				if got == at {
					cancel()
				}
				got++
			}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Reply: error %v, want context.Canceled", err)
			}
			if got != at+1 {
				t.Errorf("%d chunks arrived, want %d: no chunk after the cancel", got, at+1)
			}
			if len(msg.ToolCalls) != 0 {
				t.Errorf("the reply holds the tool calls %+v, want none", msg.ToolCalls)
			}
		})
	}
	t.Run("without a stream", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Scripted(reply).Reply(ctx, Request{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Reply on a cancelled context: error %v, want context.Canceled", err)
		}
	})
}

func TestChunksJoinBackToTheText(t *testing.T) {
	joined := func(text string) bool { return strings.Join(Chunks(text), "") == text }
	if err := quick.Check(joined, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := Chunks("a  b c"), []string{"a  ", "b ", "c"}; !slices.Equal(got, want) {
		t.Errorf("Chunks(%q) = %q, want %q", "a  b c", got, want)
	}
	if got := Chunks(""); len(got) != 0 {
		t.Errorf("Chunks(%q) = %q, want none", "", got)
	}
}

// TestChineseStreamsACharacterAtATime: Chinese and Japanese put no spaces
// between words, so a reply in them streams a character at a time, each
// mark of punctuation too, and not all at once.
func TestChineseStreamsACharacterAtATime(t *testing.T) {
	tests := []struct {
		text string
		want []string
		why  string
	}{
		{"奥斯陆在下雨。", []string{"奥", "斯", "陆", "在", "下", "雨", "。"}, ""},
		{"Oslo 在下雨，12 度", []string{"Oslo ", "在", "下", "雨", "，", "12 ", "度"}, ""},
		{"晴れです。", []string{"晴", "れ", "で", "す", "。"}, ""},
		{"déjà vu", []string{"déjà ", "vu"}, ": other letters keep their words"},
	}
	for _, tt := range tests {
		if got := Chunks(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Chunks(%q) = %q, want %q%s", tt.text, got, tt.want, tt.why)
		}
	}
}

func TestCalculator(t *testing.T) {
	tools := []ToolSpec{calculate}
	user := UserMessage{Text: CalculatorPrompt}

	first := ask(t, Calculator(), tools, user)
	want := AssistantMessage{
		Text:       "I will use the calculator.",
		ToolCalls:  []ToolCall{{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)}},
		StopReason: StopReasonToolUse,
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("the first reply (-want +got):\n%s", diff)
	}

	result := ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}
	second := ask(t, Calculator(), tools, user, first, result)
	if diff := cmp.Diff(AssistantMessage{Text: "23 × 17 = 391.", StopReason: StopReasonStop}, second); diff != "" {
		t.Errorf("the reply to the result (-want +got):\n%s", diff)
	}

	failed := ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "overflow", IsError: true}
	if got, want := ask(t, Calculator(), tools, user, first, failed).Text, "The calculator failed: overflow"; got != want {
		t.Errorf("the reply to an error result says %q, want %q", got, want)
	}

	noTool := ask(t, Calculator(), nil, user)
	if len(noTool.ToolCalls) != 0 {
		t.Errorf("without tools, the reply asks for %+v, want no call: a model may only ask for a tool it was offered", noTool.ToolCalls)
	}
	if noTool.StopReason != StopReasonStop {
		t.Errorf("without tools, the stop reason is %q, want %q", noTool.StopReason, StopReasonStop)
	}
}

func TestCalculatorAsksAgainWhenTheResultIsMissing(t *testing.T) {
	// The loop forgot step 5: the history holds no result, so the model
	// makes the same decision again.
	user := UserMessage{Text: CalculatorPrompt}
	first := ask(t, Calculator(), []ToolSpec{calculate}, user)
	again := ask(t, Calculator(), []ToolSpec{calculate}, user, first)
	if len(again.ToolCalls) != 1 {
		t.Fatalf("the reply asks for %d calls, want 1", len(again.ToolCalls))
	}
	if got := again.ToolCalls[0].ID; got != "call_2" {
		t.Errorf("the call's ID is %q, want %q: IDs stay unique across the conversation", got, "call_2")
	}
}

func TestStubbornNeverAnswers(t *testing.T) {
	history := []Message{UserMessage{Text: CalculatorPrompt}}
	for check := 1; check <= 10; check++ {
		reply := ask(t, Stubborn(), []ToolSpec{calculate}, history...)
		if len(reply.ToolCalls) != 1 {
			t.Fatalf("check %d: the reply asks for %d calls, want 1", check, len(reply.ToolCalls))
		}
		if reply.StopReason != StopReasonToolUse {
			t.Errorf("check %d: the stop reason is %q, want %q", check, reply.StopReason, StopReasonToolUse)
		}
		if check > 1 && !strings.Contains(reply.Text, "once more") {
			t.Errorf("check %d: the reply says %q, want it to hold %q", check, reply.Text, "once more")
		}
		history = append(history, reply, ToolResultMessage{ToolCallID: reply.ToolCalls[0].ID, ToolName: "calculate", Content: "391"})
	}
}

func TestSelfCorrecting(t *testing.T) {
	tools := []ToolSpec{calculate}
	history := []Message{UserMessage{Text: SelfCorrectingPrompt}}

	first := ask(t, SelfCorrecting(), tools, history...)
	if len(first.ToolCalls) != 1 {
		t.Fatalf("the first reply asks for %d calls, want 1", len(first.ToolCalls))
	}
	wantJSON(t, "the first call's arguments", first.ToolCalls[0].Arguments, `{"op":"divide","a":100,"b":0}`)
	history = append(history, first, ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "division by zero", IsError: true})

	second := ask(t, SelfCorrecting(), tools, history...)
	if len(second.ToolCalls) != 1 {
		t.Fatalf("the second reply asks for %d calls, want 1", len(second.ToolCalls))
	}
	wantJSON(t, "the second call's arguments", second.ToolCalls[0].Arguments, `{"op":"divide","a":100,"b":4}`)
	if want := `The calculator says "division by zero". I meant to divide by 4.`; second.Text != want {
		t.Errorf("the second reply says %q, want %q", second.Text, want)
	}
	if got := second.ToolCalls[0].ID; got != "call_2" {
		t.Errorf("the second call's ID is %q, want %q", got, "call_2")
	}

	succeeded := append(history, second, ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "25"})
	if diff := cmp.Diff(AssistantMessage{Text: "100 ÷ 4 = 25.", StopReason: StopReasonStop}, ask(t, SelfCorrecting(), tools, succeeded...)); diff != "" {
		t.Errorf("the answer after the corrected call (-want +got):\n%s", diff)
	}

	failedTwice := append(history, second, ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "broken", IsError: true})
	gaveUp := ask(t, SelfCorrecting(), tools, failedTwice...)
	if len(gaveUp.ToolCalls) != 0 {
		t.Errorf("after a second error the reply asks for %+v, want no call: the model stops asking", gaveUp.ToolCalls)
	}
	if want := "The calculator keeps failing: broken"; gaveUp.Text != want {
		t.Errorf("after a second error the reply says %q, want %q", gaveUp.Text, want)
	}
}

func TestForecaster(t *testing.T) {
	tools := []ToolSpec{{Name: "weather"}}
	history := []Message{UserMessage{Text: ForecasterPrompt}}

	first := ask(t, Forecaster(), tools, history...)
	want := []ToolCall{
		{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "call_2", Name: "weather", Arguments: json.RawMessage(`{"city":"Lima"}`)},
		{ID: "call_3", Name: "weather", Arguments: json.RawMessage(`{"city":"Cairo"}`)},
	}
	if diff := cmp.Diff(want, first.ToolCalls); diff != "" {
		t.Errorf("the first reply's calls (-want +got):\n%s", diff)
	}

	history = append(history, first,
		ToolResultMessage{ToolCallID: "call_1", Content: "Oslo 4 °C"},
		ToolResultMessage{ToolCallID: "call_2", Content: "timeout", IsError: true},
		ToolResultMessage{ToolCallID: "call_3", Content: "Cairo 31 °C"},
	)
	answer := ask(t, Forecaster(), tools, history...)
	if want := "Here is what I found: Oslo 4 °C; call_2 failed (timeout); Cairo 31 °C."; answer.Text != want {
		t.Errorf("the answer says %q, want %q", answer.Text, want)
	}
	if len(answer.ToolCalls) != 0 {
		t.Errorf("the answer asks for %+v, want no call", answer.ToolCalls)
	}
}

func TestResearcher(t *testing.T) {
	tools := []ToolSpec{{Name: "search"}}
	history := []Message{UserMessage{Text: "Find flights."}}

	first := ask(t, Researcher("search"), tools, history...)
	if len(first.ToolCalls) != 1 {
		t.Fatalf("the first reply asks for %d calls, want 1", len(first.ToolCalls))
	}
	wantJSON(t, "the search's arguments", first.ToolCalls[0].Arguments, `{"query":"Find flights."}`)

	history = append(history, first,
		ToolResultMessage{ToolCallID: "call_1", ToolName: "search", Content: "2 flights"},
		UserMessage{Text: "Direct only."},
		UserMessage{Text: "Under 900 €."},
	)
	second := ask(t, Researcher("search"), tools, history...)
	if want := `Noted: "Direct only." and "Under 900 €." The search found: 2 flights.`; second.Text != want {
		t.Errorf("the second reply says %q, want %q", second.Text, want)
	}
	if second.StopReason != StopReasonStop {
		t.Errorf("the second reply's stop reason is %q, want %q", second.StopReason, StopReasonStop)
	}

	history = append(history, second, UserMessage{Text: "Book it."})
	third := ask(t, Researcher("search"), tools, history...)
	if want := `Noted: "Book it."`; third.Text != want {
		t.Errorf("the third reply says %q, want %q: a reply quotes only what arrived since the last reply", third.Text, want)
	}
}

func TestScripted(t *testing.T) {
	model := Scripted(
		AssistantMessage{Text: "calling", ToolCalls: []ToolCall{{ID: "a", Name: "x"}}},
		AssistantMessage{Text: "cut off", StopReason: StopReasonLength},
		AssistantMessage{StopReason: StopReasonError, ErrorMessage: "503 Service Unavailable"},
	)
	var history []Message
	first := ask(t, model, nil, history...)
	if first.StopReason != StopReasonToolUse {
		t.Errorf("the first reply's stop reason is %q, want %q: tool calls default to toolUse", first.StopReason, StopReasonToolUse)
	}

	history = append(history, first)
	if got := ask(t, model, nil, history...).StopReason; got != StopReasonLength {
		t.Errorf("the second reply's stop reason is %q, want %q", got, StopReasonLength)
	}

	history = append(history, AssistantMessage{})
	_, err := model.Reply(context.Background(), Request{Messages: history})
	if got, want := errText(err), "scripted model: 503 Service Unavailable"; got != want {
		t.Fatalf("the third request: error %q, want %q", got, want)
	}

	history = append(history, AssistantMessage{})
	_, err = model.Reply(context.Background(), Request{Messages: history})
	if got, want := errText(err), "scripted model: no reply left for request 4: the script holds 3"; got != want {
		t.Fatalf("the fourth request: error %q, want %q", got, want)
	}

	if got := ask(t, Scripted(AssistantMessage{Text: "done"}), nil).StopReason; got != StopReasonStop {
		t.Errorf("a reply of text alone has the stop reason %q, want %q: text alone defaults to stop", got, StopReasonStop)
	}
}

func TestScriptedAbortedIsACancellation(t *testing.T) {
	_, err := Scripted(AssistantMessage{StopReason: StopReasonAborted}).Reply(context.Background(), Request{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a reply with stop reason aborted: error %v, want context.Canceled", err)
	}
}

func TestScriptedRepliesDoNotShareToolCalls(t *testing.T) {
	model := Scripted(AssistantMessage{ToolCalls: []ToolCall{{ID: "a"}}})
	first := ask(t, model, nil)
	first.ToolCalls[0].ID = "changed by the caller"
	if got := ask(t, model, nil).ToolCalls[0].ID; got != "a" {
		t.Errorf("the second reply's call has the ID %q, want %q", got, "a")
	}
}

func TestMessageRoles(t *testing.T) {
	for _, tt := range []struct {
		m    Message
		want Role
	}{
		{UserMessage{}, RoleUser},
		{AssistantMessage{}, RoleAssistant},
		{ToolResultMessage{}, RoleToolResult},
	} {
		if got := tt.m.Role(); got != tt.want {
			t.Errorf("%T.Role() = %q, want %q", tt.m, got, tt.want)
		}
	}
}
