package main

import (
	"fmt"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A narrator prints a run as it happens: it turns each event into a line of
// the lab's narrative the moment the event arrives, and the model's reply
// word by word as it streams in.
type narrator struct {
	p   *printer
	sum *summary

	turn      int
	streaming bool
	// held are lines that came while the model's reply was streaming:
	// they wait for the end of its line.
	held []string
}

func newNarrator(p *printer, sum *summary) *narrator {
	return &narrator{p: p, sum: sum}
}

// aside prints a line that is not an event's, such as what the simulated
// user does. While the model's reply streams in, it waits for the end of the
// reply's line.
func (n *narrator) aside(text string) {
	if n.streaming {
		n.held = append(n.held, text)
		return
	}
	n.p.line(text)
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
			fmt.Fprintf(p.w, "%s %s %s\n", n.prefix(), p.label.Sprint("user:"), user.Text)
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
		if ev.Terminate {
			result += p.warn.Sprint(" (terminate)")
		}
		fmt.Fprintf(p.w, "%s done %s %s ⇒ %s\n", n.prefix(), ev.ToolCallID, ev.ToolName, result)
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
			for _, text := range n.held {
				p.line(text)
			}
			n.held = nil
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
	if why := sum.stopReason().why(); why != "" {
		reason += " (" + why + ")"
	}
	fmt.Fprintf(p.w, "%s %s, stop reason %s\n", p.label.Sprint("loop ended:"), count(sum.turns, "turn"), reason)
	fmt.Fprintf(p.w, "the run added %s: %s\n", count(len(sum.added), "message"), roleList(sum.added))
	text, ok := sum.answer()
	switch {
	case !ok:
		text = p.warn.Sprint("none: the loop stopped before the model answered")
	case text == "":
		// A scenario may script a reply with no text.
		text = p.warn.Sprint("(an empty reply)")
	}
	fmt.Fprintf(p.w, "%s %s\n", p.label.Sprint("answer:"), text)
}
