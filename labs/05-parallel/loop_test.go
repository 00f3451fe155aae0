package main

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
)

// The tests of the parallel batch, then those of the sequential path, come
// first, one rule each, in the order of the README's "Build it yourself";
// go test runs them in this order, so a test that crashes stops only the
// rules after its own. Each runs in a bubble (inBubble) and guards its model
// (guard): a run that never ends, or whose goroutines all wait for one
// another, fails its test with a sentence that names the likely cause.

// forecast is part 1's configuration, its model guarded for t.
func forecast(t *testing.T) Config {
	return Config{
		Model: guard(t, fakemodel.Forecaster(), "do the batch's results reach the history? The forecaster asks for its lookups again until it reads their results."),
		Tools: []Tool{weatherTool(nil)},
	}
}

// call builds a tool call.
func call(id, name, args string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// failingPreparation returns a batch in which three of five calls fail
// preparation, each in its own way: a tool that does not exist (call_2),
// arguments the schema refuses (call_3), and a call requireApproval blocks
// (call_4). Only call_1 and call_5 run.
func failingPreparation() []fakemodel.ToolCall {
	return []fakemodel.ToolCall{
		call("call_1", "weather", `{"city":"Oslo"}`),
		call("call_2", "search", `{"query":"x"}`),
		call("call_3", "weather", `{"city":""}`),
		call("call_4", "rm", `{"path":"x"}`),
		call("call_5", "weather", `{"city":"Lima"}`),
	}
}

// oneBatch is a model that asks for calls in one reply, then answers,
// guarded for t.
func oneBatch(t *testing.T, calls ...fakemodel.ToolCall) fakemodel.Model {
	model := fakemodel.Scripted(
		fakemodel.AssistantMessage{Text: "Working.", ToolCalls: calls},
		fakemodel.AssistantMessage{Text: "Done."},
	)
	return guard(t, model, "does the run end when a request fails? The script holds two replies, and every request after them fails.")
}

func TestAParallelBatchTakesAsLongAsItsSlowestCall(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		start := time.Now()
		ran := &logger{}
		timed := newTool(services.WeatherSpec, services.CheckWeather, func(ctx context.Context, id string, args services.WeatherArgs, report func(string)) (string, error) {
			ran.add("%s runs from %s", id, time.Since(start))
			return services.NewWeather(nil).LookUp(ctx, id, args, report)
		})
		cfg := forecast(t)
		cfg.Tools = []Tool{timed}
		var firstStart time.Time
		var batch time.Duration
		for ev := range runLoop(context.Background(), cfg, fakemodel.ForecasterPrompt) {
			switch ev.(type) {
			case ToolExecutionStart:
				if firstStart.IsZero() {
					firstStart = time.Now()
				}
			case ToolExecutionEnd:
				batch = time.Since(firstStart)
			}
		}

		runs := ran.sorted()
		if !expected.NotEmpty(t, runs, "the lookups run: executeParallel hands the prepared calls to execute, which runs each one (executePreparedToolCall)") {
			return
		}
		// Two mistakes run this batch one call at a time: calls run one
		// after another in executeParallel, or executeToolCalls takes the
		// sequential path, which neither the config nor the tool asks for.
		const sequentialPath = "or does executeToolCalls take the sequential path for this batch? Neither the config nor the weather tool is Sequential"
		expected.Equal(t, []string{"call_1 runs from 0s", "call_2 runs from 0s", "call_3 runs from 0s"}, runs,
			"the prepared calls run at once, each on its own goroutine: every lookup starts as the batch starts (%s)", sequentialPath)
		expected.Equal(t, 400*time.Millisecond, batch,
			"a parallel batch takes as long as its slowest call, Cairo's 0.4 s, not the 0.9 s of its calls one after another (%s)", sequentialPath)
	})
}

func TestEachEndComesAsItsCallFinishes(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		start := time.Now()
		var ends []string
		for ev := range runLoop(context.Background(), forecast(t), fakemodel.ForecasterPrompt) {
			if _, ok := ev.(ToolExecutionEnd); ok {
				ends = append(ends, fmt.Sprintf("%s at %s", traceLine(ev), time.Since(start)))
			}
		}
		want := []string{
			// Completion order: Lima (200 ms), Oslo (300 ms), Cairo (400 ms).
			"tool_execution_end call_2 at 200ms",
			"tool_execution_end call_1 at 300ms",
			"tool_execution_end call_3 at 400ms",
		}
		expected.EqualLines(t, want, ends,
			"each call's tool_execution_end comes as the call finishes, in completion order, not when the batch ends")
	})
}

