package diagram

import (
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// A Picture draws a lab's runs while they happen, instead of its narrative:
// package narrative hands it each beat of the narrative, in order, and the
// picture writes Mermaid as it goes. [Sequence] and [Timeline] are
// Pictures. A beat a picture has no use for, it leaves out.
type Picture interface {
	// Part starts part n of the lab's output, or, with n 0, the one run
	// the lab makes, such as a scenario's.
	Part(n int, title string, setup []string)
	// Run starts a run of the loop, whose tools wait on clock; nil if
	// they wait on no demo clock.
	Run(clock *democlock.Clock)
	// Turn starts the next turn: turn_start.
	Turn()
	// User draws a user's message entering the history. inTurn says the
	// narrative tells its turn, as lab 06's does for a steering or
	// follow-up message.
	User(text string, inTurn bool)
	// Streaming says that the model's reply streams in: its request has
	// been sent.
	Streaming()
	// Reply draws the model's reply, complete: message_end.
	Reply(m fakemodel.AssistantMessage)
	// Result draws a tool result entering the history.
	Result(m fakemodel.ToolResultMessage)
	// ToolStart draws the loop handing a tool call to its tool:
	// tool_execution_start.
	ToolStart(id, name string, args json.RawMessage)
	// ToolUpdate draws a progress note of a running call.
	ToolUpdate(id, partial string)
	// ToolEnd draws a call's result, an error if isError, and its marks,
	// such as "terminate".
	ToolEnd(id, name, result string, isError bool, marks []string)
	// ToolRefused draws the end of a call that the loop refused before it
	// ran, with its error result: an unknown tool, arguments that do not
	// validate, a BeforeToolCall that blocks it, a run cancelled first.
	// Its tool never saw it.
	ToolRefused(id, name, result string, marks []string)
	// Ended draws how the run ended, in the narrative's words.
	Ended(text string)
	// Answer draws what the user finally reads, if ok, and otherwise that
	// the loop stopped before the model answered.
	Answer(text string, ok bool)
	// Note draws anything else the narrative says about a run, such as
	// how long a batch took.
	Note(text string)
	// Aside draws what the user does while a run goes on, such as typing
	// a steering message, in the narrative's words.
	Aside(text string)
	// Line draws a line of the session between runs, such as that the
	// agent continues.
	Line(text string)
	// Close ends the picture once the lab has nothing more to draw: it
	// writes what the picture still holds.
	Close()
}

// Both pictures draw every beat.
var (
	_ Picture = (*Sequence)(nil)
	_ Picture = (*Timeline)(nil)
)

// The help texts of the labs' flags -diagram and -timeline. Each says how
// to see the picture: the lab prints Mermaid's text, which GitHub, an
// editor's Markdown preview or a renderer on the machine draws; the lab
// itself needs no network.
const (
	DiagramUsage = "print the run as a Mermaid sequence diagram instead of the narrative.\n" +
		"To see it, put it in a mermaid code block of a Markdown file: GitHub and\n" +
		"most editors' Markdown previews draw it (the lab's README says more)"
	TimelineUsage = "print the run's tool calls as a Mermaid Gantt chart on the demo clock\n" +
		"instead of the narrative; see it as -diagram's picture"
)
