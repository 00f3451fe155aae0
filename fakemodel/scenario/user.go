package scenario

import (
	"fmt"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A UserMessage is one thing the simulated user does: type a steering
// message, queue a follow-up, or press Ctrl-C.
type UserMessage struct {
	// At is the beginning of the trace line of the event the user reacts
	// to, such as "tool_execution_start call_1" or "turn_end"; the user
	// acts at the first event whose trace line is At or starts with At
	// and a space. An empty At means before the first run starts.
	At string
	// Occurrence, if more than 1, makes the user act at the
	// Occurrence-th such event instead, counted over the whole session.
	Occurrence int
	// FollowUp queues the message as a follow-up; otherwise it steers.
	FollowUp bool
	// Interrupt presses Ctrl-C instead of sending a message.
	Interrupt bool
	// Attempt tries to start a run instead, while one is going: a Prompt
	// of Text, or, if Text is empty, a Continue.
	Attempt bool
	// Text is the message.
	Text string
}

// UserMessages returns what the scenario's simulated user does: its
// steering messages, then its follow-ups, then the runs it tries while one
// is going, then its interrupts, each in the order of the file.
func (s *Scenario) UserMessages() []UserMessage {
	var plan []UserMessage
	for _, m := range s.Steer {
		plan = append(plan, UserMessage{At: m.At, Occurrence: value(m.Occurrence), Text: m.Text})
	}
	for _, m := range s.FollowUp {
		plan = append(plan, UserMessage{At: m.At, Occurrence: value(m.Occurrence), FollowUp: true, Text: m.Text})
	}
	for _, a := range s.WhileRunning {
		plan = append(plan, UserMessage{At: a.At, Occurrence: value(a.Occurrence), Attempt: true, Text: a.Prompt})
	}
	for _, in := range s.Interrupts {
		plan = append(plan, UserMessage{At: in.At, Occurrence: value(in.Occurrence), Interrupt: true})
	}
	return plan
}

// An Agent is what the simulated user talks to: lab 06's Agent, whose
// queues take what the user types while it works.
type Agent interface {
	// Steer queues a steering message.
	Steer(fakemodel.UserMessage)
	// FollowUp queues a follow-up.
	FollowUp(fakemodel.UserMessage)
}

// A User is the simulated user of a scenario, or of lab 06's demo: at given
// moments it types a steering message, queues a follow-up, tries to start
// a run, or presses Ctrl-C, the way a person at a terminal would. It reacts to events, given
// by their trace lines, never to time, so it does the same thing at the
// same moment on every run. Things that wait for the same event are done
// in the order of the plan, and each is done once. The caller hands it
// every event inside the event handler, so a message is in its queue
// before the loop's next poll.
type User struct {
	plan  []UserMessage
	done  []bool
	seen  []int // how many events matched each At so far
	agent Agent

	// Say, if set, prints what the user does.
	Say func(string)
	// Try, if set, is what an attempt at a run does: a Prompt of prompt,
	// or, if prompt is "", a Continue, which the agent refuses while a run
	// is going.
	Try func(prompt string) error
	// Interrupt, if set, is what a Ctrl-C does: cancel the current run,
	// at once, at the event of the plan, as Pi's Agent.abort() does. The
	// calls that run see it; on the demo clock they end in the order
	// they started (see the package democlock).
	Interrupt func()
}

// NewUser returns a user who carries out plan, sending its messages to
// agent.
func NewUser(plan []UserMessage, agent Agent) *User {
	return &User{plan: plan, done: make([]bool, len(plan)), seen: make([]int, len(plan)), agent: agent}
}

// BeforeRun does what waits for no event.
func (u *User) BeforeRun() {
	u.doIf(func(i int, m UserMessage) bool { return m.At == "" })
}

// See reacts to one event, given by its trace line: it does what waits for
// this event.
func (u *User) See(traceLine string) {
	u.doIf(func(i int, m UserMessage) bool {
		if m.At == "" || !Matches(traceLine, m.At) {
			return false
		}
		u.seen[i]++
		return u.seen[i] >= max(m.Occurrence, 1)
	})
}

// Matches reports whether an at matches a trace line: the line is the at,
// or starts with it and a space.
func Matches(traceLine, at string) bool {
	return traceLine == at || strings.HasPrefix(traceLine, at+" ")
}

// doIf does, in the order of the plan, each thing not done yet that now is
// due.
func (u *User) doIf(due func(i int, m UserMessage) bool) {
	for i, m := range u.plan {
		if !u.done[i] && due(i, m) {
			u.done[i] = true
			u.do(m)
		}
	}
}

// do sends one message to the agent's steering or follow-up queue, or
// presses Ctrl-C.
func (u *User) do(m UserMessage) {
	var what string
	switch {
	case m.Interrupt:
		what = "(the user presses Ctrl-C)"
		defer func() {
			if u.Interrupt != nil {
				u.Interrupt()
			}
		}()
	case m.Attempt:
		what = u.try(m.Text)
	case m.FollowUp:
		what = fmt.Sprintf("(the user queues a follow-up: %q)", m.Text)
		u.agent.FollowUp(fakemodel.UserMessage{Text: m.Text})
	default:
		what = fmt.Sprintf("(the user types a steering message: %q)", m.Text)
		u.agent.Steer(fakemodel.UserMessage{Text: m.Text})
	}
	if u.Say != nil {
		u.Say(what)
	}
}

// try tries a run of prompt, or a Continue, and says what became of it.
func (u *User) try(prompt string) string {
	what := fmt.Sprintf("the user sends the prompt %q while the agent works", prompt)
	if prompt == "" {
		what = "the user asks the agent to continue while it works"
	}
	if u.Try == nil {
		return "(" + what + ")"
	}
	if err := u.Try(prompt); err != nil {
		return fmt.Sprintf("(%s; the agent refuses: %v)", what, err)
	}
	return fmt.Sprintf("(%s; the agent runs it)", what)
}

// Unsent returns a note for each thing never done, because no event matched
// its At (often enough).
func (u *User) Unsent() []string {
	var notes []string
	for i, m := range u.plan {
		if u.done[i] {
			continue
		}
		what, event := fmt.Sprintf("%q", m.Text), fmt.Sprintf("%q", m.At)
		switch {
		case m.Interrupt:
			what = "Ctrl-C"
		case m.Attempt && m.Text == "":
			what = "a Continue"
		case m.Attempt:
			what = "the prompt " + what
		}
		if m.Occurrence > 1 {
			event = fmt.Sprintf("%q %d times (only %d)", m.At, m.Occurrence, u.seen[i])
		}
		notes = append(notes, fmt.Sprintf("never sent: %s, because no event matched %s", what, event))
	}
	return notes
}
