package stepper

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The view is what the page's template renders: every step of the run, and
// every element whose state depends on the step (a message of the
// history, a chunk of a streaming reply, a request, a queued message, a
// tool call's lane), each with the steps at which it holds. The page's
// script shows the step it is on from these ranges alone: an element is
// "now" from its step From to just before its step To, "past" from To on,
// "future" before From. So the page needs no data in its script, and
// everything a run said reaches it through html/template, which escapes it.

// A view is the whole page.
type view struct {
	Lang    Lang
	W       *words
	Program string
	// Events says that each step is an event (labs 05 and 06); otherwise
	// each is a step of the six-step loop (labs 02 to 04).
	Events bool
	// Total is the number of steps: the last step's number.
	Total int
	Parts []*partView
}

// A partView is one part of the lab's output, or its one run: a section of
// its own, with its own history, queues and tool calls.
type partView struct {
	N int
	// Heading is its title, with its number; Short its number alone.
	Heading, Short string
	Setup          []string
	// From and To: the part is the one shown from step From to step To-1.
	From, To int
	// First and Last are its first and last step; Last is First-1 for a
	// part without steps.
	First, Last int
	// Start are the counts before its first step.
	Start counts
	List  []entry
	// History holds every message that is ever in the history, each from
	// the step it entered.
	History  []*msgView
	Drafts   []*draftView
	Requests []*reqView
	// Queued are the messages of the steering and follow-up queues, each
	// from the step it was typed to the step a poll took it; Queues says
	// that the run reported its queues (lab 06).
	Queues             bool
	Steering, FollowUp []*queuedView
	// Runs are the part's runs of the loop, each with the lanes of its
	// tool calls.
	Runs []*runView
	// Unobserved says that the model did not report its requests.
	Unobserved bool

	// asked says that the model was asked in this part.
	asked bool
}

// A runView is one run of the loop, from its first step to its last, with
// a lane for each tool call, on an axis of its own.
type runView struct {
	From, To int
	Lanes    []*laneView
	// Clocked says that the axis is the demo clock's time, and Ticks mark
	// it; otherwise the axis counts steps.
	Clocked bool
	Ticks   []tick

	items []*itemView
}

// counts are the counts the labs teach, at a step.
type counts struct {
	// Turn is the current turn of the current run.
	Turn int
	// Requests and Execs count the run's steps: model requests and tool
	// executions.
	Requests, Execs int
	// Messages is how many messages the history holds.
	Messages int
}

// An entry of a part's list is a step, or a line that the run printed
// between its steps.
type entry struct {
	Item *itemView
	Note *noteView
}

// An itemView is one step.
type itemView struct {
	N int
	// Event is its event's type, as Pi names it (labs 05 and 06), and
	// Kind what it is about: agent, turn, message or tool. Loop is its
	// place among the six steps of the loop (labs 02 to 04).
	Event, Kind, Loop string
	// Label is what identifies it: the event's trace line without its
	// type, or the step's name.
	Label string
	// About says what happened, and Detail shows what the run said, if
	// anything: a chunk, arguments, a result.
	About, Detail string
	counts
	// X is where the step lies on the part's axis, from 0 to 100, and
	// Clock the demo clock's time then, if the part has a clock.
	X     float64
	Clock string

	at time.Duration
}

// A noteView is a line the run printed between its steps, such as what
// the simulated user typed or how the run ended, shown after the step it
// came after.
type noteView struct {
	From int
	Text string
}

// A msgView is one message of the history.
type msgView struct {
	From int
	// Index is its place in the history, from 1.
	Index int
	Role  string
	Text  string
	Calls []callView
	// CallID and Tool name the call a tool result answers.
	CallID, Tool string
	IsError      bool
	// Stop is an assistant message's stop reason, and Error what went
	// wrong, for a failed request.
	Stop, Error string
}

// A callView is a tool call of an assistant message.
type callView struct{ ID, Name, Args string }

// A draftView is a reply while it streams in, from its message_start to
// its message_end, chunk by chunk.
type draftView struct {
	From, To int
	Chunks   []chunkView
}

// A chunkView is one chunk of a streaming reply, from the step it arrived.
type chunkView struct {
	From int
	Text string
}

// A reqView is the request of a turn, from the step it was sent to the
// next request.
type reqView struct {
	From, To int
	// Shown says what of the history it holds, Roles their roles, and
	// Tools the tools it offers.
	Shown, Roles, Tools string
	Messages            []msgView
}

