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
	// now reads the clock. If timing is set, the narrator times each batch
	// and says whether it took about as long as the slowest of its calls or
	// about the sum of them.
	now    func() time.Time
	timing *latencies

	turn      int
	streaming bool
	// first and last are when the current turn's first call started and
	// its last call ended; failed is set if one of its calls failed.
	first, last time.Time
	failed      bool
}

// latencies are how long a batch's calls are declared to take.
type latencies struct {
	slowest, sum time.Duration
}

func newNarrator(p *printer, sum *summary, now func() time.Time, timing *latencies) *narrator {
	return &narrator{p: p, sum: sum, now: now, timing: timing}
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
		n.first, n.failed = time.Time{}, false
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
		if n.first.IsZero() {
			n.first = n.now()
		}
		fmt.Fprintf(p.w, "%s start %s %s %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, ev.Args)
	case ToolExecutionUpdate:
		fmt.Fprintf(p.w, "%s %s reports: %s\n", n.prefix(), ev.ToolCallID, ev.PartialResult)
	case ToolExecutionEnd:
		n.last = n.now()
		n.failed = n.failed || ev.IsError
		result := ev.Result
		if ev.IsError {
			result = p.bad.Sprint("error: ") + result
		}
		fmt.Fprintf(p.w, "%s done %s %s ⇒ %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, result)
	case TurnEnd:
		// The declared latencies describe a batch whose calls all ran to
		// the end: one that a hook, an error or Ctrl-C cut short gets no
		// timing line.
		if n.timing != nil && !n.first.IsZero() && !n.failed {
			n.batchTook(n.last.Sub(n.first))
		}
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

// batchTook says whether a batch that took d took about as long as its
// slowest call, as a parallel batch does, or about the sum of its calls, as
// a sequential one does. It prints the declared times, not d itself: d
// varies from run to run by a few milliseconds, more on a busy machine, and
// the output must not. Only a delay of more than half the difference
// between the two could change the line.
func (n *narrator) batchTook(d time.Duration) {
	slowest, sum := n.timing.slowest, n.timing.sum
	switch {
	case d < (slowest+sum)/2:
		fmt.Fprintf(n.p.w, "%s the batch took about %s, as long as its slowest call, not the %s its calls add up to\n",
			n.prefix(), seconds(slowest), seconds(sum))
	default:
		fmt.Fprintf(n.p.w, "%s the batch took about %s, the sum of its calls, not the %s of its slowest call\n",
			n.prefix(), seconds(sum), seconds(slowest))
	}
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}