func TestEveryEventComesFromTheRunsGoroutine(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		mine := current().id()
		var elsewhere []string
		for ev := range runLoop(context.Background(), forecast(t), fakemodel.ForecasterPrompt) {
			if current().id() != mine {
				elsewhere = append(elsewhere, traceLine(ev))
			}
		}
		expected.Empty(t, elsewhere, "every event reaches the consumer on the goroutine that ranges over the run: "+
			"a tool's goroutine hands its events to the loop over a channel, and never calls r.emit, "+
			"which would run the consumer's code on the tool's goroutine: the events that came from another goroutine")
	})
}

func TestResultsComeInTheModelsOrder(t *testing.T) {
	t.Run("part 1's lookups", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			evs := events(context.Background(), forecast(t), fakemodel.ForecasterPrompt)
			want := []string{
				"agent_start", "turn_start", "message_start user", "message_end user",
				"message_start assistant", "message_end assistant",
				"tool_execution_start call_1 weather",
				"tool_execution_start call_2 weather",
				"tool_execution_start call_3 weather",
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
			// TestProgressBecomesUpdateEvents checks where the update comes.
			got := without(without(trace(evs), "message_update assistant"), "tool_execution_update call_3")
			expected.EqualLines(t, want, got,
				"after the whole batch, each result's message_start and message_end, in the model's order")

			sum := summarize(evs)
			expected.Equal(t, 2, sum.turns, "2 turns: one asks for the lookups, one answers")
			expected.Equal(t, Completed, sum.stopReason(), "the run ends with the model's answer")
			answer := "Here is what I found: Oslo 4 °C, light rain; Lima 19 °C, overcast; Cairo 31 °C, sunny."
			expected.AssertHistory(t, []fakemodel.Message{
				fakemodel.UserMessage{Text: fakemodel.ForecasterPrompt},
				fakemodel.AssistantMessage{
					Text: "I will look up all three at once.",
					ToolCalls: []fakemodel.ToolCall{
						call("call_1", "weather", `{"city":"Oslo"}`),
						call("call_2", "weather", `{"city":"Lima"}`),
						call("call_3", "weather", `{"city":"Cairo"}`),
					},
					StopReason: fakemodel.StopReasonToolUse,
				},
				fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "weather", Content: "Oslo 4 °C, light rain"},
				fakemodel.ToolResultMessage{ToolCallID: "call_2", ToolName: "weather", Content: "Lima 19 °C, overcast"},
				fakemodel.ToolResultMessage{ToolCallID: "call_3", ToolName: "weather", Content: "Cairo 31 °C, sunny"},
				fakemodel.AssistantMessage{Text: answer, StopReason: fakemodel.StopReasonStop},
			}, sum.added, "the results enter the history in the model's order, and the model's answer reads them in that order")
		})
	})
	t.Run("a batch with calls that fail preparation", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			cfg := Config{
				Model:          oneBatch(t, failingPreparation()...),
				Tools:          append([]Tool{weatherTool(nil)}, noteTools()...),
				BeforeToolCall: requireApproval,
			}
			var results []fakemodel.Message
			for ev := range runLoop(context.Background(), cfg, "go") {
				if end, ok := ev.(TurnEnd); ok && len(end.ToolResults) > 0 {
					for _, r := range end.ToolResults {
						results = append(results, r)
					}
				}
			}
			expected.AssertHistory(t, []fakemodel.Message{
				fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "weather", Content: "Oslo 4 °C, light rain"},
				fakemodel.ToolResultMessage{ToolCallID: "call_2", ToolName: "search", Content: "Tool search not found", IsError: true},
				fakemodel.ToolResultMessage{ToolCallID: "call_3", ToolName: "weather", IsError: true,
					Content: `Validation failed for tool "weather": field "city" must not be empty. Received arguments: {"city":""}`},
				fakemodel.ToolResultMessage{ToolCallID: "call_4", ToolName: "rm", Content: "rm needs the user's approval", IsError: true},
				fakemodel.ToolResultMessage{ToolCallID: "call_5", ToolName: "weather", Content: "Lima 19 °C, overcast"},
			}, results, "turn_end's results: one per call, each in its call's slot, in the model's order")
		})
	})
}

