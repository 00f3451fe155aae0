package main

import (
	"fmt"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
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
	clock *democlock.Clock

	turn      int
	streaming bool
}

func newNarrator(p *printer, sum *summary, clk *democlock.Clock) *narrator {
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
		fmt.Fprintf(p.w, "%s start %s %s %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, ev.Args)
	case ToolExecutionUpdate:
		fmt.Fprintf(p.w, "%s %s reports: %s\n", n.prefix(), ev.ToolCallID, ev.PartialResult)
	case ToolExecutionEnd:
		result := ev.Result
		if ev.IsError {
			result = p.bad.Sprint("error: ") + result
		}
		fmt.Fprintf(p.w, "%s done %s %s ⇒ %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, result)
	case TurnEnd:
		n.batchTook(ev.ToolResults)
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

// batchTook says how long a batch of calls took on the clock: as long as
// its slowest call, as a parallel batch does, or as long as all its calls
// together, as a sequential one does. The times are the clock's, so they
// are the same on every run; the machine took about as long, more on a
// busy machine. A batch of one call says nothing, and neither does one
// with an error result: a hook, an error or Ctrl-C cut a call short.
func (n *narrator) batchTook(results []fakemodel.ToolResultMessage) {
	if n.clock == nil || len(results) < 2 {
		return
	}
	var first, last, slowest, sum time.Duration
	for i, r := range results {
		if r.IsError {
			return
		}
		start, end := n.clock.Span(r.ToolCallID)
		if i == 0 || start < first {
			first = start
		}
		last = max(last, end)
		slowest = max(slowest, end-start)
		sum += end - start
	}
	took := last - first
	if took == 0 {
		return
	}
	switch {
	case took == slowest && took < sum:
		n.p.line(fmt.Sprintf("%s the batch took %s, as long as its slowest call, not the %s its calls add up to",
			n.prefix(), seconds(took), seconds(sum)))
	case took == sum && took > slowest:
		n.p.line(fmt.Sprintf("%s the batch took %s, the sum of its calls, not the %s of its slowest call",
			n.prefix(), seconds(took), seconds(slowest)))
	default:
		n.p.line(fmt.Sprintf("%s the batch took %s; its slowest call took %s, and its calls add up to %s",
			n.prefix(), seconds(took), seconds(slowest), seconds(sum)))
	}
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}
