package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
)

// narrate returns an event handler that prints a run as it happens: it turns
// each event into a line of the lab's narrative the moment the event
// arrives, and the model's reply word by word as it streams in (n writes
// the lines). At agent_end it prints how the run ended, from sum.
// Last, it hands n the event's trace line, which ends the
// event: with -html, each event is a step of the page (labs/stepper).
func narrate(n *narrative.Run, sum *summary) func(Event) {
	return func(ev Event) {
		switch ev := ev.(type) {
		case TurnStart:
			n.NextTurn()
		case MessageStart:
			if user, ok := ev.Message.(fakemodel.UserMessage); ok {
				n.UserInTurn(user.Text)
			}
		case MessageUpdate:
			n.Delta(ev.Delta)
		case MessageEnd:
			n.MessageEnd(ev.Message)
		case ToolExecutionStart:
			n.ToolStart(ev.ToolCallID, ev.ToolName, ev.Args)
		case ToolExecutionUpdate:
			n.ToolUpdate(ev.ToolCallID, ev.PartialResult)
		case ToolExecutionEnd:
			var marks []string
			if ev.Terminate {
				marks = append(marks, "terminate")
			}
			n.ToolEnd(ev.ToolCallID, ev.ToolName, ev.Result, ev.IsError, ev.Refused, marks...)
		case AgentEnd:
			reason := sum.stopReason()
			n.Ended(sum.turns, string(reason), reason == Completed, reason.why())
			n.Messages("the run added", sum.added)
			text, ok := sum.answer()
			if ok && text == "" {
				// A scenario may script a reply with no text.
				text = n.Warn("(an empty reply)")
			}
			n.Answer(text, ok)
		}
		n.Event(traceLine(ev))
	}
}