func TestProgressBecomesUpdateEvents(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		start := time.Now()
		var updates []ToolExecutionUpdate
		var lines []string
		for ev := range runLoop(context.Background(), forecast(t), fakemodel.ForecasterPrompt) {
			if u, ok := ev.(ToolExecutionUpdate); ok {
				expected.Equal(t, services.ProgressAfter, time.Since(start), "the update arrives when the tool reports it")
				updates = append(updates, u)
			}
			if line := traceLine(ev); strings.HasPrefix(line, "tool_execution_") {
				lines = append(lines, line)
			}
		}
		want := []ToolExecutionUpdate{{
			ToolCallID: "call_3", ToolName: "weather", Args: json.RawMessage(`{"city":"Cairo"}`),
			PartialResult: "the Cairo station is slow, still waiting",
		}}
		expected.Equal(t, want, updates, "Cairo's progress note becomes one tool_execution_update")
		expected.EqualLines(t, []string{
			"tool_execution_start call_1 weather",
			"tool_execution_start call_2 weather",
			"tool_execution_start call_3 weather",
			"tool_execution_update call_3",
			"tool_execution_end call_2",
		}, lines[:min(5, len(lines))], "the update comes after the starts, before the first end")
	})
}

// TestAReportAfterTheCallReturnedIsDropped has a tool leave a goroutine
// behind that reports after the tool returned. Like Pi, the loop drops the
// note: no update may follow the call's end, and the goroutine must not wait
// for a loop that has moved on (the bubble would be stuck).
func TestAReportAfterTheCallReturnedIsDropped(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		var late sync.WaitGroup
		careless := newTool(fakemodel.ToolSpec{Name: "careless"}, nil, func(_ context.Context, _ string, _ struct{}, report func(string)) (string, error) {
			report("on time")
			late.Go(func() {
				time.Sleep(50 * time.Millisecond)
				report("too late")
			})
			return "done", nil
		})
		cfg := Config{Model: oneBatch(t, call("a", "careless", `{}`)), Tools: []Tool{careless}}
		lines := trace(events(context.Background(), cfg, "go"))
		late.Wait()
		expected.EqualLines(t, []string{"tool_execution_start a careless", "tool_execution_update a", "tool_execution_end a"},
			slices.DeleteFunc(lines, func(l string) bool { return !strings.HasPrefix(l, "tool_execution_") }),
			"the note reported on time becomes an update, the one reported after the call returned is dropped")
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

// sorted returns the lines in sorted order, for lines written by goroutines
// whose order is not fixed.
func (l *logger) sorted() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(slices.Values(l.lines))
}

func TestHooksRunAtTheirPoints(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		log := &logger{}
		cfg := forecast(t)
		cfg.BeforeToolCall = func(ctx context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
			args, ok := c.Args.(services.WeatherArgs)
			if !expected.True(t, ok, "BeforeToolCall sees the decoded arguments") {
				t.FailNow()
			}
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
			var missing []string
			for _, p := range []struct {
				name  string
				index int
			}{{"its start", start}, {"BeforeToolCall", before}, {"AfterToolCall", after}, {"its end", end}} {
				if p.index < 0 {
					missing = append(missing, p.name)
				}
			}
			if !expected.Empty(t, missing, "%s: its start, BeforeToolCall, AfterToolCall (r.finalizeExecutedToolCall) and its end each come once: what the run's log lacks", id) {
				return
			}
			expected.Equal(t, start+1, before, "BeforeToolCall runs right after %s starts, during preparation: its place in the run's log", id)
			expected.Equal(t, end-1, after, "AfterToolCall runs right before %s ends: its place in the run's log", id)
		}
		beforeCairo, afterLima := log.index("before call_3 Cairo"), log.index("after call_2 Lima 19 °C, overcast")
		expected.True(t, beforeCairo < afterLima,
			"every BeforeToolCall runs before any call executes: the last BeforeToolCall is line %d of the run's log, the first AfterToolCall line %d", beforeCairo+1, afterLima+1)
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
		// refused: BeforeToolCall stops the call before it runs.
		refused bool
	}{
		{name: "no hooks", result: "Oslo 4 °C, light rain"},
		{
			name: "block with a reason",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{Block: true, Reason: "not now"}, nil
			},
			result: "not now", isError: true, refused: true,
		},
		{
			name: "block without a reason",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{Block: true}, nil
			},
			result: "Tool execution was blocked", isError: true, refused: true,
		},
		{
			name: "BeforeToolCall fails",
			before: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
				return BeforeToolCallResult{}, hookErr
			},
			result: "audit log unavailable", isError: true, refused: true,
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
			inBubble(t, func(t *testing.T) {
				cfg := Config{
					Model:          oneBatch(t, call("a", "weather", `{"city":"Oslo"}`)),
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
				expected.Equal(t, ToolExecutionEnd{ToolCallID: "a", ToolName: "weather", Result: tt.result, IsError: tt.isError, Refused: tt.refused}, end,
					"the call's end carries the result the hooks decided")
				if !expected.Equal(t, 1, len(turnEnd.ToolResults), "turn_end carries the call's result") {
					return
				}
				expected.Equal(t, fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "weather", Content: tt.result, IsError: tt.isError}, turnEnd.ToolResults[0],
					"turn_end's result is the one the hooks decided")
				expected.Equal(t, Completed, summarize(evs).stopReason(), "the loop goes on")
			})
		})
	}
}

