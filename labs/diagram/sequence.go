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
// the tools. Each request, each reply, each tool call and its result is an
// arrow; what the narrative says besides is a note.
//
// Each call runs on a tool lane of its own, active from the moment the
// loop hands the call to its tool until the call ends: a call takes the
// first tool lane that no other call holds, so the calls of a parallel
// batch lie side by side, each with its own bar, and those of a
// sequential one follow each other on one lane. A call that the loop
// refuses before it runs (an unknown tool, arguments that do not
// validate, a BeforeToolCall that blocks it) never reaches a tool: it is
// drawn on the loop's lane. Since only a call's end says whether it ran,
// the calls that have started are drawn once each of them has ended.
//
// Mermaid makes the gap between two lanes as wide as the widest label
// between them, so labels are wrapped onto lines of lineWidth columns and
// the diagram's first line makes the lanes narrower than Mermaid's
// default: six lanes, three calls at once, fit in the 1,200 pixels that a
// page shows without shrinking its text too far. Mermaid reads "loop" and
// "end" as keywords, so the lanes have short IDs (U, L, M, T1, T2…) and
// their names as aliases.
type Sequence struct {
	w io.Writer
	// lanes holds, for each tool lane, the ID of the call that holds it,
	// or "" for a lane that is free.
	lanes []string
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
	// held are the statements since the first of the calls that have not
	// all ended started; running are those calls, and refused the calls
	// the loop refused.
	held    []statement
	running map[string]bool
	refused map[string]bool
}

// A statement is one line of the diagram, or one that waits for the calls
// to end to know its lane: a call's start, a progress note or its end.
type statement struct {
	kind  statementKind
	id    string
	arrow string
	label string
}

// statementKind says what a statement is.
type statementKind int

const (
	// plain is a line as it is, in label.
	plain statementKind = iota
	// callStart is the loop handing call id to a tool lane.
	callStart
	// callUpdate is a progress note from the call's lane.
	callUpdate
	// callEnd is the call's result, from its lane.
	callEnd
)

// The lanes every diagram has.
const (
	user  = "U"
	loop  = "L"
	model = "M"
)

// sequenceConfig is the first line of every sequence diagram: its lanes
// 100 pixels wide with 30 between them, where Mermaid's default is 150 and
// 50, and a margin of 20 pixels at each side.
const sequenceConfig = `%%{init: {"sequence": {"width": 100, "actorMargin": 30, "diagramMarginX": 20}}}%%`

// NewSequence returns a sequence diagram written to w, and writes its
// header and its first three lanes.
func NewSequence(w io.Writer) *Sequence {
	s := &Sequence{w: w, running: map[string]bool{}, refused: map[string]bool{}}
	fmt.Fprintln(w, sequenceConfig)
	fmt.Fprintln(w, "sequenceDiagram")
	s.line("participant %s as User", user)
	s.line("participant %s as Loop", loop)
	s.line("participant %s as Model", model)
	return s
}

// line writes one statement, indented, after the results that wait to be
// drawn; while calls run, it waits with them.
func (s *Sequence) line(format string, a ...any) {
	s.flushResults()
	s.put(statement{kind: plain, label: fmt.Sprintf(format, a...)})
}

// put writes st, or holds it while calls run.
func (s *Sequence) put(st statement) {
	if len(s.held) > 0 || st.kind != plain {
		s.held = append(s.held, st)
		return
	}
	fmt.Fprintf(s.w, "    %s\n", st.label)
}

// arrow draws a message from one lane to another.
func (s *Sequence) arrow(from, kind, to, label string) {
	s.line("%s%s%s:%s", from, kind, to, spaced(label))
}

// note draws a note over the lanes over.
func (s *Sequence) note(over, label string) {
	s.line("Note over %s:%s", over, spaced(label))
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
	s.note(loop, Lines("history ← "+what+strings.Join(ids, ", "), 2*maxText, lineWidth))
}

