package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// record feeds r the trace lines of lines, each after wait; a line "wait
// 5ms" lets that much time pass instead.
func record(r *Recorder, lines ...string) {
	for _, line := range lines {
		if d, ok := strings.CutPrefix(line, "wait "); ok {
			wait, err := time.ParseDuration(d)
			if err != nil {
				panic(err)
			}
			time.Sleep(wait)
			continue
		}
		r.See(line)
	}
}

// encoded returns what r wrote, parsed back, for history.
func encoded(t *testing.T, r *Recorder, history ...fakemodel.Message) *Scenario {
	t.Helper()
	data, err := r.Encode(history)
	require.NoError(t, err)
	s, err := Parse("recording.json", data)
	require.NoError(t, err, "%s", data)
	return s
}

func call(id, name string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{}`)}
}

func result(id, name, content string, isError bool) fakemodel.ToolResultMessage {
	return fakemodel.ToolResultMessage{ToolCallID: id, ToolName: name, Content: content, IsError: isError}
}

// TestARecordedMessageIsAnchoredWhereItEntered: a steering message or a
// follow-up is sent, on replay, at the last event before the poll that took
// it: the prompt's message_end user for the first poll of a run, a turn_end
// for a later one, with that event's occurrence over the session.
func TestARecordedMessageIsAnchoredWhereItEntered(t *testing.T) {
	r := NewRecorder(map[string]bool{}, "one-at-a-time", false)
	r.Prompt("first")
	record(r, "agent_start", "turn_start", "message_start user", "message_end user")
	r.Entered(false, "before the first request")
	record(r, "message_start user", "message_end user", "message_start assistant", "message_end assistant", "turn_end results=0", "agent_end messages=3")
	r.Prompt("second")
	record(r, "agent_start", "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant", "turn_end results=0")
	r.Entered(true, "a follow-up")
	record(r, "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant", "turn_end results=0")
	r.Interrupt()
	record(r, "agent_end messages=5")
	r.Left(true, "never taken")
	r.Reply(fakemodel.AssistantMessage{Text: "one", StopReason: fakemodel.StopReasonStop})
	r.Reply(fakemodel.AssistantMessage{Text: "two", StopReason: fakemodel.StopReasonStop})
	r.Reply(fakemodel.AssistantMessage{Text: "three", StopReason: fakemodel.StopReasonStop})

	s := encoded(t, r)
	assert.Equal(t, "first", value(s.Prompt))
	assert.Equal(t, []string{"second"}, s.NextPrompts)
	require.Len(t, s.Steer, 1)
	assert.Equal(t, "message_end user", s.Steer[0].At)
	assert.Nil(t, s.Steer[0].Occurrence, "the first occurrence is left out")
	require.Len(t, s.FollowUp, 2)
	assert.Equal(t, "turn_end", s.FollowUp[0].At)
	assert.Equal(t, 2, value(s.FollowUp[0].Occurrence), "the second turn_end of the session")
	assert.Equal(t, "agent_end", s.FollowUp[1].At, "a message never taken is queued at the last event")
	assert.Equal(t, 2, value(s.FollowUp[1].Occurrence))
	require.Len(t, s.Interrupts, 1)
	assert.Equal(t, "turn_end", s.Interrupts[0].At)
	assert.Equal(t, 3, value(s.Interrupts[0].Occurrence))
}

// TestRecordedMomentsKeepTheOrderOfTheEnds: the calls of a parallel batch
// end, on replay, in the order they ended: a moment is nudged up where the
// demo clock would order them otherwise, by the calls' start when due at
// the same millisecond.
func TestRecordedMomentsKeepTheOrderOfTheEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := NewRecorder(map[string]bool{"x": false}, "", false)
		r.Prompt("go")
		r.Reply(fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{call("a", "x"), call("b", "x"), call("c", "x")}, StopReason: fakemodel.StopReasonToolUse})
		record(r, "agent_start", "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant",
			"tool_execution_start a x", "tool_execution_start b x", "tool_execution_start c x",
			"wait 100ms", "tool_execution_update c", "tool_execution_end c", "tool_execution_end a", "tool_execution_end b")
		r.Update("c", "half way")
		s := encoded(t, r, result("a", "x", "A", false), result("b", "x", "B", false), result("c", "x", "C", false))
		moment := func(id string) int { return value(s.Calls[id].DurationMs) }
		assert.Equal(t, []int{100}, value(s.Calls["c"].UpdatesAtMs))
		assert.Equal(t, []string{"half way"}, value(s.Calls["c"].Updates))
		assert.Equal(t, 100, moment("c"), "c reported, then ended, at 100 ms")
		assert.Equal(t, 101, moment("a"), "a started before c: at 100 ms it would end first")
		assert.Equal(t, 101, moment("b"), "b started after a: at the same moment, it ends after a")
		assert.Equal(t, "A", value(s.Calls["a"].Result))
	})
}

// TestACallThatFailedAtOnceIsRecordedBlocked: a call that ended with an
// error right after it started failed its preparation, before the batch
// ran: it replays blocked, with the same error. A call to a tool the agent
// does not have is left out: it fails the same way on replay.
func TestACallThatFailedAtOnceIsRecordedBlocked(t *testing.T) {
	r := NewRecorder(map[string]bool{"x": false, "w": true}, "all", true)
	r.Prompt("go")
	r.Reply(fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{call("a", "x"), call("b", "nope"), call("c", "w")}, StopReason: fakemodel.StopReasonToolUse})
	record(r, "agent_start", "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant",
		`tool_execution_start a x`, `tool_execution_end a error: Validation failed for tool "x": missing field "k"`,
		"tool_execution_start b nope", "tool_execution_end b error: Tool nope not found",
		"tool_execution_start c w", "tool_execution_end c")
	s := encoded(t, r,
		result("a", "x", `Validation failed for tool "x": missing field "k"`, true),
		result("b", "nope", "Tool nope not found", true),
		result("c", "w", "written", false))
	assert.Equal(t, `Validation failed for tool "x": missing field "k"`, value(s.Calls["a"].Block))
	assert.NotContains(t, s.Calls, "b")
	assert.NotContains(t, s.Tools, "nope")
	assert.Equal(t, "written", value(s.Calls["c"].Result), "a call that succeeded at once ran")
	assert.True(t, value(s.Tools["w"].Sequential))
	assert.Equal(t, "all", value(s.QueueMode))
	assert.Equal(t, "sequential", value(s.ToolExecution))
}

// TestAFailedRequestIsRecordedWithWhatStreamed: a request that failed, or
// was cancelled, replays as a reply with stop reason error, whose partial
// text streams first.
func TestAFailedRequestIsRecordedWithWhatStreamed(t *testing.T) {
	r := NewRecorder(nil, "", false)
	r.Prompt("go")
	r.Failed("chat completions: context canceled", "I will\nlook ")
	r.Failed("", "")
	s := encoded(t, r)
	assert.Equal(t, "chat completions: context canceled", s.Replies[0].Text)
	assert.Equal(t, "I will look ", s.Replies[0].Partial, "a line break becomes a space: the same words stream")
	assert.Equal(t, "error", value(s.Replies[0].StopReason))
	assert.Equal(t, "the request failed", s.Replies[1].Text, "a failed request's text is never empty")
}

// TestThinkingIsRecordedWithItsReply: what the model reasoned before a
// reply, or before its request failed, is recorded with it, on one line.
func TestThinkingIsRecordedWithItsReply(t *testing.T) {
	r := NewRecorder(nil, "", false)
	r.Prompt("go")
	r.Thinking("The user\nwants a sum.")
	r.Reply(fakemodel.AssistantMessage{Text: "391.", StopReason: fakemodel.StopReasonStop})
	r.Reply(fakemodel.AssistantMessage{Text: "More.", StopReason: fakemodel.StopReasonStop})
	r.Thinking("Hmm.")
	r.Failed("the stream broke", "")
	s := encoded(t, r)
	assert.Equal(t, "The user wants a sum.", s.Replies[0].Thinking)
	assert.Empty(t, s.Replies[1].Thinking, "a reply without reasoning records none")
	assert.Equal(t, "Hmm.", s.Replies[2].Thinking)
}

func TestOneLineText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                "plain",
		"two\nlines\r\n":       "two lines  ",
		"a\ttab":               "a tab",
		"clear\x1b[2J":         `clear\x1b[2J`,
		"pay \u202emoc.knab":   `pay \u202emoc.knab`,
		"line\u2028separator":  "line separator",
		"bad\xffbyte":          "bad\uFFFDbyte",
		"déjà vu, 23 × 17":     "déjà vu, 23 × 17",
		"no-break\u00a0space ": "no-break space ",
	} {
		got := oneLineText(in)
		assert.Equal(t, want, got, "%q", in)
		assert.Len(t, fakemodel.Chunks(got), len(fakemodel.Chunks(strings.ToValidUTF8(in, "\uFFFD"))), "%q streams in as many words", in)
	}
}

// FuzzRecordedTextsLoad: whatever a user types, a model writes or a tool
// returns, the recording loads: no text can make the file unloadable.
func FuzzRecordedTextsLoad(f *testing.F) {
	f.Add("What is 2 plus 3?", "I will\twork it out.\n", "5", "half way", "clear\x1b[2J")
	f.Add(" ", "\u202e", "\xff", "a\u2028b", "")
	f.Fuzz(func(t *testing.T, prompt, reply, content, note, steer string) {
		r := NewRecorder(map[string]bool{"x": false}, "", false)
		r.Prompt(prompt)
		r.Reply(fakemodel.AssistantMessage{Text: reply, ToolCalls: []fakemodel.ToolCall{call("a", "x")}, StopReason: fakemodel.StopReasonToolUse})
		record(r, "agent_start", "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant",
			"tool_execution_start a x", "tool_execution_update a", "tool_execution_end a", "turn_end results=1")
		r.Update("a", note)
		r.Entered(false, steer)
		r.Failed(content, reply)
		_, err := r.Encode([]fakemodel.Message{result("a", "x", content, false)})
		require.NoError(t, err)
	})
}

// TestWriteNewNeverReplacesAFile: the recording goes to a new file, whole,
// or nowhere.
func TestWriteNewNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.json")
	require.NoError(t, WriteNew(path, []byte("one")))
	err := WriteNew(path, []byte("two"))
	require.Error(t, err)
	assert.Equal(t, path+" exists, and a recording never replaces a file", err.Error())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "one", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	assert.Error(t, WriteNew(filepath.Join(dir, "missing", "x.json"), []byte("x")), "a directory that is not there")
}

func TestARecorderWithoutAPromptWritesNothing(t *testing.T) {
	_, err := NewRecorder(nil, "", false).Encode(nil)
	assert.ErrorIs(t, err, ErrNoPrompt)
	var nothing *Recorder
	nothing.Prompt("a nil recorder records nothing")
	nothing.See("agent_start")
}