func TestAPanickingToolBecomesAnErrorResult(t *testing.T) {
	boom := newTool(fakemodel.ToolSpec{Name: "boom"}, nil, func(context.Context, string, struct{}, func(string)) (string, error) {
		panic("boom")
	})
	inBubble(t, func(t *testing.T) {
		cfg := Config{Model: oneBatch(t, call("a", "boom", `{}`), call("b", "weather", `{"city":"Oslo"}`)), Tools: []Tool{boom, weatherTool(nil)}}
		evs := events(context.Background(), cfg, "go")
		ends := slices.DeleteFunc(trace(evs), func(l string) bool { return !strings.HasPrefix(l, "tool_execution_end ") })
		expected.Includes(t, ends, `tool_execution_end a error: Tool "boom" panicked: boom`,
			"executePreparedToolCall turns the panic into an error result")
		expected.Includes(t, ends, "tool_execution_end b", "the other call of the batch is not affected")
		expected.Equal(t, Completed, summarize(evs).stopReason(), "the loop goes on")
	})
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
			inBubble(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				start := time.Now()
				var evs []Event
				var results, notErrors []string
				for ev := range runLoop(ctx, forecast(t), fakemodel.ForecasterPrompt) {
					evs = append(evs, ev)
					if traceLine(ev) == tt.cancelAt {
						cancel()
					}
					if end, ok := ev.(TurnEnd); ok {
						for _, r := range end.ToolResults {
							if !r.IsError {
								notErrors = append(notErrors, r.ToolCallID)
							}
							results = append(results, r.Content)
						}
					}
				}
				expected.Equal(t, tt.took, time.Since(start), "the tools stop as soon as the context is cancelled: they run with the run's context, r.ctx")
				expected.EqualLines(t, tt.results, results, "each cancelled call gets an error result")
				expected.Empty(t, notErrors, "these calls' results are not marked as errors")
				if tt.ends != nil {
					var ends []string
					for _, line := range trace(evs) {
						if strings.HasPrefix(line, "tool_execution_end ") {
							ends = append(ends, line)
						}
					}
					expected.EqualLines(t, tt.ends, ends, "the calls prepared before the cancel end after the call that ended during preparation")
				}
				sum := summarize(evs)
				expected.Equal(t, Aborted, sum.stopReason(), "a cancelled run ends with stop reason aborted")
				expected.Equal(t, 2, sum.turns, "the request of turn 2 sees the cancelled context")
				expected.Equal(t, "agent_end messages=6", traceLine(evs[len(evs)-1]), "the run ends with agent_end, after the cancelled calls' results and turn 2's failed reply")
			})
		})
	}
}

// TestNoGoroutineOutlivesARun looks, once the range statement is over and
// every goroutine of the bubble has exited or is stuck, for a goroutine that
// runs the lab's code. A tool goroutine left behind, still waiting for its
// timer or to hand over its end, would be one.
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
			inBubble(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				for ev := range runLoop(ctx, forecast(t), fakemodel.ForecasterPrompt) {
					line := traceLine(ev)
					if line == "tool_execution_update call_3" {
						// Proof that toolGoroutines finds them.
						expected.NotEmpty(t, toolGoroutines(), "the tools run while they report progress")
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
				expected.Empty(t, places(toolGoroutines()), "no tool goroutine outlives the run (does execute take every call's end, even after the consumer stopped, "+
					"and wait for its goroutines?): where the goroutines left behind wait")
			})
		})
	}
}

