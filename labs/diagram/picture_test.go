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

// header is what every sequence diagram starts with.
const header = sequenceConfig + `
sequenceDiagram
    participant U as User
    participant L as Loop
    participant M as Model
`

// TestFinishedDrawsARunFromItsHistory draws lab 02's run from its history:
// the prompt, each turn's request and reply, each call with its result,
// how the loop ended and the answer, each label on lines of at most
// lineWidth columns.
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
	wantDrawn(t, b.String(), header+`    U->>L: What is 1 ÷ 0?
    L->>M: turn 1 · request: 1 message<br/>(user), 1 tool (calculate)
    M-->>L: I will use the calculator. ·<br/>calls calculate
    participant T1 as Tools
    L->>+T1: call_1 calculate<br/>{"op":"divide","a":1,"b":0}
    T1--x-L: call_1 ⇒ error: division by<br/>zero
    L->>M: turn 2 · request
    M--xL: request failed: 503 Service<br/>Unavailable
    Note over L: loop ended: 2 turns, stop<br/>reason error
    Note over L: history holds 4 messages:<br/>user, assistant, toolResult,<br/>assistant
    L--xU: no answer: the loop stopped<br/>before the model answered
`)
}

// TestFinishedDrawsARefusedCallOnTheLoop: in a finished run, a result in
// Pi's words for an unknown tool or arguments that do not validate marks a
// call that never reached its tool, drawn on the loop's lane; any other
// error, from a tool that ran, on a tool lane.
func TestFinishedDrawsARefusedCallOnTheLoop(t *testing.T) {
	calls := []fakemodel.ToolCall{
		{ID: "a", Name: "weather", Arguments: json.RawMessage(`{}`)},
		{ID: "b", Name: "calculate", Arguments: json.RawMessage(`{"a":1}`)},
		{ID: "c", Name: "calculate", Arguments: json.RawMessage(`{"op":"divide","a":1,"b":0}`)},
	}
	history := []fakemodel.Message{
		fakemodel.UserMessage{Text: "Go."},
		fakemodel.AssistantMessage{ToolCalls: calls},
		fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "weather", Content: "Tool weather not found", IsError: true},
		fakemodel.ToolResultMessage{ToolCallID: "b", ToolName: "calculate", Content: `Validation failed for tool "calculate": field "op" is missing`, IsError: true},
		fakemodel.ToolResultMessage{ToolCallID: "c", ToolName: "calculate", Content: "Tool weather not found", IsError: true},
	}
	var b strings.Builder
	NewSequence(&b).Finished(Finished{History: history, Turns: 1, StopReason: "max_turns"})
	for _, want := range []string{
		"\n    L--xL: a weather: never run ⇒ error:<br/>Tool weather not found\n",
		"\n    L--xL: b calculate: never run ⇒<br/>error: Validation failed for<br/>tool \"calculate\": field \"op\"<br/>is missing\n",
		"\n    L->>+T1: c calculate<br/>{\"op\":\"divide\",\"a\":1,\"b\":0}\n    T1--x-L: c ⇒ error: Tool weather not<br/>found\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the diagram\n%s\nlacks\n%s", b.String(), want)
		}
	}
	wantWellFormed(t, "the diagram", b.String())
}

// TestASequenceDrawsEachBeatAsItComes draws a parallel batch as lab 05's
// narrative hands it over: the batch's note before its first start, each
// call on a tool lane of its own, active until it ends, in the order the
// calls end, a progress note, the results that enter the history in one
// note, and a mark after a result.
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
	s.Close()
	wantDrawn(t, b.String(), header+`    Note over U,M: part 1: a batch<br/>setup: two lookups
    U->>L: Weather in Oslo and Lima?
    L->>M: turn 1 · request
    M-->>L: Looking. · calls weather ×2
    Note over L: batch of 2 tool calls starts
    participant T1 as Tools
    L->>+T1: a weather {"city":"Oslo"}
    participant T2 as Tools
    L->>+T2: b weather {"city":"Lima"}
    Note over U: the user types a steering<br/>message: "Hurry."
    T1--)L: a reports: slow
    T2-->>-L: b ⇒ Lima 19 °C
    T1-->>-L: a ⇒ Oslo 4 °C (terminate)
    Note over L: history ← results of a, b
    Note over L: the batch took 0.3 s
    U->>L: turn 2 · Hurry.
    L->>M: turn 2 · request
    M-->>L: Done. · cut off (stop reason<br/>length)
    Note over L: loop ended: 2 turns, stop<br/>reason completed
    L-->>U: Done.
    Note over U,L: Continue: again
`)
	wantWellFormed(t, "the diagram", b.String())
}

