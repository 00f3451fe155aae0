package diagram

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/google/go-cmp/cmp"
)

// TestFinishedDrawsARunFromItsHistory draws lab 02's run from its history:
// the prompt, each turn's request and reply, each call with its result,
// how the loop ended and the answer.
func TestFinishedDrawsARunFromItsHistory(t *testing.T) {
	call := fakemodel.ToolCall{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"divide","a":1,"b":0}`)}
	history := []fakemodel.Message{
		fakemodel.UserMessage{Text: "What is 1 ÷ 0?"},
		fakemodel.AssistantMessage{Text: "I will use the calculator.", ToolCalls: []fakemodel.ToolCall{call}},
		fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "division by zero", IsError: true},
		fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503 Service Unavailable"},
	}
	var b strings.Builder
	NewSequence(&b).Finished(Finished{
		History: history, Requests: []fakemodel.Request{{Messages: history[:1], Tools: []fakemodel.ToolSpec{{Name: "calculate"}}}},
		Turns: 2, StopReason: "error",
	})
	wantDrawn(t, b.String(), `sequenceDiagram
    participant U as User
    participant L as Loop
    participant M as Model
    U->>L: What is 1 ÷ 0?
    L->>M: turn 1 · request: 1 message (user), 1 tool (calculate)
    M-->>L: I will use the calculator. · calls calculate
    participant T1 as calculate
    L->>+T1: call_1 {"op":"divide","a":1,"b":0}
    T1--x-L: call_1 ⇒ error: division by zero
    L->>M: turn 2 · request
    M--xL: request failed: 503 Service Unavailable
    Note over L: loop ended: 2 turns, stop reason error
    Note over L: history holds 4 messages: user, assistant, toolResult, assistant
    L--xU: no answer: the loop stopped before the model answered
`)
}

// TestASequenceDrawsEachBeatAsItComes draws a parallel batch as lab 05's
// narrative hands it over: the batch's note before its first start, each
// call active on its tool's lane until it ends, in the order the calls
// end, a progress note, the results that enter the history in one note,
// and a mark after a result.
func TestASequenceDrawsEachBeatAsItComes(t *testing.T) {
	var b strings.Builder
	s := NewSequence(&b)
	s.Part(1, "a batch", []string{"two lookups"})
	s.Run(nil)
	s.Turn()
	s.User("Weather in Oslo and Lima?", false)
	s.Streaming()
	s.Streaming()
	s.Reply(fakemodel.AssistantMessage{Text: "Looking.", ToolCalls: []fakemodel.ToolCall{{Name: "weather"}, {Name: "weather"}}})
	s.ToolStart("a", "weather", json.RawMessage(`{"city":"Oslo"}`))
	s.ToolStart("b", "weather", json.RawMessage(`{"city":"Lima"}`))
	s.Aside("(the user types a steering message: \"Hurry.\")")
	s.ToolUpdate("a", "slow")
	s.ToolEnd("b", "weather", "Lima 19 °C", false, nil)
	s.ToolEnd("a", "weather", "Oslo 4 °C", false, []string{"terminate"})
	s.Result(fakemodel.ToolResultMessage{ToolCallID: "a"})
	s.Result(fakemodel.ToolResultMessage{ToolCallID: "b"})
	s.Note("the batch took 0.3 s")
	s.Turn()
	s.User("Hurry.", true)
	s.Reply(fakemodel.AssistantMessage{Text: "Done.", StopReason: fakemodel.StopReasonLength})
	s.Ended("loop ended: 2 turns, stop reason completed")
	s.Answer("Done.", true)
	s.Line("--- Continue: again ---")
	wantDrawn(t, b.String(), `sequenceDiagram
    participant U as User
    participant L as Loop
    participant M as Model
    Note over U,M: part 1: a batch<br/>setup: two lookups
    U->>L: Weather in Oslo and Lima?
    L->>M: turn 1 · request
    M-->>L: Looking. · calls weather ×2
    Note over L: batch of 2 tool calls starts
    participant T1 as weather
    L->>+T1: a {"city":"Oslo"}
    L->>+T1: b {"city":"Lima"}
    Note over U: the user types a steering message: "Hurry."
    T1--)L: a reports: slow
    T1-->>-L: b ⇒ Lima 19 °C
    T1-->>-L: a ⇒ Oslo 4 °C (terminate)
    Note over L: history ← results of a, b
    Note over L: the batch took 0.3 s
    U->>L: turn 2 · Hurry.
    L->>M: turn 2 · request
    M-->>L: Done. · cut off (stop reason length)
    Note over L: loop ended: 2 turns, stop reason completed
    L-->>U: Done.
    Note over U,L: Continue: again
