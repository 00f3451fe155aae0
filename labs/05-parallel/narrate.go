package main

import (
	"fmt"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A narrator prints a run as it happens: it turns each event into a line of
// the lab's narrative the moment the event arrives, and the model's reply
// word by word as it streams in.
type narrator struct {
	p   *printer
	sum *summary
	// clock, if set, is the clock the tools wait on: the narrator times
	// each batch on it and says whether the batch took as long as its
	// slowest call or as long as all its calls together.
	clock *clock

	turn      int
	streaming bool
	batch     batchTimes
}

// batchTimes are the clock's times of one turn's tool calls.
type batchTimes struct {
	// first and last are when the first call started and the last one
	// ended.
	first, last time.Duration
	started     map[string]time.Duration
	// slowest and sum are the longest call and all calls together.
	slowest, sum time.Duration
	// failed is set if a call failed: a hook, an error or Ctrl-C cut it
	// short, so its time says nothing about the batch.
	failed bool
}

func newNarrator(p *printer, sum *summary, clk *clock) *narrator {
	return &narrator{p: p, sum: sum, clock: clk}
}

func (n *narrator) prefix() string {
	return n.p.turn.Sprintf("turn %d ·", n.turn)
}

// show prints the narrative line of one event, if it has one.
func (n *narrator) show(ev Event) {
	p := n.p
	switch ev := ev.(type) {
	case TurnStart:
		n.turn++
		n.batch = batchTimes{started: map[string]time.Duration{}}
	case MessageStart:
		if user, ok := ev.Message.(fakemodel.UserMessage); ok {
			fmt.Fprintf(p.w, "%s %s\n", p.label.Sprint("user:"), user.Text)
		}
	case MessageUpdate:
		if !n.streaming {
			fmt.Fprintf(p.w, "%s model said: ", n.prefix())
			n.streaming = true
		}
		fmt.Fprint(p.w, ev.Delta)
	case MessageEnd:
		n.messageEnd(ev.Message)
	case ToolExecutionStart:
		n.startCall(ev.ToolCallID)
		fmt.Fprintf(p.w, "%s start %s %s %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, ev.Args)
	case ToolExecutionUpdate:
		fmt.Fprintf(p.w, "%s %s reports: %s\n", n.prefix(), ev.ToolCallID, ev.PartialResult)
	case ToolExecutionEnd:
		n.endCall(ev.ToolCallID)
		n.batch.failed = n.batch.failed || ev.IsError
		result := ev.Result
		if ev.IsError {
			result = p.bad.Sprint("error: ") + result
		}
		fmt.Fprintf(p.w, "%s done %s %s ⇒ %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, result)
	case TurnEnd:
		n.batchTook()
	case AgentEnd:
		n.ended()
	}
}

func (n *narrator) messageEnd(m fakemodel.Message) {
	p := n.p
	switch m := m.(type) {
	case fakemodel.AssistantMessage:
		if n.streaming {
			fmt.Fprintln(p.w)
			n.streaming = false
		}
		switch m.StopReason {
		case fakemodel.StopReasonError:
			fmt.Fprintf(p.w, "%s %s %s\n", n.prefix(), p.bad.Sprint("model request failed:"), m.ErrorMessage)
		case fakemodel.StopReasonAborted:
			fmt.Fprintf(p.w, "%s %s %s\n", n.prefix(), p.warn.Sprint("model request aborted:"), m.ErrorMessage)
		}
	case fakemodel.ToolResultMessage:
		fmt.Fprintf(p.w, "%s history ← result of %s\n", n.prefix(), m.ToolCallID)
	}
}

// ended prints how the run ended, from what its events said.
func (n *narrator) ended() {
	p, sum := n.p, n.sum
	reason := p.good.Sprint(sum.stopReason())
	if sum.stopReason() != Completed {
		reason = p.warn.Sprint(sum.stopReason())
	}
	fmt.Fprintf(p.w, "%s %s, stop reason %s\n", p.label.Sprint("loop ended:"), count(sum.turns, "turn"), reason)
	fmt.Fprintf(p.w, "history holds %s: %s\n", count(len(sum.added), "message"), roleList(sum.added))
	text, ok := sum.answer()
	if !ok {
		text = p.warn.Sprint("none: the loop stopped before the model answered")
	}
	fmt.Fprintf(p.w, "%s %s\n", p.label.Sprint("answer:"), text)
}

func (n *narrator) startCall(id string) {
	if n.clock == nil {
		return
	}
	now := n.clock.elapsed()
	if len(n.batch.started) == 0 {
		n.batch.first = now
	}
	n.batch.started[id] = now
}

func (n *narrator) endCall(id string) {
	if n.clock == nil {
		return
	}
	b := &n.batch
	b.last = n.clock.elapsed()
	took := b.last - b.started[id]
	b.slowest = max(b.slowest, took)
	b.sum += took
}

// batchTook says how long a batch of calls took on the clock: as long as
// its slowest call, as a parallel batch does, or as long as all its calls
// together, as a sequential one does. The times are the clock's, so they
// are the same on every run; the machine took about as long, more on a
// busy machine.
func (n *narrator) batchTook() {
	b := n.batch
	took := b.last - b.first
	// By turn_end every call that started has ended.
	if len(b.started) < 2 || took == 0 || b.failed {
		return
	}
	switch {
	case took == b.slowest && took < b.sum:
		n.p.line(fmt.Sprintf("%s the batch took %s, as long as its slowest call, not the %s its calls add up to",
			n.prefix(), seconds(took), seconds(b.sum)))
	case took == b.sum && took > b.slowest:
		n.p.line(fmt.Sprintf("%s the batch took %s, the sum of its calls, not the %s of its slowest call",
			n.prefix(), seconds(took), seconds(b.slowest)))
	default:
		n.p.line(fmt.Sprintf("%s the batch took %s; its slowest call took %s, and its calls add up to %s",
			n.prefix(), seconds(took), seconds(b.slowest), seconds(b.sum)))
	}
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}
