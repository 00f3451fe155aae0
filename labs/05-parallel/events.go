package main

import (
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// An Event is one thing that happened during a run of the loop. The ten types
// below, which mirror Pi's AgentEvent union, are the only types that
// implement it, so a type switch over them is complete.
type Event interface {
	isEvent()
}

// AgentStart opens a run.
type AgentStart struct{}

// AgentEnd closes a run.
type AgentEnd struct {
	// Messages are the messages the run added to the history, its prompt
	// included, oldest first.
	Messages []fakemodel.Message
}

// TurnStart opens a turn: one model reply and the tool calls it triggers.
type TurnStart struct{}

// TurnEnd closes a turn.
type TurnEnd struct {
	// Message is the turn's reply.
	Message fakemodel.AssistantMessage
	// ToolResults answer Message's tool calls, in the order of the calls.
	ToolResults []fakemodel.ToolResultMessage
}

// MessageStart announces a message. For an assistant message it comes before
// the reply exists, and Message is empty.
type MessageStart struct {
	// Message is the message that starts.
	Message fakemodel.Message
}

// MessageUpdate carries one chunk of an assistant reply as it streams in.
type MessageUpdate struct {
	// Message is the reply so far.
	Message fakemodel.AssistantMessage
	// Delta is the chunk that just arrived.
	Delta string
}

// MessageEnd delivers a complete message.
type MessageEnd struct {
	// Message is the complete message.
	Message fakemodel.Message
}

// ToolExecutionStart announces that the loop begins to handle a tool call.
type ToolExecutionStart struct {
	// ToolCallID, ToolName and Args are the call's, as the model wrote
	// them.
	ToolCallID, ToolName string
	Args                 json.RawMessage
}

// ToolExecutionUpdate carries progress that a running tool reported.
type ToolExecutionUpdate struct {
	// ToolCallID, ToolName and Args are the call's, as the model wrote
	// them.
	ToolCallID, ToolName string
	Args                 json.RawMessage
	// PartialResult is the progress note the tool reported.
	PartialResult string
}

// ToolExecutionEnd delivers a tool call's final result.
type ToolExecutionEnd struct {
	// ToolCallID and ToolName are the call's.
	ToolCallID, ToolName string
	// Result is the text the model will read, and IsError marks it as a
	// failure.
	Result  string
	IsError bool
	// Refused: the call never ran. Pi's event lacks it; -diagram draws it.
	Refused bool
}

func (AgentStart) isEvent()          {}
func (AgentEnd) isEvent()            {}
func (TurnStart) isEvent()           {}
func (TurnEnd) isEvent()             {}
func (MessageStart) isEvent()        {}
func (MessageUpdate) isEvent()       {}
func (MessageEnd) isEvent()          {}
func (ToolExecutionStart) isEvent()  {}
func (ToolExecutionUpdate) isEvent() {}
func (ToolExecutionEnd) isEvent()    {}