// TestAConsumerThatStopsEndsTheRun stops ranging after each event of a full
// run in turn. The loop must not yield again: the range statement would
// panic. TestNoGoroutineOutlivesARun checks that no tool goroutine is left.
func TestAConsumerThatStopsEndsTheRun(t *testing.T) {
	var total int
	inBubble(t, func(t *testing.T) {
		total = len(events(context.Background(), forecast(t), fakemodel.ForecasterPrompt))
	})
	for stopAfter := 1; stopAfter <= total; stopAfter++ {
		inBubble(t, func(t *testing.T) {
			start := time.Now()
			var got []string
			for ev := range runLoop(context.Background(), forecast(t), fakemodel.ForecasterPrompt) {
				got = append(got, traceLine(ev))
				if len(got) == stopAfter {
					break
				}
			}
			if !expected.Equal(t, stopAfter, len(got), "the consumer stops after event %d, and the run yields no event after it", stopAfter) {
				return
			}
			took := time.Since(start)
			expected.True(t, took <= 400*time.Millisecond, "stopping cancels the tools still running: stopped after event %d (%s), the run took %s, more than the 400ms of the whole batch", stopAfter, got[stopAfter-1], took)
			if got[stopAfter-1] == "tool_execution_update call_3" {
				expected.Equal(t, services.ProgressAfter, took, "stopped at 100 ms, the run ends at once")
			}
		})
	}
}

// TestAStopReachesTheLoop stops the consumer at each event of part 1's
// batch in turn, in the parallel path and in the sequential one, and asks
// executeToolCalls for the batch itself: whichever emit saw the stop, in
// r.execute or in r.emitAll, the batch returns its error, errStopped, so
// that the loop ends there. A dropped error lets the loop go on, for a
// consumer that has gone.
func TestAStopReachesTheLoop(t *testing.T) {
	for _, path := range []struct {
		name       string
		sequential bool
	}{{"parallel", false}, {"sequential", true}} {
		t.Run(path.name, func(t *testing.T) {
			// batch runs part 1's batch, with a consumer that stops at
			// event stopAt (never if 0), and returns the events it took.
			batch := func(stopAt int) (took []string, err error) {
				inBubble(t, func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					cfg := forecast(t)
					cfg.Sequential = path.sequential
					r := &runState{cfg: cfg, ctx: ctx, cancel: cancel, yield: func(ev Event) bool {
						took = append(took, traceLine(ev))
						return len(took) != stopAt
					}}
					msg := fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{
						call("call_1", "weather", `{"city":"Oslo"}`),
						call("call_2", "weather", `{"city":"Lima"}`),
						call("call_3", "weather", `{"city":"Cairo"}`),
					}}
					_, err = r.executeToolCalls(msg)
				})
				return took, err
			}
			all, err := batch(0)
			if !expected.NoError(t, err, "the batch, for a consumer that never stops, ends without an error") {
				return
			}
			for stopAt := 1; stopAt <= len(all); stopAt++ {
				took, err := batch(stopAt)
				if !expected.ErrorIs(t, err, errStopped, "the consumer stops at event %d of the batch, %s: the batch returns emit's error, errStopped, "+
					"so that the loop ends there. Is an error of r.execute or r.emitAll dropped?", stopAt, took[len(took)-1]) {
					return
				}
			}
		})
	}
}

func TestSequentialRunsOneCallAtATime(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cfg := forecast(t)
		cfg.Sequential = true
		start := time.Now()
		evs := events(context.Background(), cfg, fakemodel.ForecasterPrompt)
		elapsed := time.Since(start)
		if !expected.NotEmpty(t, batchLines(evs), "the calls start: executeSequential takes each call from its tool_execution_start to its result message") {
			return
		}

		want := []string{
			"tool_execution_start call_1 weather", "tool_execution_end call_1", "message_start toolResult call_1", "message_end toolResult call_1",
			"tool_execution_start call_2 weather", "tool_execution_end call_2", "message_start toolResult call_2", "message_end toolResult call_2",
			"tool_execution_start call_3 weather", "tool_execution_update call_3", "tool_execution_end call_3", "message_start toolResult call_3", "message_end toolResult call_3",
		}
		expected.EqualLines(t, want, batchLines(evs),
			"with Config.Sequential, each call's start, end and result message come before the next call starts")
		expected.Equal(t, 900*time.Millisecond, elapsed, "a sequential batch takes the sum of its calls")
	})
}

