package diagram

import (
	"encoding/json"
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"io"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// A Timeline draws the tool calls of runs as one Mermaid Gantt chart, on
// the demo clock (fakemodel/democlock) that the tools wait on: one bar per
// call, from its start to its end, and a milestone (a diamond) for each
// progress note it reports and for each thing the user does meanwhile,
// such as pressing Ctrl-C. The calls of each turn are a section, so the
// bars of a parallel batch lie side by side and those of a sequential one
// end to end. A call that ends with an error is red; a call that took no
// time on the clock, or that the loop refused before it ran, is a diamond,
// so that it shows.
//
// Under a batch of calls that all ran without an error, a grey bar shows
// how long it would have taken the other way: one after another for a
// parallel batch, all at once for a sequential one. So the charts of lab
// 05, with and without -sequential, span the same time and compare at a
// glance.
//
// The times are the clock's, the same on every run. A part of a lab's
// output has a clock of its own, whose time starts at zero; on the chart,
// each part starts where the one before ended. A run whose tools wait on
// no clock draws its calls at one moment. If no call took any time, there
// is nothing to draw: Close writes one line that says so instead of an
// empty chart. The chart is written at Close, once every call has ended.
type Timeline struct {
	w io.Writer
	// part is the current part; 0 for a lab's one run.
	part int
	// clock is the current run's clock, and offset is where the clock's
	// zero lies on the chart.
	clock  *democlock.Clock
	offset time.Duration
	// last is the latest moment drawn on the chart.
	last time.Duration
	// turn is the current turn, calls its tool calls, in the order they
	// started, and asides what the user did during it.
	turn   int
	calls  []*timedCall
	asides []timedAside
	// lines are the chart's lines, after its header; timed says whether
	// any call took time.
	lines []string
	timed bool
}

// A timedCall is one tool call of the batch being drawn.
type timedCall struct {
	id, name string
	args     json.RawMessage
	updates  []string
	isError  bool
	refused  bool
	marks    []string
}

// A bar is where a call lies on the chart.
type bar struct{ start, end time.Duration }

// A timedAside is what the user did, and when, on the chart.
type timedAside struct {
	text string
	at   time.Duration
}

// taskWidth is how many columns of a call's name, arguments and marks a
// bar's label keeps.
const taskWidth = 56

// maxName is how many columns of a mark a bar's label keeps, and of what
// the call is when its marks are long.
const maxName = 24

// NewTimeline returns a timeline written to w at Close.
func NewTimeline(w io.Writer) *Timeline {
	return &Timeline{w: w}
}

// Part starts a part: its calls are drawn after those of the parts before.
func (t *Timeline) Part(n int, _ string, _ []string) {
	t.section()
	t.part = n
	t.turn = 0
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

// ToolRefused notes a call that the loop refused before it ran.
func (t *Timeline) ToolRefused(id, _, _ string, marks []string) {
	if c := t.call(id); c != nil {
		c.isError, c.refused, c.marks = true, true, marks
	}
}

// Aside notes what the user does, at this moment of the run's clock. The
// narrative's parentheses around it are left out. A run without a clock
// has no moments to tell apart.
func (t *Timeline) Aside(text string) {
	if t.clock == nil {
		return
	}
	text = strings.TrimSuffix(strings.TrimPrefix(text, "("), ")")
	t.asides = append(t.asides, timedAside{text: text, at: t.offset + t.clock.Elapsed()})
}

// Ended draws the run's last batch.
func (t *Timeline) Ended(string) { t.section() }

// Close writes the chart, or, if no call took any time on a clock, a line
// that says there is nothing to draw.
func (t *Timeline) Close() {
	t.section()
	if !t.timed {
		fmt.Fprintln(t.w, "no timeline: no tool call waited on the demo clock (-diagram draws the run)")
		return
	}
	fmt.Fprintln(t.w, "gantt")
	fmt.Fprintln(t.w, "    title Tool calls on the demo clock")
	// Milliseconds since the clock's zero, drawn as seconds.
	fmt.Fprintln(t.w, "    dateFormat x")
	fmt.Fprintln(t.w, "    axisFormat %S.%L s")
	for _, line := range t.lines {
		fmt.Fprintln(t.w, "    "+line)
	}
	t.lines = nil
}

// call returns the call of the batch with this ID, or nil.
func (t *Timeline) call(id string) *timedCall {
	for _, c := range t.calls {
		if c.id == id {
			return c
		}
	}
	return nil
}

// section draws the batch of the current turn, and what the user did
// meanwhile, if anything, as a section named for its part and its turn.
func (t *Timeline) section() {
	if len(t.calls) == 0 && len(t.asides) == 0 {
		return
	}
	calls, asides := t.calls, t.asides
	t.calls, t.asides = nil, nil
	bars := make([]bar, len(calls))
	for i, c := range calls {
		start, end := t.clock.Span(c.id)
		bars[i] = bar{t.offset + start, t.offset + max(start, end)}
		t.last = max(t.last, bars[i].end)
		t.timed = t.timed || bars[i].end > bars[i].start
	}
	title := fmt.Sprintf("turn %d", t.turn)
	if t.part > 0 {
		title = fmt.Sprintf("part %d<br>%s", t.part, title)
	}
	t.lines = append(t.lines, "section "+title)
	for i, c := range calls {
		// What the call is, shortened so that how it ended still shows.
		tail, tags := "", ""
		switch {
		case c.refused:
			tail, tags = " (never run)", "crit, milestone, "
		case c.isError && bars[i].end == bars[i].start:
			tail, tags = " (error)", "crit, milestone, "
		case c.isError:
			tail, tags = " (error)", "crit, "
		case bars[i].end == bars[i].start:
			tail, tags = " (no time)", "milestone, "
		}
		for _, mark := range c.marks {
			tail += " (" + shorten(mark, maxName) + ")"
		}
		tail = " " + shorten(tail, taskWidth/2)
		head := shorten(strings.TrimSpace(c.id+" "+c.name+" "+string(c.args)), taskWidth-cli.Columns(tail))
		t.lines = append(t.lines, fmt.Sprintf("%s :%s%d, %d", taskName(strings.TrimSpace(head+tail), taskWidth), tags, ms(bars[i].start), ms(bars[i].end)))
		woke := t.clock.Woke(c.id)
		for j, note := range c.updates {
			at := bars[i].start
			if j < len(woke) {
				at = t.offset + woke[j]
			}
			t.lines = append(t.lines, fmt.Sprintf("%s :active, milestone, %d, %d", taskName(c.id+" reports: "+note, taskWidth), ms(at), ms(at)))
		}
	}
	for _, a := range asides {
		t.lines = append(t.lines, fmt.Sprintf("%s :crit, active, milestone, %d, %d", taskName(a.text, taskWidth), ms(a.at), ms(a.at)))
	}
	t.compare(calls, bars)
}

// compare draws, under a batch of two calls or more that all took time and
// ran without an error, a grey bar as long as it would have taken the
// other way: one after another if its calls ran side by side, all at once
// if they ran one after another.
func (t *Timeline) compare(calls []*timedCall, bars []bar) {
	if len(calls) < 2 {
		return
	}
	first, last, slowest, sum := bars[0].start, bars[0].end, time.Duration(0), time.Duration(0)
	for i, b := range bars {
		if calls[i].isError || b.end == b.start {
			return
		}
		first, last = min(first, b.start), max(last, b.end)
		slowest = max(slowest, b.end-b.start)
		sum += b.end - b.start
	}
	switch took := last - first; {
	case took < sum:
		t.lines = append(t.lines, fmt.Sprintf("%s :done, %d, %d", taskName("if one after another: "+seconds(sum), taskWidth), ms(first), ms(first+sum)))
	case took > slowest:
		t.lines = append(t.lines, fmt.Sprintf("%s :done, %d, %d", taskName("if all at once: "+seconds(slowest), taskWidth), ms(first), ms(first+slowest)))
	}
}

// seconds writes d in seconds, to a tenth.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
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

// Line draws nothing.
func (t *Timeline) Line(string) {}
