package diagram

import (
	"fmt"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Finished run is a run of labs 02 to 04, which print a run once it has
// ended, from its history: what Sequence.Finished draws, and what a page
// to step through replays (labs/stepper).
type Finished struct {
	// Part and Title head the run, as the lab's part n, if Title is not
	// empty.
	Part  int
	Title string
	// History is the run's history, its prompt first.
	History []fakemodel.Message
	// Requests, if not nil, are what each request sent the model, in the
	// order of the turns: -requests shows them on the request's arrow, and
	// a page shows each turn's.
	Requests []fakemodel.Request
	// Turns and StopReason say how the loop ended.
	Turns      int
	StopReason string
	// Answer is what the user finally reads, if Answered.
	Answer   string
	Answered bool
}

// Finished draws a finished run from its history: the prompt, then for each
// reply its request, the reply, and each of its tool calls with the result
// that answers it; then how the loop ended, and the answer.
func (s *Sequence) Finished(f Finished) {
	if f.Title != "" {
		s.Part(f.Part, f.Title, nil)
	}
	s.Run(nil)
	for _, m := range f.History {
		switch m := m.(type) {
		case fakemodel.UserMessage:
			s.User(m.Text, false)
		case fakemodel.AssistantMessage:
			s.Turn()
			if s.turn <= len(f.Requests) {
				s.request(sent(f.Requests[s.turn-1]))
			}
			s.reply(m)
			for _, call := range m.ToolCalls {
				r, ok := resultFor(f.History, call.ID)
				if !ok {
					continue
				}
				s.start(call.ID, call.Name, call.Arguments)
				if r.IsError && refusedInPisWords(call.Name, r.Content) {
					s.ToolRefused(call.ID, call.Name, r.Content, nil)
				} else {
					s.ToolEnd(call.ID, call.Name, r.Content, r.IsError, nil)
				}
			}
		}
	}
	s.Ended(fmt.Sprintf("loop ended: %s, stop reason %s", count(f.Turns, "turn"), f.StopReason))
	s.Note(fmt.Sprintf("history holds %s: %s", count(len(f.History), "message"), fakemodel.RoleList(f.History)))
	s.Answer(f.Answer, f.Answered)
}

// refusedInPisWords reports whether result is what Pi answers a call to
// tool that it refuses before it runs, in the words labs 04 to 06 use: an
// unknown tool, or arguments that do not validate. A finished run keeps no
// other trace of it: its history holds the result, not how it came.
func refusedInPisWords(tool, result string) bool {
	return result == "Tool "+tool+" not found" || strings.HasPrefix(result, fmt.Sprintf("Validation failed for tool %q: ", tool))
}

// sent says what a request sent the model: how many messages, their roles,
// and the tools offered.
func sent(req fakemodel.Request) string {
	tools := "no tools"
	if len(req.Tools) > 0 {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = t.Name
		}
		tools = fmt.Sprintf("%s (%s)", count(len(names), "tool"), strings.Join(names, ", "))
	}
	return fmt.Sprintf("%s (%s), %s", count(len(req.Messages), "message"), fakemodel.RoleList(req.Messages), tools)
}

// resultFor finds the tool result that answers the call with this ID.
func resultFor(history []fakemodel.Message, id string) (fakemodel.ToolResultMessage, bool) {
	for _, m := range history {
		if r, ok := m.(fakemodel.ToolResultMessage); ok && r.ToolCallID == id {
			return r, true
		}
	}
	return fakemodel.ToolResultMessage{}, false
}
