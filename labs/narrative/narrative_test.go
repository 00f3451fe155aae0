package narrative

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/google/go-cmp/cmp"
)

// TestColourOnlyOnATerminal checks that a printer takes labs/cli's decision:
// colour on a terminal (the null device is a character device, as a
// terminal is), plain text anywhere else, so that piped output and the
// golden files hold plain text.
func TestColourOnlyOnATerminal(t *testing.T) {
	device := terminal(t)
	if got := NewPrinter(device).label.Sprint("x"); got == "x" {
		t.Errorf("on a terminal, label.Sprint(%q) = %q, want it in colour", "x", got)
	}
	if got := NewPrinter(device).Warn("x"); got == "x" {
		t.Errorf("on a terminal, Warn(%q) = %q, want it in colour", "x", got)
	}
	if got := NewPrinter(&bytes.Buffer{}).label.Sprint("x"); got != "x" {
		t.Errorf("in a buffer, label.Sprint(%q) = %q, want plain text, as for a pipe", "x", got)
	}
	if got := NewPrinter(&bytes.Buffer{}).Warn("x"); got != "x" {
		t.Errorf("in a buffer, Warn(%q) = %q, want plain text, as for a pipe", "x", got)
	}
}

func TestCountWritesThePluralUnlessOne(t *testing.T) {
	tests := []struct {
		n    int
		noun string
		want string
	}{
		{0, "turn", "0 turns"},
		{1, "turn", "1 turn"},
		{12, "message", "12 messages"},
	}
	for _, tt := range tests {
		if got := Count(tt.n, tt.noun); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
}

func TestPartTitles(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out)
	p.Part(1, "first", []string{"a tool", "a hook"})
	p.Part(2, "second", nil)
	p.Part(0, "scenario x.json", nil)
	wantPrinted(t, out.String(), "=== part 1: first ===\nsetup: a tool\nsetup: a hook\n\n=== part 2: second ===\n=== scenario x.json ===\n",
		"a part after the first follows an empty line; part 0 is a title alone")
}

func TestARunNumbersItsTurns(t *testing.T) {
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.NextTurn()
	r.User("Hi.")
	r.Delta("I will ")
	r.Delta("look.")
	r.MessageEnd(fakemodel.AssistantMessage{Text: "I will look."})
	r.ToolStart("call_1", "weather", json.RawMessage(`{"city":"Oslo"}`))
	r.ToolUpdate("call_1", "still waiting")
	r.ToolEnd("call_1", "weather", "Oslo 4 °C", false, false)
	r.MessageEnd(fakemodel.ToolResultMessage{ToolCallID: "call_1"})
	r.NextTurn()
	r.UserInTurn("Only direct flights.")
	r.ToolEnd("call_2", "search", "no flights", true, false, "terminate")
	r.ToolEnd("call_3", "rm", "rm needs the user's approval", true, true)
	r.MessageEnd(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"})
	r.MessageEnd(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonAborted, ErrorMessage: "context canceled"})
	want := `user: Hi.
turn 1 · model said: I will look.
turn 1 · start call_1 weather {"city":"Oslo"}
turn 1 · call_1 reports: still waiting
turn 1 · done call_1 weather ⇒ Oslo 4 °C
turn 1 · history ← result of call_1
turn 2 · user: Only direct flights.
turn 2 · done call_2 search ⇒ error: no flights (terminate)
turn 2 · done call_3 rm ⇒ error: rm needs the user's approval
turn 2 · model request failed: 503
turn 2 · model request aborted: context canceled
`
	wantPrinted(t, out.String(), want, "")
}

func TestAnAsideWaitsForTheEndOfTheStreamingLine(t *testing.T) {
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.NextTurn()
	r.Aside("(before)")
	r.Delta("Hello")
	r.Aside("(the user types)")
	r.Delta(" world.")
	r.MessageEnd(fakemodel.AssistantMessage{Text: "Hello world."})
	r.Aside("(after)")
	wantPrinted(t, out.String(), "(before)\nturn 1 · model said: Hello world.\n(the user types)\n(after)\n",
		"a line that comes while the reply streams waits for the end of the reply's line")
}