// batchLines returns the trace lines of the tool calls and their results.
func batchLines(evs []Event) []string {
	var batch []string
	for _, line := range trace(evs) {
		if strings.HasPrefix(line, "tool_execution") || strings.HasPrefix(line, "message_start toolResult") || strings.HasPrefix(line, "message_end toolResult") {
			batch = append(batch, line)
		}
	}
	return batch
}

func TestASequentialBatchEndsAFailedCallAtOnce(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cfg := Config{
			Model:      oneBatch(t, call("a", "search", `{"query":"x"}`), call("b", "weather", `{"city":"Oslo"}`)),
			Tools:      []Tool{weatherTool(nil)},
			Sequential: true,
		}
		want := []string{
			"tool_execution_start a search", "tool_execution_end a error: Tool search not found",
			"message_start toolResult a error", "message_end toolResult a error",
			"tool_execution_start b weather", "tool_execution_end b", "message_start toolResult b", "message_end toolResult b",
		}
		expected.EqualLines(t, want, batchLines(events(context.Background(), cfg, "go")),
			"a call that fails preparation ends at once, with its result message, before the next call starts")
	})
}

func TestASequentialToolSerialisesItsWholeBatch(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cfg := Config{
			Model: oneBatch(t,
				call("a", "weather", `{"city":"Oslo"}`),
				call("b", "write", `{"path":"x","text":"y"}`),
				call("c", "weather", `{"city":"Lima"}`),
			),
			Tools: append([]Tool{weatherTool(nil)}, noteTools()...),
		}
		start := time.Now()
		evs := events(context.Background(), cfg, "go")
		expected.Equal(t, 500*time.Millisecond, time.Since(start),
			"write is a Sequential tool, so its batch runs one call at a time: 300 ms + 0 + 200 ms, one after the other")

		want := []string{
			"tool_execution_start a weather", "tool_execution_end a", "message_start toolResult a", "message_end toolResult a",
			"tool_execution_start b write", "tool_execution_end b", "message_start toolResult b", "message_end toolResult b",
			"tool_execution_start c weather", "tool_execution_end c", "message_start toolResult c", "message_end toolResult c",
		}
		expected.EqualLines(t, want, batchLines(evs), "each call ends, with its result message, before the next one starts")
	})
}

func TestACancelStopsASequentialBatch(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := forecast(t)
		cfg.Sequential = true
		var evs []Event
		for ev := range runLoop(ctx, cfg, fakemodel.ForecasterPrompt) {
			evs = append(evs, ev)
			if traceLine(ev) == "tool_execution_end call_1" {
				cancel()
			}
		}
		expected.EqualLines(t, []string{
			"tool_execution_start call_1 weather", "tool_execution_end call_1", "message_start toolResult call_1", "message_end toolResult call_1",
		}, batchLines(evs), "once the run is cancelled, the batch starts no further call, as in Pi")
		expected.Equal(t, Aborted, summarize(evs).stopReason(), "the request after the batch sees the cancel")
	})
}

// probe is a weather tool that logs when it starts to run.
func probe(log *logger) Tool {
	return newTool(services.WeatherSpec, services.CheckWeather, func(ctx context.Context, id string, args services.WeatherArgs, report func(string)) (string, error) {
		log.add("run %s", args.City)
		return services.NewWeather(nil).LookUp(ctx, id, args, report)
	})
}

func TestImmediateResultsEndBeforePreparedCallsRun(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		log := &logger{}
		cfg := Config{
			Model:          oneBatch(t, failingPreparation()...),
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
		if !expected.EqualLines(t, want, log.lines[:min(len(want), len(log.lines))], "preparation runs in the model's order, and its failures end at once") {
			return
		}
		// The two prepared calls start at once, in either order.
		rest := slices.Clone(log.lines[len(want):])
		if len(rest) >= 2 && strings.HasPrefix(rest[0], "run ") && strings.HasPrefix(rest[1], "run ") {
			slices.Sort(rest[:2])
		}
		expected.EqualLines(t, []string{"run Lima", "run Oslo", "tool_execution_end call_5", "tool_execution_end call_1"}, rest,
			"the prepared calls run only after the whole batch is prepared, both at once, and end as they finish")
	})
}

