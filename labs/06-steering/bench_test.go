package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
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

// BenchmarkTurn measures the final loop's own cost per turn: one Prompt of
// b.N turns, through the Agent, its queues and its hooks, with a model and a
// tool that return at once. The agent starts with a history of 10 or of
// 10,000 messages, and each turn adds 2 more (the reply and its tool
// result), so over the run the history grows far beyond either: the cost
// per turn must stay the same anyway. The one cost that does depend on the
// history's length is per run, not per turn: a run's first append copies the
// history, as Pi's runAgentLoop copies it ([...context.messages]). Over b.N
// turns it is too small to show.
//
//	go test ./labs/06-steering -run '^$' -bench Turn -benchmem
func BenchmarkTurn(b *testing.B) {
	for _, size := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("start=%d", size), func(b *testing.B) {
			history := make([]fakemodel.Message, size)
			for i := range history {
				history[i] = fakemodel.UserMessage{Text: "earlier"}
			}
			turns := 0
			a := NewAgent(AgentOptions{
				Config: Config{
					Model: again{},
					Tools: []Tool{fakeTool(nil, "now", behaviour{Result: "ok"}, nil, false)},
					// A counter, not maxTurns: maxTurns reads the run's
					// messages, and this run grows to b.N turns.
					ShouldStopAfterTurn: func(context.Context, TurnContext) bool {
						turns++
						return turns >= b.N
					},
				},
				History: history,
			})
			b.ReportAllocs()
			b.ResetTimer()
			if err := a.Prompt(context.Background(), "go", func(Event) {}); err != nil {
				b.Fatal(err)
			}
		})
	}
}