// A queuedView is a message of a queue, from the step it was typed to the
// step a poll took it.
type queuedView struct {
	From, To int
	Text     string
}

// A laneView is one tool call, from its start to its end.
type laneView struct {
	From, To int
	ID, Name string
	// Args are the call's arguments, as the model wrote them; Result,
	// IsError and Marks are how it ended.
	Args    string
	Result  string
	IsError bool
	Marks   []string
	Updates []*updateView
	// X0 and X1 are where it starts and ends on its run's axis.
	X0, X1 float64

	// t0, t1, s0 and s1 are its start and end on the clock and in steps;
	// ended says it ended.
	t0, t1 time.Duration
	s0, s1 int
	ended  bool
}

// An updateView is a progress note of a call, from the step it came.
type updateView struct {
	From int
	X    float64
	Text string
	at   time.Duration
}

// A tick marks the clock's time on a part's axis.
type tick struct {
	X     float64
	Label string
}

// A builder builds the view step by step.
type builder struct {
	o Options
	w *words
	v *view
	// p is the part being built, and the fields after it its state.
	p        *partView
	history  []fakemodel.Message
	turn     int
	req, exe int
	lanes    map[string]*laneView
	lastReq  *reqView
	// steering and followUp are the messages waiting in the queues, oldest
	// first.
	steering, followUp []*queuedView
}

func newBuilder(o Options, events bool) *builder {
	return &builder{o: o, w: wordsIn(o.Lang), v: &view{Lang: o.Lang.orDefault(), W: wordsIn(o.Lang), Program: o.program, Events: events}}
}

// orDefault is the language, English if none was given.
func (l Lang) orDefault() Lang {
	if l == "" {
		return English
	}
	return l
}

// part starts part n, or with n 0 the lab's one run.
func (b *builder) part(n int, title string, setup []string) {
	b.endPart()
	heading, short := title, ""
	if n > 0 {
		short = fmt.Sprintf(b.w.Part, n)
		heading = short + " · " + title
	}
	from := b.v.Total + 1
	if len(b.v.Parts) == 0 {
		from = 0
	}
	b.p = &partView{N: n, Heading: heading, Short: short, Setup: setup, From: from, First: b.v.Total + 1}
	b.history, b.lastReq = nil, nil
	b.steering, b.followUp = nil, nil
	b.turn, b.req, b.exe = 0, 0, 0
	b.lanes = map[string]*laneView{}
	b.v.Parts = append(b.v.Parts, b.p)
}

// run starts a run of the loop, whose agent holds history, if it is the
// part's first run: a scenario's, or a Continue's.
func (b *builder) run(history []fakemodel.Message) {
	if b.p == nil {
		b.part(0, "", nil)
	}
	b.turn, b.req, b.exe = 0, 0, 0
	b.lanes = map[string]*laneView{}
	from := b.v.Total + 1
	if len(b.p.Runs) == 0 {
		from = b.p.From
	}
	b.p.Runs = append(b.p.Runs, &runView{From: from})
	if b.p.First > b.v.Total && len(b.history) == 0 {
		for _, m := range history {
			b.message(m)
		}
		b.p.Start = b.counts()
	}
}

// counts are the counts now.
func (b *builder) counts() counts {
	return counts{Turn: b.turn, Requests: b.req, Execs: b.exe, Messages: len(b.history)}
}

// asks counts a model request.
func (b *builder) asks() {
	b.req++
	b.p.asked = true
}

// step starts the next step and returns its number.
func (b *builder) step() int {
	if b.p == nil {
		b.part(0, "", nil)
	}
	b.v.Total++
	return b.v.Total
}

// item ends the current step: it becomes it.
func (b *builder) item(it *itemView) {
	if len(b.p.Runs) == 0 {
		b.run(nil)
	}
	r := b.p.Runs[len(b.p.Runs)-1]
	r.items = append(r.items, it)
	it.N = b.v.Total
	it.Kind, _, _ = strings.Cut(it.Event, "_")
	it.counts = b.counts()
	b.p.List = append(b.p.List, entry{Item: it})
}

// note adds a line the run printed after the current step.
func (b *builder) note(text string) {
	if b.p == nil {
		b.part(0, "", nil)
	}
	b.p.List = append(b.p.List, entry{Note: &noteView{From: b.v.Total, Text: text}})
}

// message adds m to the history at the current step.
func (b *builder) message(m fakemodel.Message) {
	b.history = append(b.history, m)
	v := &msgView{From: b.v.Total, Index: len(b.history), Role: string(m.Role())}
	fill(v, m)
	b.p.History = append(b.p.History, v)
}

