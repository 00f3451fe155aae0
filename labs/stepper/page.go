package stepper

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
)

// A Page records the runs of labs 05 and 06 while they happen and writes
// them as one page (Write). Package narrative makes it for -html and hands
// it what each lab's narrate.go says about each event: the beats of a
// diagram.Picture, each chunk of a streaming reply (Delta), and the event
// itself, by its trace line, once its beats are over (Event). So the page
// is built from the events the loop emits, as the lab maps them, and a lab
// calls none of its methods itself. Lab 06's sessions (package talk) also
// hand it what the agent holds after each event (Holds), and each request
// the model gets arrives through the request's context (Request).
//
// The page is written once, when the lab is done (Write); until then it
// only records.
type Page struct {
	o     Options
	w     io.Writer
	parts []*partRecord
	part  *partRecord
	run   *runRecord
	// beats are what the narrative said about the event to come, and notes
	// the lines it printed for it, which the page shows after its step.
	beats []any
	notes []string
}

var _ diagram.Picture = (*Page)(nil)

// Events returns the page of a lab whose runs emit events, written to
// o.File, or to w if File is "-", by Write. It writes nothing until then.
func (o Options) Events(w io.Writer) *Page {
	return &Page{o: o, w: w}
}

// A partRecord is one part of the lab's output: its runs' events, and the
// lines between them, in order.
type partRecord struct {
	n       int
	title   string
	setup   []string
	entries []recorded
}

// recorded is an event, or, if ev is nil, a line printed after the event
// before it.
type recorded struct {
	ev   *eventRecord
	note string
}

// A runRecord is one run of the loop.
type runRecord struct {
	clock *democlock.Clock
	// held is what the agent held as the run started, if the lab said.
	held *holding
}

// holding is what an agent holds: its history and its queues.
type holding struct {
	history, steering, followUp []fakemodel.Message
}

// An eventRecord is one event, with what the narrative said about it.
type eventRecord struct {
	run *runRecord
	// line is its trace line, and name its type, the line's first word.
	line, name string
	// at is the demo clock's time when the event was shown.
	at    time.Duration
	beats []any
	// requests are the requests the model got after the event.
	requests []fakemodel.Request
	// before and after are what the agent held after the event, before
	// and after the user acted on it.
	before, after *holding
}

// The beats an event brings.
type (
	turnBeat   struct{}
	userBeat   struct{ text string }
	deltaBeat  struct{ chunk string }
	replyBeat  struct{ m fakemodel.AssistantMessage }
	resultBeat struct{ m fakemodel.ToolResultMessage }
	startBeat  struct {
		id, name string
		args     json.RawMessage
	}
	updateBeat struct{ id, partial string }
	endBeat    struct {
		id, result string
		isError    bool
		marks      []string
	}
)

// Part starts part n of the lab's output, or with n 0 its one run.
func (p *Page) Part(n int, title string, setup []string) {
	p.flush()
	p.part = &partRecord{n: n, title: title, setup: setup}
	p.parts = append(p.parts, p.part)
	p.run = nil
}

// Run starts a run of the loop, whose tools wait on clock, or on no demo
// clock if clock is nil.
func (p *Page) Run(clock *democlock.Clock) {
	p.flush()
	if p.part == nil {
		p.Part(0, "", nil)
	}
	p.run = &runRecord{clock: clock}
}

// Turn notes turn_start.
func (p *Page) Turn() { p.beat(turnBeat{}) }

// User notes a user message that starts.
func (p *Page) User(text string, _ bool) { p.beat(userBeat{text}) }

// Streaming notes nothing: Delta has the chunk.
func (p *Page) Streaming() {}

// Delta notes a chunk of the model's reply as it streams in.
func (p *Page) Delta(chunk string) { p.beat(deltaBeat{chunk}) }

// Reply notes the model's reply, complete: message_end.
func (p *Page) Reply(m fakemodel.AssistantMessage) { p.beat(replyBeat{m}) }

// Result notes a tool result that ends: message_end.
func (p *Page) Result(m fakemodel.ToolResultMessage) { p.beat(resultBeat{m}) }

// ToolStart notes tool_execution_start.
func (p *Page) ToolStart(id, name string, args json.RawMessage) {
	p.beat(startBeat{id: id, name: name, args: args})
}

// ToolUpdate notes a progress note of a running call.
func (p *Page) ToolUpdate(id, partial string) { p.beat(updateBeat{id: id, partial: partial}) }

// ToolEnd notes a call's result.
func (p *Page) ToolEnd(id, _, result string, isError bool, marks []string) {
	p.beat(endBeat{id: id, result: result, isError: isError, marks: slices.Clone(marks)})
}

// ToolRefused notes the end of a call that the loop refused before its
// tool ran: its lane ends where it starts, marked so.
func (p *Page) ToolRefused(id, _, result string, marks []string) {
	p.beat(endBeat{id: id, result: result, isError: true, marks: append(slices.Clone(marks), wordsIn(p.o.Lang).NeverRan)})
}

