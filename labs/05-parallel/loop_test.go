package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forecast is part 1's configuration.
func forecast() Config {
	return Config{Model: fakemodel.Forecaster(), Tools: []Tool{weatherTool(nil)}}
}

// call builds a tool call.
func call(id, name, args string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// oneBatch is a model that asks for calls in one reply, then answers.
func oneBatch(calls ...fakemodel.ToolCall) fakemodel.Model {
	return fakemodel.Scripted(
		fakemodel.AssistantMessage{Text: "Working.", ToolCalls: calls},
		fakemodel.AssistantMessage{Text: "Done."},
	)
}

func TestParallelEndsInCompletionOrderAndResultsInCallOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var evs []Event
		var firstStart time.Time
		var batch time.Duration
		for ev := range runLoop(context.Background(), forecast(), fakemodel.ForecasterPrompt) {
			switch ev.(type) {
			case ToolExecutionStart:
				if firstStart.IsZero() {
					firstStart = time.Now()
				}
			case ToolExecutionEnd:
				batch = time.Since(firstStart)
			}
			evs = append(evs, ev)
		}

		want := []string{
			"agent_start", "turn_start", "message_start user", "message_end user",
			"message_start assistant", "message_end assistant",
			"tool_execution_start call_1 weather",
			"tool_execution_start call_2 weather",
			"tool_execution_start call_3 weather",
			"tool_execution_update call_3",
			// Completion order: Lima (200 ms), Oslo (300 ms), Cairo (400 ms).
			"tool_execution_end call_2",
			"tool_execution_end call_1",
			"tool_execution_end call_3",
			// The model's order, after the whole batch.
			"message_start toolResult call_1", "message_end toolResult call_1",
			"message_start toolResult call_2", "message_end toolResult call_2",
			"message_start toolResult call_3", "message_end toolResult call_3",
			"turn_end results=3",
			"turn_start", "message_start assistant", "message_end assistant", "turn_end results=0",
			"agent_end messages=6",
		}
		assert.Empty(t, cmp.Diff(want, without(trace(evs), "message_update assistant")), "events (-want +got)")
		assert.Equal(t, 400*time.Millisecond, batch, "a parallel batch takes as long as its slowest call")

		sum := summarize(evs)
		assert.Equal(t, 2, sum.turns)
		assert.Equal(t, Completed, sum.stopReason())
		answer, _ := sum.answer()
		assert.Equal(t, "Here is what I found: Oslo 4 °C, light rain; Lima 19 °C, overcast; Cairo 31 °C, sunny.", answer,
			"the model reads the results in the order of its calls")
	})
}

func TestSequentialRunsOneCallAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := forecast()
		cfg.Sequential = true
		start := time.Now()
		evs := events(context.Background(), cfg, fakemodel.ForecasterPrompt)
		elapsed := time.Since(start)

		var batch []string
		for _, line := range trace(evs) {
			if strings.HasPrefix(line, "tool_execution") || strings.HasPrefix(line, "message_start toolResult") || strings.HasPrefix(line, "message_end toolResult") {
				batch = append(batch, line)
			}
		}
		want := []string{
			"tool_execution_start call_1 weather", "tool_execution_end call_1", "message_start toolResult call_1", "message_end toolResult call_1",
			"tool_execution_start call_2 weather", "tool_execution_end call_2", "message_start toolResult call_2", "message_end toolResult call_2",
			"tool_execution_start call_3 weather", "tool_execution_update call_3", "tool_execution_end call_3", "message_start toolResult call_3", "message_end toolResult call_3",
		}
		assert.Empty(t, cmp.Diff(want, batch), "events (-want +got)")
		assert.Equal(t, 900*time.Millisecond, elapsed, "a sequential batch takes the sum of its calls")
	})
}

func TestASequentialToolSerialisesItsWholeBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := Config{
			Model: oneBatch(
				call("a", "weather", `{"city":"Oslo"}`),
				call("b", "write", `{"path":"x","text":"y"}`),
				call("c", "weather", `{"city":"Lima"}`),
			),
			Tools: append([]Tool{weatherTool(nil)}, noteTools()...),
		}
		start := time.Now()
		evs := events(context.Background(), cfg, "go")
		assert.Equal(t, 500*time.Millisecond, time.Since(start), "300 ms + 0 + 200 ms, one after the other")

		var starts, ends []int
		for i, line := range trace(evs) {
			if strings.HasPrefix(line, "tool_execution_start") {
				starts = append(starts, i)
			}
			if strings.HasPrefix(line, "tool_execution_end") {
				ends = append(ends, i)
			}
		}
		require.Len(t, starts, 3)
		require.Len(t, ends, 3)
		for i := range 2 {
			assert.Less(t, ends[i], starts[i+1], "call %d ends before the next one starts", i+1)
		}
	})
}

// logger is a log that the consumer and the tools' goroutines both write to.
type logger struct {
	mu    sync.Mutex
	lines []string
}

func (l *logger) add(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, a...))
}

func (l *logger) index(line string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Index(l.lines, line)
}

// probe is a weather tool that logs when it starts to run.
func probe(log *logger) Tool {
	return newTool(services.WeatherSpec, services.CheckWeather, func(ctx context.Context, id string, args services.WeatherArgs, report func(string)) (string, error) {
		log.add("run %s", args.City)
		return services.NewWeather(nil).LookUp(ctx, id, args, report)
	})
}

func TestImmediateResultsEndBeforePreparedCallsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &logger{}
		cfg := Config{
			Model: oneBatch(
				call("call_1", "weather", `{"city":"Oslo"}`),
				call("call_2", "search", `{"query":"x"}`),
				call("call_3", "weather", `{"city":""}`),
				call("call_4", "rm", `{"path":"x"}`),
				call("call_5", "weather", `{"city":"Lima"}`),
			),
			Tools:          append([]Tool{probe(log)}, noteTools()...),
			BeforeToolCall: requireApproval,
		}
		for ev := range runLoop(context.Background(), cfg, "go") {
			if line := traceLine(ev); strings.HasPrefix(line, "tool_execution") {
				log.add("%s", line)
			}
		}
		want := []string{
			"tool_execution_start call_1 weather",
			"tool_execution_start call_2 search",
			"tool_execution_end call_2 error: Tool search not found",
			"tool_execution_start call_3 weather",
			`tool_execution_end call_3 error: Validation failed for tool "weather": field "city" must not be empty. Received arguments: {"city":""}`,
			"tool_execution_start call_4 rm",
			"tool_execution_end call_4 error: rm needs the user's approval",
			"tool_execution_start call_5 weather",
		}
		require.GreaterOrEqual(t, len(log.lines), len(want)+4)
		assert.Equal(t, want, log.lines[:len(want)], "preparation runs in the model's order, and its failures end at once")
		assert.ElementsMatch(t, []string{"run Oslo", "run Lima"}, log.lines[len(want):len(want)+2],
			"the prepared calls run only after the whole batch is prepared")
		assert.Equal(t, []string{"tool_execution_end call_5", "tool_execution_end call_1"}, log.lines[len(want)+2:])
	})
}

func TestHooksRunAtTheirPoints(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &logger{}
		cfg := forecast()
		cfg.BeforeToolCall = func(ctx context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
			args, ok := c.Args.(services.WeatherArgs)
			require.True(t, ok, "BeforeToolCall sees the decoded arguments")
			log.add("before %s %s", c.ToolCall.ID, args.City)
			return BeforeToolCallResult{}, nil
		}
		cfg.AfterToolCall = func(ctx context.Context, c AfterToolCallContext) (AfterToolCallResult, error) {
			log.add("after %s %s", c.ToolCall.ID, c.Result)
			return AfterToolCallResult{}, nil
		}
		for ev := range runLoop(context.Background(), cfg, fakemodel.ForecasterPrompt) {
			log.add("%s", traceLine(ev))
		}
		for i, id := range []string{"call_1", "call_2", "call_3"} {
			start := log.index(fmt.Sprintf("tool_execution_start %s weather", id))
			before := log.index(fmt.Sprintf("before %s %s", id, fakemodel.ForecasterCities[i]))
			after := slices.IndexFunc(log.lines, func(l string) bool { return strings.HasPrefix(l, "after "+id+" ") })
			end := log.index("tool_execution_end " + id)
			require.True(t, start >= 0 && before >= 0 && after >= 0 && end >= 0, "%s: %v", id, log.lines)
			assert.Equal(t, start+1, before, "BeforeToolCall runs right after %s starts, during preparation", id)
			assert.Equal(t, end-1, after, "AfterToolCall runs right before %s ends", id)
		}
		assert.Less(t, log.index("before call_3 Cairo"), log.index("after call_2 Lima 19 °C, overcast"),
			"every BeforeToolCall runs before any call executes")
	})
}