func TestToolErrorsAreResultsAndTheLoopGoesOn(t *testing.T) {
	flaky := newTool(services.WeatherSpec, services.CheckWeather, func(ctx context.Context, id string, args services.WeatherArgs, report func(string)) (string, error) {
		if args.City == "Lima" {
			return "", errors.New("station offline")
		}
		return services.NewWeather(nil).LookUp(ctx, id, args, report)
	})
	inBubble(t, func(t *testing.T) {
		cfg := forecast(t)
		cfg.Tools = []Tool{flaky}
		evs := events(context.Background(), cfg, fakemodel.ForecasterPrompt)
		expected.Includes(t, trace(evs), "message_start toolResult call_2 error", "the failed call's result is marked as an error")
		sum := summarize(evs)
		expected.Equal(t, Completed, sum.stopReason(), "the loop goes on after a tool error, to an answer")
		answer, _ := sum.answer()
		expected.Contains(t, answer, "call_2 failed (station offline)", "the model reads the error")
	})
}

func TestStreamingSendsOneUpdatePerChunk(t *testing.T) {
	inBubble(t, func(t *testing.T) {
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
		if !expected.Equal(t, 3, len(updates), "one message_update per chunk of the reply") {
			return
		}
		expected.Equal(t, []string{"one ", "two ", "three"}, []string{updates[0].Delta, updates[1].Delta, updates[2].Delta}, "each update carries its chunk")
		expected.Equal(t, "one two ", updates[1].Message.Text, "an update carries the reply so far")
		expected.Equal(t, "one two three", final.Text, "message_end carries the whole reply")
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
	if !expected.Equal(t, words, updates, "one message_update per streamed word") {
		return
	}
	t.Logf("%d bytes per streamed word", allocated/words)
	expected.True(t, allocated/words < 1024, "bytes allocated per streamed word: %d, fewer than 1024", allocated/words)
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
	expected.EqualLines(t, want, trace(evs), "a failed request ends the run after its turn_end")
	expected.Equal(t, ModelError, summarize(evs).stopReason(), "a failed request ends the run with stop reason error")
}

// TestAFailedStreamKeepsItsText: a stream that breaks off after some words
// ends the run with stop reason error, and the failed reply keeps the words
// that streamed, as Pi's does.
func TestAFailedStreamKeepsItsText(t *testing.T) {
	evs := events(context.Background(), Config{Model: breakingStream{"Let ", "me"}}, "go")
	end := evs[len(evs)-1].(AgentEnd)
	failed, ok := end.Messages[len(end.Messages)-1].(fakemodel.AssistantMessage)
	if !expected.True(t, ok, "the last message is the failed reply") {
		return
	}
	expected.Equal(t, fakemodel.AssistantMessage{Text: "Let me", StopReason: fakemodel.StopReasonError, ErrorMessage: "the stream broke off"}, failed,
		"the failed reply keeps the words that streamed, and says why it failed")
}

// breakingStream is a model whose stream sends its words, then breaks off.
type breakingStream []string

func (words breakingStream) Reply(_ context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	for _, w := range words {
		req.OnText(w)
	}
	return fakemodel.AssistantMessage{}, errors.New("the stream broke off")
}

func TestTheTurnLimitStillHolds(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		again := fakemodel.AssistantMessage{ToolCalls: []fakemodel.ToolCall{call("x", "weather", `{"city":"Nowhere"}`)}}
		cfg := Config{Model: fakemodel.Scripted(again, again, again, again), Tools: []Tool{weatherTool(nil)}, MaxTurns: 2}
		evs := events(context.Background(), cfg, "go")
		sum := summarize(evs)
		expected.Equal(t, 2, sum.turns, "a limit of 2 allows 2 turns")
		expected.Equal(t, MaxTurns, sum.stopReason(), "the limit ends the run")
		expected.Equal(t, []fakemodel.Role{"user", "assistant", "toolResult", "assistant", "toolResult"}, roles(sum.added),
			"the messages of 2 turns, results included")
	})
}

// TestACancelInTheLastTurnEndsByTheLimit is the exception the README names:
// when the cancelled turn is the last one the limit allows, no request is
// made that could see the cancel, so the run ends by the limit.
func TestACancelInTheLastTurnEndsByTheLimit(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := forecast(t)
		cfg.MaxTurns = 1
		var evs []Event
		for ev := range runLoop(ctx, cfg, fakemodel.ForecasterPrompt) {
			evs = append(evs, ev)
			if traceLine(ev) == "tool_execution_update call_3" {
				cancel()
			}
		}
		sum := summarize(evs)
		expected.Equal(t, MaxTurns, sum.stopReason(), "a cancel in the last allowed turn: the limit ends the run")
		expected.Equal(t, 1, sum.turns, "a limit of 1 allows 1 turn")
	})
}

