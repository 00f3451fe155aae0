package diagram

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// A Sequence draws runs of the loop as one Mermaid sequence diagram, line
// by line, as they happen: the lanes are the user, the loop, the model and
// one per tool, in the order the run first calls each. Each request, each
// reply, each tool call and its result is an arrow; what the narrative says
// besides is a note. A call is active on its tool's lane from its start to
// its end, so the calls of a parallel batch overlap there.
//
// Mermaid reads "loop" and "end" as keywords, so the lanes have short IDs
// (U, L, M, T1, T2…) and their names as aliases.
type Sequence struct {
	w io.Writer
	// tools maps a tool's name to its lane's ID.
	tools map[string]string
	// active maps the ID of each running call to its tool's lane.
	active map[string]string
	// turn is the current turn of the run, and sent says whether its
	// request is drawn.
	turn int
	sent bool
	// batch is the number of tool calls of the last reply, until the
	// first of them starts: then the batch's note is drawn.
	batch int
	// results are the IDs of the results that entered the history and
	// are not drawn yet: they are drawn together, in one note, before
	// whatever comes next.
	results []string
}

// The lanes every diagram has.
const (
	user  = "U"
	loop  = "L"
	model = "M"
)

// NewSequence returns a sequence diagram written to w, and writes its
// header and its first three lanes.
func NewSequence(w io.Writer) *Sequence {
	s := &Sequence{w: w, tools: map[string]string{}, active: map[string]string{}}
	fmt.Fprintln(w, "sequenceDiagram")
	s.line("participant %s as User", user)
	s.line("participant %s as Loop", loop)
	s.line("participant %s as Model", model)
	return s
}

// line writes one statement, indented, after the results that wait to be
// drawn.
func (s *Sequence) line(format string, a ...any) {
	s.flushResults()
	fmt.Fprintf(s.w, "    "+format+"\n", a...)
}

// arrow draws a message from one lane to another.
func (s *Sequence) arrow(from, kind, to, label string) {
	s.line("%s%s%s:%s", from, kind, to, spaced(label))
}

// note draws a note over the lanes over, one line for each of labels.
func (s *Sequence) note(over string, labels ...string) {
	s.line("Note over %s:%s", over, spaced(strings.Join(labels, "<br/>")))
}

// spaced returns label after a space, and an empty label as nothing, so
// that no line ends with a space.
func spaced(label string) string {
	if label == "" {
		return ""
	}
	return " " + label
}

// flushResults draws the results that entered the history, in one note.
func (s *Sequence) flushResults() {
	if len(s.results) == 0 {
		return
	}
	ids := s.results
	s.results = nil
	what := "result of "
	if len(ids) > 1 {
		what = "results of "
	}
	s.note(loop, Label("history ← "+what+strings.Join(ids, ", "), 2*maxText))
}

// lane returns the lane of the tool name, and draws it the first time.
func (s *Sequence) lane(tool string) string {
	id, ok := s.tools[tool]
	if !ok {
		id = fmt.Sprintf("T%d", len(s.tools)+1)
		s.tools[tool] = id
		s.line("participant %s as %s", id, name(tool))
	}
	return id
}

// Part draws a note over the user, the loop and the model with the part's
// title and its setup.
func (s *Sequence) Part(n int, title string, setup []string) {
	if n > 0 {
		title = fmt.Sprintf("part %d: %s", n, title)
	}
	labels := []string{Label(title, 2*maxText)}
	for _, line := range setup {
		labels = append(labels, Label("setup: "+line, 2*maxText))
	}
	s.note(user+","+model, labels...)
}

// Run starts a run: its turns count from 1.
func (s *Sequence) Run(*democlock.Clock) {
	s.turn, s.sent, s.batch = 0, false, 0
}

// Turn starts the next turn.
func (s *Sequence) Turn() {
	s.turn++
	s.sent = false
}

// User draws the user's message entering the history: the prompt, or, with
// inTurn, a message that enters a turn, named by its number.
func (s *Sequence) User(text string, inTurn bool) {
	if inTurn {
		text = fmt.Sprintf("turn %d · %s", s.turn, shorten(text, maxText))
	}
	s.arrow(user, "->>", loop, Label(text, 2*maxText))
}

// Streaming draws the turn's request, the first time.
func (s *Sequence) Streaming() {
	s.request("")
}

// request draws the turn's request, with what it sent if detail is not
// empty, unless it is drawn.
func (s *Sequence) request(detail string) {
	if s.sent {
		return
	}
	s.sent = true
	label := fmt.Sprintf("turn %d · request", s.turn)
	if detail != "" {
		label += ": " + detail
	}
	s.arrow(loop, "->>", model, Label(label, 2*maxText))
}

// Reply draws the model's reply: its text, shortened, and how many tool
// calls it makes; or, for a request that failed or was aborted, why, with
// a cross.
func (s *Sequence) Reply(m fakemodel.AssistantMessage) {
	s.reply(m)
	s.batch = len(m.ToolCalls)
}

