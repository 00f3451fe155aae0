package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// researcher is an agent with the demo's model and an instant search tool.
func researcher(opts ...func(*AgentOptions)) *Agent {
	o := AgentOptions{Config: Config{Model: fakemodel.Researcher("search"), Tools: []Tool{search(false)}}}
	for _, f := range opts {
		f(&o)
	}
	return NewAgent(o)
}

func TestFirstSteeringPollComesBeforeTheFirstRequest(t *testing.T) {
	model := &recorder{model: fakemodel.Researcher("search")}
	a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: []Tool{search(false)}}})
	a.Steer(user("Typed while the agent was idle."))

	events := collect(t, a, "Find flights.")
	want := []string{
		"agent_start", "turn_start",
		"message_start user", "message_end user", // the prompt
		"message_start user", "message_end user", // the steering message, in the same turn
		"message_start assistant",
	}
	assert.Equal(t, want, without(trace(events), "message_update assistant")[:len(want)])
	require.NotEmpty(t, model.requests)
	assert.Equal(t, []fakemodel.Role{"user", "user"}, roles(model.requests[0].Messages), "the first request already carries it")
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
				model := fakemodel.Scripted(reply("Two calls.", call("1", "a", `{}`), call("2", "b", `{}`)), reply("Done."))
				a := NewAgent(AgentOptions{Config: Config{Model: model, Tools: tools, Sequential: tt.sequential}})
				var lines []string
				err := a.Prompt(context.Background(), "go", func(ev Event) {
					line := traceLine(ev)
					lines = append(lines, line)
					if line == "tool_execution_start 1 a" {
						a.Steer(user("Stop!"))
					}
				})
				require.NoError(t, err)
				i := slices.Index(lines, tt.want[0])
				require.GreaterOrEqual(t, i, 0)
				assert.Equal(t, tt.want, lines[i:i+len(tt.want)], "steering never interrupts a tool batch")
			})
		})
	}
}

func TestHooksAfterATurnRunInPisOrder(t *testing.T) {
	var log []string
	cfg := Config{
		Model: fakemodel.Scripted(reply("Calling.", call("1", "search", `{}`)), reply("Done.")),
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
	assert.Empty(t, cmp.Diff(want, log), "(-want +got)")
}

func TestAStopNeverTakesASteeringMessage(t *testing.T) {
	a := researcher(func(o *AgentOptions) { o.Config.ShouldStopAfterTurn = maxTurns(1) })
	var steered bool
	var lines []string
	err := a.Prompt(context.Background(), "Find flights.", func(ev Event) {
		lines = append(lines, traceLine(ev))
		if _, ok := ev.(ToolExecutionStart); ok && !steered {
			steered = true
			a.Steer(user("Only direct flights."))
		}
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"turn_end results=1", "agent_end messages=3"}, lines[len(lines)-2:])
	steering, _ := a.Queued()
	assert.Equal(t, []fakemodel.Message{user("Only direct flights.")}, steering, "the message waits for the next run")

	events := collect(t, a, "") // Continue takes it in its first poll
	assert.Equal(t, []string{"agent_start", "turn_start", "message_start user", "message_end user"}, trace(events)[:4])
	steering, _ = a.Queued()
	assert.Empty(t, steering)
}

func TestFollowUpsComeOnlyWhenTheRunWouldEnd(t *testing.T) {
	a := researcher()
	a.FollowUp(user("Book it."))
	a.Steer(user("Direct only."))
	events := collect(t, a, "Find flights.")

	var users []string
	for _, ev := range events {
		if m, ok := ev.(MessageStart); ok {
			if u, ok := m.Message.(fakemodel.UserMessage); ok {
				users = append(users, u.Text)
			}
		}
	}
	assert.Equal(t, []string{"Find flights.", "Direct only.", "Book it."}, users,
		"the follow-up, queued first, comes last: after the tool call and the steering message")
	sum := summarize(events)
	assert.Equal(t, 3, sum.turns)
	assert.Equal(t, Completed, sum.stopReason())
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
				a := researcher(func(o *AgentOptions) {
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
				require.NoError(t, err)
				turns := tt.turns
				if queue == "follow-up" {
					turns++ // the search's own answer
				}
				assert.Equal(t, turns, summarize(events).turns)
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
					require.NotEmpty(t, answers)
					answers = answers[1:]
				}
				assert.Equal(t, tt.answers, answers)
			})
		}
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
			model := &recorder{model: fakemodel.Scripted(reply("Calling.", tt.calls...), reply("Answer."))}
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
			require.NoError(t, err)
			lines := trace(events)
			assert.Len(t, model.requests, tt.turns, "one model request per turn")
			assert.Equal(t, tt.reason, summarize(events).stopReason())
			if tt.reason == Terminated {
				assert.Equal(t, fmt.Sprintf("turn_end results=%d", len(tt.calls)), lines[len(lines)-2], "the run ends right after the batch")
			}
		})
	}
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
	assert.Zero(t, ran, "no call of a cut-off reply runs")
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
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, want, lines[i:i+len(want)])
	assert.Len(t, model.requests, 2, "the loop asks the model again")
	assert.Equal(t, Completed, summarize(events).stopReason())
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
				Model: tt.model,
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
			assert.Empty(t, cmp.Diff(want, log), "(-want +got)")
			assert.Equal(t, tt.want, summarize(events).stopReason())
		})
	}
	t.Run("the queues keep their messages", func(t *testing.T) {
		a := NewAgent(AgentOptions{Config: Config{Model: failed}})
		a.FollowUp(user("Are you there?"))
		steered := false
		require.NoError(t, a.Prompt(context.Background(), "go", func(ev Event) {
			if traceLine(ev) == "message_start assistant" && !steered {
				steered = true
				a.Steer(user("Hurry.")) // after the first poll
			}
		}))
		steering, followUp := a.Queued()
		assert.Len(t, steering, 1, "a failed run takes no steering message")
		assert.Len(t, followUp, 1, "a failed run takes no follow-up")
	})
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
		assert.LessOrEqual(t, len(req.Messages), 2, "request %d shows at most the last 2 messages", i+1)
	}
	assert.Len(t, a.Messages(), 6, "the history keeps everything: 4 messages of run 1, 2 of run 2")
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
	assert.Equal(t, ModelError, sum.stopReason())
	assert.Equal(t, "transform context: summary service down", sum.last.ErrorMessage)
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
	assert.Len(t, first.requests, 1)
	assert.Len(t, second.requests, 1)
	answer, _ := summarize(events).answer()
	assert.Equal(t, "Answer from the cheaper model.", answer)
}

