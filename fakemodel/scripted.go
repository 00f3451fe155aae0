package fakemodel

import (
	"context"
	"errors"
	"fmt"
)

// Scripted returns a model that replays replies in order. It picks its reply
// by counting the assistant messages in the request's history: with none it
// sends replies[0], with one replies[1], and so on. A transform that hides
// earlier replies from the model therefore changes what it plays.
//
// A reply whose StopReason is StopReasonError stands for a failed request:
// Reply returns its ErrorMessage as an error. One with StopReasonAborted
// stands for a cancelled request: Reply returns an error that wraps
// context.Canceled. A reply with no StopReason gets StopReasonToolUse if it
// has tool calls and StopReasonStop otherwise. When the script has no reply
// left, Reply fails with an error that says so.
func Scripted(replies ...AssistantMessage) Model {
	return fake{name: "scripted", decide: func(req Request) (AssistantMessage, error) {
		n := 0
		for _, m := range req.Messages {
			if m.Role() == RoleAssistant {
				n++
			}
		}
		if n >= len(replies) {
			return AssistantMessage{}, fmt.Errorf("no reply left for request %d: the script holds %d", n+1, len(replies))
		}
		reply := replies[n]
		switch reply.StopReason {
		case StopReasonError:
			return AssistantMessage{}, errors.New(reply.ErrorMessage)
		case StopReasonAborted:
			if reply.ErrorMessage == "" {
				return AssistantMessage{}, context.Canceled
			}
			return AssistantMessage{}, fmt.Errorf("%s: %w", reply.ErrorMessage, context.Canceled)
		}
		return reply, nil
	}}
}
