package narrative

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper"
)

// A Run writes the narrative of one run of the loop, line by line, as the
// lab's events arrive. It numbers the turns, so that each line of a turn
// starts with "turn N ·", and keeps the model's reply on one line while it
// streams in. Make one with Printer.Run or Printer.TimedRun for each run.
type Run struct {
	*Printer
	// clock, if set, is the clock the run's tools wait on.
	clock *democlock.Clock
	// number is the current turn's number.
	number int
	// open is the line that the model's reply keeps open while it
	// streams in: its reasoning, its text, or none.
	open openLine
	// held are lines that came while the model's reply was streaming:
	// they wait for the end of its lines.
	held []string
}

// An openLine is a line that a streaming reply keeps open.
type openLine int

const (
	noLine       openLine = iota
	thinkingLine          // "model thinks: ..."
	textLine              // "model said: ..."
)

// startLine ends the open line, if another is open, and opens line with
// its label.
func (r *Run) startLine(line openLine, label string) {
	if r.open == line {
		return
	}
	if r.open != noLine {
		fmt.Fprintln(r.w)
	}
	fmt.Fprintf(r.w, "%s %s ", r.prefix(), label)
	r.open = line
}

// Run returns the narrative of a new run, written by p.
func (p *Printer) Run() *Run {
	return p.TimedRun(nil)
}

// TimedRun returns the narrative of a new run whose tools wait on clock,
// which BatchTook reads. A nil clock times nothing.
func (p *Printer) TimedRun(clock *democlock.Clock) *Run {
	if p.draw != nil {
		p.draw.Run(clock)
	}
	return &Run{Printer: p, clock: clock}
}

// prefix starts each line of the current turn.
func (r *Run) prefix() string {
	return r.turn.Sprintf("turn %d ·", r.number)
}

// NextTurn starts the next turn: turn_start.
func (r *Run) NextTurn() {
	r.number++
	if r.draw != nil {
		r.draw.Turn()
	}
}

// User prints the user's prompt, which opens the run.
func (r *Run) User(text string) {
	if r.draw != nil {
		r.draw.User(text, false)
		return
	}
	fmt.Fprintf(r.w, "%s %s\n", r.label.Sprint("user:"), text)
}

// UserInTurn prints a user's message in the turn it enters, as a steering
// or follow-up message enters a later turn.
func (r *Run) UserInTurn(text string) {
	if r.draw != nil {
		r.draw.User(text, true)
		return
	}
	fmt.Fprintf(r.w, "%s %s %s\n", r.prefix(), r.label.Sprint("user:"), text)
}

// Delta prints one chunk of the model's reply as it streams in: the first
// chunk of a reply opens its line, "model said:".
func (r *Run) Delta(chunk string) {
	if r.page != nil {
		r.page.Delta(chunk)
		return
	}
	if r.draw != nil {
		r.draw.Streaming()
		return
	}
	r.startLine(textLine, "model said:")
	fmt.Fprint(r.w, chunk)
}

// Thinking prints one chunk of the model's reasoning, which a model that
// thinks before it answers streams apart from its reply: on a line of its
// own, "model thinks:", dimmed, because it is no part of the reply. A line
// break or a tab in it prints as a space, so that the reasoning stays on its
// line, as a recording holds it.
func (r *Run) Thinking(chunk string) {
	if r.draw != nil {
		return // a picture draws the reply, not what the model thought
	}
	r.startLine(thinkingLine, r.dim.Sprint("model thinks:"))
	fmt.Fprint(r.w, r.dim.Sprint(strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(chunk)))
}

// Event ends what the narrative says about one event, named by its trace
// line, the line -trace prints for it. It prints nothing: the page of
// -html (package stepper) makes each event a step, with the beats that
// came before it.
func (r *Run) Event(traceLine string) {
	if r.page != nil {
		r.page.Event(traceLine)
	}
}

// Holds tells the page of -html what agent holds now, its history and its
// queues: as a run starts, and after each event, before and after the
// user acts on it (package talk). It prints nothing.
func (r *Run) Holds(agent stepper.Holder) {
	if r.page != nil {
		r.page.Holds(agent)
	}
}

// Aside prints a line that tells no event, such as what a simulated user
// does. While the model's reply streams in, it waits for the end of the
// reply's line.
func (r *Run) Aside(text string) {
	if r.draw != nil {
		r.draw.Aside(text)
		return
	}
	if r.open != noLine {
		r.held = append(r.held, text)
		return
	}
	r.Line(text)
}

// MessageEnd prints the end of a message: for the model's reply, the end of
// its line, or the whole line of a reply that arrived without streaming,
// and a line if the request failed or was aborted; for a tool result, that
// it entered the history.
func (r *Run) MessageEnd(m fakemodel.Message) {
	if r.draw != nil {
		r.drawMessage(m)
		return
	}
	switch m := m.(type) {
	case fakemodel.AssistantMessage:
		if r.open != textLine && m.Text != "" {
			// A reply that did not stream: its text comes whole.
			r.startLine(textLine, "model said:")
			fmt.Fprint(r.w, m.Text)
		}
		if r.open != noLine {
			fmt.Fprintln(r.w)
			r.open = noLine
			for _, text := range r.held {
				r.Line(text)
			}
			r.held = nil
		}
		switch m.StopReason {
		case fakemodel.StopReasonError:
			fmt.Fprintf(r.w, "%s %s %s\n", r.prefix(), r.bad.Sprint("model request failed:"), m.ErrorMessage)
		case fakemodel.StopReasonAborted:
			fmt.Fprintf(r.w, "%s %s %s\n", r.prefix(), r.warn.Sprint("model request aborted:"), m.ErrorMessage)
		}
	case fakemodel.ToolResultMessage:
		fmt.Fprintf(r.w, "%s history ← result of %s\n", r.prefix(), m.ToolCallID)
	}
}

