package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

// again is a model that answers every request at once with one call to
// "now", the same call each time. Unlike the fake models, it reads nothing
// of the history, so its own cost does not grow with it.
type again struct{}

func (again) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	if req.OnText != nil {
		req.OnText("Again.")
	}
	return fakemodel.AssistantMessage{
		Text:       "Again.",
		ToolCalls:  []fakemodel.ToolCall{{ID: "call", Name: "now", Arguments: json.RawMessage(`{}`)}},
		StopReason: fakemodel.StopReasonToolUse,
	}, nil
}

// BenchmarkTurn measures the final loop's own cost per turn, through the
// Agent, its queues and its hooks, with a model and a tool that return at
// once. One op is one turn. The turns run as Prompts of turnsPerRun turns
// each, every one from a fresh agent whose history holds 10 or 10,000
// messages; a run adds the prompt, then a reply and a result per turn. The
// cost per turn must not depend on the history's length.
//
// The timer runs from the prompt's message_end to agent_end. It stops while
// a run starts, because starting is a cost per run, not per turn: the run's
// first append copies the history, as Pi's runAgentLoop copies it
// ([...context.messages]), and that copy does grow with the history.
//
//	go test ./labs/06-steering -run '^$' -bench Turn -benchmem
func BenchmarkTurn(b *testing.B) {
	const turnsPerRun = 100
	for _, size := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("history=%d", size), func(b *testing.B) {
			history := make([]fakemodel.Message, size)
			for i := range history {
				history[i] = fakemodel.UserMessage{Text: "earlier"}
			}
			b.ReportAllocs()
			b.StopTimer()
			b.ResetTimer()
			for done := 0; done < b.N; {
				n := min(turnsPerRun, b.N-done)
				turns := 0
				a := NewAgent(AgentOptions{
					Config: Config{
						Model: again{},
						Tools: []Tool{tool("now", scenario.Action{Result: "ok"})},
						// A counter, not maxTurns: maxTurns reads
						// the run's messages.
						ShouldStopAfterTurn: func(context.Context, TurnContext) bool {
							turns++
							return turns >= n
						},
					},
					// runLoop clips it, so no run writes into it.
					History: history,
				})
				timing := false
				err := a.Prompt(context.Background(), "go", func(ev Event) {
					switch ev.(type) {
					case MessageEnd:
						if !timing {
							timing = true
							b.StartTimer()
						}
					case AgentEnd:
						b.StopTimer()
					}
				})
				if err != nil {
					b.Fatal(err)
				}
				if turns != n {
					b.Fatalf("the run took %d turns, not %d", turns, n)
				}
				done += n
			}
		})
	}
}
