package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

// The tests of this lab's idea come first, in the order of the exercises in
// the README's "Build it yourself": the queue's drain, a batch's terminate,
// then the two-level loop, one rule each; each test's messages name its
// rule. The tests of the queue and of the batch use no loop, so that a
// mistake there is not blamed on the loop. Every model is guarded: a loop
// that never ends fails its test within a second, with a sentence that
// names the likely cause, instead of hanging until go test's timeout.

// researcher is an agent with the demo's model, guarded, and an instant
// search tool.
func researcher(t *testing.T, opts ...func(*AgentOptions)) *Agent {
	o := AgentOptions{Config: Config{Model: guard(t, fakemodel.Researcher("search"), endless), Tools: []Tool{search(false)}}}
	for _, f := range opts {
		f(&o)
	}
	return NewAgent(o)
}

// queueOf returns a queue in mode that holds a user message for each text,
// added as Steer adds them.
func queueOf(mode QueueMode, texts ...string) *queue {
	q := &queue{mode: mode}
	for _, text := range texts {
		q.add(user(text))
	}
	return q
}

// texts returns the text of each message, or nil for none: what a test of
// the queue compares.
func texts(messages []fakemodel.Message) []string {
	var out []string
	for _, m := range messages {
		if u, ok := m.(fakemodel.UserMessage); ok {
			out = append(out, u.Text)
		} else {
			out = append(out, fmt.Sprintf("%v", m)) // a nil message, for instance
		}
	}
	return out
}

func TestOneAtATimeTakesOneMessagePerPoll(t *testing.T) {
	q := queueOf(OneAtATime, "A", "B", "C")
	left := [][]string{{"B", "C"}, {"C"}, nil}
	for i, want := range []string{"A", "B", "C"} {
		if !expected.Equal(t, []string{want}, texts(q.drain()), "poll %d in mode one-at-a-time takes one message, the oldest", i+1) {
			return
		}
		if !expected.Equal(t, left[i], texts(q.waiting()), "after poll %d, the messages it did not take are still queued, in order", i+1) {
			return
		}
	}
	expected.Empty(t, texts(q.drain()), "a poll of an empty queue takes nothing")
}

func TestAllTakesEveryQueuedMessage(t *testing.T) {
	q := queueOf(All, "A", "B", "C")
	if !expected.Equal(t, []string{"A", "B", "C"}, texts(q.drain()), "a poll in mode all takes every queued message, oldest first") {
		return
	}
	expected.Empty(t, texts(q.waiting()), "after a poll in mode all, nothing is queued")
	expected.Empty(t, texts(q.drain()), "a poll of an empty queue takes nothing")
	q.add(user("D"))
	expected.Equal(t, []string{"D"}, texts(q.drain()), "a message added after a poll is taken by the next poll")
}

func TestAQueueNeverLosesAMessage(t *testing.T) {
	t.Run("a poll's messages are its own", func(t *testing.T) {
		for mode, want := range map[QueueMode][]string{OneAtATime: {"A"}, All: {"A", "B"}} {
			q := queueOf(mode, "A", "B")
			taken := q.drain()
			q.drain()
			q.add(user("C"))
			q.add(user("D"))
			q.drain()
			expected.Equal(t, want, texts(taken), "mode %s: later adds and polls do not change the messages a poll took", mode)
		}
		// The loop may add to what a poll gave it. A poll that returns a
		// part of q.messages shares its array with the queue, and such an
		// add writes over the next queued message: it is lost.
		q := queueOf(OneAtATime, "A", "B", "C")
		taken := q.drain()
		_ = append(taken, user("X"))
		expected.Equal(t, []string{"B", "C"}, texts(q.waiting()),
			"adding to the messages a poll took changes nothing in the queue: return a slice of your own, not a part of q.messages")
	})
	t.Run("a poll holds q.mu, as add does", func(t *testing.T) {
		// A poll that reads or changes the queue without q.mu may miss an
		// add that runs at the same moment, which goroutine interleavings
		// only sometimes show; here the test holds q.mu, as add does while
		// it appends, and looks whether a poll finishes meanwhile. A poll
		// that holds q.mu waits for it, so the test never blames one.
		for _, mode := range []QueueMode{OneAtATime, All} {
			q := queueOf(mode, "A", "B")
			q.mu.Lock()
			started := make(chan struct{})
			polled := make(chan []fakemodel.Message, 1)
			go func() {
				close(started)
				polled <- q.drain()
			}()
			<-started
			for range 1000 { // time for a poll that does not wait to end
				runtime.Gosched()
			}
			select {
			case taken := <-polled:
				q.mu.Unlock()
				expected.Fail(t, "mode %s: a poll took %q while another goroutine held q.mu: "+
					"hold q.mu while you read and change q.messages, since add changes them from other goroutines", mode, texts(taken))
				return
			default:
			}
			q.mu.Unlock()
			<-polled
		}
	})
	t.Run("goroutines add while the loop polls", func(t *testing.T) {
		for _, mode := range []QueueMode{OneAtATime, All} {
			// Each sender's first message is queued before the polls
			// begin, so that the first poll finds several.
			q := &queue{mode: mode}
			const senders, each = 3, 200
			var wg sync.WaitGroup
			for g := range senders {
				q.add(user(fmt.Sprintf("%d 0", g)))
				wg.Go(func() {
					for i := 1; i < each; i++ {
						q.add(user(fmt.Sprintf("%d %d", g, i)))
					}
				})
			}
			added := make(chan struct{})
			go func() { wg.Wait(); close(added) }()
			var got []string
			for polling := true; polling; {
				select {
				case <-added:
					polling = false
				default:
					runtime.Gosched()
				}
				got = append(got, texts(q.drain())...)
			}
			for range senders * each { // what is still queued, if the polls took too little
				more := texts(q.drain())
				if len(more) == 0 {
					break
				}
				got = append(got, more...)
			}
			next := make([]int, senders) // the next message of each sender
			const rule = "with q.mu held, each message is taken once, in the order it was added"
			for _, text := range got {
				var g, i int
				if _, err := fmt.Sscanf(text, "%d %d", &g, &i); err != nil || g < 0 || g >= senders {
					expected.Fail(t, "mode %s: a poll took %q, which no sender added: %s", mode, text, rule)
					return
				}
				if !expected.Equal(t, fmt.Sprintf("%d %d", g, next[g]), text, "mode %s: the message of sender %d that a poll takes next: %s", mode, g, rule) {
					return
				}
				next[g]++
			}
			for g, n := range next {
				expected.Equal(t, each, n, "mode %s: the polls took %d of sender %d's %d messages: every message is taken once", mode, n, g, each)
			}
		}
	})
}

