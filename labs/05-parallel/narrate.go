package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
)

// narrate returns an event handler that prints a run as it happens: it turns
// each event into a line of the lab's narrative the moment the event
// arrives, and the model's reply word by word as it streams in (n writes
// the lines). At agent_end it prints how the run ended, from sum.
// At turn_end, if n has a clock to time the batch on, it says whether the
// batch took as long as its slowest call or as long as all its calls
// together. Last, it hands n the event's trace line, which ends the
// event: with -html, each event is a step of the page (labs/stepper).
func narrate(n *narrative.Run, sum *summary) func(Event) {
	return func(ev Event) {
		switch ev := ev.(type) {
		case TurnStart:
			n.NextTurn()
		case MessageStart:
			if user, ok := ev.Message.(fakemodel.UserMessage); ok {
				n.User(user.Text)
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
			n.ToolEnd(ev.ToolCallID, ev.ToolName, ev.Result, ev.IsError, ev.Refused)
		case TurnEnd:
			n.BatchTook(ev.ToolResults)
		case AgentEnd:
			reason := sum.stopReason()
			n.Ended(sum.turns, string(reason), reason == Completed, "")
			n.Messages("history holds", sum.added)
			n.Answer(sum.answer())
		}
		n.Event(traceLine(ev))
	}
}