// Close does nothing: the lab writes the page with Write, which says where
// it went, or why it could not.
func (p *Page) Close() {}

// Ended notes how the run ended, in the narrative's words.
func (p *Page) Ended(text string) { p.notes = append(p.notes, text) }

// Answer notes what the user finally reads, as the narrative says it.
func (p *Page) Answer(text string, ok bool) {
	if !ok {
		text = "none: the loop stopped before the model answered"
	}
	p.notes = append(p.notes, "answer: "+text)
}

// Note notes anything else the narrative says about a run.
func (p *Page) Note(text string) { p.notes = append(p.notes, text) }

// Aside notes what happens beside the events, such as what the user
// types, after the event it came after.
func (p *Page) Aside(text string) {
	p.flush()
	p.add(recorded{note: text})
}

// Line notes a line of the session between runs.
func (p *Page) Line(text string) {
	p.flush()
	p.add(recorded{note: text})
}

// Event ends an event: the beats since the event before are its, and the
// notes the narrative printed for it follow it. line is its trace line,
// whose first word is its type.
func (p *Page) Event(line string) {
	if p.run == nil {
		p.Run(nil)
	}
	name, _, _ := strings.Cut(line, " ")
	ev := &eventRecord{run: p.run, line: line, name: name, at: p.run.clock.Elapsed(), beats: p.beats}
	p.beats = nil
	p.add(recorded{ev: ev})
	p.flush()
}

// A Holder is an agent whose history and queues the page shows: lab 06's.
type Holder interface {
	// Messages returns a copy of the history.
	Messages() []fakemodel.Message
	// Queued returns the messages waiting in each queue.
	Queued() (steering, followUp []fakemodel.Message)
}

// Holds notes what agent holds now. Before a run's first event, that is
// what the run starts with; after an event, the first call says what the
// loop's polls left in the queues, the second what the user typed as the
// event was shown. The session calls it at those moments (package talk).
func (p *Page) Holds(agent Holder) {
	if p.run == nil {
		return
	}
	steering, followUp := agent.Queued()
	h := &holding{steering: steering, followUp: followUp}
	last := p.lastEvent()
	switch {
	case last == nil || last.run != p.run:
		h.history = agent.Messages()
		p.run.held = h
	case last.before == nil:
		last.before = h
	default:
		last.after = h
	}
}

// Request notes a request the model got, after the event it came after.
func (p *Page) Request(req fakemodel.Request) {
	if last := p.lastEvent(); last != nil {
		req.Messages = slices.Clone(req.Messages)
		req.OnText = nil
		last.requests = append(last.requests, req)
	}
}

// lastEvent is the last event of the current part, or nil.
func (p *Page) lastEvent() *eventRecord {
	if p.part == nil {
		return nil
	}
	for i := len(p.part.entries) - 1; i >= 0; i-- {
		if ev := p.part.entries[i].ev; ev != nil {
			return ev
		}
	}
	return nil
}

// beat keeps a beat for the event to come.
func (p *Page) beat(b any) { p.beats = append(p.beats, b) }

// add adds an event or a line to the current part.
func (p *Page) add(r recorded) {
	if p.part == nil {
		p.Part(0, "", nil)
	}
	p.part.entries = append(p.part.entries, r)
}

// flush adds the notes that wait for an event after the last one: what the
// narrative prints after a run, such as the agent's state, has no event of
// its own.
func (p *Page) flush() {
	notes := p.notes
	p.notes = nil
	for _, n := range notes {
		p.add(recorded{note: n})
	}
}

// Write writes the page: to o.File, with a line on w that says where and
// how to open it, or to w if File is "-".
func (p *Page) Write() error {
	p.flush()
	b := newBuilder(p.o, true)
	for _, part := range p.parts {
		b.part(part.n, part.title, part.setup)
		p.build(b, part)
	}
	return p.o.write(p.w, b)
}