func TestABatchTerminatesOnlyIfEveryResultAsks(t *testing.T) {
	stop := outcome{call: call("1", "t", `{}`), content: "x", terminate: true}
	goOn := outcome{call: call("2", "u", `{}`), content: "y"}
	tests := []struct {
		name     string
		outcomes []outcome
		want     bool
	}{
		{"every result asks", []outcome{stop, stop}, true},
		{"one result asks", []outcome{stop}, true},
		{"one result does not", []outcome{stop, goOn}, false},
		{"the first result does not", []outcome{goOn, stop}, false},
		{"no result asks", []outcome{goOn}, false},
		{"an empty batch", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBatch(tt.outcomes)
			expected.Equal(t, tt.want, b.terminate, "a batch terminates the run only if it has results and every one asks to")
			expected.Equal(t, len(tt.outcomes), len(b.results), "one result per outcome")
		})
	}
}

func TestFirstSteeringPollComesBeforeTheFirstRequest(t *testing.T) {
	model := &recorder{model: guard(t, fakemodel.Researcher("search"), endless)}
	a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: []Tool{search(false)}}})
	a.Steer(user("Typed while the agent was idle."))

	events := collect(t, a, "Find flights.")
	want := []string{
		"agent_start", "turn_start",
		"message_start user", "message_end user", // the prompt
		"message_start user", "message_end user", // the steering message, in the same turn
		"message_start assistant",
	}
	expected.EqualLines(t, want, head(without(trace(events), "message_update assistant"), len(want)),
		"the first steering poll comes before the first request: a message steered while the agent was idle enters turn 1, "+
			"right after the prompt")
	if !expected.NotEmpty(t, model.requests, "the run asks the model") {
		return
	}
	expected.Equal(t, []fakemodel.Role{"user", "user"}, roles(model.requests[0].Messages), "the first request already carries it")
}

func TestSteeringWaitsForTheWholeBatch(t *testing.T) {
	after := []string{
		"turn_end results=2", "turn_start",
		"message_start user", "message_end user", // "Stop!" comes only now
	}
	tests := []struct {
		name       string
		sequential bool
		want       []string
	}{
		{
			name: "parallel",
			want: append([]string{
				"tool_execution_start 1 a", "tool_execution_start 2 b",
				"tool_execution_end 2", "tool_execution_end 1",
				"message_start toolResult 1", "message_end toolResult 1",
				"message_start toolResult 2", "message_end toolResult 2",
			}, after...),
		},
		{
			name:       "sequential",
			sequential: true,
			want: append([]string{
				"tool_execution_start 1 a", "tool_execution_end 1",
				"message_start toolResult 1", "message_end toolResult 1",
				"tool_execution_start 2 b", "tool_execution_end 2",
				"message_start toolResult 2", "message_end toolResult 2",
			}, after...),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tools := []Tool{
					tool("a", scenario.Action{Result: "A", Duration: 300 * time.Millisecond}),
					tool("b", scenario.Action{Result: "B", Duration: 200 * time.Millisecond}),
				}
				model := guard(t, fakemodel.Scripted(reply("Two calls.", call("1", "a", `{}`), call("2", "b", `{}`)), reply("Done.")), endless)
				a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: tools, Sequential: tt.sequential}})
				var lines []string
				err := a.Prompt(context.Background(), "go", func(ev Event) {
					line := traceLine(ev)
					lines = append(lines, line)
					if line == "tool_execution_start 1 a" {
						a.Steer(user("Stop!"))
					}
				})
				if !expected.NoError(t, err, "the run ends without an error") {
					return
				}
				i := slices.Index(lines, tt.want[0])
				if !expected.True(t, i >= 0, "the batch starts: the trace holds %q", tt.want[0]) {
					return
				}
				expected.EqualLines(t, tt.want, head(lines[i:], len(tt.want)),
					"after each turn the loop polls for steering, and steering never interrupts a tool batch: "+
						"\"Stop!\", typed as the batch starts, enters after the batch's turn_end, before the next request")
			})
		})
	}
}