// TestACancelledRunWinsOverABlock follows Pi's prepareToolCall: when the run
// is cancelled while BeforeToolCall decides, the call's result says so,
// whatever the hook said.
func TestACancelledRunWinsOverABlock(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := forecast(t)
		cfg.Model = oneBatch(t, call("a", "weather", `{"city":"Oslo"}`))
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
		expected.Equal(t, []ToolExecutionEnd{{ToolCallID: "a", ToolName: "weather", Result: "Operation aborted", IsError: true, Refused: true}}, ends,
			"the call's result says it was aborted, whatever BeforeToolCall said")
	})
}

// TestAFailedPreparationKeepsItsOwnError: a call that fails preparation
// before the cancel check of Pi's prepareToolCall keeps its own error when
// the run is cancelled: a tool that does not exist, arguments that fail
// their check, a BeforeToolCall that returns an error. Only a call that
// passed every check says it was aborted.
func TestAFailedPreparationKeepsItsOwnError(t *testing.T) {
	oslo := call("a", "weather", `{"city":"Oslo"}`)
	for _, tc := range []struct {
		name   string
		call   fakemodel.ToolCall
		config func(t *testing.T, cancel context.CancelFunc) Config
		want   string
	}{
		{
			name: "a tool that does not exist",
			call: call("a", "nope", `{}`),
			config: func(t *testing.T, cancel context.CancelFunc) Config {
				// Ctrl-C right after the reply, before the batch.
				model := cancelling{Model: oneBatch(t, call("a", "nope", `{}`)), cancel: cancel}
				return Config{Model: model, Tools: []Tool{weatherTool(nil)}}
			},
			want: "Tool nope not found",
		},
		{
			name: "arguments that fail their check",
			call: oslo,
			config: func(_ *testing.T, cancel context.CancelFunc) Config {
				check := func(services.WeatherArgs) error {
					cancel()
					return errors.New("no city of that name")
				}
				return Config{Tools: []Tool{newTool(services.WeatherSpec, check, services.NewWeather(nil).LookUp)}}
			},
			want: `Validation failed for tool "weather": no city of that name. Received arguments: {"city":"Oslo"}`,
		},
		{
			name: "a BeforeToolCall that returns an error",
			call: oslo,
			config: func(_ *testing.T, cancel context.CancelFunc) Config {
				cfg := Config{Tools: []Tool{weatherTool(nil)}}
				cfg.BeforeToolCall = func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
					cancel()
					return BeforeToolCallResult{}, errors.New("approval service down")
				}
				return cfg
			},
			want: "approval service down",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				cfg := tc.config(t, cancel)
				if cfg.Model == nil {
					cfg.Model = oneBatch(t, tc.call)
				}
				var ends []ToolExecutionEnd
				for ev := range runLoop(ctx, cfg, "go") {
					if end, ok := ev.(ToolExecutionEnd); ok {
						ends = append(ends, end)
					}
				}
				if !expected.True(t, ctx.Err() != nil, "the run was cancelled") {
					return
				}
				expected.Equal(t, []ToolExecutionEnd{{ToolCallID: "a", ToolName: tc.call.Name, Result: tc.want, IsError: true, Refused: true}}, ends,
					"the call keeps its own error")
			})
		})
	}
}

// cancelling is a model that cancels the run once it has replied, as a
// Ctrl-C right after the reply would.
type cancelling struct {
	fakemodel.Model
	cancel context.CancelFunc
}

func (m cancelling) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	reply, err := m.Model.Reply(ctx, req)
	m.cancel()
	return reply, err
}

func TestACutOffReplyWithToolCallsEndsByTheTurnLimit(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		cut := fakemodel.AssistantMessage{Text: "Checking", ToolCalls: []fakemodel.ToolCall{call("x", "weather", `{"city":"Nowhere"}`)}, StopReason: fakemodel.StopReasonLength}
		cfg := Config{Model: fakemodel.Scripted(cut), Tools: []Tool{weatherTool(nil)}, MaxTurns: 1}
		sum := summarize(events(context.Background(), cfg, "go"))
		expected.Equal(t, MaxTurns, sum.stopReason(), "the model still wanted a tool")
		_, answered := sum.answer()
		expected.Equal(t, false, answered, "a cut-off reply is no answer")
	})
}