func TestContinue(t *testing.T) {
	t.Run("refuses an empty history", func(t *testing.T) {
		err := NewAgent(AgentOptions{}).Continue(context.Background(), func(Event) {})
		require.EqualError(t, err, "cannot continue: the history holds no messages")
	})
	t.Run("refuses a history that ends with a reply", func(t *testing.T) {
		a := researcher()
		collect(t, a, "Find flights.")
		err := a.Continue(context.Background(), func(Event) {})
		require.ErrorContains(t, err, "cannot continue from an assistant message")
		require.ErrorContains(t, err, "providers reject two assistant messages in a row")
	})
	t.Run("refuses after a stop at an answer; the next Prompt takes the queue", func(t *testing.T) {
		a := NewAgent(AgentOptions{Config: Config{
			Model:               fakemodel.Scripted(reply("Done."), reply("Noted.")),
			ShouldStopAfterTurn: maxTurns(1),
		}})
		steered := false
		require.NoError(t, a.Prompt(context.Background(), "go", func(ev Event) {
			if traceLine(ev) == "message_start assistant" && !steered {
				steered = true
				a.Steer(user("Also this."))
			}
		}))
		require.ErrorContains(t, a.Continue(context.Background(), func(Event) {}), "cannot continue from an assistant message")
		steering, _ := a.Queued()
		assert.Len(t, steering, 1, "the stop left it queued, and Continue could not take it")
		require.NoError(t, a.Prompt(context.Background(), "next", func(Event) {}))
		steering, _ = a.Queued()
		assert.Empty(t, steering)
		assert.Equal(t, []fakemodel.Role{"user", "assistant", "user", "user", "assistant"}, roles(a.Messages()))
		assert.Equal(t, user("Also this."), a.Messages()[3], "the first poll of the next run, after its prompt")
	})
	t.Run("resumes with no prompt", func(t *testing.T) {
		a := NewAgent(AgentOptions{
			Config:  Config{Model: fakemodel.Researcher("search"), Tools: []Tool{search(false)}},
			History: []fakemodel.Message{user("Find flights.")},
		})
		events := collect(t, a, "")
		want := []string{"agent_start", "turn_start", "message_start assistant"}
		assert.Equal(t, want, trace(events)[:3], "no prompt events")
		assert.Equal(t, "agent_end messages=3", traceLine(events[len(events)-1]), "the run adds only its own messages")
		assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant"}, roles(a.Messages()))
	})
}

func TestARunWhileRunningIsRefused(t *testing.T) {
	a := researcher()
	var busy, again error
	require.NoError(t, a.Prompt(context.Background(), "go", func(ev Event) {
		if _, ok := ev.(AgentStart); ok {
			busy = a.Prompt(context.Background(), "another", func(Event) {})
			again = a.Continue(context.Background(), func(Event) {})
		}
	}))
	assert.ErrorIs(t, busy, ErrBusy)
	assert.ErrorIs(t, again, ErrBusy)
	assert.Contains(t, ErrBusy.Error(), "Steer or FollowUp")
	require.NoError(t, a.Prompt(context.Background(), "now", func(Event) {}), "after the run, a new one may start")
}

func TestMaxTurnsIsAStopPolicy(t *testing.T) {
	again := reply("Again.", call("x", "search", `{}`))
	a := NewAgent(AgentOptions{Config: Config{
		Model:               fakemodel.Scripted(again, again, again, again, again, again),
		Tools:               []Tool{search(false)},
		ShouldStopAfterTurn: maxTurns(3),
	}})
	sum := summarize(collect(t, a, "go"))
	assert.Equal(t, 3, sum.turns)
	assert.Len(t, sum.added, 7)

	// The history ends with a tool result, so the run can go on, and the
	// policy counts only the new run's turns: a fresh budget of 3.
	var events []Event
	require.NoError(t, a.Continue(context.Background(), func(ev Event) { events = append(events, ev) }))
	sum = summarize(events)
	assert.Equal(t, 3, sum.turns, "Continue gets 3 turns of its own")
	assert.Len(t, sum.added, 6, "a reply and a result per turn, and no prompt")
	assert.Len(t, a.Messages(), 13)
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
	require.Len(t, seen, 1)
	assert.Equal(t, []fakemodel.Message{user("now"), seen[0].Message}, seen[0].NewMessages)
	assert.Len(t, seen[0].Messages, 4)
	assert.Equal(t, user("earlier"), seen[0].Messages[0])
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
	assert.Equal(t, []string{
		"agent_start", "turn_start", "message_start user", "message_end user",
		"TransformContext",
		"message_start assistant", "message_update assistant", "message_end assistant",
		"turn_end results=0", "agent_end messages=2",
	}, got)
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
	require.NotEmpty(t, seen)
	assert.Equal(t, user("Find flights."), seen[0], "the loop's history keeps its first message")
}