// usersByTurn lists, for each turn of a run, the user messages that enter
// it: `turn 1: "Find flights." "Direct only."`.
func usersByTurn(events []Event) []string {
	var out []string
	for _, ev := range events {
		switch ev := ev.(type) {
		case TurnStart:
			out = append(out, fmt.Sprintf("turn %d:", len(out)+1))
		case MessageStart:
			if u, ok := ev.Message.(fakemodel.UserMessage); ok && len(out) > 0 {
				out[len(out)-1] += fmt.Sprintf(" %q", u.Text)
			}
		}
	}
	return out
}

func TestFollowUpsComeOnlyWhenTheRunWouldEnd(t *testing.T) {
	tests := []struct {
		name  string
		steer []string
		turns []string // the user messages of each turn
	}{
		{
			name:  "after the tool call and the steering message",
			steer: []string{"Direct only."},
			turns: []string{`turn 1: "Find flights." "Direct only."`, "turn 2:", `turn 3: "Book it."`},
		},
		{
			// One at a time, the third steering message is taken after
			// the model's answer: it still comes before the follow-up.
			name:  "after every steering message",
			steer: []string{"Direct only.", "Under 900 €.", "Window seat."},
			turns: []string{`turn 1: "Find flights." "Direct only."`, `turn 2: "Under 900 €."`, `turn 3: "Window seat."`, `turn 4: "Book it."`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := researcher(t)
			a.FollowUp(user("Book it."))
			for _, text := range tt.steer {
				a.Steer(user(text))
			}
			events := collect(t, a, "Find flights.")
			expected.EqualLines(t, tt.turns, usersByTurn(events),
				"the follow-up poll comes only when the run would otherwise end: no tool call and no steering message left; "+
					"the follow-up, queued first, then gets a turn of its own")

			var users []string
			for _, ev := range events {
				if m, ok := ev.(MessageStart); ok {
					if u, ok := m.Message.(fakemodel.UserMessage); ok {
						users = append(users, u.Text)
					}
				}
			}
			expected.EqualLines(t, append(append([]string{"Find flights."}, tt.steer...), "Book it."), users,
				"the follow-up, queued first, comes last: after the tool call and the steering messages")
			sum := summarize(events)
			expected.Equal(t, len(tt.turns), sum.turns, "turns: one for the search, one per steering message that comes after it, one for the follow-up")
			expected.Equal(t, Completed, sum.stopReason(), "the run ends when the model answers and no message waits")
		})
	}
}

func TestTerminate(t *testing.T) {
	yes := true
	tests := []struct {
		name   string
		tools  []Tool
		calls  []fakemodel.ToolCall
		after  func(context.Context, AfterToolCallContext) (AfterToolCallResult, error)
		before func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error)
		steer  bool
		// followUp queues a follow-up while the tool runs.
		followUp bool
		turns    int
		reason   StopReason
	}{
		{
			name:  "every result terminates",
			tools: []Tool{tool("t", scenario.Action{Result: "x", Terminate: true})},
			calls: []fakemodel.ToolCall{call("1", "t", `{}`), call("2", "t", `{}`)},
			turns: 1, reason: Terminated,
		},
		{
			name: "one result does not",
			tools: []Tool{
				tool("t", scenario.Action{Result: "x", Terminate: true}),
				tool("u", scenario.Action{Result: "y"}),
			},
			calls: []fakemodel.ToolCall{call("1", "t", `{}`), call("2", "u", `{}`)},
			turns: 2, reason: Completed,
		},
		{
			name:  "a steering message still gets its turn",
			tools: []Tool{tool("t", scenario.Action{Result: "x", Terminate: true})},
			calls: []fakemodel.ToolCall{call("1", "t", `{}`)},
			steer: true,
			turns: 2, reason: Completed,
		},
		{
			name:     "a follow-up still gets its turn",
			tools:    []Tool{tool("t", scenario.Action{Result: "x", Terminate: true})},
			calls:    []fakemodel.ToolCall{call("1", "t", `{}`)},
			followUp: true,
			turns:    2, reason: Completed,
		},
		{
			name:  "AfterToolCall sets terminate",
			tools: []Tool{tool("u", scenario.Action{Result: "y"})},
			calls: []fakemodel.ToolCall{call("1", "u", `{}`)},
			after: func(context.Context, AfterToolCallContext) (AfterToolCallResult, error) {
				return AfterToolCallResult{Terminate: &yes}, nil
			},
			turns: 1, reason: Terminated,
		},
		{
			name:  "BeforeToolCall blocks and terminates",
			tools: []Tool{tool("u", scenario.Action{Result: "y"})},
			calls: []fakemodel.ToolCall{call("1", "u", `{}`)},
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{Block: true, Reason: "no", Terminate: true}, nil
			},
			turns: 1, reason: Terminated,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := &recorder{model: guard(t, fakemodel.Scripted(reply("Calling.", tt.calls...), reply("Answer.")), endless)}
			a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: tt.tools, AfterToolCall: tt.after, BeforeToolCall: tt.before}})
			var events []Event
			err := a.Prompt(context.Background(), "go", func(ev Event) {
				events = append(events, ev)
				if traceLine(ev) == "tool_execution_start 1 t" {
					if tt.steer {
						a.Steer(user("One more thing."))
					}
					if tt.followUp {
						a.FollowUp(user("And then?"))
					}
				}
			})
			if !expected.NoError(t, err, "the run ends without an error") {
				return
			}
			lines := trace(events)
			rule := "a batch whose every result asks to terminate ends the run after its turn_end, " +
				"unless a steering or follow-up message waits: that message still gets its turn"
			expected.Equal(t, tt.turns, len(model.requests), "%s; one model request per turn", rule)
			expected.Equal(t, tt.reason, summarize(events).stopReason(), rule)
			if tt.reason == Terminated {
				expected.Equal(t, fmt.Sprintf("turn_end results=%d", len(tt.calls)), lines[len(lines)-2], "the run ends right after the batch: the line before agent_end")
			}
		})
	}
}

