package diagram

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// A Timeline draws the tool calls of runs as one Mermaid Gantt chart, on
// the demo clock (fakemodel/democlock) that the tools wait on: one bar per
// call, from its start to its end, and a milestone for each progress note
// it reports. The calls of each batch are a section, so the bars of a
// parallel batch lie side by side and those of a sequential one end to
// end. A call that ends with an error is marked critical.
//
// The times are the clock's, the same on every run. A section is drawn
// once its batch is over, at the next turn or at the end of the run, when
// the clock knows when each call ended. A part of a lab's output has a
// clock of its own, whose time starts at zero; on the chart, each part
// starts where the one before ended. A run whose tools wait on no clock
// draws its calls at one moment.
type Timeline struct {
	w io.Writer
	// part and title name the current part; part is 0 for a lab's one
	// run.
	part  int
	title string
	// clock is the current run's clock, and offset is where the clock's
	// zero lies on the chart.
	clock  *democlock.Clock
	offset time.Duration
	// last is the latest moment drawn on the chart.
	last time.Duration
	// turn is the current turn, and calls its tool calls, in the order
	// they started.
	turn  int
	calls []*timedCall
}

// A timedCall is one tool call of the batch being drawn.
type timedCall struct {
	id, name string
	args     json.RawMessage
	updates  []string
	isError  bool
	marks    []string
}

// NewTimeline returns a timeline written to w, and writes its header.
func NewTimeline(w io.Writer) *Timeline {
	fmt.Fprintln(w, "gantt")
	fmt.Fprintln(w, "    title Tool calls on the demo clock")
	// Milliseconds since the clock's zero, drawn as seconds.
	fmt.Fprintln(w, "    dateFormat x")
	fmt.Fprintln(w, "    axisFormat %S.%L s")
	return &Timeline{w: w}
}

// Part starts a part: its calls are drawn after those of the parts before.
func (t *Timeline) Part(n int, title string, _ []string) {
	t.section()
	t.part, t.title = n, title
	t.offset = t.last
	t.clock = nil
}

// Run starts a run whose tools wait on clock. A later run on the same clock,
// as a Continue, goes on where the run before it ended.
func (t *Timeline) Run(clock *democlock.Clock) {
	t.section()
	t.turn = 0
	t.clock = clock
}

// Turn draws the batch of the turn before, and starts the next turn.
func (t *Timeline) Turn() {
	t.section()
	t.turn++
}

// ToolStart adds a call to the turn's batch.
func (t *Timeline) ToolStart(id, name string, args json.RawMessage) {
	t.calls = append(t.calls, &timedCall{id: id, name: name, args: args})
}

// ToolUpdate adds a progress note to its call.
func (t *Timeline) ToolUpdate(id, partial string) {
	if c := t.call(id); c != nil {
		c.updates = append(c.updates, partial)
	}
}

// ToolEnd notes how its call ended.
func (t *Timeline) ToolEnd(id, _, _ string, isError bool, marks []string) {
	if c := t.call(id); c != nil {
		c.isError, c.marks = isError, marks
	}
}

// Ended draws the run's last batch.
func (t *Timeline) Ended(string) { t.section() }

// call returns the call of the batch with this ID, or nil.
func (t *Timeline) call(id string) *timedCall {
	for _, c := range t.calls {
		if c.id == id {
			return c
		}
	}
	return nil
}

// section draws the batch of the current turn, if it has calls, as a
// section named for its part, its turn and how its calls lie in time.
func (t *Timeline) section() {
	if len(t.calls) == 0 {
		return
	}
	calls := t.calls
	t.calls = nil
	type bar struct{ start, end time.Duration }
	bars := make([]bar, len(calls))
	for i, c := range calls {
		start, end := t.clock.Span(c.id)
		bars[i] = bar{t.offset + start, t.offset + max(start, end)}
		t.last = max(t.last, bars[i].end)
	}
	overlap, takesTime := false, false
	for i, a := range bars {
		takesTime = takesTime || a.end > a.start
		for _, b := range bars[i+1:] {
			overlap = overlap || (a.start < b.end && b.start < a.end)
		}
	}
	title := fmt.Sprintf("turn %d · %s", t.turn, count(len(calls), "call"))
	switch {
	case !takesTime:
		title += ", each done at once"
	case overlap:
		title += ", side by side"
	case len(calls) > 1:
		title += ", one after another"
	}
	if t.part > 0 {
		title = fmt.Sprintf("part %d · %s", t.part, title)
	}
	fmt.Fprintf(t.w, "    section %s\n", escape(shorten(title, 2*maxText), ":%"))
	for i, c := range calls {
		tags := ""
		if c.isError {
			tags = "crit, "
		}
		label := strings.TrimSpace(c.id + " " + c.name + " " + string(c.args))
		if c.isError {
			label += " (error)"
		}
		for _, mark := range c.marks {
			label += " (" + mark + ")"
		}
		fmt.Fprintf(t.w, "    %s :%s%d, %d\n", taskName(label), tags, ms(bars[i].start), ms(bars[i].end))
		woke := t.clock.Woke(c.id)
		for j, note := range c.updates {
			at := bars[i].start
			if j < len(woke) {
				at = t.offset + woke[j]
			}
			fmt.Fprintf(t.w, "    %s :milestone, %d, %d\n", taskName(c.id+" reports: "+note), ms(at), ms(at))
		}
	}
}

// ms writes d in whole milliseconds, the chart's unit.
func ms(d time.Duration) int64 { return d.Milliseconds() }

// The beats a timeline does not draw.

// User draws nothing.
func (t *Timeline) User(string, bool) {}

// Streaming draws nothing.
func (t *Timeline) Streaming() {}

// Reply draws nothing.
func (t *Timeline) Reply(fakemodel.AssistantMessage) {}

// Result draws nothing.
func (t *Timeline) Result(fakemodel.ToolResultMessage) {}

// Answer draws nothing.
func (t *Timeline) Answer(string, bool) {}

// Note draws nothing.
func (t *Timeline) Note(string) {}

// Aside draws nothing.
func (t *Timeline) Aside(string) {}

// Line draws nothing.
func (t *Timeline) Line(string) {}
