package main

import (
	"context"
	"errors"
	"reflect"
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

// What lab 05 taught still holds in the final loop. These tests use fake
// tools that take 300, 200 and 400 ms, like lab 05's lookups.

func lookups() ([]Tool, fakemodel.Model) {
	tools := []Tool{
		tool("a", scenario.Action{Result: "A", Duration: 300 * time.Millisecond}),
		tool("b", scenario.Action{Result: "B", Duration: 200 * time.Millisecond}),
		// Two updates, at a third and two thirds of 400 ms: never at the
		// same moment as another event, so their place is fixed.
		tool("c", scenario.Action{Result: "C", Duration: 400 * time.Millisecond, Updates: []string{"a third", "two thirds"}}),
	}
	model := fakemodel.Scripted(reply("Three at once.", call("1", "a", `{}`), call("2", "b", `{}`), call("3", "c", `{}`)), reply("Done."))
	return tools, model
}

func loopEvents(ctx context.Context, cfg Config) []Event {
	var events []Event
	for ev := range runLoop(ctx, cfg, nil, []fakemodel.Message{user("go")}) {
		events = append(events, ev)
	}
	return events
}

func TestParallelBatchStillEndsInCompletionOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tools, model := lookups()
		start := time.Now()
		events := loopEvents(context.Background(), Config{Model: model, Tools: tools})
		expected.Equal(t, 400*time.Millisecond, time.Since(start), "the batch takes as long as its slowest call")
		want := []string{
			"tool_execution_start 1 a", "tool_execution_start 2 b", "tool_execution_start 3 c",
			"tool_execution_update 3", "tool_execution_end 2", "tool_execution_update 3", "tool_execution_end 1", "tool_execution_end 3",
			"message_start toolResult 1", "message_end toolResult 1",
			"message_start toolResult 2", "message_end toolResult 2",
			"message_start toolResult 3", "message_end toolResult 3",
			"turn_end results=3",
		}
		lines := trace(events)
		i := slices.Index(lines, want[0])
		if !expected.True(t, i >= 0, "the trace has the line %q", want[0]) {
			return
		}
		expected.EqualLines(t, want, lines[i:i+len(want)], "the calls end in the order they finish, and their results enter the history in the model's order")
	})
}

func TestSequentialStillRunsOneCallAtATime(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  func(tools []Tool, model fakemodel.Model) Config
	}{
		{"Sequential", func(tools []Tool, model fakemodel.Model) Config {
			return Config{Model: model, Tools: tools, Sequential: true}
		}},
		{"one sequential tool", func(tools []Tool, model fakemodel.Model) Config {
			tools[1].Sequential = true
			return Config{Model: model, Tools: tools}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tools, model := lookups()
				start := time.Now()
				events := loopEvents(context.Background(), tt.cfg(tools, model))
				expected.Equal(t, 900*time.Millisecond, time.Since(start), "a sequential batch takes the sum of its calls")
				lines := trace(events)
				for _, pair := range [][2]string{
					{"message_end toolResult 1", "tool_execution_start 2 b"},
					{"message_end toolResult 2", "tool_execution_start 3 c"},
				} {
					before, after := slices.Index(lines, pair[0]), slices.Index(lines, pair[1])
					if !expected.True(t, before >= 0 && after >= 0, "the trace has the lines %q and %q", pair[0], pair[1]) {
						return
					}
					expected.True(t, before < after, "%s comes before %s: lines %d and %d of the trace", pair[0], pair[1], before, after)
				}
			})
		})
	}
}

func TestHooksStillRunAtTheirPoints(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tools, model := lookups()
		var log []string
		cfg := Config{
			Model: model,
			Tools: tools,
			BeforeToolCall: func(_ context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
				log = append(log, "before "+c.ToolCall.ID)
				return BeforeToolCallResult{Block: c.ToolCall.ID == "2", Reason: "not b"}, nil
			},
		}
		for ev := range runLoop(context.Background(), cfg, nil, []fakemodel.Message{user("go")}) {
			if line := traceLine(ev); strings.HasPrefix(line, "tool_execution") {
				log = append(log, line)
			}
		}
		want := []string{
			"tool_execution_start 1 a", "before 1",
			"tool_execution_start 2 b", "before 2", "tool_execution_end 2 error: not b",
			"tool_execution_start 3 c", "before 3",
			"tool_execution_update 3", "tool_execution_update 3", "tool_execution_end 1", "tool_execution_end 3",
		}
		expected.EqualLines(t, want, log, "the hooks still run at their points, as in lab 05")
	})
}