func TestAStopNeverTakesASteeringMessage(t *testing.T) {
	a := researcher(t, func(o *AgentOptions) { o.Config.ShouldStopAfterTurn = maxTurns(1) })
	var steered bool
	var lines []string
	err := a.Prompt(context.Background(), "Find flights.", func(ev Event) {
		lines = append(lines, traceLine(ev))
		if _, ok := ev.(ToolExecutionStart); ok && !steered {
			steered = true
			a.Steer(user("Only direct flights."))
		}
	})
	if !expected.NoError(t, err, "the run ends without an error") {
		return
	}
	expected.EqualLines(t, []string{"turn_end results=1", "agent_end messages=3"}, lines[len(lines)-2:], "maxTurns(1) stops the run after turn 1")
	steering, _ := a.Queued()
	expected.Equal(t, []string{"Only direct flights."}, texts(steering),
		"ShouldStopAfterTurn is asked before the steering poll, so a stop never takes a steering message: it waits for the next run")

	events := collect(t, a, "") // Continue takes it in its first poll
	expected.EqualLines(t, []string{"agent_start", "turn_start", "message_start user", "message_end user"}, head(trace(events), 4),
		"Continue's first poll takes the waiting message")
	steering, _ = a.Queued()
	expected.Empty(t, texts(steering), "Continue's first poll takes the waiting message")
}

func TestHooksAfterATurnRunInPisOrder(t *testing.T) {
	var log []string
	cfg := Config{
		Model: guard(t, fakemodel.Scripted(reply("Calling.", call("1", "search", `{}`)), reply("Done.")), endless),
		Tools: []Tool{search(false)},
		PrepareNextTurn: func(context.Context, TurnContext) NextTurn {
			log = append(log, "PrepareNextTurn")
			return NextTurn{}
		},
		ShouldStopAfterTurn: func(context.Context, TurnContext) bool {
			log = append(log, "ShouldStopAfterTurn")
			return false
		},
		GetSteeringMessages: func() []fakemodel.Message {
			log = append(log, "GetSteeringMessages")
			return nil
		},
		GetFollowUpMessages: func() []fakemodel.Message {
			log = append(log, "GetFollowUpMessages")
			return nil
		},
	}
	for ev := range runLoop(context.Background(), cfg, nil, []fakemodel.Message{user("go")}) {
		if line := traceLine(ev); strings.HasPrefix(line, "turn_") || strings.HasPrefix(line, "agent_") {
			log = append(log, line)
		}
	}
	want := []string{
		"agent_start", "turn_start",
		"GetSteeringMessages", // before the first request
		"turn_end results=1", "PrepareNextTurn", "ShouldStopAfterTurn", "GetSteeringMessages",
		"turn_start",
		"turn_end results=0", "PrepareNextTurn", "ShouldStopAfterTurn", "GetSteeringMessages",
		"GetFollowUpMessages", // only now: no tool call and no steering left
		"agent_end messages=4",
	}
	expected.EqualLines(t, want, log, "after turn_end, in Pi's order: PrepareNextTurn, ShouldStopAfterTurn, then the steering poll; "+
		"the follow-up poll only when the run would otherwise end")
}

func TestQueueModes(t *testing.T) {
	tests := []struct {
		mode    QueueMode
		turns   int
		answers []string // what each turn after the first answers
	}{
		{OneAtATime, 4, []string{`Noted: "A"`, `Noted: "B"`, `Noted: "C"`}},
		{All, 2, []string{`Noted: "A" and "B" and "C"`}},
	}
	for _, queue := range []string{"steering", "follow-up"} {
		for _, tt := range tests {
			t.Run(queue+"/"+string(tt.mode), func(t *testing.T) {
				a := researcher(t, func(o *AgentOptions) {
					// The other queue keeps its default, one at a
					// time: only this queue's mode may matter.
					if queue == "steering" {
						o.SteeringMode = tt.mode
					} else {
						o.FollowUpMode = tt.mode
					}
				})
				var events []Event
				err := a.Prompt(context.Background(), "Find flights.", func(ev Event) {
					events = append(events, ev)
					if _, ok := ev.(ToolExecutionStart); ok {
						for _, text := range []string{"A", "B", "C"} {
							if queue == "steering" {
								a.Steer(user(text))
							} else {
								a.FollowUp(user(text))
							}
						}
					}
				})
				if !expected.NoError(t, err, "the run ends without an error") {
					return
				}
				turns := tt.turns
				if queue == "follow-up" {
					turns++ // the search's own answer
				}
				rule := "through the Agent, three messages queued at once take a turn each in mode one-at-a-time, or share one in mode all"
				expected.Equal(t, turns, summarize(events).turns, "%s: turns", rule)
				var answers []string
				for _, ev := range events {
					if end, ok := ev.(TurnEnd); ok && len(end.Message.ToolCalls) == 0 {
						text, _, _ := strings.Cut(end.Message.Text, " The search")
						answers = append(answers, text)
					}
				}
				if queue == "follow-up" {
					// The search's own answer comes first: follow-ups
					// wait for the run to be about to end.
					if !expected.NotEmpty(t, answers, "the model answers the search") {
						return
					}
					answers = answers[1:]
				}
				expected.EqualLines(t, tt.answers, answers, rule)
			})
		}
	}
}

