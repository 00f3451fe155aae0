package main

import (
	"fmt"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A simulatedUser talks to the agent while it works, the way a person at a
// terminal would: it watches the events and, at given moments, types a
// steering message or queues a follow-up. It reacts to events, never to
// time, so it does the same thing at the same moment on every run.
type simulatedUser struct {
	agent *Agent
	plan  []userAction
	// say, if set, prints what the user does.
	say func(string)
}

// A userAction is one message the simulated user sends.
type userAction struct {
	// At is the beginning of the trace line of the event the user reacts
	// to, such as "tool_execution_start call_1" or "turn_end"; the user
	// acts at the first event whose trace line is At or starts with At and
	// a space. An empty At means before the run starts.
	At string
	// FollowUp queues the message as a follow-up; otherwise it steers.
	FollowUp bool
	Text     string

	done bool
}

// beforeRun sends the messages that do not wait for an event.
func (u *simulatedUser) beforeRun() {
	for i := range u.plan {
		if a := &u.plan[i]; !a.done && a.At == "" {
			u.act(a)
		}
	}
}

// see reacts to one event.
func (u *simulatedUser) see(ev Event) {
	line := traceLine(ev)
	for i := range u.plan {
		a := &u.plan[i]
		if !a.done && a.At != "" && (line == a.At || strings.HasPrefix(line, a.At+" ")) {
			u.act(a)
		}
	}
}

func (u *simulatedUser) act(a *userAction) {
	a.done = true
	m := fakemodel.UserMessage{Text: a.Text}
	if a.FollowUp {
		u.agent.FollowUp(m)
	} else {
		u.agent.Steer(m)
	}
	if u.say != nil {
		kind := "types a steering message"
		if a.FollowUp {
			kind = "queues a follow-up"
		}
		u.say(fmt.Sprintf("(the user %s: %q)", kind, a.Text))
	}
}