// Part draws a note over the user, the loop and the model with the part's
// title and its setup.
func (s *Sequence) Part(n int, title string, setup []string) {
	if n > 0 {
		title = fmt.Sprintf("part %d: %s", n, title)
	}
	labels := []string{Lines(title, 2*maxText, partWidth)}
	for _, line := range setup {
		labels = append(labels, Lines("setup: "+line, 2*maxText, partWidth))
	}
	s.note(user+","+model, strings.Join(labels, "<br/>"))
}

// partWidth is how many columns a line of a note over the user, the loop
// and the model holds: it spans two gaps.
const partWidth = 44

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
	s.arrow(user, "->>", loop, Lines(text, 2*maxText, lineWidth))
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
	s.arrow(loop, "->>", model, Lines(label, 2*maxText, lineWidth))
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
		s.arrow(model, "--x", loop, Lines("request failed: "+shorten(m.ErrorMessage, maxText), 2*maxText, lineWidth))
		return
	case fakemodel.StopReasonAborted:
		s.arrow(model, "--x", loop, Lines("request aborted: "+shorten(m.ErrorMessage, maxText), 2*maxText, lineWidth))
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
	s.arrow(model, "-->>", loop, Lines(text, 2*maxText, lineWidth))
}

// Result notes that a tool result entered the history. The results that
// enter one after another are drawn as one note.
func (s *Sequence) Result(m fakemodel.ToolResultMessage) {
	s.results = append(s.results, m.ToolCallID)
}

// ToolStart draws the loop handing the call to a tool lane, which is
// active until the call ends, unless its end says the loop refused it. The
// first call of a batch is preceded by a note that says how many calls the
// batch has.
func (s *Sequence) ToolStart(id, name string, args json.RawMessage) {
	if s.batch > 0 {
		s.note(loop, Lines(fmt.Sprintf("batch of %s starts", count(s.batch, "tool call")), maxText, lineWidth))
		s.batch = 0
	}
	s.start(id, name, args)
}

// start holds a call's start until the calls that run end.
func (s *Sequence) start(id, name string, args json.RawMessage) {
	s.flushResults()
	s.running[id] = true
	label := strings.TrimSpace(id + " " + name + " " + shorten(string(args), maxText))
	s.put(statement{kind: callStart, id: id, label: Lines(label, 2*maxText, lineWidth)})
}

// ToolUpdate draws a progress note of a running call as a message from its
// lane to the loop.
func (s *Sequence) ToolUpdate(id, partial string) {
	s.flushResults()
	s.put(statement{kind: callUpdate, id: id, arrow: "--)", label: Lines(id+" reports: "+shorten(partial, maxText), 2*maxText, lineWidth)})
}

// ToolEnd draws a call's result as the answer of its lane, which is no
// longer active: an error result with a cross, each of marks in
// parentheses after it.
func (s *Sequence) ToolEnd(id, name, result string, isError bool, marks []string) {
	kind := "-->>"
	if isError {
		kind = "--x"
		result = "error: " + result
	}
	s.end(id, kind, outcome(id+" ⇒", result, marks))
}

// ToolRefused draws a call that the loop refused before it ran, with the
// error result that answers it, on the loop's lane: its tool never saw it.
func (s *Sequence) ToolRefused(id, name, result string, marks []string) {
	s.refused[id] = true
	s.end(id, "--x", outcome(strings.TrimSpace(id+" "+name)+": never run ⇒", "error: "+result, marks))
}

// outcome is the label of a call's end: what leads, the result, shortened,
// and each of marks in parentheses.
func outcome(lead, result string, marks []string) string {
	label := lead + " " + shorten(result, maxText)
	for _, mark := range marks {
		label += " (" + mark + ")"
	}
	return Lines(label, 2*maxText, lineWidth)
}

// end holds a call's end, and draws what is held once no call runs.
func (s *Sequence) end(id, arrow, label string) {
	s.flushResults()
	delete(s.running, id)
	s.put(statement{kind: callEnd, id: id, arrow: arrow, label: label})
	if len(s.running) == 0 {
		s.release()
	}
}

