package main

import "github.com/agent-loop-lab/agent-loop-lab/fakemodel"

// StopReason says why a run ended. Pi's events carry no such thing: the
// workbook reads it off the events, which tell everything that happened.
type StopReason string

// The ways a run ends.
const (
	// Completed: the model answered without asking for a tool.
	Completed StopReason = "completed"
	// MaxTurns: the turn limit was reached while the model still wanted
	// tools.
	MaxTurns StopReason = "max_turns"
	// ModelError: a request to the model failed.
	ModelError StopReason = "error"
	// Aborted: the run's context was cancelled, by Ctrl-C for instance.
	Aborted StopReason = "aborted"
)

// A summary collects what a run's events say about the run as a whole.
type summary struct {
	// turns counts turn_end events.
	turns int
	// last is the assistant message of the last turn.
	last fakemodel.AssistantMessage
	// added are the messages the run added, from agent_end.
	added []fakemodel.Message
}

func (s *summary) observe(ev Event) {
	switch ev := ev.(type) {
	case TurnEnd:
		s.turns++
		s.last = ev.Message
	case AgentEnd:
		s.added = ev.Messages
	}
}

// stopReason reads why the run ended off its last reply: a reply that still
// asked for tools can only have been the last because of the turn limit,
// whatever its stop reason says.
func (s summary) stopReason() StopReason {
	switch {
	case s.last.StopReason == fakemodel.StopReasonError:
		return ModelError
	case s.last.StopReason == fakemodel.StopReasonAborted:
		return Aborted
	case len(s.last.ToolCalls) > 0:
		return MaxTurns
	}
	return Completed
}

// answer returns what the user finally reads, if the model answered.
func (s summary) answer() (string, bool) {
	return s.last.Text, s.stopReason() == Completed
}
