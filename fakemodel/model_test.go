package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/quick"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var calculate = ToolSpec{Name: "calculate", Description: "Does arithmetic."}

// ask sends history and tools to model and fails the test on an error.
func ask(t *testing.T, model Model, tools []ToolSpec, history ...Message) AssistantMessage {
	t.Helper()
	reply, err := model.Reply(context.Background(), Request{Messages: history, Tools: tools})
	require.NoError(t, err)
	return reply
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
			assert.Empty(t, cmp.Diff(first, second), "the same request must get the same reply")
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
	require.Len(t, history, ContextWindow, "a full window is still answered")
	overflow := append(history, ask(t, Calculator(), []ToolSpec{calculate}, history...))
	_, err := Calculator().Reply(context.Background(), Request{Messages: overflow, Tools: []ToolSpec{calculate}})
	require.EqualError(t, err, fmt.Sprintf("calculator model: the request holds %d messages, more than the context window of %d", ContextWindow+1, ContextWindow))
}

func TestReplyFailsWhenTheContextIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Calculator().Reply(ctx, Request{Tools: []ToolSpec{calculate}})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "calculator model: context canceled", err.Error())
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
	require.NoError(t, err)
	assert.Equal(t, []string{"23 ", "× ", "17 ", "= ", "391."}, chunks)
	assert.Equal(t, reply.Text, strings.Join(chunks, ""))
}

func TestReplyStopsStreamingWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var chunks []string
	_, err := Scripted(AssistantMessage{Text: "one two three"}).Reply(ctx, Request{OnText: func(chunk string) {
		chunks = append(chunks, chunk)
		cancel()
	}})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"one "}, chunks, "no chunk may arrive after the cancellation")
}

// TestACancelAtAnyChunkCancelsTheReply: Reply keeps its contract at every
// moment of the stream. A cancel while any chunk is handled, the last one
// included, makes Reply fail with the cancellation: the reply is never
// returned whole once its context is cancelled. So are the tool calls it
// asks for: a caller gets none of them.
func TestACancelAtAnyChunkCancelsTheReply(t *testing.T) {
	reply := AssistantMessage{Text: "I will look that up.", ToolCalls: []ToolCall{{ID: "a", Name: "search", Arguments: []byte(`{}`)}}}
	n := len(Chunks(reply.Text))
	require.Equal(t, 5, n)
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
			require.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, at+1, got, "no chunk after the cancel")
			assert.Empty(t, msg.ToolCalls)
		})
	}
	t.Run("without a stream", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Scripted(reply).Reply(ctx, Request{})
		require.ErrorIs(t, err, context.Canceled)
	})
}

func TestChunksJoinBackToTheText(t *testing.T) {
	joined := func(text string) bool { return strings.Join(Chunks(text), "") == text }
	require.NoError(t, quick.Check(joined, nil))
	assert.Equal(t, []string{"a  ", "b ", "c"}, Chunks("a  b c"))
	assert.Empty(t, Chunks(""))
}

// TestChineseStreamsACharacterAtATime: Chinese and Japanese put no spaces
// between words, so a reply in them streams a character at a time, each
// mark of punctuation too, and not all at once.
func TestChineseStreamsACharacterAtATime(t *testing.T) {
	assert.Equal(t, []string{"奥", "斯", "陆", "在", "下", "雨", "。"}, Chunks("奥斯陆在下雨。"))
	assert.Equal(t, []string{"Oslo ", "在", "下", "雨", "，", "12 ", "度"}, Chunks("Oslo 在下雨，12 度"))
	assert.Equal(t, []string{"晴", "れ", "で", "す", "。"}, Chunks("晴れです。"))
	assert.Equal(t, []string{"déjà ", "vu"}, Chunks("déjà vu"), "other letters keep their words")
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
	assert.Empty(t, cmp.Diff(want, first))

	result := ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}
	second := ask(t, Calculator(), tools, user, first, result)
	assert.Equal(t, AssistantMessage{Text: "23 × 17 = 391.", StopReason: StopReasonStop}, second)

	failed := ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "overflow", IsError: true}
	assert.Equal(t, "The calculator failed: overflow", ask(t, Calculator(), tools, user, first, failed).Text)

	noTool := ask(t, Calculator(), nil, user)
	assert.Empty(t, noTool.ToolCalls, "a model may only ask for a tool it was offered")
	assert.Equal(t, StopReasonStop, noTool.StopReason)
}

func TestCalculatorAsksAgainWhenTheResultIsMissing(t *testing.T) {
	// The loop forgot step 5: the history holds no result, so the model
	// makes the same decision again.
	user := UserMessage{Text: CalculatorPrompt}
	first := ask(t, Calculator(), []ToolSpec{calculate}, user)
	again := ask(t, Calculator(), []ToolSpec{calculate}, user, first)
	assert.Len(t, again.ToolCalls, 1)
	assert.Equal(t, "call_2", again.ToolCalls[0].ID, "IDs stay unique across the conversation")
}

func TestStubbornNeverAnswers(t *testing.T) {
	history := []Message{UserMessage{Text: CalculatorPrompt}}
	for check := 1; check <= 10; check++ {
		reply := ask(t, Stubborn(), []ToolSpec{calculate}, history...)
		require.Len(t, reply.ToolCalls, 1, "check %d", check)
		assert.Equal(t, StopReasonToolUse, reply.StopReason)
		if check > 1 {
			assert.Contains(t, reply.Text, "once more")
		}
		history = append(history, reply, ToolResultMessage{ToolCallID: reply.ToolCalls[0].ID, ToolName: "calculate", Content: "391"})
	}
}

