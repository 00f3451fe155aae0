package main

import (
	"fmt"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// traceLine writes one event as one line of the -trace output: the event's
// type with Pi's name, then what identifies it. The format is the same in
// labs 05 and 06.
func traceLine(ev Event) string {
	switch ev := ev.(type) {
	case AgentStart:
		return "agent_start"
	case AgentEnd:
		return fmt.Sprintf("agent_end messages=%d", len(ev.Messages))
	case TurnStart:
		return "turn_start"
	case TurnEnd:
		return fmt.Sprintf("turn_end results=%d", len(ev.ToolResults))
	case MessageStart:
		return "message_start " + messageLabel(ev.Message)
	case MessageUpdate:
		return "message_update assistant"
	case MessageEnd:
		return "message_end " + messageLabel(ev.Message)
	case ToolExecutionStart:
		return fmt.Sprintf("tool_execution_start %s %s", ev.ToolCallID, ev.ToolName)
	case ToolExecutionUpdate:
		return "tool_execution_update " + ev.ToolCallID
	case ToolExecutionEnd:
		if ev.IsError {
			first, _, _ := strings.Cut(ev.Result, "\n")
			return fmt.Sprintf("tool_execution_end %s error: %s", ev.ToolCallID, first)
		}
		return "tool_execution_end " + ev.ToolCallID
	}
	panic(fmt.Sprintf("traceLine: unknown event %T", ev))
}

// messageLabel identifies a message in a trace line: its role and, for a tool
// result, the call it answers and whether it is an error.
func messageLabel(m fakemodel.Message) string {
	r, ok := m.(fakemodel.ToolResultMessage)
	if !ok {
		return string(m.Role())
	}
	if r.IsError {
		return fmt.Sprintf("toolResult %s error", r.ToolCallID)
	}
	return "toolResult " + r.ToolCallID
}
