package scenario

import (
	"fmt"
	"strings"
)

// A UserMessage is one message the simulated user sends: a steering
// message, or a follow-up.
type UserMessage struct {
	// At is the beginning of the trace line of the event the user reacts
	// to, such as "tool_execution_start call_1" or "turn_end"; the user
	// sends the message at the first event whose trace line is At or
	// starts with At and a space. An empty At means before the run starts.
	At string
	// FollowUp queues the message as a follow-up; otherwise it steers.
	FollowUp bool
	// Text is the message.
	Text string
}

// UserMessages returns the scenario's steering messages, then its
// follow-ups, each in the order of the file.
func (s *Scenario) UserMessages() []UserMessage {
	var plan []UserMessage
	for _, m := range s.Steer {
		plan = append(plan, UserMessage{At: m.At, Text: m.Text})
	}
	for _, m := range s.FollowUp {
		plan = append(plan, UserMessage{At: m.At, FollowUp: true, Text: m.Text})
	}
	return plan
}

// A User is the simulated user of a scenario, or of lab 06's demo: it
// decides when each message of its plan is sent. It reacts to events, never
// to time, so it sends the same message at the same moment on every run.
// Messages that wait for the same event are sent in the order of the plan,
// and each is sent once.
type User struct {
	plan []UserMessage
	sent []bool
	send func(UserMessage)
}

// NewUser returns a user who sends the messages of plan through send.
func NewUser(plan []UserMessage, send func(UserMessage)) *User {
	return &User{plan: plan, sent: make([]bool, len(plan)), send: send}
}

// BeforeRun sends the messages that wait for no event.
func (u *User) BeforeRun() {
	u.sendIf(func(m UserMessage) bool { return m.At == "" })
}

// See reacts to one event, given by its trace line: it sends the messages
// whose At the line matches.
func (u *User) See(traceLine string) {
	u.sendIf(func(m UserMessage) bool {
		return m.At != "" && (traceLine == m.At || strings.HasPrefix(traceLine, m.At+" "))
	})
}

// sendIf sends, in the order of the plan, each message not sent yet that
// now is due.
func (u *User) sendIf(due func(UserMessage) bool) {
	for i, m := range u.plan {
		if !u.sent[i] && due(m) {
			u.sent[i] = true
			u.send(m)
		}
	}
}

// Unsent returns a note for each message that was never sent, because no
// event matched its At.
func (u *User) Unsent() []string {
	var notes []string
	for i, m := range u.plan {
		if !u.sent[i] {
			notes = append(notes, fmt.Sprintf("never sent: %q, because no event matched %q", m.Text, m.At))
		}
	}
	return notes
}