func TestErrorAndAbortedEndTheRunAfterTurnEnd(t *testing.T) {
	failed := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"})
	tests := []struct {
		name     string
		model    fakemodel.Model
		cancelAt string // the trace line at which the user presses Ctrl-C
		want     StopReason
	}{
		{"error", failed, "", ModelError},
		{"aborted", fakemodel.Researcher("search"), "message_start assistant", Aborted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var log []string
			hook := func(name string) { log = append(log, name) }
			cfg := Config{
				Model: guard(t, tt.model, endless),
				Tools: []Tool{search(false)},
				PrepareNextTurn: func(context.Context, TurnContext) NextTurn {
					hook("PrepareNextTurn")
					return NextTurn{}
				},
				ShouldStopAfterTurn: func(context.Context, TurnContext) bool {
					hook("ShouldStopAfterTurn")
					return false
				},
				GetSteeringMessages: func() []fakemodel.Message {
					hook("GetSteeringMessages")
					return nil
				},
				GetFollowUpMessages: func() []fakemodel.Message {
					hook("GetFollowUpMessages")
					return nil
				},
			}
			var events []Event
			for ev := range runLoop(ctx, cfg, nil, []fakemodel.Message{user("go")}) {
				events = append(events, ev)
				line := traceLine(ev)
				if strings.HasPrefix(line, "turn_") || strings.HasPrefix(line, "agent_") {
					log = append(log, line)
				}
				if line == tt.cancelAt {
					cancel()
				}
			}
			want := []string{
				"agent_start", "turn_start", "GetSteeringMessages",
				"turn_end results=0", "agent_end messages=2", // no hook, no poll after turn_end
			}
			expected.EqualLines(t, want, log, "a failed or aborted request ends the run right after its turn_end: "+
				"no PrepareNextTurn, no ShouldStopAfterTurn, no poll")
			expected.Equal(t, tt.want, summarize(events).stopReason(), "the stop reason")
		})
	}
	t.Run("the queues keep their messages", func(t *testing.T) {
		a := NewAgent(AgentOptions{Config: Config{Model: guard(t, failed, endless)}})
		a.FollowUp(user("Are you there?"))
		steered := false
		err := a.Prompt(context.Background(), "go", func(ev Event) {
			if traceLine(ev) == "message_start assistant" && !steered {
				steered = true
				a.Steer(user("Hurry.")) // after the first poll
			}
		})
		if !expected.NoError(t, err, "a failed request ends the run without an error: the error is in the history") {
			return
		}
		steering, followUp := a.Queued()
		expected.Equal(t, 1, len(steering), "a failed run takes no steering message: the messages still queued")
		expected.Equal(t, 1, len(followUp), "a failed run takes no follow-up: the messages still queued")
	})
}

// TestAStopTakesNoFurtherStep stops the consumer at each event of a run in
// turn: a run with a tool call, a steering message after its first turn and
// a follow-up once it would end, with the hooks after a turn set. Once the
// consumer has stopped, the loop takes no further step: it calls no hook,
// polls no queue, whose message would be lost with the run, and asks the
// model nothing. Each emit's error, errStopped, ends the loop where it
// happens.
func TestAStopTakesNoFurtherStep(t *testing.T) {
	// run runs it with a consumer that stops at event stopAt (never if 0),
	// and returns the events it took and the steps taken after the stop.
	run := func(t *testing.T, stopAt int) (took, after []string) {
		synctest.Test(t, func(t *testing.T) {
			stopped := false
			step := func(name string) {
				if stopped {
					after = append(after, name)
				}
			}
			// once returns msg at its poll number n, and nothing otherwise.
			once := func(name string, n int, msg fakemodel.Message) func() []fakemodel.Message {
				polls := 0
				return func() []fakemodel.Message {
					step(name)
					if polls++; polls == n {
						return []fakemodel.Message{msg}
					}
					return nil
				}
			}
			model := guard(t, fakemodel.Scripted(reply("Calling.", call("1", "search", `{}`)), reply("Noted."), reply("Done.")), endless)
			cfg := Config{
				Model: stepModel{model: model, step: step},
				Tools: []Tool{search(false)},
				PrepareNextTurn: func(context.Context, TurnContext) NextTurn {
					step("PrepareNextTurn")
					return NextTurn{}
				},
				ShouldStopAfterTurn: func(context.Context, TurnContext) bool {
					step("ShouldStopAfterTurn")
					return false
				},
				GetSteeringMessages: once("GetSteeringMessages", 2, user("Steered.")),
				GetFollowUpMessages: once("GetFollowUpMessages", 1, user("Followed up.")),
			}
			for ev := range runLoop(context.Background(), cfg, nil, []fakemodel.Message{user("go")}) {
				took = append(took, traceLine(ev))
				if len(took) == stopAt {
					stopped = true
					break
				}
			}
		})
		return took, after
	}
	all, _ := run(t, 0)
	users := 0
	for _, line := range all {
		if line == "message_end user" {
			users++
		}
	}
	if !expected.Equal(t, 3, users, "the run takes the steering message and the follow-up, after the prompt: its user messages") {
		return
	}
	for stopAt := 1; stopAt <= len(all); stopAt++ {
		took, after := run(t, stopAt)
		if !expected.Empty(t, after, "the consumer stops at event %d, %s: the loop takes no further step, no hook, no poll, whose message would be lost with the run, "+
			"no request. Is an error of r.emit or r.emitAll dropped? The steps after the stop", stopAt, took[len(took)-1]) {
			return
		}
	}
}

