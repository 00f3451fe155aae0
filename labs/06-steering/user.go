package main

import (
	"fmt"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

// A simulatedUser talks to the agent while it works, the way a person at a
// terminal would: at given moments it types a steering message or queues a
// follow-up. Its plan says when: scenario.User watches the events' trace
// lines and sends each message at its event, so the user does the same
// thing at the same moment on every run. The show hands it every event,
// inside the event handler, so a message is in its queue before the loop's
// next poll.
type simulatedUser struct {
	*scenario.User
	agent *Agent
	// say, if set, prints what the user does.
	say func(string)
}

func newSimulatedUser(agent *Agent, plan []scenario.UserMessage) *simulatedUser {
	u := &simulatedUser{agent: agent}
	u.User = scenario.NewUser(plan, u.act)
	return u
}

// act sends one message to the agent's steering or follow-up queue.
func (u *simulatedUser) act(m scenario.UserMessage) {
	kind := "types a steering message"
	if m.FollowUp {
		kind = "queues a follow-up"
		u.agent.FollowUp(fakemodel.UserMessage{Text: m.Text})
	} else {
		u.agent.Steer(fakemodel.UserMessage{Text: m.Text})
	}
	if u.say != nil {
		u.say(fmt.Sprintf("(the user %s: %q)", kind, m.Text))
	}
}
