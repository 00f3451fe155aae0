package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// napSpec describes a tool that sleeps and returns "ok".
var napSpec = fakemodel.ToolSpec{Name: "nap", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}

// BenchmarkBatch runs one batch of n calls that each sleep 10 ms, in real
// time, and reports how long the batch took, from its first
// tool_execution_start to its last tool_execution_end, as a multiple of one
// call: about 1 for a parallel batch, whatever n is, plus the loop's own
// overhead.
//
//	go test ./labs/05-parallel -run '^$' -bench Batch
func BenchmarkBatch(b *testing.B) {
	const slowest = 10 * time.Millisecond
	var machine *democlock.Clock // nil: the machine's clock
	nap := newTool(napSpec, nil, func(ctx context.Context, id string, _ struct{}, _ func(string)) (string, error) {
		return "ok", machine.Sleep(ctx, id, slowest)
	})
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			calls := make([]fakemodel.ToolCall, n)
			for i := range calls {
				calls[i] = fakemodel.ToolCall{ID: fmt.Sprintf("call_%d", i+1), Name: "nap", Arguments: json.RawMessage(`{}`)}
			}
			cfg := Config{
				Model: fakemodel.Scripted(fakemodel.AssistantMessage{ToolCalls: calls}, fakemodel.AssistantMessage{Text: "Done."}),
				Tools: []Tool{nap},
			}
			var batches time.Duration
			for b.Loop() {
				var first, last time.Time
				for ev := range runLoop(context.Background(), cfg, "go") {
					switch ev.(type) {
					case ToolExecutionStart:
						if first.IsZero() {
							first = time.Now()
						}
					case ToolExecutionEnd:
						last = time.Now()
					}
				}
				batches += last.Sub(first)
			}
			b.ReportMetric(float64(batches)/float64(b.N)/float64(slowest), "×slowest")
		})
	}
}

// again is a model that answers every request at once with one call to
// "now", the same call each time, so that a run lasts as many turns as the
// turn limit allows. Unlike the fake models, it reads nothing of the
// history, so its cost does not grow with it.
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

// BenchmarkTurn measures the loop's own cost per turn: one run of b.N turns,
// with a model and a tool that return at once. Each turn streams one chunk,
// runs one tool call on its own goroutine and yields 9 events.
//
//	go test ./labs/05-parallel -run '^$' -bench Turn -benchmem
func BenchmarkTurn(b *testing.B) {
	now := newTool(fakemodel.ToolSpec{Name: "now"}, nil, func(context.Context, string, struct{}, func(string)) (string, error) {
		return "ok", nil
	})
	cfg := Config{Model: again{}, Tools: []Tool{now}, MaxTurns: b.N}
	b.ReportAllocs()
	b.ResetTimer()
	for range runLoop(context.Background(), cfg, "go") {
	}
}