func TestHooksChangeResults(t *testing.T) {
	hookErr := errors.New("audit log unavailable")
	yes, changed := true, "changed by the hook"
	tests := []struct {
		name    string
		before  func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error)
		after   func(context.Context, AfterToolCallContext) (AfterToolCallResult, error)
		result  string
		isError bool
	}{
		{name: "no hooks", result: "Oslo 4 °C, light rain"},
		{
			name: "block with a reason",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{Block: true, Reason: "not now"}, nil
			},
			result: "not now", isError: true,
		},
		{
			name: "block without a reason",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{Block: true}, nil
			},
			result: "Tool execution was blocked", isError: true,
		},
		{
			name: "BeforeToolCall fails",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{}, hookErr
			},
			result: "audit log unavailable", isError: true,
		},
		{
			name: "AfterToolCall replaces the content",
			after: func(context.Context, AfterToolCallContext) (AfterToolCallResult, error) {
				return AfterToolCallResult{Content: &changed}, nil
			},
			result: "changed by the hook",
		},
		{
			name: "AfterToolCall marks an error",
			after: func(context.Context, AfterToolCallContext) (AfterToolCallResult, error) {
				return AfterToolCallResult{IsError: &yes}, nil
			},
			result: "Oslo 4 °C, light rain", isError: true,
		},
		{
			name: "AfterToolCall fails",
			after: func(context.Context, AfterToolCallContext) (AfterToolCallResult, error) {
				return AfterToolCallResult{}, hookErr
			},
			result: "audit log unavailable", isError: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := Config{
					Model:          oneBatch(call("a", "weather", `{"city":"Oslo"}`)),
					Tools:          []Tool{weatherTool(nil)},
					BeforeToolCall: tt.before,
					AfterToolCall:  tt.after,
				}
				evs := events(context.Background(), cfg, "go")
				var end ToolExecutionEnd
				var turnEnd TurnEnd
				for _, ev := range evs {
					switch ev := ev.(type) {
					case ToolExecutionEnd:
						end = ev
					case TurnEnd:
						if len(ev.ToolResults) > 0 {
							turnEnd = ev
						}
					}
				}
				assert.Equal(t, ToolExecutionEnd{ToolCallID: "a", ToolName: "weather", Result: tt.result, IsError: tt.isError}, end)
				require.Len(t, turnEnd.ToolResults, 1)
				assert.Equal(t, fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "weather", Content: tt.result, IsError: tt.isError}, turnEnd.ToolResults[0])
				assert.Equal(t, Completed, summarize(evs).stopReason(), "the loop goes on")
			})
		})
	}
}

func TestProgressBecomesUpdateEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var updates []ToolExecutionUpdate
		for ev := range runLoop(context.Background(), forecast(), fakemodel.ForecasterPrompt) {
			if u, ok := ev.(ToolExecutionUpdate); ok {
				assert.Equal(t, services.ProgressAfter, time.Since(start), "the update arrives when the tool reports it")
				updates = append(updates, u)
			}
		}
		want := []ToolExecutionUpdate{{
			ToolCallID: "call_3", ToolName: "weather", Args: json.RawMessage(`{"city":"Cairo"}`),
			PartialResult: "the Cairo station is slow, still waiting",
		}}
		assert.Equal(t, want, updates)
	})
}

func TestAPanickingToolBecomesAnErrorResult(t *testing.T) {
	boom := newTool(fakemodel.ToolSpec{Name: "boom"}, nil, func(context.Context, string, struct{}, func(string)) (string, error) {
		panic("boom")
	})
	cfg := Config{Model: oneBatch(call("a", "boom", `{}`), call("b", "weather", `{"city":"Oslo"}`)), Tools: []Tool{boom, weatherTool(nil)}}
	synctest.Test(t, func(t *testing.T) {
		evs := events(context.Background(), cfg, "go")
		assert.Contains(t, trace(evs), `tool_execution_end a error: Tool "boom" panicked: boom`)
		assert.Contains(t, trace(evs), "tool_execution_end b", "the other call of the batch is not affected")
		assert.Equal(t, Completed, summarize(evs).stopReason())
	})
}