// TestEachCallHasABarOfItsOwn runs three batches: three calls at once,
// which take three lanes, each call's bar ending with its own end; then
// two calls one after another, which share the first lane; then two at
// once again, which reuse the lanes there are. No lane ever holds two bars.
func TestEachCallHasABarOfItsOwn(t *testing.T) {
	var b strings.Builder
	s := NewSequence(&b)
	s.Run(nil)
	s.Turn()
	for _, id := range []string{"a", "b", "c"} {
		s.ToolStart(id, "weather", nil)
	}
	for _, id := range []string{"b", "a", "c"} {
		s.ToolEnd(id, "weather", id, false, nil)
	}
	s.Turn()
	for _, id := range []string{"d", "e"} {
		s.ToolStart(id, "write", nil)
		s.ToolEnd(id, "write", id, false, nil)
	}
	s.Turn()
	s.ToolStart("f", "read", nil)
	s.ToolStart("g", "read", nil)
	s.ToolEnd("g", "read", "g", false, nil)
	s.ToolEnd("f", "read", "f", false, nil)
	s.Close()
	wantDrawn(t, b.String(), header+`    participant T1 as Tools
    L->>+T1: a weather
    participant T2 as Tools
    L->>+T2: b weather
    participant T3 as Tools
    L->>+T3: c weather
    T2-->>-L: b ⇒ b
    T1-->>-L: a ⇒ a
    T3-->>-L: c ⇒ c
    L->>+T1: d write
    T1-->>-L: d ⇒ d
    L->>+T1: e write
    T1-->>-L: e ⇒ e
    L->>+T1: f read
    L->>+T2: g read
    T2-->>-L: g ⇒ g
    T1-->>-L: f ⇒ f
`)
	wantWellFormed(t, "the diagram", b.String())
}

