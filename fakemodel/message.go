package fakemodel

import "encoding/json"

// Role names who wrote a message. It is what a provider's API calls "role".
type Role string

// The three roles of a conversation.
const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleToolResult Role = "toolResult"
)

// A Message is one entry of a conversation's history. It is one of
// [UserMessage], [AssistantMessage] or [ToolResultMessage]; no other type can
// be a Message, so a type switch over those three is complete.
type Message interface {
	// Role reports who wrote the message.
	Role() Role
	// isMessage closes the set of message types to this package.
	isMessage()
}

// A UserMessage is text from the person using the agent: the first prompt,
// and in the later labs a steering or follow-up message.
type UserMessage struct {
	// Text is what the person typed.
	Text string
}

// An AssistantMessage is one reply of the model. It holds text for the user,
// the tool calls the model asks for, or both.
type AssistantMessage struct {
	// Text is what the model says to the user; it may be empty.
	Text string
	// ToolCalls are the tools the model asks for, in its order.
	ToolCalls []ToolCall
	// StopReason says why the model stopped writing this reply.
	StopReason StopReason
	// ErrorMessage explains a reply whose StopReason is StopReasonError or
	// StopReasonAborted.
	ErrorMessage string
}

// A ToolResultMessage answers one tool call. The loop writes it, not the
// model: it is what the tool returned, or what went wrong.
type ToolResultMessage struct {
	// ToolCallID is the ID of the call this message answers.
	ToolCallID string
	// ToolName is the name of the tool the call asked for.
	ToolName string
	// Content is the text the model reads: the tool's output, or what
	// went wrong.
	Content string
	// IsError marks a result that reports a failure, so the model can tell
	// "the answer is 0" from "the tool failed".
	IsError bool
}

// Role reports RoleUser.
func (UserMessage) Role() Role { return RoleUser }

// Role reports RoleAssistant.
func (AssistantMessage) Role() Role { return RoleAssistant }

// Role reports RoleToolResult.
func (ToolResultMessage) Role() Role { return RoleToolResult }

func (UserMessage) isMessage()       {}
func (AssistantMessage) isMessage()  {}
func (ToolResultMessage) isMessage() {}

// A ToolCall is the model asking for one tool to be run. The model cannot run
// anything itself: it only names the tool and writes its arguments.
type ToolCall struct {
	// ID pairs the call with the ToolResultMessage that answers it.
	ID string
	// Name is the tool the model asks for. Nothing guarantees that a tool
	// of that name exists.
	Name string
	// Arguments is the JSON the model wrote. Nothing guarantees that it is
	// valid JSON, let alone the arguments the tool expects.
	Arguments json.RawMessage
}

// StopReason says why the model stopped writing a reply.
type StopReason string

// The stop reasons of an assistant message, with Pi's names.
const (
	// StopReasonStop: the model finished its answer.
	StopReasonStop StopReason = "stop"
	// StopReasonToolUse: the model stopped to let tools run.
	StopReasonToolUse StopReason = "toolUse"
	// StopReasonLength: the reply hit the output token limit and was cut off,
	// so its last words, or its tool calls' arguments, may be missing.
	StopReasonLength StopReason = "length"
	// StopReasonError: the request failed; ErrorMessage says how.
	StopReasonError StopReason = "error"
	// StopReasonAborted: the request was cancelled.
	StopReasonAborted StopReason = "aborted"
)

// A ToolSpec describes a tool to the model: its name, what it is for, and the
// JSON Schema of its arguments. It is what a provider's API receives in the
// "tools" field of a request; the code that runs the tool stays with you.
type ToolSpec struct {
	// Name is what the model writes in a ToolCall to ask for the tool.
	Name string
	// Description tells the model what the tool is for.
	Description string
	// Parameters is the JSON Schema of the tool's arguments.
	Parameters json.RawMessage
}