// drawMessage draws the end of a message: the model's reply, or a tool
// result that enters the history.
func (r *Run) drawMessage(m fakemodel.Message) {
	switch m := m.(type) {
	case fakemodel.AssistantMessage:
		r.draw.Reply(m)
	case fakemodel.ToolResultMessage:
		r.draw.Result(m)
	}
}

// ToolStart prints that the loop begins to handle a tool call.
func (r *Run) ToolStart(id, name string, args json.RawMessage) {
	if r.draw != nil {
		r.draw.ToolStart(id, name, args)
		return
	}
	fmt.Fprintf(r.w, "%s start %s %s %s\n", r.prefix(), id, name, args)
}

// ToolUpdate prints a progress note of a running call.
func (r *Run) ToolUpdate(id, partial string) {
	if r.draw != nil {
		r.draw.ToolUpdate(id, partial)
		return
	}
	fmt.Fprintf(r.w, "%s %s reports: %s\n", r.prefix(), id, partial)
}

// ToolEnd prints a call's result, marked if it is an error. Each of marks,
// such as "terminate", follows the result in parentheses, painted as a
// warning. refused says the loop refused the call before it ran (an
// unknown tool, arguments that do not validate, a BeforeToolCall that
// blocks it): its result is an error, printed as any other, and a picture
// draws it on the loop's lane, since its tool never saw it.
func (r *Run) ToolEnd(id, name, result string, isError, refused bool, marks ...string) {
	switch {
	case r.draw != nil && refused:
		r.draw.ToolRefused(id, name, result, marks)
		return
	case r.draw != nil:
		r.draw.ToolEnd(id, name, result, isError, marks)
		return
	}
	if isError {
		result = r.bad.Sprint("error: ") + result
	}
	for _, mark := range marks {
		result += r.warn.Sprint(" (" + mark + ")")
	}
	fmt.Fprintf(r.w, "%s done %s %s ⇒ %s\n", r.prefix(), id, name, result)
}

// Ended prints how the run ended: after how many turns, and its stop
// reason, painted as good news if the run completed and as a warning
// otherwise. why, if not empty, follows the reason in parentheses.
func (r *Run) Ended(turns int, reason string, completed bool, why string) {
	if r.draw != nil {
		text := fmt.Sprintf("loop ended: %s, stop reason %s", Count(turns, "turn"), reason)
		if why != "" {
			text += " (" + why + ")"
		}
		r.draw.Ended(text)
		return
	}
	painted := r.good.Sprint(reason)
	if !completed {
		painted = r.warn.Sprint(reason)
	}
	if why != "" {
		painted += " (" + why + ")"
	}
	fmt.Fprintf(r.w, "%s %s, stop reason %s\n", r.label.Sprint("loop ended:"), Count(turns, "turn"), painted)
}

// Messages prints how many messages there are and their roles, after what,
// such as "history holds".
func (r *Run) Messages(what string, messages []fakemodel.Message) {
	if r.draw != nil {
		r.draw.Note(fmt.Sprintf("%s %s: %s", what, Count(len(messages), "message"), fakemodel.RoleList(messages)))
		return
	}
	fmt.Fprintf(r.w, "%s %s: %s\n", what, Count(len(messages), "message"), fakemodel.RoleList(messages))
}

// Answer prints what the user finally reads: text, if ok says the model
// answered, and otherwise that there is no answer.
func (r *Run) Answer(text string, ok bool) {
	if r.draw != nil {
		r.draw.Answer(text, ok)
		return
	}
	if !ok {
		text = r.warn.Sprint("none: the loop stopped before the model answered")
	}
	fmt.Fprintf(r.w, "%s %s\n", r.label.Sprint("answer:"), text)
}

// BatchTook says how long a batch of calls took on the run's clock (see
// TimedRun): as long as its slowest call, as a parallel batch does, or as
// long as all its calls together, as a sequential one does. results are the
// batch's results, whose IDs name the calls. The times are the clock's, so
// they are the same on every run; the machine took about as long, more on a
// busy machine. Without a clock, for a batch of one call, or for one with an
// error result (a hook, an error or Ctrl-C cut a call short), it says
// nothing.
func (r *Run) BatchTook(results []fakemodel.ToolResultMessage) {
	if r.clock == nil || len(results) < 2 {
		return
	}
	var first, last, slowest, sum time.Duration
	for i, res := range results {
		if res.IsError {
			return
		}
		start, end := r.clock.Span(res.ToolCallID)
		if i == 0 || start < first {
			first = start
		}
		last = max(last, end)
		slowest = max(slowest, end-start)
		sum += end - start
	}
	took := last - first
	if took == 0 {
		return
	}
	var text string
	switch {
	case took == slowest && took < sum:
		text = fmt.Sprintf("the batch took %s, as long as its slowest call, not the %s its calls add up to", seconds(took), seconds(sum))
	case took == sum && took > slowest:
		text = fmt.Sprintf("the batch took %s, the sum of its calls, not the %s of its slowest call", seconds(took), seconds(slowest))
	default:
		text = fmt.Sprintf("the batch took %s; its slowest call took %s, and its calls add up to %s", seconds(took), seconds(slowest), seconds(sum))
	}
	if r.draw != nil {
		r.draw.Note(text)
		return
	}
	r.Line(r.prefix() + " " + text)
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}