// A stepModel tells step of each request before it passes it on.
type stepModel struct {
	model fakemodel.Model
	step  func(name string)
}

func (m stepModel) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	m.step("a request to the model")
	return m.model.Reply(ctx, req)
}

func TestACutOffReplyRunsNoneOfItsCalls(t *testing.T) {
	ran := 0
	counting := tool("write", scenario.Action{Result: "written"})
	run := counting.run
	counting.run = func(ctx context.Context, id string, args any, report func(string)) (ToolResult, error) {
		ran++
		return run(ctx, id, args, report)
	}
	cut := reply("Writing both files", call("1", "write", `{"path":"a"}`), call("2", "write", `{"path":"b","text":"hal`))
	cut.StopReason = fakemodel.StopReasonLength
	model := &recorder{model: fakemodel.Scripted(cut, reply("Let me write them again."))}
	a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: []Tool{counting}}})

	events := collect(t, a, "go")
	expected.Equal(t, 0, ran, "no call of a cut-off reply runs")
	msg := func(name string) string {
		return fmt.Sprintf("Tool call %q was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.", name)
	}
	want := []string{
		"tool_execution_start 1 write", "tool_execution_end 1 error: " + msg("write"),
		"message_start toolResult 1 error", "message_end toolResult 1 error",
		"tool_execution_start 2 write", "tool_execution_end 2 error: " + msg("write"),
		"message_start toolResult 2 error", "message_end toolResult 2 error",
		"turn_end results=2", "turn_start",
	}
	lines := trace(events)
	i := slices.Index(lines, want[0])
	if !expected.True(t, i >= 0, "the trace holds %q", want[0]) {
		return
	}
	expected.EqualLines(t, want, lines[i:i+len(want)], "each call of the cut-off reply ends at once, with an error result that asks the model to re-issue it")
	expected.Equal(t, 2, len(model.requests), "the loop asks the model again")
	expected.Equal(t, Completed, summarize(events).stopReason(), "the run goes on to an answer")
}

func TestTransformContextChangesOnlyWhatTheModelSees(t *testing.T) {
	model := &recorder{model: fakemodel.Researcher("search")}
	a := NewAgent(AgentOptions{Config: Config{
		Model: model,
		Tools: []Tool{search(false)},
		TransformContext: func(_ context.Context, messages []fakemodel.Message) ([]fakemodel.Message, error) {
			return messages[max(0, len(messages)-2):], nil
		},
	}})
	collect(t, a, "Find flights.")
	collect(t, a, "And hotels?")

	for i, req := range model.requests {
		expected.True(t, len(req.Messages) <= 2, "request %d shows at most the last 2 messages, not %d", i+1, len(req.Messages))
	}
	expected.Equal(t, 6, len(a.Messages()), "the history keeps everything: 4 messages of run 1, 2 of run 2")
}

func TestTransformContextFailureFailsTheRequest(t *testing.T) {
	a := NewAgent(AgentOptions{Config: Config{
		Model: fakemodel.Researcher("search"),
		TransformContext: func(context.Context, []fakemodel.Message) ([]fakemodel.Message, error) {
			return nil, fmt.Errorf("summary service down")
		},
	}})
	events := collect(t, a, "go")
	sum := summarize(events)
	expected.Equal(t, ModelError, sum.stopReason(), "a failed TransformContext ends the run with stop reason error")
	expected.Equal(t, "transform context: summary service down", sum.last.ErrorMessage, "the failed reply says why the request failed")
}

func TestPrepareNextTurnSwapsTheModel(t *testing.T) {
	first := &recorder{model: fakemodel.Scripted(reply("Calling.", call("1", "search", `{}`)))}
	second := &recorder{model: fakemodel.Scripted(reply("Calling."), reply("Answer from the cheaper model."))}
	a := NewAgent(AgentOptions{Config: Config{
		Model: first,
		Tools: []Tool{search(false)},
		PrepareNextTurn: func(context.Context, TurnContext) NextTurn {
			return NextTurn{Model: second}
		},
	}})
	events := collect(t, a, "go")
	expected.Equal(t, 1, len(first.requests), "the first model answers turn 1 only")
	expected.Equal(t, 1, len(second.requests), "the model PrepareNextTurn returns answers turn 2")
	answer, _ := summarize(events).answer()
	expected.Equal(t, "Answer from the cheaper model.", answer, "the answer comes from the second model")
}

