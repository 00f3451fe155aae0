package scenario

import (
	"errors"
	"slices"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// queues is an Agent that keeps what it is sent.
type queues struct{ steering, followUps []string }

func (q *queues) Steer(m fakemodel.UserMessage)    { q.steering = append(q.steering, m.Text) }
func (q *queues) FollowUp(m fakemodel.UserMessage) { q.followUps = append(q.followUps, m.Text) }

func TestTheUserActsAtTheOccurrenceOfItsEvent(t *testing.T) {
	var q queues
	u := NewUser([]UserMessage{
		{At: "turn_end", Occurrence: 2, Text: "second"},
		{At: "turn_end", Text: "first"},
		{At: "turn_end", Occurrence: 2, FollowUp: true, Text: "later"},
		{At: "turn_end", Occurrence: 9, Text: "never"},
	}, &q)
	u.See("turn_end results=1")
	if want := []string{"first"}; !slices.Equal(q.steering, want) {
		t.Errorf("after the first turn_end, the agent was steered with %q, want %q", q.steering, want)
	}
	u.See("turn_start")
	u.See("turn_end results=0")
	if want := []string{"first", "second"}; !slices.Equal(q.steering, want) {
		t.Errorf("after the second turn_end, the agent was steered with %q, want %q, in the order of the plan", q.steering, want)
	}
	if want := []string{"later"}; !slices.Equal(q.followUps, want) {
		t.Errorf("after the second turn_end, the agent was sent the follow-ups %q, want %q", q.followUps, want)
	}
	u.See("turn_end results=0")
	if got, want := u.Unsent(), []string{`never sent: "never", because no event matched "turn_end" 9 times (only 3)`}; !slices.Equal(got, want) {
		t.Errorf("Unsent() = %q, want %q", got, want)
	}
}

// TestCtrlCComesAtItsEvent: the simulated user's Ctrl-C cancels the run at
// the event of its plan, at once, while tool calls run too, as Pi's
// Agent.abort() does; what the user says comes first.
func TestCtrlCComesAtItsEvent(t *testing.T) {
	var got []string
	var last string
	u := NewUser([]UserMessage{{At: "tool_execution_update a", Interrupt: true}, {At: "tool_execution_start c", Interrupt: true}}, &queues{})
	u.Say = func(s string) { got = append(got, s) }
	u.Interrupt = func() { got = append(got, "cancel at "+last) }
	for _, line := range []string{
		"tool_execution_start a x", "tool_execution_start b x", "tool_execution_update a", "tool_execution_end a", "tool_execution_end b error: no",
		"message_start toolResult a", "tool_execution_start c x",
	} {
		last = line
		u.See(line)
	}
	if want := []string{
		"(the user presses Ctrl-C)", "cancel at tool_execution_update a",
		"(the user presses Ctrl-C)", "cancel at tool_execution_start c x",
	}; !slices.Equal(got, want) {
		t.Errorf("the user did %q, want %q", got, want)
	}
	if unsent := u.Unsent(); len(unsent) != 0 {
		t.Errorf("Unsent() = %q, want none", unsent)
	}
}

func TestAnUnsentCtrlCIsReported(t *testing.T) {
	u := NewUser([]UserMessage{{At: "turn_end", Interrupt: true}}, &queues{})
	u.See("agent_end messages=1")
	if got, want := u.Unsent(), []string{`never sent: Ctrl-C, because no event matched "turn_end"`}; !slices.Equal(got, want) {
		t.Errorf("Unsent() = %q, want %q", got, want)
	}
}

// TestAtOneEventTheUserTypesThenTriesThenPressesCtrlC: things that wait for
// the same event are done in the order of the plan, whose order is steer,
// followUp, whileRunning, interrupts; a run tried while one goes on gets
// the agent's refusal.
func TestAtOneEventTheUserTypesThenTriesThenPressesCtrlC(t *testing.T) {
	s, err := Parse("x.json", []byte(`{"prompt": "hi",
		"interrupts": [{"at": "turn_end"}],
		"whileRunning": [{"prompt": "again", "at": "turn_end"}, {"continue": true, "at": "turn_end"}],
		"followUp": [{"text": "later", "at": "turn_end"}],
		"steer": [{"text": "now", "at": "turn_end"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	u := NewUser(s.UserMessages(), &queues{})
	u.Say = func(text string) { got = append(got, text) }
	u.Try = func(prompt string) error { return errors.New("busy") }
	u.See("turn_end results=0")
	want := []string{
		`(the user types a steering message: "now")`,
		`(the user queues a follow-up: "later")`,
		`(the user sends the prompt "again" while the agent works; the agent refuses: busy)`,
		"(the user asks the agent to continue while it works; the agent refuses: busy)",
		"(the user presses Ctrl-C)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the user did at turn_end (-want +got):\n%s", diff)
	}
}