// release draws the statements held while calls ran, now that each call's
// end says whether it ran: a call that ran on the first free tool lane,
// declared when it is first needed; a refused call, and an end whose start
// was never drawn, on the loop's lane.
func (s *Sequence) release() {
	held := s.held
	s.held = nil
	on := map[string]string{} // the lane of each call drawn on a tool lane
	for _, st := range held {
		switch st.kind {
		case plain:
			fmt.Fprintf(s.w, "    %s\n", st.label)
		case callStart:
			if s.refused[st.id] {
				continue
			}
			on[st.id] = s.takeLane(st.id)
			fmt.Fprintf(s.w, "    %s->>+%s: %s\n", loop, on[st.id], st.label)
		case callUpdate:
			lane, ok := on[st.id]
			if !ok {
				lane = loop
			}
			fmt.Fprintf(s.w, "    %s%s%s: %s\n", lane, st.arrow, loop, st.label)
		case callEnd:
			lane, ok := on[st.id]
			if !ok {
				// Refused, or a call that never started: drawn from
				// the loop to itself, so that no lane is deactivated
				// while it is not active, which Mermaid refuses.
				fmt.Fprintf(s.w, "    %s%s%s: %s\n", loop, st.arrow, loop, st.label)
				continue
			}
			delete(on, st.id)
			s.freeLane(st.id)
			fmt.Fprintf(s.w, "    %s%s-%s: %s\n", lane, st.arrow, loop, st.label)
		}
	}
	for id := range s.refused {
		delete(s.refused, id)
	}
}

// takeLane gives call id the first free tool lane, and declares a new one
// if none is free.
func (s *Sequence) takeLane(id string) string {
	for i, holder := range s.lanes {
		if holder == "" {
			s.lanes[i] = id
			return fmt.Sprintf("T%d", i+1)
		}
	}
	s.lanes = append(s.lanes, id)
	lane := fmt.Sprintf("T%d", len(s.lanes))
	fmt.Fprintf(s.w, "    participant %s as Tools\n", lane)
	return lane
}

// freeLane frees the lane that call id holds.
func (s *Sequence) freeLane(id string) {
	for i, holder := range s.lanes {
		if holder == id {
			s.lanes[i] = ""
		}
	}
}

// Ended notes how the run ended. A call that never ended, which a run
// does not leave, is drawn as it stands.
func (s *Sequence) Ended(text string) {
	if len(s.held) > 0 {
		s.release()
	}
	s.note(loop, Lines(text, 2*maxText, lineWidth))
}

// Answer draws the answer the user reads, or a cross if there is none.
func (s *Sequence) Answer(text string, ok bool) {
	if !ok {
		s.arrow(loop, "--x", user, Lines("no answer: the loop stopped before the model answered", 2*maxText, lineWidth))
		return
	}
	s.arrow(loop, "-->>", user, Lines(text, maxText, lineWidth))
}

// Note notes anything else the narrative says about the run, over the
// loop.
func (s *Sequence) Note(text string) {
	s.note(loop, Lines(text, 2*maxText, lineWidth))
}

// Aside notes what the user does, over the user's lane. The narrative's
// parentheses around it are left out.
func (s *Sequence) Aside(text string) {
	s.note(user, Lines(strings.TrimSuffix(strings.TrimPrefix(text, "("), ")"), 2*maxText, lineWidth))
}

// Line notes a line of the session, over the user and the loop. The
// narrative's dashes around it are left out.
func (s *Sequence) Line(text string) {
	s.note(user+","+loop, Lines(strings.Trim(text, "- "), 2*maxText, partWidth))
}

// Close draws what is held, if anything: a sequence diagram is drawn as
// the runs happen.
func (s *Sequence) Close() {
	if len(s.held) > 0 {
		s.release()
	}
	s.flushResults()
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