func TestContinue(t *testing.T) {
	t.Run("refuses an empty history", func(t *testing.T) {
		err := NewAgent(AgentOptions{}).Continue(context.Background(), func(Event) {})
		expected.EqualError(t, err, "cannot continue: the history holds no messages", "Continue refuses an empty history")
	})
	t.Run("refuses a history that ends with a reply", func(t *testing.T) {
		a := researcher(t)
		collect(t, a, "Find flights.")
		err := a.Continue(context.Background(), func(Event) {})
		if !expected.True(t, err != nil, "Continue refuses a history that ends with a reply") {
			return
		}
		expected.Contains(t, err.Error(), "cannot continue from an assistant message", "the refusal says why")
		expected.Contains(t, err.Error(), "the request would end with the model's own reply", "the refusal says why")
	})
	t.Run("after a stop at an answer, runs the queued steering message as its prompt", func(t *testing.T) {
		a := NewAgent(AgentOptions{Config: Config{
			Model:               fakemodel.Scripted(reply("Done."), reply("Noted.")),
			ShouldStopAfterTurn: maxTurns(1),
		}})
		steered := false
		err := a.Prompt(context.Background(), "go", func(ev Event) {
			if traceLine(ev) == "message_start assistant" && !steered {
				steered = true
				a.Steer(user("Also this."))
			}
		})
		if !expected.NoError(t, err, "the run ends without an error") {
			return
		}
		steering, _ := a.Queued()
		if !expected.Equal(t, 1, len(steering), "the stop left it queued") {
			return
		}
		events := collect(t, a, "")
		expected.Equal(t, []string{"agent_start", "turn_start", "message_start user", "message_end user"}, head(trace(events), 4),
			"like Pi's Agent.continue, it runs the message as a prompt")
		steering, _ = a.Queued()
		expected.Empty(t, steering, "Continue took the queued message")
		if !expected.Equal(t, []fakemodel.Role{"user", "assistant", "user", "assistant"}, roles(a.Messages()), "the history's roles after Continue") {
			return
		}
		expected.Equal[fakemodel.Message](t, user("Also this."), a.Messages()[2], "the steering message enters the history as the run's prompt")
	})
	t.Run("resumes with no prompt", func(t *testing.T) {
		a := NewAgent(AgentOptions{
			Config:  Config{Model: fakemodel.Researcher("search"), Tools: []Tool{search(false)}},
			History: []fakemodel.Message{user("Find flights.")},
		})
		events := collect(t, a, "")
		want := []string{"agent_start", "turn_start", "message_start assistant"}
		expected.Equal(t, want, head(trace(events), 3), "no prompt events")
		expected.Equal(t, "agent_end messages=3", traceLine(events[len(events)-1]), "the run adds only its own messages")
		expected.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant"}, roles(a.Messages()), "the history's roles after Continue")
	})
}

// TestContinueFromAReplyRunsWhatIsQueued follows Pi's Agent.continue from
// a history that ends with a reply: the steering queue's poll comes first,
// and its run skips its own first poll, so in mode one-at-a-time two
// steering messages get a turn each; with no steering message, the
// follow-up queue's poll; with neither, a refusal.
func TestContinueFromAReplyRunsWhatIsQueued(t *testing.T) {
	given := []fakemodel.Message{user("Initial"), reply("Initial response")}
	t.Run("steering, one at a time", func(t *testing.T) {
		// The script counts the replies it is sent: the history holds one.
		a := NewAgent(AgentOptions{Config: Config{Model: fakemodel.Scripted(reply("Initial response"), reply("Processed 1"), reply("Processed 2"), reply("Processed 3"))}, History: given})
		a.Steer(user("Steering 1"))
		a.Steer(user("Steering 2"))
		a.FollowUp(user("later"))
		events := collect(t, a, "")
		var got []string
		for _, m := range a.Messages()[2:] {
			switch m := m.(type) {
			case fakemodel.UserMessage:
				got = append(got, "user: "+m.Text)
			case fakemodel.AssistantMessage:
				got = append(got, "assistant: "+m.Text)
			}
		}
		expected.Equal(t, []string{"user: Steering 1", "assistant: Processed 1", "user: Steering 2", "assistant: Processed 2", "user: later", "assistant: Processed 3"}, got,
			"each steering message gets a turn of its own, then the follow-up")
		expected.Equal(t, "agent_end messages=6", traceLine(events[len(events)-1]), "the run adds only its own messages")
	})
	t.Run("a follow-up when no steering message waits", func(t *testing.T) {
		a := NewAgent(AgentOptions{Config: Config{Model: fakemodel.Scripted(reply("Initial response"), reply("Processed"))}, History: given})
		a.FollowUp(user("Queued follow-up"))
		collect(t, a, "")
		expected.Equal(t, []fakemodel.Role{"user", "assistant", "user", "assistant"}, roles(a.Messages()), "the history's roles after Continue")
		expected.Equal[fakemodel.Message](t, user("Queued follow-up"), a.Messages()[2], "the follow-up enters the history as the run's prompt")
	})
	t.Run("nothing queued", func(t *testing.T) {
		a := NewAgent(AgentOptions{History: given})
		err := a.Continue(context.Background(), func(Event) { t.Error("no event without a run") })
		if !expected.True(t, err != nil, "Continue refuses a history that ends with a reply, with nothing queued") {
			return
		}
		expected.Contains(t, err.Error(), "cannot continue from an assistant message with nothing queued", "the refusal says why")
	})
}