func TestHooksStillChangeResults(t *testing.T) {
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
		{name: "no hooks", result: "A"},
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
			result: "A", isError: true,
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
			cfg := Config{
				Model:          fakemodel.Scripted(reply("Calling.", call("a", "a", `{}`)), reply("Done.")),
				Tools:          []Tool{tool("a", scenario.Action{Result: "A"})},
				BeforeToolCall: tt.before,
				AfterToolCall:  tt.after,
			}
			events := loopEvents(context.Background(), cfg)
			var end ToolExecutionEnd
			var turnEnd TurnEnd
			for _, ev := range events {
				switch ev := ev.(type) {
				case ToolExecutionEnd:
					end = ev
				case TurnEnd:
					if len(ev.ToolResults) > 0 {
						turnEnd = ev
					}
				}
			}
			expected.Equal(t, ToolExecutionEnd{ToolCallID: "a", ToolName: "a", Result: tt.result, IsError: tt.isError, Refused: tt.refused}, end,
				"the call's end carries the result the hooks decided")
			if !expected.Equal(t, 1, len(turnEnd.ToolResults), "turn_end carries the call's result") {
				return
			}
			expected.Equal(t, fakemodel.ToolResultMessage{ToolCallID: "a", ToolName: "a", Content: tt.result, IsError: tt.isError}, turnEnd.ToolResults[0],
				"turn_end's result is the one the hooks decided")
			expected.Equal(t, Completed, summarize(events).stopReason(), "the loop goes on")
		})
	}
}

func TestAPanicOrAnErrorStillBecomesAResult(t *testing.T) {
	tools := []Tool{
		tool("p", scenario.Action{Panic: "boom"}),
		tool("e", scenario.Action{Error: "disk full"}),
	}
	model := fakemodel.Scripted(reply("Two.", call("1", "p", `{}`), call("2", "e", `{}`)), reply("Both failed."))
	events := loopEvents(context.Background(), Config{Model: model, Tools: tools})
	lines := trace(events)
	expected.Includes(t, lines, `tool_execution_end 1 error: Tool "p" panicked: boom`, "the panic becomes an error result")
	expected.Includes(t, lines, "tool_execution_end 2 error: disk full", "the tool's error becomes an error result")
	expected.Equal(t, Completed, summarize(events).stopReason(), "the loop goes on")
}

// TestCancellationStillAbortsTheRun cancels the run while the tools run, and
// while they are prepared. Like Pi, a cancel during preparation prepares no
// further call (call 3 gets no result), and call 1, prepared already, never
// runs: its end comes at once, as in Pi 0.85.0 (0.83.0 would start it with
// the cancelled context).
func TestCancellationStillAbortsTheRun(t *testing.T) {
	tests := []struct {
		name     string
		cancelAt string // the trace line at which the user presses Ctrl-C
		took     time.Duration
		// lines are the tool_execution_ and turn_end trace lines, if
		// their order is fixed.
		lines []string
	}{
		{
			name:     "during execution",
			cancelAt: "tool_execution_update 3",
			took:     400 * time.Millisecond / 3, // the first update; the tools stop at once
		},
		{
			name:     "during preparation",
			cancelAt: "tool_execution_start 2 b",
			took:     0,
			lines: []string{
				"tool_execution_start 1 a",
				"tool_execution_start 2 b",
				"tool_execution_end 2 error: Operation aborted",
				"tool_execution_end 1 error: Operation aborted",
				"turn_end results=2",
				"turn_end results=0",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tools, model := lookups()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				start := time.Now()
				var events []Event
				var lines []string
				for ev := range runLoop(ctx, Config{Model: model, Tools: tools}, nil, []fakemodel.Message{user("go")}) {
					events = append(events, ev)
					line := traceLine(ev)
					if strings.HasPrefix(line, "tool_execution_") || strings.HasPrefix(line, "turn_end") {
						lines = append(lines, line)
					}
					if line == tt.cancelAt {
						cancel()
					}
				}
				expected.Equal(t, tt.took, time.Since(start), "the tools stop as soon as the context is cancelled")
				if tt.lines != nil {
					expected.EqualLines(t, tt.lines, lines, "the calls prepared before the cancel end after the call that ended during preparation")
				}
				sum := summarize(events)
				expected.Equal(t, Aborted, sum.stopReason(), "a cancelled run ends with stop reason aborted")
				expected.Equal(t, 2, sum.turns, "the request of turn 2 sees the cancelled context")
			})
		})
	}
}