// build adds the steps of one part to b.
func (p *Page) build(b *builder, part *partRecord) {
	starts := messagesThatStart(part)
	var (
		run          *runRecord
		draft        *draftView
		user         *string
		runStart     int
		turnResults  int
		lastStarted  fakemodel.Message
		lastIsReply  bool
		lastMessages = func() int { return len(b.history) - runStart }
	)
	for _, e := range part.entries {
		if e.ev == nil {
			b.note(e.note)
			continue
		}
		r := e.ev
		if r.run != run {
			run = r.run
			var history []fakemodel.Message
			if run.held != nil {
				history = run.held.history
			}
			b.run(history)
			runStart = len(b.history)
			if run.held != nil {
				b.queues(run.held.steering, run.held.followUp, b.v.Total+1)
			}
		}
		n := b.step()
		if r.before != nil {
			b.queues(r.before.steering, r.before.followUp, n)
		}
		it := &itemView{Event: r.name, at: r.at}
		_, it.Label, _ = strings.Cut(r.line, " ")
		var ended fakemodel.Message
		for _, beat := range r.beats {
			switch beat := beat.(type) {
			case turnBeat:
				b.turn++
				turnResults = 0
			case userBeat:
				user = &beat.text
				it.Detail = beat.text
			case deltaBeat:
				if draft != nil {
					draft.Chunks = append(draft.Chunks, chunkView{From: n, Text: beat.chunk})
				}
				it.Detail = beat.chunk
			case replyBeat:
				b.message(beat.m)
				ended = beat.m
				it.Detail = beat.m.Text
			case resultBeat:
				b.message(beat.m)
				ended = beat.m
				turnResults++
				it.Detail = beat.m.Content
			case startBeat:
				b.exe++
				b.toolStart(beat.id, beat.name, beat.args, r.at)
				it.Detail = compact(beat.args)
				it.About = fmt.Sprintf(b.w.ToolStart, beat.id, beat.name)
			case updateBeat:
				b.toolUpdate(beat.id, beat.partial, r.at)
				it.Detail = beat.partial
				it.About = fmt.Sprintf(b.w.ToolUpdate, beat.id)
			case endBeat:
				b.toolEnd(beat.id, beat.result, beat.isError, beat.marks, r.at)
				it.Detail = beat.result
				it.About = fmt.Sprintf(b.w.ToolEnd, beat.id)
				if beat.isError {
					it.About = fmt.Sprintf(b.w.ToolError, beat.id)
				}
				if slices.Contains(beat.marks, "terminate") {
					it.About += " " + b.w.Terminates
				}
			}
		}
		switch r.name {
		case "agent_start":
			it.About = b.w.AgentStart
		case "turn_start":
			it.About = fmt.Sprintf(b.w.TurnStart, b.turn)
		case "message_start":
			lastStarted = starts[r]
			_, lastIsReply = lastStarted.(fakemodel.AssistantMessage)
			switch m := lastStarted.(type) {
			case fakemodel.AssistantMessage:
				b.asks()
				draft = &draftView{From: n, To: -1}
				b.p.Drafts = append(b.p.Drafts, draft)
				it.About = b.w.ReplyStart
			case fakemodel.ToolResultMessage:
				it.About = fmt.Sprintf(b.w.ResultStart, m.ToolCallID)
			default:
				it.About = b.w.UserStart
			}
		case "message_update":
			it.About = b.w.Chunk
		case "message_end":
			if ended == nil && user != nil {
				ended = fakemodel.UserMessage{Text: *user}
				b.message(ended)
			}
			user = nil
			if draft != nil && lastIsReply {
				draft.To = n
				draft = nil
			}
			it.About = p.ended(b, ended)
		case "turn_end":
			it.About = fmt.Sprintf(b.w.TurnEnd, b.turn, counted(b.o.Lang, turnResults, "tool result", "tool results", "个工具结果"))
		case "agent_end":
			it.About = fmt.Sprintf(b.w.AgentEnd, counted(b.o.Lang, lastMessages(), "message", "messages", "条消息"))
		}
		if it.About == "" {
			it.About = b.w.OtherEvent
		}
		for _, req := range r.requests {
			b.request(req)
		}
		if r.after != nil {
			b.queues(r.after.steering, r.after.followUp, n)
		}
		b.item(it)
	}
}

// ended says what a message_end did with m.
func (p *Page) ended(b *builder, m fakemodel.Message) string {
	switch m := m.(type) {
	case fakemodel.AssistantMessage:
		switch {
		case m.StopReason == fakemodel.StopReasonError:
			return b.w.ReplyFailed
		case m.StopReason == fakemodel.StopReasonAborted:
			return b.w.ReplyAborted
		case len(m.ToolCalls) > 0:
			return fmt.Sprintf(b.w.ReplyCalls, counted(b.o.Lang, len(m.ToolCalls), "tool call", "tool calls", "个工具调用"))
		}
		return b.w.ReplyAnswer
	case fakemodel.ToolResultMessage:
		return fmt.Sprintf(b.w.ResultEnd, m.ToolCallID)
	case fakemodel.UserMessage:
		return b.w.UserEnd
	}
	return b.w.OtherEvent
}

// messagesThatStart finds the message that each message_start of part
// starts: the one its message_end delivers. A message_start does not say
// whose message it starts; the end of the message does.
func messagesThatStart(part *partRecord) map[*eventRecord]fakemodel.Message {
	starts := map[*eventRecord]fakemodel.Message{}
	var open *eventRecord
	var user *string
	for _, e := range part.entries {
		r := e.ev
		if r == nil {
			continue
		}
		var ended fakemodel.Message
		for _, beat := range r.beats {
			switch beat := beat.(type) {
			case userBeat:
				user = &beat.text
			case replyBeat:
				ended = beat.m
			case resultBeat:
				ended = beat.m
			}
		}
		switch r.name {
		case "message_start":
			open = r
		case "message_end":
			if ended == nil && user != nil {
				ended = fakemodel.UserMessage{Text: *user}
			}
			if open != nil && ended != nil {
				starts[open] = ended
			}
			open, user = nil, nil
		}
	}
	return starts
}
