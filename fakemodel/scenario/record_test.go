package scenario

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
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
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	s, err := Parse("recording.json", data)
	if err != nil {
		t.Fatalf("Parse of the recording: %v\n%s", err, data)
	}
	return s
}

// wantField checks a field of a recording, named as in the file.
func wantField[T comparable](t *testing.T, field string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %#v, want %#v", field, got, want)
	}
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
	wantField(t, "prompt", value(s.Prompt), "first")
	if want := []string{"second"}; !slices.Equal(s.NextPrompts, want) {
		t.Errorf("nextPrompts = %q, want %q", s.NextPrompts, want)
	}
	if len(s.Steer) != 1 {
		t.Fatalf("steer holds %d messages, want 1", len(s.Steer))
	}
	wantField(t, "steer[0].at", s.Steer[0].At, "message_end user")
	if s.Steer[0].Occurrence != nil {
		t.Errorf("steer[0].occurrence = %d, want it left out: the first occurrence is left out", *s.Steer[0].Occurrence)
	}
	if len(s.FollowUp) != 2 {
		t.Fatalf("followUp holds %d messages, want 2", len(s.FollowUp))
	}
	wantField(t, "followUp[0].at", s.FollowUp[0].At, "turn_end")
	wantField(t, "followUp[0].occurrence (the second turn_end of the session)", value(s.FollowUp[0].Occurrence), 2)
	wantField(t, "followUp[1].at (a message never taken is queued at the last event)", s.FollowUp[1].At, "agent_end")
	wantField(t, "followUp[1].occurrence", value(s.FollowUp[1].Occurrence), 2)
	if len(s.Interrupts) != 1 {
		t.Fatalf("interrupts holds %d, want 1", len(s.Interrupts))
	}
	wantField(t, "interrupts[0].at", s.Interrupts[0].At, "turn_end")
	wantField(t, "interrupts[0].occurrence", value(s.Interrupts[0].Occurrence), 3)
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
		if got, want := value(s.Calls["c"].UpdatesAtMs), []int{100}; !slices.Equal(got, want) {
			t.Errorf("calls.c.updatesAtMs = %v, want %v", got, want)
		}
		if got, want := value(s.Calls["c"].Updates), []string{"half way"}; !slices.Equal(got, want) {
			t.Errorf("calls.c.updates = %q, want %q", got, want)
		}
		wantField(t, "calls.c.durationMs (c reported, then ended, at 100 ms)", moment("c"), 100)
		wantField(t, "calls.a.durationMs (a started before c: at 100 ms it would end first)", moment("a"), 101)
		wantField(t, "calls.b.durationMs (b started after a: at the same moment, it ends after a)", moment("b"), 101)
		wantField(t, "calls.a.result", value(s.Calls["a"].Result), "A")
	})
}

// TestArgumentsTheFormatCannotHoldAreRecordedEmpty: a real model may send
// arguments that are not JSON, or JSON nested deeper than a scenario file
// may nest; the recording holds {} for them, so that it still replays, and
// the error the call got, which quotes them.
func TestArgumentsTheFormatCannotHoldAreRecordedEmpty(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, args := range []string{deep(59), `[["]]]]"]]`} {
		if got := string(holdable(json.RawMessage(args))); got != args {
			t.Errorf("holdable(%.20s...) = %.20s..., want the arguments as they are: a scenario file holds them", args, got)
		}
	}
	for name, args := range map[string]string{"not JSON": `{"city": Oslo}`, "nested 60 levels deep": deep(60)} {
		t.Run(name, func(t *testing.T) {
			r := NewRecorder(map[string]bool{"x": false}, "", false)
			r.Prompt("go")
			c := call("a", "x")
			c.Arguments = json.RawMessage(args)
			r.Reply(fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{c}, StopReason: fakemodel.StopReasonToolUse})
			refused := `Validation failed for tool "x": arguments are wrong. Received arguments: ` + args[:min(20, len(args))]
			record(r, "agent_start", "turn_start", "message_start user", "message_end user", "message_start assistant", "message_end assistant",
				"tool_execution_start a x", "tool_execution_end a error: "+refused)
			s := encoded(t, r, result("a", "x", refused, true))
			wantField(t, "replies[0].toolCalls[0].args", string(s.Replies[0].ToolCalls[0].Args), "{}")
			wantField(t, "calls.a.block", value(s.Calls["a"].Block), refused)
		})
	}
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
	wantField(t, "calls.a.block", value(s.Calls["a"].Block), `Validation failed for tool "x": missing field "k"`)
	if _, ok := s.Calls["b"]; ok {
		t.Errorf("calls holds b, a call to a tool the agent does not have, want it left out")
	}
	if _, ok := s.Tools["nope"]; ok {
		t.Errorf("tools holds nope, a tool the agent does not have, want it left out")
	}
	wantField(t, "calls.c.result (a call that succeeded at once ran)", value(s.Calls["c"].Result), "written")
	wantField(t, "tools.w.sequential", value(s.Tools["w"].Sequential), true)
	wantField(t, "queueMode", value(s.QueueMode), "all")
	wantField(t, "toolExecution", value(s.ToolExecution), "sequential")
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
	wantField(t, "replies[0].text", s.Replies[0].Text, "chat completions: context canceled")
	wantField(t, "replies[0].partial (a line break becomes a space: the same words stream)", s.Replies[0].Partial, "I will look ")
	wantField(t, "replies[0].stopReason", value(s.Replies[0].StopReason), "error")
	wantField(t, "replies[1].text (a failed request's text is never empty)", s.Replies[1].Text, "the request failed")
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
	wantField(t, "replies[0].thinking", s.Replies[0].Thinking, "The user wants a sum.")
	wantField(t, "replies[1].thinking (a reply without reasoning records none)", s.Replies[1].Thinking, "")
	wantField(t, "replies[2].thinking", s.Replies[2].Thinking, "Hmm.")
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
		if got != want {
			t.Errorf("oneLineText(%q) = %q, want %q", in, got, want)
		}
		if n, words := len(fakemodel.Chunks(got)), len(fakemodel.Chunks(strings.ToValidUTF8(in, "\uFFFD"))); n != words {
			t.Errorf("oneLineText(%q) = %q streams in %d chunks, want as many words as the text: %d", in, got, n, words)
		}
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
		if _, err := r.Encode([]fakemodel.Message{result("a", "x", content, false)}); err != nil {
			t.Fatalf("Encode: %v", err)
		}
	})
}

// TestWriteNewNeverReplacesAFile: the recording goes to a new file, whole,
// or nowhere.
func TestWriteNewNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.json")
	if err := WriteNew(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(path, []byte("two"))
	if err == nil {
		t.Fatal("WriteNew of a file that exists: no error, want one")
	}
	if want := path + " exists, and a recording never replaces a file"; err.Error() != want {
		t.Errorf("WriteNew of a file that exists: error %q, want %q", err, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "one" {
		t.Errorf("the file holds %q, want %q", data, "one")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want 1: no temporary file is left behind", len(entries))
	}

	if WriteNew(filepath.Join(dir, "missing", "x.json"), []byte("x")) == nil {
		t.Error("WriteNew into a directory that is not there: no error, want one")
	}
}

func TestARecorderWithoutAPromptWritesNothing(t *testing.T) {
	_, err := NewRecorder(nil, "", false).Encode(nil)
	if !errors.Is(err, ErrNoPrompt) {
		t.Errorf("Encode without a prompt: error %v, want ErrNoPrompt", err)
	}
	var nothing *Recorder
	nothing.Prompt("a nil recorder records nothing")
	nothing.See("agent_start")
}