// fill copies what a message says into v.
func fill(v *msgView, m fakemodel.Message) {
	v.Role = string(m.Role())
	switch m := m.(type) {
	case fakemodel.UserMessage:
		v.Text = m.Text
	case fakemodel.AssistantMessage:
		v.Text = m.Text
		v.Stop, v.Error = string(m.StopReason), m.ErrorMessage
		for _, c := range m.ToolCalls {
			v.Calls = append(v.Calls, callView{ID: c.ID, Name: c.Name, Args: compact(c.Arguments)})
		}
	case fakemodel.ToolResultMessage:
		v.Text, v.CallID, v.Tool, v.IsError = m.Content, m.ToolCallID, m.ToolName, m.IsError
	}
}

// request shows req as the request of the current turn, from the current
// step on.
func (b *builder) request(req fakemodel.Request) {
	if b.lastReq != nil {
		b.lastReq.To = b.v.Total
	}
	r := &reqView{From: b.v.Total, To: -1, Roles: fakemodel.RoleList(req.Messages)}
	if n := len(req.Messages); n == len(b.history) {
		r.Shown = fmt.Sprintf(b.w.RequestWhole, counted(b.o.Lang, n, "message", "messages", "条消息"))
	} else {
		r.Shown = fmt.Sprintf(b.w.RequestPart, n, len(b.history))
	}
	for i, m := range req.Messages {
		v := msgView{Index: i + 1}
		fill(&v, m)
		r.Messages = append(r.Messages, v)
	}
	r.Tools = b.w.NoTools
	if len(req.Tools) > 0 {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = t.Name
		}
		r.Tools = fmt.Sprintf(b.w.ToolsOffered, strings.Join(names, ", "))
	}
	b.lastReq = r
	b.p.Requests = append(b.p.Requests, r)
}

// toolStart opens the lane of a call at the current step, at the clock's
// time at.
func (b *builder) toolStart(id, name string, args json.RawMessage, at time.Duration) {
	l := &laneView{From: b.v.Total, To: -1, ID: id, Name: name, Args: compact(args), s0: b.v.Total, t0: at}
	b.lanes[id] = l
	r := b.p.Runs[len(b.p.Runs)-1]
	r.Lanes = append(r.Lanes, l)
}

// toolUpdate adds a progress note to the lane of a call.
func (b *builder) toolUpdate(id, partial string, at time.Duration) {
	if l := b.lanes[id]; l != nil {
		l.Updates = append(l.Updates, &updateView{From: b.v.Total, Text: partial, at: at})
	}
}

// toolEnd closes the lane of a call with its result.
func (b *builder) toolEnd(id, result string, isError bool, marks []string, at time.Duration) {
	if l := b.lanes[id]; l != nil {
		l.To, l.s1, l.t1, l.ended = b.v.Total, b.v.Total, at, true
		l.Result, l.IsError, l.Marks = result, isError, marks
	}
}

// queues sets what waits in the queues at the current step. A poll takes
// messages from the front of a queue, and a user adds them at its back, so
// what changed is which messages left the front and which came at the
// back. The session reports the queues after each event twice, before and
// after the user acts on it, so that between two reports messages were
// only taken or only typed: which ones is then certain, even when two
// messages say the same.
func (b *builder) queues(steering, followUp []fakemodel.Message, from int) {
	b.p.Queues = true
	b.steering = b.queue(b.steering, steering, &b.p.Steering, from)
	b.followUp = b.queue(b.followUp, followUp, &b.p.FollowUp, from)
}

// queue updates the messages waiting in one queue, waiting, to what it
// holds now, and adds the messages typed since to all, from step from.
func (b *builder) queue(waiting []*queuedView, now []fakemodel.Message, all *[]*queuedView, from int) []*queuedView {
	texts := make([]string, len(now))
	for i, m := range now {
		if u, ok := m.(fakemodel.UserMessage); ok {
			texts[i] = u.Text
		} else {
			texts[i] = fmt.Sprint(m)
		}
	}
	// taken is how many left the front: the fewest with which what stays
	// is the start of what the queue holds now.
	taken := 0
	for ; taken < len(waiting); taken++ {
		rest := waiting[taken:]
		if len(rest) <= len(texts) && sameTexts(rest, texts[:len(rest)]) {
			break
		}
	}
	for _, q := range waiting[:taken] {
		q.To = b.v.Total
	}
	waiting = waiting[taken:]
	for _, text := range texts[len(waiting):] {
		q := &queuedView{From: from, To: -1, Text: text}
		*all = append(*all, q)
		waiting = append(waiting, q)
	}
	return waiting
}