func TestToolErrorsAreResultsAndTheLoopGoesOn(t *testing.T) {
	flaky := newTool(services.WeatherSpec, services.CheckWeather, func(ctx context.Context, id string, args services.WeatherArgs, report func(string)) (string, error) {
		if args.City == "Lima" {
			return "", errors.New("station offline")
		}
		return services.NewWeather(nil).LookUp(ctx, id, args, report)
	})
	synctest.Test(t, func(t *testing.T) {
		evs := events(context.Background(), Config{Model: fakemodel.Forecaster(), Tools: []Tool{flaky}}, fakemodel.ForecasterPrompt)
		assert.Contains(t, trace(evs), "message_start toolResult call_2 error")
		sum := summarize(evs)
		assert.Equal(t, Completed, sum.stopReason())
		answer, _ := sum.answer()
		assert.Contains(t, answer, "call_2 failed (station offline)")
	})
}

func TestStreamingSendsOneUpdatePerChunk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var updates []MessageUpdate
		var final fakemodel.AssistantMessage
		for ev := range runLoop(context.Background(), Config{Model: fakemodel.Scripted(fakemodel.AssistantMessage{Text: "one two three"})}, "go") {
			switch ev := ev.(type) {
			case MessageUpdate:
				updates = append(updates, ev)
			case MessageEnd:
				if a, ok := ev.Message.(fakemodel.AssistantMessage); ok {
					final = a
				}
			}
		}
		require.Len(t, updates, 3)
		assert.Equal(t, []string{"one ", "two ", "three"}, []string{updates[0].Delta, updates[1].Delta, updates[2].Delta})
		assert.Equal(t, "one two ", updates[1].Message.Text, "an update carries the reply so far")
		assert.Equal(t, "one two three", final.Text)
	})
}

// TestStreamingCostsWorkInProportionToTheReply streams a reply of 20,000
// words and counts the bytes the run allocates: a few hundred per word, for
// its event and its share of the growing text. A loop that copied the whole
// text so far for each chunk would allocate about 60 KB per word here, and
// a reply of 200,000 words would take it many seconds.
func TestStreamingCostsWorkInProportionToTheReply(t *testing.T) {
	const words = 20_000
	reply := fakemodel.AssistantMessage{Text: strings.Repeat("word ", words)}
	cfg := Config{Model: fakemodel.Scripted(reply)}
	updates := 0
	allocated := bytesAllocated(func() {
		for ev := range runLoop(context.Background(), cfg, "go") {
			if _, ok := ev.(MessageUpdate); ok {
				updates++
			}
		}
	})
	require.Equal(t, words, updates)
	t.Logf("%d bytes per streamed word", allocated/words)
	assert.Less(t, allocated/words, uint64(1024), "bytes allocated per streamed word")
}

// bytesAllocated returns how many bytes f allocates.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestAFailedModelRequestEndsTheRun(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"})
	evs := events(context.Background(), Config{Model: model}, "go")
	want := []string{
		"agent_start", "turn_start", "message_start user", "message_end user",
		"message_start assistant", "message_end assistant", "turn_end results=0", "agent_end messages=2",
	}
	assert.Equal(t, want, trace(evs))
	assert.Equal(t, ModelError, summarize(evs).stopReason())
}

func TestTheTurnLimitStillHolds(t *testing.T) {
	again := fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{call("x", "weather", `{"city":"Nowhere"}`)}}
	cfg := Config{Model: fakemodel.Scripted(again, again, again, again), Tools: []Tool{weatherTool(nil)}, MaxTurns: 2}
	evs := events(context.Background(), cfg, "go")
	sum := summarize(evs)
	assert.Equal(t, 2, sum.turns)
	assert.Equal(t, MaxTurns, sum.stopReason())
	assert.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant", "toolResult"}, roles(sum.added))
}