func TestARunWhileRunningIsRefused(t *testing.T) {
	a := researcher(t)
	var busy, again error
	err := a.Prompt(context.Background(), "go", func(ev Event) {
		if _, ok := ev.(AgentStart); ok {
			busy = a.Prompt(context.Background(), "another", func(Event) {})
			again = a.Continue(context.Background(), func(Event) {})
		}
	})
	if !expected.NoError(t, err, "the run ends without an error") {
		return
	}
	expected.ErrorIs(t, busy, ErrBusy, "Prompt during a run is refused")
	expected.ErrorIs(t, again, ErrBusy, "Continue during a run is refused")
	expected.Contains(t, ErrBusy.Error(), "Steer or FollowUp", "the refusal says what to call instead")
	expected.NoError(t, a.Prompt(context.Background(), "now", func(Event) {}), "after the run, a new one may start")
}

func TestMaxTurnsIsAStopPolicy(t *testing.T) {
	again := reply("Again.", call("x", "search", `{}`))
	a := NewAgent(AgentOptions{Config: Config{
		Model:               fakemodel.Scripted(again, again, again, again, again, again),
		Tools:               []Tool{search(false)},
		ShouldStopAfterTurn: maxTurns(3),
	}})
	sum := summarize(collect(t, a, "go"))
	expected.Equal(t, 3, sum.turns, "maxTurns(3) stops the run after 3 turns")
	expected.Equal(t, 7, len(sum.added), "the prompt, and a reply and a result per turn")

	// The history ends with a tool result, so the run can go on, and the
	// policy counts only the new run's turns: a fresh budget of 3.
	var events []Event
	if !expected.NoError(t, a.Continue(context.Background(), func(ev Event) { events = append(events, ev) }), "Continue ends without an error") {
		return
	}
	sum = summarize(events)
	expected.Equal(t, 3, sum.turns, "Continue gets 3 turns of its own")
	expected.Equal(t, 6, len(sum.added), "a reply and a result per turn, and no prompt")
	expected.Equal(t, 13, len(a.Messages()), "the history holds both runs' messages")
}

// TestTurnContextHoldsTheWholeHistoryAndTheRunsMessages checks what the
// hooks after a turn read: Messages is the whole history, NewMessages what
// this run added to it.
func TestTurnContextHoldsTheWholeHistoryAndTheRunsMessages(t *testing.T) {
	var seen []TurnContext
	a := NewAgent(AgentOptions{
		Config: Config{
			// The script's first reply is the one the history holds.
			Model: fakemodel.Scripted(reply("Noted."), reply("Done.")),
			ShouldStopAfterTurn: func(_ context.Context, tc TurnContext) bool {
				seen = append(seen, tc)
				return false
			},
		},
		History: []fakemodel.Message{user("earlier"), reply("Noted.")},
	})
	collect(t, a, "now")
	if !expected.Equal(t, 1, len(seen), "ShouldStopAfterTurn runs once, after the run's one turn") {
		return
	}
	expected.AssertHistory(t, []fakemodel.Message{user("now"), seen[0].Message}, seen[0].NewMessages, "NewMessages holds what this run added: the prompt and the reply")
	expected.Equal(t, 4, len(seen[0].Messages), "Messages holds the whole history: the 2 messages given, the prompt and the reply")
	expected.Equal[fakemodel.Message](t, user("earlier"), seen[0].Messages[0], "Messages starts with the history given")
}

// TestTransformContextRunsBeforeTheReplyStarts follows Pi's
// streamAssistantResponse: transform the context, then ask the model.
func TestTransformContextRunsBeforeTheReplyStarts(t *testing.T) {
	var got []string
	cfg := Config{
		Model: fakemodel.Scripted(reply("Done.")),
		TransformContext: func(_ context.Context, messages []fakemodel.Message) ([]fakemodel.Message, error) {
			got = append(got, "TransformContext")
			return messages, nil
		},
	}
	for ev := range runLoop(context.Background(), cfg, nil, []fakemodel.Message{user("go")}) {
		got = append(got, traceLine(ev))
	}
	expected.EqualLines(t, []string{
		"agent_start", "turn_start", "message_start user", "message_end user",
		"TransformContext",
		"message_start assistant", "message_update assistant", "message_end assistant",
		"turn_end results=0", "agent_end messages=2",
	}, got, "TransformContext runs before the reply starts")
}

func TestTransformContextCannotChangeTheHistory(t *testing.T) {
	var seen []fakemodel.Message
	cfg := Config{
		Model: fakemodel.Researcher("search"),
		Tools: []Tool{search(false)},
		TransformContext: func(_ context.Context, messages []fakemodel.Message) ([]fakemodel.Message, error) {
			messages[0] = user("rewritten by the hook")
			return messages, nil
		},
		ShouldStopAfterTurn: func(_ context.Context, t TurnContext) bool {
			seen = t.Messages
			return false
		},
	}
	for range runLoop(context.Background(), cfg, nil, []fakemodel.Message{user("Find flights.")}) {
	}
	if !expected.NotEmpty(t, seen, "ShouldStopAfterTurn sees the history") {
		return
	}
	expected.Equal[fakemodel.Message](t, user("Find flights."), seen[0], "the loop's history keeps its first message")
}