// sameTexts reports whether the queued messages q hold texts, in order.
func sameTexts(q []*queuedView, texts []string) bool {
	for i := range q {
		if q[i].Text != texts[i] {
			return false
		}
	}
	return true
}

// endPart finishes the part being built: where each step and call lies on
// its axis, and the steps at which it shows.
func (b *builder) endPart() {
	p := b.p
	if p == nil {
		return
	}
	p.Last = b.v.Total
	p.Unobserved = p.asked && len(p.Requests) == 0
	for i, r := range p.Runs {
		r.To = p.Last + 1
		if i+1 < len(p.Runs) {
			r.To = p.Runs[i+1].From
		}
		r.axis()
	}
	b.p = nil
}

// axis places the run's steps and calls on its axis: the demo clock's time
// from the run's first step to its last call's end, or, if the run's tools
// wait on no clock, the steps of its calls and one step more on each side.
// A step outside the axis lies at its end.
func (r *runView) axis() {
	if len(r.items) == 0 {
		return
	}
	first, last := r.items[0], r.items[len(r.items)-1]
	t0, t1 := first.at, first.at
	for _, it := range r.items {
		t1 = max(t1, it.at)
	}
	s0, s1 := first.N-1, last.N
	if len(r.Lanes) > 0 {
		s0, s1 = last.N, first.N
	}
	for _, l := range r.Lanes {
		if !l.ended {
			l.s1, l.t1 = last.N, max(l.t0, t1)
		}
		t1 = max(t1, l.t1)
		s0, s1 = min(s0, l.s0-1), max(s1, l.s1+1)
	}
	r.Clocked = t1 > t0
	x := func(step int, at time.Duration) float64 {
		if r.Clocked {
			return round(100 * float64(at-t0) / float64(t1-t0))
		}
		return round(100 * float64(min(max(step, s0), s1)-s0) / float64(max(s1-s0, 1)))
	}
	for _, it := range r.items {
		it.X = x(it.N, it.at)
		if r.Clocked {
			it.Clock = seconds(it.at)
		}
	}
	for _, l := range r.Lanes {
		l.X0, l.X1 = x(l.s0, l.t0), x(l.s1, l.t1)
		for _, u := range l.Updates {
			u.X = x(u.From, u.at)
		}
	}
	if r.Clocked {
		r.Ticks = ticks(t0, t1)
	}
}

// view finishes the last part and returns the view: every range that is
// still open ends after the last step.
func (b *builder) view() *view {
	b.endPart()
	never := b.v.Total + 1
	for i, p := range b.v.Parts {
		p.To = never
		if i+1 < len(b.v.Parts) {
			p.To = b.v.Parts[i+1].From
		}
		for _, r := range p.Requests {
			if r.To < 0 {
				r.To = p.Last + 1
			}
		}
		for _, q := range append(append([]*queuedView{}, p.Steering...), p.FollowUp...) {
			if q.To < 0 {
				q.To = never
			}
		}
		for _, r := range p.Runs {
			for _, l := range r.Lanes {
				if l.To < 0 {
					l.To = never
				}
			}
		}
		for _, d := range p.Drafts {
			if d.To < 0 {
				d.To = p.Last + 1
			}
		}
	}
	return b.v
}

// ticks marks the clock's time on an axis from t0 to t1: at most five
// marks, which fit a phone's lane, at round numbers of milliseconds.
func ticks(t0, t1 time.Duration) []tick {
	d := t1 - t0
	every := time.Millisecond
	for _, step := range []time.Duration{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 60000} {
		every = step * time.Millisecond
		if d/every <= 4 {
			break
		}
	}
	var out []tick
	for t := (t0 + every - 1) / every * every; t <= t1; t += every {
		out = append(out, tick{X: round(100 * float64(t-t0) / float64(d)), Label: seconds(t)})
	}
	return out
}

// seconds writes d in seconds, as the narrative does, to a hundredth where
// a tenth would round it.
func seconds(d time.Duration) string {
	if d%(100*time.Millisecond) != 0 {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// round keeps two decimals of a position, so that the page's bytes are
// short and the same on every machine.
func round(x float64) float64 {
	return float64(int64(x*100+0.5)) / 100
}

// compact writes a tool call's arguments as the model wrote them.
func compact(args json.RawMessage) string { return string(args) }