func TestSelfCorrecting(t *testing.T) {
	tools := []ToolSpec{calculate}
	history := []Message{UserMessage{Text: SelfCorrectingPrompt}}

	first := ask(t, SelfCorrecting(), tools, history...)
	require.Len(t, first.ToolCalls, 1)
	assert.JSONEq(t, `{"op":"divide","a":100,"b":0}`, string(first.ToolCalls[0].Arguments))
	history = append(history, first, ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "division by zero", IsError: true})

	second := ask(t, SelfCorrecting(), tools, history...)
	require.Len(t, second.ToolCalls, 1)
	assert.JSONEq(t, `{"op":"divide","a":100,"b":4}`, string(second.ToolCalls[0].Arguments))
	assert.Equal(t, `The calculator says "division by zero". I meant to divide by 4.`, second.Text)
	assert.Equal(t, "call_2", second.ToolCalls[0].ID)

	succeeded := append(history, second, ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "25"})
	assert.Equal(t, AssistantMessage{Text: "100 ÷ 4 = 25.", StopReason: StopReasonStop}, ask(t, SelfCorrecting(), tools, succeeded...))

	failedTwice := append(history, second, ToolResultMessage{ToolCallID: "call_2", ToolName: "calculate", Content: "broken", IsError: true})
	gaveUp := ask(t, SelfCorrecting(), tools, failedTwice...)
	assert.Empty(t, gaveUp.ToolCalls, "after a second error the model stops asking")
	assert.Equal(t, "The calculator keeps failing: broken", gaveUp.Text)
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
	assert.Empty(t, cmp.Diff(want, first.ToolCalls))

	history = append(history, first,
		ToolResultMessage{ToolCallID: "call_1", Content: "Oslo 4 °C"},
		ToolResultMessage{ToolCallID: "call_2", Content: "timeout", IsError: true},
		ToolResultMessage{ToolCallID: "call_3", Content: "Cairo 31 °C"},
	)
	answer := ask(t, Forecaster(), tools, history...)
	assert.Equal(t, "Here is what I found: Oslo 4 °C; call_2 failed (timeout); Cairo 31 °C.", answer.Text)
	assert.Empty(t, answer.ToolCalls)
}

func TestResearcher(t *testing.T) {
	tools := []ToolSpec{{Name: "search"}}
	history := []Message{UserMessage{Text: "Find flights."}}

	first := ask(t, Researcher("search"), tools, history...)
	require.Len(t, first.ToolCalls, 1)
	assert.JSONEq(t, `{"query":"Find flights."}`, string(first.ToolCalls[0].Arguments))

	history = append(history, first,
		ToolResultMessage{ToolCallID: "call_1", ToolName: "search", Content: "2 flights"},
		UserMessage{Text: "Direct only."},
		UserMessage{Text: "Under 900 €."},
	)
	second := ask(t, Researcher("search"), tools, history...)
	assert.Equal(t, `Noted: "Direct only." and "Under 900 €." The search found: 2 flights.`, second.Text)
	assert.Equal(t, StopReasonStop, second.StopReason)

	history = append(history, second, UserMessage{Text: "Book it."})
	third := ask(t, Researcher("search"), tools, history...)
	assert.Equal(t, `Noted: "Book it."`, third.Text, "a reply quotes only what arrived since the last reply")
}

func TestScripted(t *testing.T) {
	model := Scripted(
		AssistantMessage{Text: "calling", ToolCalls: []ToolCall{{ID: "a", Name: "x"}}},
		AssistantMessage{Text: "cut off", StopReason: StopReasonLength},
		AssistantMessage{StopReason: StopReasonError, ErrorMessage: "503 Service Unavailable"},
	)
	var history []Message
	first := ask(t, model, nil, history...)
	assert.Equal(t, StopReasonToolUse, first.StopReason, "tool calls default to toolUse")

	history = append(history, first)
	assert.Equal(t, StopReasonLength, ask(t, model, nil, history...).StopReason)

	history = append(history, AssistantMessage{})
	_, err := model.Reply(context.Background(), Request{Messages: history})
	require.EqualError(t, err, "scripted model: 503 Service Unavailable")

	history = append(history, AssistantMessage{})
	_, err = model.Reply(context.Background(), Request{Messages: history})
	require.EqualError(t, err, "scripted model: no reply left for request 4: the script holds 3")

	assert.Equal(t, StopReasonStop, ask(t, Scripted(AssistantMessage{Text: "done"}), nil).StopReason, "text alone defaults to stop")
}

func TestScriptedAbortedIsACancellation(t *testing.T) {
	_, err := Scripted(AssistantMessage{StopReason: StopReasonAborted}).Reply(context.Background(), Request{})
	assert.True(t, errors.Is(err, context.Canceled))
}

func TestScriptedRepliesDoNotShareToolCalls(t *testing.T) {
	model := Scripted(AssistantMessage{ToolCalls: []ToolCall{{ID: "a"}}})
	first := ask(t, model, nil)
	first.ToolCalls[0].ID = "changed by the caller"
	assert.Equal(t, "a", ask(t, model, nil).ToolCalls[0].ID)
}

func TestMessageRoles(t *testing.T) {
	assert.Equal(t, RoleUser, UserMessage{}.Role())
	assert.Equal(t, RoleAssistant, AssistantMessage{}.Role())
	assert.Equal(t, RoleToolResult, ToolResultMessage{}.Role())
}