func TestCancellationAbortsTheRun(t *testing.T) {
	tests := []struct {
		name     string
		cancelAt string // the trace line at which the user presses Ctrl-C
		results  []string
		took     time.Duration
		// ends are the tool_execution_end trace lines in their order, if
		// that order is fixed.
		ends []string
	}{
		{
			// Oslo and Lima are prepared, but the batch never starts: no
			// call runs once the run is cancelled, as in Pi 0.85.0 (0.83.0
			// would start them). Their ends come after call_3's, which
			// ended during preparation.
			name:     "during preparation",
			cancelAt: "tool_execution_start call_3 weather",
			results:  []string{"Operation aborted", "Operation aborted", "Operation aborted"},
			took:     0,
			ends: []string{
				"tool_execution_end call_3 error: Operation aborted",
				"tool_execution_end call_1 error: Operation aborted",
				"tool_execution_end call_2 error: Operation aborted",
			},
		},
		{
			name:     "during execution",
			cancelAt: "tool_execution_update call_3",
			results:  []string{"weather in Oslo: context canceled", "weather in Lima: context canceled", "weather in Cairo: context canceled"},
			took:     services.ProgressAfter,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				start := time.Now()
				var evs []Event
				var results []string
				for ev := range runLoop(ctx, forecast(), fakemodel.ForecasterPrompt) {
					evs = append(evs, ev)
					if traceLine(ev) == tt.cancelAt {
						cancel()
					}
					if end, ok := ev.(TurnEnd); ok {
						for _, r := range end.ToolResults {
							assert.True(t, r.IsError)
							results = append(results, r.Content)
						}
					}
				}
				assert.Equal(t, tt.took, time.Since(start), "the tools stop as soon as the context is cancelled")
				assert.Equal(t, tt.results, results)
				if tt.ends != nil {
					var ends []string
					for _, line := range trace(evs) {
						if strings.HasPrefix(line, "tool_execution_end ") {
							ends = append(ends, line)
						}
					}
					assert.Equal(t, tt.ends, ends)
				}
				sum := summarize(evs)
				assert.Equal(t, Aborted, sum.stopReason())
				assert.Equal(t, 2, sum.turns, "the request of turn 2 sees the cancelled context")
				assert.Equal(t, "agent_end messages=6", traceLine(evs[len(evs)-1]))
			})
		})
	}
}

// TestACancelInTheLastTurnEndsByTheLimit is the exception the README names:
// when the cancelled turn is the last one the limit allows, no request is
// made that could see the cancel, so the run ends by the limit.
func TestACancelInTheLastTurnEndsByTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := forecast()
		cfg.MaxTurns = 1
		var evs []Event
		for ev := range runLoop(ctx, cfg, fakemodel.ForecasterPrompt) {
			evs = append(evs, ev)
			if traceLine(ev) == "tool_execution_update call_3" {
				cancel()
			}
		}
		sum := summarize(evs)
		assert.Equal(t, MaxTurns, sum.stopReason())
		assert.Equal(t, 1, sum.turns)
	})
}

// TestAConsumerThatStopsEndsTheRun stops ranging after each event of a full
// run in turn. The loop must not yield again: the range statement would
// panic. TestNoGoroutineOutlivesARun checks that no tool goroutine is left.
func TestAConsumerThatStopsEndsTheRun(t *testing.T) {
	var total int
	synctest.Test(t, func(t *testing.T) {
		total = len(events(context.Background(), forecast(), fakemodel.ForecasterPrompt))
	})
	for stopAfter := 1; stopAfter <= total; stopAfter++ {
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			var got []string
			for ev := range runLoop(context.Background(), forecast(), fakemodel.ForecasterPrompt) {
				got = append(got, traceLine(ev))
				if len(got) == stopAfter {
					break
				}
			}
			require.Len(t, got, stopAfter)
			assert.LessOrEqual(t, time.Since(start), 400*time.Millisecond, "stopping cancels the tools still running")
			if got[stopAfter-1] == "tool_execution_update call_3" {
				assert.Equal(t, services.ProgressAfter, time.Since(start), "stopped at 100 ms, the run ends at once")
			}
		})
	}
}