// TestARefusedCallIsDrawnOnTheLoop: in a parallel batch, a call that the
// loop refuses ends at once, while the others wait to run; it takes no
// tool lane, and its end is drawn from the loop to itself, after what was
// said while it was prepared. The calls that run keep their own lanes.
func TestARefusedCallIsDrawnOnTheLoop(t *testing.T) {
	var b strings.Builder
	s := NewSequence(&b)
	s.Run(nil)
	s.Turn()
	s.Reply(fakemodel.AssistantMessage{ToolCalls: make([]fakemodel.ToolCall, 3)})
	s.ToolStart("a", "weather", nil)
	s.ToolStart("b", "rm", json.RawMessage(`{"path":"x"}`))
	s.Aside("(BeforeToolCall blocks b)")
	s.ToolRefused("b", "rm", "rm needs the user's approval", nil)
	s.ToolStart("c", "search", nil)
	s.ToolRefused("c", "search", "Tool search not found", []string{"terminate"})
	s.ToolEnd("a", "weather", "sunny", false, nil)
	s.Close()
	wantDrawn(t, b.String(), header+`    L->>M: turn 1 · request
    M-->>L: (no text) · calls (no name) ×3
    Note over L: batch of 3 tool calls starts
    participant T1 as Tools
    L->>+T1: a weather
    Note over U: BeforeToolCall blocks b
    L--xL: b rm: never run ⇒ error: rm<br/>needs the user's approval
    L--xL: c search: never run ⇒ error:<br/>Tool search not found<br/>(terminate)
    T1-->>-L: a ⇒ sunny
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
	if want := "    L--xL: x ⇒ error: blocked\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("the diagram ends\n%s\nwant it to end with\n%s", b.String(), want)
	}
	wantWellFormed(t, "the diagram", b.String())
}

// weatherBatch runs, in a timeline, a batch of three lookups on clock, as
// lab 05's part 1 does: Oslo, Lima and Cairo take 300, 200 and 400 ms,
// side by side or, with sequential, one after another; Cairo reports
// progress at its first wake, and the user acts 100 ms in.
func weatherBatch(t *testing.T, tl *Timeline, clock *democlock.Clock, sequential bool) {
	naps := map[string][]time.Duration{
		"a": {300 * time.Millisecond},
		"b": {200 * time.Millisecond},
		"c": {100 * time.Millisecond, 300 * time.Millisecond},
	}
	run := func(id string) {
		for i, d := range naps[id] {
			if err := clock.Sleep(context.Background(), id, d); err != nil {
				t.Errorf("Sleep(%q, %v): %v", id, d, err)
			}
			if id == "c" && i == 0 && !sequential {
				tl.Aside("(the user presses Ctrl-C)")
			}
		}
		clock.End(id)
	}
	var wg sync.WaitGroup
	for _, id := range []string{"a", "b", "c"} {
		tl.ToolStart(id, "weather", json.RawMessage(`{"city":"`+id+`"}`))
		clock.Start(id)
		if sequential {
			run(id)
		} else {
			wg.Go(func() { run(id) })
		}
	}
	wg.Wait()
	tl.ToolUpdate("c", "slow")
	for _, id := range []string{"b", "a", "c"} {
		tl.ToolEnd(id, "weather", "", false, nil)
	}
}

// TestATimelineDrawsEachBatchOnItsClock runs lab 05's batch of three calls
// in parallel: the bars lie side by side, the progress note is a milestone
// at the call's first wake, what the user does a milestone at its moment,
// and a grey bar shows how long the batch would have taken one call after another.
// A second part, whose tools wait on no clock, starts where the first
// ended; its calls, which take no time, are milestones, and a refused one
// is red.
func TestATimelineDrawsEachBatchOnItsClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b strings.Builder
		tl := NewTimeline(&b)
		clock := democlock.New()
		tl.Part(1, "lookups", nil)
		tl.Run(clock)
		tl.Turn()
		weatherBatch(t, tl, clock, false)
		tl.Turn()
		tl.Ended("")
		tl.Part(2, "notes", nil)
		tl.Run(nil)
		tl.Turn()
		tl.ToolStart("d", "write", nil)
		tl.ToolEnd("d", "write", "", false, []string{"terminate"})
		tl.ToolStart("e", "rm", nil)
		tl.ToolRefused("e", "rm", "no", nil)
		tl.Ended("")
		if b.Len() != 0 {
			t.Errorf("the timeline wrote %q before Close, want nothing: it is drawn once every call has ended", b.String())
		}
		tl.Close()
		wantWellFormed(t, "the timeline", b.String())
		wantDrawn(t, b.String(), timelineHeader+`    section part 1<br>turn 1
    a weather {"city"#58;"a"} :0, 300
    b weather {"city"#58;"b"} :0, 200
    c weather {"city"#58;"c"} :0, 400
    c reports#58; slow :active, milestone, 100, 100
    the user presses Ctrl-C :crit, active, milestone, 100, 100
    if one after another#58; 0.9 s :done, 0, 900
    section part 2<br>turn 1
    d write (no time) (terminate) :milestone, 400, 400
    e rm (never run) :crit, milestone, 400, 400
`)
	})
}

// TestATimelineTellsOneAfterAnother: calls that do not overlap in time are
// drawn end to end, and a grey bar shows how long the batch would have
// taken with its calls all at once: as long as its slowest.
func TestATimelineTellsOneAfterAnother(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b strings.Builder
		tl := NewTimeline(&b)
		clock := democlock.New()
		tl.Run(clock)
		tl.Turn()
		weatherBatch(t, tl, clock, true)
		tl.Ended("")
		tl.Close()
		if want := "    section turn 1\n    a weather {\"city\"#58;\"a\"} :0, 300\n    b weather {\"city\"#58;\"b\"} :300, 500\n    c weather {\"city\"#58;\"c\"} :500, 900\n    c reports#58; slow :active, milestone, 600, 600\n    if all at once#58; 0.4 s :done, 0, 400\n"; !strings.HasSuffix(b.String(), want) {
			t.Errorf("the timeline is\n%s\nwant it to end with\n%s", b.String(), want)
		}
	})
}

// TestATimelineWithNothingToDrawSaysSo: runs whose tools wait on no clock,
// or take no time on one, or that call no tool, draw no empty chart: one
// line says there is nothing to draw.
func TestATimelineWithNothingToDrawSaysSo(t *testing.T) {
	for name, draw := range map[string]func(*Timeline){
		"no clock": func(tl *Timeline) {
			tl.Part(1, "a", nil)
			tl.Run(nil)
			tl.Turn()
			tl.ToolStart("a", "search", nil)
			tl.ToolUpdate("a", "asking")
			tl.Aside("(the user types a steering message)")
			tl.ToolEnd("a", "search", "", false, nil)
			tl.Ended("")
		},
		"no time": func(tl *Timeline) {
			tl.Run(democlock.New())
			tl.Turn()
			tl.ToolStart("a", "calculate", nil)
			tl.ToolEnd("a", "calculate", "", true, nil)
			tl.Ended("")
		},
		"no call": func(tl *Timeline) {
			tl.Run(democlock.New())
			tl.Turn()
			tl.Ended("")
		},
	} {
		var b strings.Builder
		tl := NewTimeline(&b)
		draw(tl)
		tl.Close()
		if b.String() != noTimeline {
			t.Errorf("%s: the timeline is\n%s\nwant the line %q", name, b.String(), noTimeline)
		}
	}
}

// wantDrawn checks a diagram line by line.
func wantDrawn(t *testing.T, got, want string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the diagram differs (-want +got):\n%s", diff)
	}
}