func TestAConsumerThatStopsStillEndsTheRun(t *testing.T) {
	var total int
	synctest.Test(t, func(t *testing.T) {
		tools, model := lookups()
		total = len(loopEvents(context.Background(), Config{Model: model, Tools: tools}))
	})
	for stopAfter := 1; stopAfter <= total; stopAfter++ {
		synctest.Test(t, func(t *testing.T) {
			tools, model := lookups()
			n := 0
			for range runLoop(context.Background(), Config{Model: model, Tools: tools}, nil, []fakemodel.Message{user("go")}) {
				n++
				if n == stopAfter {
					break
				}
			}
			expected.Equal(t, stopAfter, n, "the consumer stops after event %d, and the run ends", stopAfter)
		})
	}
}

// TestAStopStillReachesTheLoop stops the consumer at each event of a batch
// in turn, in the parallel path and in the sequential one, and asks
// executeToolCalls for the batch itself: whichever emit saw the stop, the
// batch returns its error, errStopped, so that the loop ends there.
func TestAStopStillReachesTheLoop(t *testing.T) {
	for _, path := range []struct {
		name       string
		sequential bool
	}{{"parallel", false}, {"sequential", true}} {
		t.Run(path.name, func(t *testing.T) {
			// batch runs the lookups' batch, with a consumer that stops at
			// event stopAt (never if 0), and returns the events it took.
			batch := func(stopAt int) (took []string, err error) {
				synctest.Test(t, func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					tools, _ := lookups()
					r := &runState{cfg: Config{Tools: tools, Sequential: path.sequential}, ctx: ctx, cancel: cancel, yield: func(ev Event) bool {
						took = append(took, traceLine(ev))
						return len(took) != stopAt
					}}
					_, err = r.executeToolCalls(reply("Three at once.", call("1", "a", `{}`), call("2", "b", `{}`), call("3", "c", `{}`)))
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
					"so that the loop ends there", stopAt, took[len(took)-1]) {
					return
				}
			}
		})
	}
}

func TestStreamingStillSendsOneUpdatePerChunk(t *testing.T) {
	events := loopEvents(context.Background(), Config{Model: fakemodel.Scripted(reply("one two three"))})
	var deltas []string
	for _, ev := range events {
		if u, ok := ev.(MessageUpdate); ok {
			deltas = append(deltas, u.Delta)
		}
	}
	expected.Equal(t, []string{"one ", "two ", "three"}, deltas, "one message_update per chunk of the reply, each with its chunk")
}