`)
	wantWellFormed(t, "the diagram", b.String())
}

// TestAnEndWithoutAStartIsDrawnOnTheLoop: a call that the lanes never saw
// start is drawn from the loop to itself, so that no lane is deactivated
// while it is not active, which Mermaid refuses to draw.
func TestAnEndWithoutAStartIsDrawnOnTheLoop(t *testing.T) {
	var b strings.Builder
	s := NewSequence(&b)
	s.ToolEnd("x", "rm", "blocked", true, nil)
	if want := "    L--xL: rm x ⇒ error: blocked\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("the diagram ends\n%s\nwant it to end with\n%s", b.String(), want)
	}
	wantWellFormed(t, "the diagram", b.String())
}

// TestATimelineDrawsEachBatchOnItsClock runs a batch of three calls on a
// demo clock, as lab 05's does, one of which reports progress once: the
// bars lie side by side, and the progress note is a milestone at the
// call's first wake. A second part, whose tools wait on no clock, starts
// where the first ended.
func TestATimelineDrawsEachBatchOnItsClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b strings.Builder
		tl := NewTimeline(&b)
		clock := democlock.New()
		tl.Part(1, "lookups", nil)
		tl.Run(clock)
		tl.Turn()
		naps := map[string][]time.Duration{
			"a": {300 * time.Millisecond},
			"b": {200 * time.Millisecond},
			"c": {100 * time.Millisecond, 300 * time.Millisecond},
		}
		for _, id := range []string{"a", "b", "c"} {
			tl.ToolStart(id, "weather", json.RawMessage(`{"city":"`+id+`"}`))
			clock.Start(id)
		}
		var wg sync.WaitGroup
		for id, steps := range naps {
			wg.Go(func() {
				for _, d := range steps {
					if err := clock.Sleep(context.Background(), id, d); err != nil {
						t.Errorf("Sleep(%q, %v): %v", id, d, err)
					}
				}
				clock.End(id)
			})
		}
		wg.Wait()
		tl.ToolUpdate("c", "slow")
		for _, id := range []string{"b", "a", "c"} {
			tl.ToolEnd(id, "weather", "", id == "b", nil)
		}
		tl.Turn()
		tl.Ended("")
		tl.Part(2, "notes", nil)
		tl.Run(nil)
		tl.Turn()
		tl.ToolStart("d", "write", nil)
		tl.ToolEnd("d", "write", "", false, []string{"terminate"})
		tl.Ended("")
		if problems := wellFormed(b.String()); len(problems) != 0 {
			t.Fatalf("the timeline is not well formed:\n%s", strings.Join(problems, "\n"))
		}
		wantDrawn(t, b.String(), `gantt
    title Tool calls on the demo clock
    dateFormat x
    axisFormat %S.%L s
    section part 1 · turn 1 · 3 calls, side by side
    a weather {"city"#58;"a"} :0, 300
    b weather {"city"#58;"b"} (error) :crit, 0, 200
    c weather {"city"#58;"c"} :0, 400
    c reports#58; slow :milestone, 100, 100
    section part 2 · turn 1 · 1 call, each done at once
    d write (terminate) :400, 400
`)
	})
}

// TestATimelineTellsOneAfterAnother: calls that do not overlap in time are
// drawn end to end, and their section says so.
func TestATimelineTellsOneAfterAnother(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b strings.Builder
		tl := NewTimeline(&b)
		clock := democlock.New()
		tl.Run(clock)
		tl.Turn()
		for _, id := range []string{"a", "b"} {
			tl.ToolStart(id, "write", nil)
			clock.Start(id)
			if err := clock.Sleep(context.Background(), id, 100*time.Millisecond); err != nil {
				t.Errorf("Sleep(%q, 100ms): %v", id, err)
			}
			clock.End(id)
			tl.ToolEnd(id, "write", "", false, nil)
		}
		tl.Ended("")
		if want := "    section turn 1 · 2 calls, one after another\n    a write :0, 100\n    b write :100, 200\n"; !strings.Contains(b.String(), want) {
			t.Errorf("the timeline is\n%s\nwant it to hold\n%s", b.String(), want)
		}
	})
}

// wantDrawn checks a diagram line by line.
func wantDrawn(t *testing.T, got, want string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the diagram differs (-want +got):\n%s", diff)
	}
}