// TestThinkingHasALineOfItsOwn: a model's reasoning streams on a line of
// its own, before the reply's text, and an aside waits for both.
func TestThinkingHasALineOfItsOwn(t *testing.T) {
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.NextTurn()
	r.Thinking("The user wants")
	r.Aside("(the user types)")
	r.Thinking(" a sum.\nEasy.")
	r.Delta("23 × 17 = 391.")
	r.MessageEnd(fakemodel.AssistantMessage{Text: "23 × 17 = 391."})
	r.NextTurn()
	r.Thinking("Done.")
	r.MessageEnd(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"})
	wantPrinted(t, out.String(), "turn 1 · model thinks: The user wants a sum. Easy.\nturn 1 · model said: 23 × 17 = 391.\n(the user types)\n"+
		"turn 2 · model thinks: Done.\nturn 2 · model request failed: 503\n", "")

}

// TestThinkingIsDimOnATerminal: on a terminal, the reasoning is dimmed,
// apart from the reply.
func TestThinkingIsDimOnATerminal(t *testing.T) {
	if got, want := NewPrinter(terminal(t)).dim.Sprint("x"), "\x1b[2mx\x1b[22m"; got != want {
		t.Errorf("on a terminal, dim.Sprint(%q) = %q, want %q: the reasoning dimmed", "x", got, want)
	}
}

// terminal returns a file that labs/cli takes for a terminal, the null
// device, a character device as a terminal is, with colour allowed; it
// skips the test where the null device is no character device.
func terminal(t *testing.T) *os.File {
	t.Helper()
	device, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { device.Close() })
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if !cli.Colorful(device) {
		t.Skip("the null device is not a character device here")
	}
	return device
}

// TestAReplyThatDidNotStreamIsSaidWhole: a reply that arrives whole, with
// no chunk, as from a provider that does not stream, is printed at its end.
func TestAReplyThatDidNotStreamIsSaidWhole(t *testing.T) {
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.NextTurn()
	r.MessageEnd(fakemodel.AssistantMessage{Text: "Hi there!"})
	r.MessageEnd(fakemodel.AssistantMessage{})
	wantPrinted(t, out.String(), "turn 1 · model said: Hi there!\n", "an empty reply says nothing")
}

func TestHowARunEnded(t *testing.T) {
	history := []fakemodel.Message{
		fakemodel.UserMessage{}, fakemodel.AssistantMessage{},
		fakemodel.ToolResultMessage{}, fakemodel.ToolResultMessage{}, fakemodel.ToolResultMessage{},
		fakemodel.AssistantMessage{}, fakemodel.ToolResultMessage{}, fakemodel.ToolResultMessage{},
	}
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.Ended(2, "completed", true, "")
	r.Ended(1, "stopped", false, "ShouldStopAfterTurn returned true")
	r.Messages("history holds", history)
	r.Messages("the run added", history[:1])
	r.Answer("25", true)
	r.Answer("", false)
	want := `loop ended: 2 turns, stop reason completed
loop ended: 1 turn, stop reason stopped (ShouldStopAfterTurn returned true)
history holds 8 messages: user, assistant, toolResult ×3, assistant, toolResult, toolResult
the run added 1 message: user
answer: 25
answer: none: the loop stopped before the model answered
`
	wantPrinted(t, out.String(), want, "")
}

// TestALongListOfRolesStaysShort: a run that a stubborn model drives to
// the context window (fakemodel.ContextWindow) adds thousands of messages;
// the line that lists their roles names the first and last few and counts
// the rest, instead of growing to 50 KB.
func TestALongListOfRolesStaysShort(t *testing.T) {
	added := []fakemodel.Message{fakemodel.UserMessage{}}
	for len(added) < fakemodel.ContextWindow+1 {
		added = append(added, fakemodel.AssistantMessage{}, fakemodel.ToolResultMessage{})
	}
	added = append(added, fakemodel.AssistantMessage{})
	var out bytes.Buffer
	r := NewPrinter(&out).Run()
	r.Messages("the run added", added)
	wantPrinted(t, out.String(), "the run added 4098 messages: user, assistant, toolResult, assistant, toolResult, assistant, "+
		"… 4087 more …, assistant, toolResult, assistant, toolResult, assistant\n", "")

	// Twelve names, runs of one role counted as one, are shown whole.
	out.Reset()
	r.Messages("history holds", added[:12])
	wantPrinted(t, out.String(), "history holds 12 messages: user, assistant, toolResult, assistant, toolResult, assistant, "+
		"toolResult, assistant, toolResult, assistant, toolResult, assistant\n", "")
	out.Reset()
	r.Messages("history holds", added[:13])
	wantPrinted(t, out.String(), "history holds 13 messages: user, assistant, toolResult, assistant, toolResult, assistant, "+
		"… 2 more …, toolResult, assistant, toolResult, assistant, toolResult\n", "")
	out.Reset()
	results := slices.Repeat([]fakemodel.Message{fakemodel.ToolResultMessage{}}, 9)
	r.Messages("history holds", slices.Concat(added[:11], results, added[1:10]))
	wantPrinted(t, out.String(), "history holds 29 messages: user, assistant, toolResult, assistant, toolResult, assistant, "+
		"… 18 more …, assistant, toolResult, assistant, toolResult, assistant\n",
		"the count is of messages: toolResult ×10 counts 10")
}