// reply draws the model's reply, after its request if that is not drawn.
func (s *Sequence) reply(m fakemodel.AssistantMessage) {
	s.request("")
	switch m.StopReason {
	case fakemodel.StopReasonError:
		s.arrow(model, "--x", loop, Label("request failed: "+shorten(m.ErrorMessage, maxText), 2*maxText))
		return
	case fakemodel.StopReasonAborted:
		s.arrow(model, "--x", loop, Label("request aborted: "+shorten(m.ErrorMessage, maxText), 2*maxText))
		return
	}
	text := shorten(m.Text, maxText)
	if text == "" {
		text = "(no text)"
	}
	if len(m.ToolCalls) > 0 {
		text += " · calls " + toolNames(m.ToolCalls)
	}
	if m.StopReason == fakemodel.StopReasonLength {
		text += " · cut off (stop reason length)"
	}
	s.arrow(model, "-->>", loop, Label(text, 2*maxText))
}

// Result notes that a tool result entered the history. The results that
// enter one after another are drawn as one note.
func (s *Sequence) Result(m fakemodel.ToolResultMessage) {
	s.results = append(s.results, m.ToolCallID)
}

// ToolStart draws the loop handing the call to its tool's lane, which is
// active until the call ends. The first call of a batch is preceded by a
// note that says how many calls the batch has.
func (s *Sequence) ToolStart(id, name string, args json.RawMessage) {
	if s.batch > 0 {
		s.note(loop, Label(fmt.Sprintf("batch of %s starts", count(s.batch, "tool call")), maxText))
		s.batch = 0
	}
	s.start(id, name, args)
}

// start draws a call's start, and activates its tool's lane.
func (s *Sequence) start(id, name string, args json.RawMessage) {
	lane := s.lane(name)
	s.active[id] = lane
	s.arrow(loop, "->>+", lane, Label(id+" "+shorten(string(args), maxText), 2*maxText))
}

// ToolUpdate draws a progress note of a running call as a message from its
// tool to the loop.
func (s *Sequence) ToolUpdate(id, partial string) {
	lane, ok := s.active[id]
	if !ok {
		lane = loop
	}
	s.arrow(lane, "--)", loop, Label(id+" reports: "+shorten(partial, maxText), 2*maxText))
}

// ToolEnd draws a call's result as the answer of its tool's lane, which is
// no longer active: an error result with a cross, each of marks in
// parentheses after it.
func (s *Sequence) ToolEnd(id, name, result string, isError bool, marks []string) {
	lane, ok := s.active[id]
	delete(s.active, id)
	kind := "-->>"
	if isError {
		kind = "--x"
		result = "error: " + result
	}
	label := id + " ⇒ " + shorten(result, maxText)
	for _, mark := range marks {
		label += " (" + mark + ")"
	}
	if !ok {
		// A call that never started, drawn from the loop to itself.
		s.arrow(loop, kind, loop, Label(name+" "+label, 2*maxText))
		return
	}
	s.arrow(lane, kind+"-", loop, Label(label, 2*maxText))
}

// Ended notes how the run ended.
func (s *Sequence) Ended(text string) {
	s.note(loop, Label(text, 2*maxText))
}

// Answer draws the answer the user reads, or a cross if there is none.
func (s *Sequence) Answer(text string, ok bool) {
	if !ok {
		s.arrow(loop, "--x", user, "no answer: the loop stopped before the model answered")
		return
	}
	s.arrow(loop, "-->>", user, Label(text, maxText))
}

// Note notes anything else the narrative says about the run, over the
// loop.
func (s *Sequence) Note(text string) {
	s.note(loop, Label(text, 2*maxText))
}

// Aside notes what the user does, over the user's lane. The narrative's
// parentheses around it are left out.
func (s *Sequence) Aside(text string) {
	s.note(user, Label(strings.TrimSuffix(strings.TrimPrefix(text, "("), ")"), 2*maxText))
}

// Line notes a line of the session, over the user and the loop. The
// narrative's dashes around it are left out.
func (s *Sequence) Line(text string) {
	s.note(user+","+loop, Label(strings.Trim(text, "- "), 2*maxText))
}

// toolNames names the tools that calls ask for, each once, in the order
// they first come, with how many calls ask for it if more than one:
// "calculate ×7, weather, average".
func toolNames(calls []fakemodel.ToolCall) string {
	var names []string
	counts := map[string]int{}
	for _, c := range calls {
		if counts[c.Name] == 0 {
			names = append(names, c.Name)
		}
		counts[c.Name]++
	}
	for i, name := range names {
		if name == "" {
			names[i] = "(no name)"
		}
		if n := counts[name]; n > 1 {
			names[i] += fmt.Sprintf(" ×%d", n)
		}
	}
	return strings.Join(names, ", ")
}

// count writes n and a noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