// TestAReportAfterTheCallReturnedIsDropped has a tool leave a goroutine
// behind that reports after the tool returned. Like Pi, the loop drops the
// note: no update may follow the call's end, and the goroutine must not wait
// for a loop that has moved on (synctest.Test would fail on it).
func TestAReportAfterTheCallReturnedIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var late sync.WaitGroup
		careless := newTool(fakemodel.ToolSpec{Name: "careless"}, nil, func(_ context.Context, _ string, _ struct{}, report func(string)) (string, error) {
			report("on time")
			late.Go(func() {
				time.Sleep(50 * time.Millisecond)
				report("too late")
			})
			return "done", nil
		})
		cfg := Config{Model: oneBatch(call("a", "careless", `{}`)), Tools: []Tool{careless}}
		lines := trace(events(context.Background(), cfg, "go"))
		late.Wait()
		assert.Equal(t, []string{"tool_execution_start a careless", "tool_execution_update a", "tool_execution_end a"},
			slices.DeleteFunc(lines, func(l string) bool { return !strings.HasPrefix(l, "tool_execution_") }))
	})
}

// TestACancelledRunWinsOverABlock follows Pi's prepareToolCall: when the run
// is cancelled while BeforeToolCall decides, the call's result says so,
// whatever the hook said.
func TestACancelledRunWinsOverABlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := forecast()
		cfg.Model = oneBatch(call("a", "weather", `{"city":"Oslo"}`))
		cfg.BeforeToolCall = func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
			cancel()
			return BeforeToolCallResult{Block: true, Reason: "not today"}, nil
		}
		var ends []ToolExecutionEnd
		for ev := range runLoop(ctx, cfg, "go") {
			if end, ok := ev.(ToolExecutionEnd); ok {
				ends = append(ends, end)
			}
		}
		assert.Equal(t, []ToolExecutionEnd{{ToolCallID: "a", ToolName: "weather", Result: "Operation aborted", IsError: true}}, ends)
	})
}

// TestNoGoroutineOutlivesARun looks, once the range statement is over and
// every goroutine of the bubble has exited or is stuck, for a goroutine that
// the loop started to run a tool. A tool goroutine left behind, still
// waiting for its timer or to hand over its end, would be one.
func TestNoGoroutineOutlivesARun(t *testing.T) {
	tests := []struct {
		name string
		// stopAt is the trace line after which the consumer stops
		// ranging, or cancels the run if cancel is set.
		stopAt string
		cancel bool
	}{
		{name: "a run that ends"},
		{name: "a consumer that stops while the tools run", stopAt: "tool_execution_update call_3"},
		{name: "a cancelled run", stopAt: "tool_execution_update call_3", cancel: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				for ev := range runLoop(ctx, forecast(), fakemodel.ForecasterPrompt) {
					line := traceLine(ev)
					if line == "tool_execution_update call_3" {
						// Proof that toolGoroutines finds them.
						assert.NotEmpty(t, toolGoroutines(), "the tools run while they report progress")
					}
					if line != tt.stopAt {
						continue
					}
					if !tt.cancel {
						break
					}
					cancel()
				}
				synctest.Wait()
				assert.Empty(t, toolGoroutines())
			})
		})
	}
}

// toolGoroutines returns the stacks of the goroutines that run tools: those
// running the function that execute starts for each call. (Their "created
// by" line names sync.(*WaitGroup).Go, not execute.)
func toolGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	frame := "\n" + reflect.TypeFor[runState]().PkgPath() + ".(*runState).execute.func"
	var found []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, frame) {
			found = append(found, g)
		}
	}
	return found
}

func TestACutOffReplyWithToolCallsEndsByTheTurnLimit(t *testing.T) {
	cut := fakemodel.AssistantMessage{Text: "Checking", ToolCalls: []fakemodel.ToolCall{call("x", "weather", `{"city":"Nowhere"}`)}, StopReason: fakemodel.StopReasonLength}
	cfg := Config{Model: fakemodel.Scripted(cut), Tools: []Tool{weatherTool(nil)}, MaxTurns: 1}
	sum := summarize(events(context.Background(), cfg, "go"))
	assert.Equal(t, MaxTurns, sum.stopReason(), "the model still wanted a tool")
	_, answered := sum.answer()
	assert.False(t, answered, "a cut-off reply is no answer")
}