func TestAgentState(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out)
	p.AgentState(1, nil, nil)
	p.AgentState(6, []fakemodel.Message{fakemodel.UserMessage{Text: "Only direct flights."}}, []fakemodel.Message{fakemodel.UserMessage{Text: "Book it."}})
	want := `the agent's history holds 1 message; nothing is queued
the agent's history holds 6 messages; still queued: steering message "Only direct flights.", follow-up "Book it."
`
	wantPrinted(t, out.String(), want, "")
}

// A call is one tool call that waits on a clock.
type call struct {
	id string
	d  time.Duration
}

// batch runs calls on clk as a parallel batch does: all start, then each
// waits for its duration and ends.
func batch(clk *democlock.Clock, calls ...call) {
	for _, c := range calls {
		clk.Start(c.id)
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Go(func() {
			_ = clk.Sleep(context.Background(), c.id, c.d)
			clk.End(c.id)
		})
	}
	wg.Wait()
}

// results are results of the calls with these IDs.
func results(ids ...string) []fakemodel.ToolResultMessage {
	out := make([]fakemodel.ToolResultMessage, len(ids))
	for i, id := range ids {
		out[i] = fakemodel.ToolResultMessage{ToolCallID: id}
	}
	return out
}

func TestBatchTookSaysHowLongABatchTookOnItsClock(t *testing.T) {
	tests := []struct {
		name string
		// run runs the batch's calls on the clock.
		run  func(*democlock.Clock)
		want string
	}{
		{
			name: "in parallel",
			run: func(clk *democlock.Clock) {
				batch(clk, call{"a", 300 * time.Millisecond}, call{"b", 200 * time.Millisecond}, call{"c", 400 * time.Millisecond})
			},
			want: "turn 1 · the batch took 0.4 s, as long as its slowest call, not the 0.9 s its calls add up to\n",
		},
		{
			name: "one at a time",
			run: func(clk *democlock.Clock) {
				batch(clk, call{"a", 300 * time.Millisecond})
				batch(clk, call{"b", 200 * time.Millisecond})
				batch(clk, call{"c", 400 * time.Millisecond})
			},
			want: "turn 1 · the batch took 0.9 s, the sum of its calls, not the 0.4 s of its slowest call\n",
		},
		{
			name: "neither",
			run: func(clk *democlock.Clock) {
				batch(clk, call{"a", 100 * time.Millisecond})
				batch(clk, call{"b", 200 * time.Millisecond}, call{"c", 100 * time.Millisecond})
			},
			want: "turn 1 · the batch took 0.3 s; its slowest call took 0.2 s, and its calls add up to 0.4 s\n",
		},
		{
			name: "calls that take no time",
			run:  func(clk *democlock.Clock) { batch(clk, call{"a", 0}, call{"b", 0}, call{"c", 0}) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clk := democlock.New()
				tt.run(clk)
				var out bytes.Buffer
				r := NewPrinter(&out).TimedRun(clk)
				r.NextTurn()
				r.BatchTook(results("a", "b", "c"))
				wantPrinted(t, out.String(), tt.want, "")
			})
		})
	}
}

func TestBatchTookSaysNothingWhenThereIsNothingToCompare(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := democlock.New()
		batch(clk, call{"a", 300 * time.Millisecond}, call{"b", 200 * time.Millisecond})
		var out bytes.Buffer
		NewPrinter(&out).Run().BatchTook(results("a", "b"))
		if got := out.String(); got != "" {
			t.Errorf("BatchTook with no clock printed %q, want nothing", got)
		}
		NewPrinter(&out).TimedRun(clk).BatchTook(results("a"))
		if got := out.String(); got != "" {
			t.Errorf("BatchTook of a batch of one call printed %q, want nothing", got)
		}
		failed := results("a", "b")
		failed[1].IsError = true
		NewPrinter(&out).TimedRun(clk).BatchTook(failed)
		if got := out.String(); got != "" {
			t.Errorf("BatchTook of a batch with an error result, a call cut short, printed %q, want nothing", got)
		}
		NewPrinter(&out).TimedRun(clk).BatchTook(results("a", "b"))
		if out.String() == "" {
			t.Error("BatchTook of the same batch, timed, printed nothing, want how long it took")
		}
	})
}

// wantPrinted checks what a printer wrote; why, unless empty, says what the
// text shows.
func wantPrinted(t *testing.T, got, want, why string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		if why != "" {
			t.Errorf("%s; what the printer wrote differs (-want +got):\n%s", why, diff)
			return
		}
		t.Errorf("what the printer wrote differs (-want +got):\n%s", diff)
	}
}
