package main

import "github.com/agent-loop-lab/agent-loop-lab/fakemodel"

// StopReason says why a run ended. Pi's events carry no such thing: the
// workbook reads it off the events, and off the turn limit, whose
// ShouldStopAfterTurn policy decides where no event shows it.
type StopReason string

// The ways a run ends.
const (
	// Completed: the model answered without asking for a tool, and no
	// steering or follow-up message was waiting.
	Completed StopReason = "completed"
	// Terminated: every result of the last batch asked the run to stop,
	// and no message was waiting.
	Terminated StopReason = "terminated"
	// Stopped: ShouldStopAfterTurn ended the run.
	Stopped StopReason = "stopped"
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
	// ends and terminating count the current turn's tool_execution_end
	// events, and those among them that asked the run to stop.
	ends, terminating int
	// added are the messages the run added, from agent_end.
	added []fakemodel.Message
	// limit, if not 0, is the turn limit of the run's ShouldStopAfterTurn
	// policy, maxTurns, which every turn asks but a failed or aborted one.
	limit int
}

func (s *summary) observe(ev Event) {
	switch ev := ev.(type) {
	case TurnStart:
		s.ends, s.terminating = 0, 0
	case ToolExecutionEnd:
		s.ends++
		if ev.Terminate {
			s.terminating++
		}
	case TurnEnd:
		s.turns++
		s.last = ev.Message
	case AgentEnd:
		s.added = ev.Messages
	}
}

// stopReason reads why the run ended.
func (s summary) stopReason() StopReason {
	switch {
	case s.last.StopReason == fakemodel.StopReasonError:
		return ModelError
	case s.last.StopReason == fakemodel.StopReasonAborted:
		return Aborted
	case s.limit > 0 && s.turns >= s.limit:
		return Stopped
	case len(s.last.ToolCalls) > 0 && s.ends > 0 && s.terminating == s.ends:
		return Terminated
	}
	return Completed
}

// answer returns what the user finally reads, if the model answered: if its
// last reply asked for no tool and did not fail. A run that a policy stopped
// after such a reply has an answer too.
func (s summary) answer() (string, bool) {
	switch s.stopReason() {
	case Completed, Stopped:
		return s.last.Text, len(s.last.ToolCalls) == 0
	}
	return "", false
}

// why explains a stop reason that the workbook adds to Pi's loop.
func (r StopReason) why() string {
	switch r {
	case Terminated:
		return "every result of the last batch asked to terminate"
	case Stopped:
		return "ShouldStopAfterTurn returned true"
	}
	return ""
}