// TestStreamingCostsWorkInProportionToTheReply streams a reply of 20,000
// words through the Agent and counts the bytes the run allocates: a few
// hundred per word, for its event and its share of the growing text. A loop
// that copied the whole text so far for each chunk would allocate about
// 60 KB per word here, and a reply of 200,000 words would take it many
// seconds.
func TestStreamingCostsWorkInProportionToTheReply(t *testing.T) {
	const words = 20_000
	a := NewAgent(AgentOptions{Config: Config{Model: fakemodel.Scripted(reply(strings.Repeat("word ", words)))}})
	updates := 0
	allocated := bytesAllocated(func() {
		err := a.Prompt(context.Background(), "go", func(ev Event) {
			if _, ok := ev.(MessageUpdate); ok {
				updates++
			}
		})
		if !expected.NoError(t, err, "the run ends without an error") {
			t.FailNow()
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

func TestAFailedModelRequestStillEndsTheRun(t *testing.T) {
	model := fakemodel.Scripted(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: "503"})
	events := loopEvents(context.Background(), Config{Model: model})
	expected.Equal(t, ModelError, summarize(events).stopReason(), "a failed request ends the run with stop reason error")
	expected.EqualLines(t, []string{"message_end assistant", "turn_end results=0", "agent_end messages=2"}, trace(events)[len(events)-3:],
		"a failed request ends the run after its turn_end")
}

// TestAFailedStreamKeepsItsText: a stream that breaks off after some words
// ends the run with stop reason error, and the reply in the history keeps
// the words that streamed, as Pi's does.
func TestAFailedStreamKeepsItsText(t *testing.T) {
	s, err := scenario.Parse("x.json", []byte(`{"prompt": "go", "replies": [{"text": "the stream broke off", "stopReason": "error", "partial": "Let me"}]}`))
	if !expected.NoError(t, err, "parse the scenario") {
		return
	}
	for name, model := range map[string]fakemodel.Model{"a stream": breakingStream{"Let ", "me"}, "a scenario's partial text": s.Model()} {
		events := loopEvents(context.Background(), Config{Model: model})
		if !expected.Equal(t, ModelError, summarize(events).stopReason(), "%s: the run ends with stop reason error", name) {
			return
		}
		end := events[len(events)-1].(AgentEnd)
		failed, ok := end.Messages[len(end.Messages)-1].(fakemodel.AssistantMessage)
		if !expected.True(t, ok, "%s: the last message is the failed reply", name) {
			return
		}
		expected.Equal(t, "Let me", failed.Text, "%s: the failed reply keeps the words that streamed", name)
		expected.Equal(t, fakemodel.StopReasonError, failed.StopReason, "%s: the failed reply's stop reason", name)
		expected.Contains(t, failed.ErrorMessage, "the stream broke off", "%s: the failed reply says why it failed", name)
	}
}

// breakingStream is a model whose stream sends its words, then breaks off.
type breakingStream []string

func (words breakingStream) Reply(_ context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	for _, w := range words {
		req.OnText(w)
	}
	return fakemodel.AssistantMessage{}, errors.New("the stream broke off")
}

// TestAReportAfterTheCallReturnedIsStillDropped has a tool leave a goroutine
// behind that reports after the tool returned. Like Pi, the loop drops the
// note: no update may follow the call's end, and the goroutine must not wait
// for a loop that has moved on (synctest.Test would fail on it).
func TestAReportAfterTheCallReturnedIsStillDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var late sync.WaitGroup
		careless := tool("careless", scenario.Action{})
		careless.run = func(_ context.Context, _ string, _ any, report func(string)) (ToolResult, error) {
			report("on time")
			late.Go(func() {
				time.Sleep(50 * time.Millisecond)
				report("too late")
			})
			return ToolResult{Content: "done"}, nil
		}
		model := fakemodel.Scripted(reply("Calling.", call("a", "careless", `{}`)), reply("Done."))
		lines := trace(loopEvents(context.Background(), Config{Model: model, Tools: []Tool{careless}}))
		late.Wait()
		expected.EqualLines(t, []string{"tool_execution_start a careless", "tool_execution_update a", "tool_execution_end a"},
			slices.DeleteFunc(lines, func(l string) bool { return !strings.HasPrefix(l, "tool_execution_") }),
			"the note reported on time becomes an update, the one reported after the call returned is dropped")
	})
}

// TestACancelledRunStillWinsOverABlock follows Pi's prepareToolCall: when the
// run is cancelled while BeforeToolCall decides, the call's result says so,
// whatever the hook said.
func TestACancelledRunStillWinsOverABlock(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{
		Model: fakemodel.Scripted(reply("Calling.", call("a", "search", `{"query":"x"}`)), reply("Done.")),
		Tools: []Tool{search(false)},
		BeforeToolCall: func(context.Context, BeforeToolCallContext) (BeforeToolCallResult, error) {
			cancel()
			return BeforeToolCallResult{Block: true, Reason: "not today"}, nil
		},
	}
	var ends []ToolExecutionEnd
	for _, ev := range loopEvents(ctx, cfg) {
		if end, ok := ev.(ToolExecutionEnd); ok {
			ends = append(ends, end)
		}
	}
	expected.Equal(t, []ToolExecutionEnd{{ToolCallID: "a", ToolName: "search", Result: "Operation aborted", IsError: true, Refused: true}}, ends,
		"the call's result says it was aborted, whatever BeforeToolCall said")
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
		{name: "a consumer that stops while the tools run", stopAt: "tool_execution_update 3"},
		{name: "a cancelled run", stopAt: "tool_execution_update 3", cancel: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tools, model := lookups()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				for ev := range runLoop(ctx, Config{Model: model, Tools: tools}, nil, []fakemodel.Message{user("go")}) {
					line := traceLine(ev)
					if line == "tool_execution_update 3" {
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
				expected.Empty(t, toolGoroutines(), "no tool goroutine outlives the run")
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
