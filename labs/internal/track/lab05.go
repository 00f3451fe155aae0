package track

func init() {
	register(Lab{
		Name: "05-parallel",
		Idea: Text{EN: "Events as things happen, and the tool calls of one reply run in parallel."},
		Exercises: []Exercise{
			{
				ID:      "parallel-batch",
				Title:   Text{EN: "the parallel batch: the calls at once, their ends in completion order, their results in the model's order"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "batch.go",
						ID:   "parallel-results",
						TODO: Text{EN: `TODO: run the prepared calls, then return the batch's results.
README.md, section "Build it yourself", explains it; go run ./labs check
05-parallel says which rule is still broken. Above, each call was
prepared in the model's order: ready holds the calls to run, each with
its slot, and outcomes holds the outcomes of the calls that failed
preparation.
 1. Run the prepared calls, all of them at once: r.execute(msg, ready,
    outcomes). It fills their slots of outcomes. Pass its error up.
 2. Then, slot by slot, in the model's order: make each outcome its
    toolResult message (o.message()), emit message_start and message_end
    for it (r.emitAll), and return the messages in that order.`},
						Code: `return nil, fmt.Errorf("executeParallel is not finished yet")`,
					},
					{
						File: "batch.go",
						ID:   "execute-at-once",
						TODO: Text{EN: `TODO: run the calls at once, and pass their events on as they come
(README.md, section "Build it yourself").
 1. Start one goroutine per call (a sync.WaitGroup's Go method). It runs
    the tool with executePreparedToolCall(r.ctx, p, report), where report
    is the report method of a &reporter{send: ...} whose send hands a
    ToolExecutionUpdate to the loop; close the reporter once the tool has
    returned. Then r.finalizeExecutedToolCall, then it writes the outcome
    into its own slot, outcomes[p.slot], and hands its end, o.end(), to
    the loop. A goroutine never calls r.emit.
 2. Meanwhile, on this goroutine, the only one that emits: take the
    goroutines' events from a channel and emit each as it comes, until
    every call has ended. Once emit fails (the consumer stopped), emit no
    more, but go on taking events until every call has ended.
 3. Wait for the goroutines, and return emit's first error.`},
						Code: `return fmt.Errorf("execute is not written yet")`,
					},
				},
				Rules: []Rule{
					{Test: "TestAParallelBatchTakesAsLongAsItsSlowestCall", Text: Text{EN: "the prepared calls run at once, each on its own goroutine: part 1's batch takes 0.4 s, as long as its slowest call, not the 0.9 s of its calls one after another"}},
					{Test: "TestEachEndComesAsItsCallFinishes", Text: Text{EN: "each call's tool_execution_end comes as the call finishes, so the ends come in completion order: call_2, call_1, call_3"}},
					{Test: "TestEveryEventComesFromTheRunsGoroutine", Text: Text{EN: "every event reaches the consumer on the goroutine that ranges over the run: a tool's goroutine hands its events to the loop, and never emits"}},
					{Test: "TestResultsComeInTheModelsOrder", Text: Text{EN: "the toolResult messages, turn_end's results and the history hold the results in the model's order, each in its call's slot, after the whole batch"}},
					{Test: "TestProgressBecomesUpdateEvents", Text: Text{EN: "a tool's progress note reaches the consumer as a tool_execution_update as soon as the tool reports it"}},
					{Test: "TestAReportAfterTheCallReturnedIsDropped", Text: Text{EN: "a note a tool reports after its call returned is dropped: no update follows the call's end, and no goroutine waits for a loop that moved on"}},
					{Test: "TestHooksRunAtTheirPoints", Text: Text{EN: "AfterToolCall runs on each executed call, right before its end"}},
					{Test: "TestHooksChangeResults", Text: Text{EN: "what AfterToolCall decides becomes the call's result, in its end and in turn_end"}},
					{Test: "TestAPanickingToolBecomesAnErrorResult", Text: Text{EN: "a tool that panics gets an error result, and the other calls of its batch go on"}},
					{Test: "TestCancellationAbortsTheRun", Text: Text{EN: "the tools run with the run's context: a cancel stops the running calls at once, and each gets an error result"}},
					{Test: "TestNoGoroutineOutlivesARun", Text: Text{EN: "no tool goroutine outlives the run: execute takes every call's end, even after the consumer stopped, and waits for its goroutines"}},
					{Test: "TestAConsumerThatStopsEndsTheRun", Text: Text{EN: "a consumer that stops ranging ends the run: nothing is emitted after, and the running tools are cancelled"}},
				},
				Hints: []Text{
					{EN: `Start with executeParallel's part: call r.execute(msg, ready, outcomes),
then loop over outcomes (slot i answers msg.ToolCalls[i]) and build
results[i] = o.message(), emitting r.emitAll(MessageStart{results[i]},
MessageEnd{results[i]}). The results are in the model's order because
the slots are; nothing needs sorting.`},
					{EN: `execute: events := make(chan Event), var wg sync.WaitGroup, and for each
p in calls, wg.Go(func() { ... }). Inside, the goroutine writes
outcomes[p.slot] and sends events <- o.end(): it never emits, because
only the run's goroutine may call yield. The channel is unbuffered, so a
goroutine waits until the loop takes its event: read it before wg.Wait,
or every goroutine waits for a loop that waits for them.`},
					{EN: `The loop that forwards, on the run's goroutine:

    for ended := 0; ended < len(calls); {
        ev := <-events
        // count a ToolExecutionEnd; emit ev, unless emit failed before
    }

It ends only when every call has ended, so no goroutine is left waiting
to send; then wg.Wait(), and return emit's first error. For the updates,
updates := &reporter{send: func(partial string) { events <- ... }}:
hand updates.report to executePreparedToolCall, and call
updates.close() once it returned.`},
				},
			},
			{
				ID:      "sequential",
				Title:   Text{EN: "the sequential path: one call at a time, when the config or a tool asks for it"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "batch.go",
						ID:   "sequential",
						TODO: Text{EN: `TODO: run the batch one call at a time. README.md, section "Build it
yourself", explains it; go run ./labs check 05-parallel says which rule
is still broken. For each call, in the model's order, all of this before
the next call starts:
 1. Emit its start, toolStart(call), and prepare it: r.prepareToolCall.
 2. A call that fails preparation has its outcome at once: emit its end.
    A prepared call runs alone, through r.execute(msg, []prepared{p},
    outcomes), with outcomes a slice of one, which emits its end.
 3. Emit its toolResult message (message_start and message_end), and
    keep it.
Once the run is cancelled (r.ctx.Err() != nil), start no further call.
Return the results in the model's order.`},
						Code: `return nil, fmt.Errorf("executeSequential is not written yet")`,
					},
					{
						File: "batch.go",
						ID:   "sequential-tool",
						TODO: Text{EN: `TODO: report whether the call c names a tool that must
not run alongside others: a tool of r.cfg.Tools (findTool finds it
by name) whose Sequential is set. One such call makes the whole
batch sequential.`},
						Code: `return false`,
					},
				},
				Rules: []Rule{
					{Test: "TestSequentialRunsOneCallAtATime", Text: Text{EN: "with Config.Sequential, each call goes through its start, its run, its end and its result message before the next call starts: part 1's batch takes 0.9 s, the sum of its calls"}},
					{Test: "TestASequentialBatchEndsAFailedCallAtOnce", Text: Text{EN: "in a sequential batch, a call that fails preparation ends at once, and gets its result message before the next call starts"}},
					{Test: "TestASequentialToolSerialisesItsWholeBatch", Text: Text{EN: "a batch that calls a Sequential tool runs one call at a time, although the config does not ask for it"}},
					{Test: "TestACancelStopsASequentialBatch", Text: Text{EN: "once the run is cancelled, a sequential batch starts no further call"}},
				},
				Hints: []Text{
					{EN: `The body is a for loop over msg.ToolCalls with one result per pass:
r.emit(toolStart(call)); p, immediate := r.prepareToolCall(msg, call);
outcomes := make([]outcome, 1). If immediate != nil, outcomes[0] =
*immediate and emit immediate.end(); otherwise r.execute(msg,
[]prepared{p}, outcomes) runs it and emits its end. Then
result := outcomes[0].message(), emit MessageStart{result} and
MessageEnd{result}, append it, and check r.ctx.Err().`},
					{EN: `The choice in executeToolCalls: r.cfg.Sequential || any call's tool
is Sequential. In the function you write, tool, ok :=
findTool(r.cfg.Tools, c.Name), and the call counts only if the tool
exists (ok) and is Sequential.`},
				},
			},
		},
		Mistakes: []Mistake{
			{
				Name: "calls run one after another in the parallel path",
				File: "batch.go",
				Old: `	if err := r.execute(msg, ready, outcomes); err != nil {
		return nil, err
	}
`,
				New: `	for _, p := range ready {
		if err := r.execute(msg, []prepared{p}, outcomes); err != nil {
			return nil, err
		}
	}
`,
				Rule: "TestAParallelBatchTakesAsLongAsItsSlowestCall",
			},
			{
				Name: "an unbuffered channel nobody reads: the loop waits for the goroutines before it takes their events",
				File: "batch.go",
				Old: `	var stopped error
	for ended := 0; ended < len(calls); {`,
				New: `	wg.Wait()
	var stopped error
	for ended := 0; ended < len(calls); {`,
				Rule: "TestAParallelBatchTakesAsLongAsItsSlowestCall",
			},
			{
				Name: "end events held back until the batch ends",
				File: "batch.go",
				Old: `		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
		if stopped == nil {
			stopped = r.emit(ev)
		}
	}
	wg.Wait()
`,
				New: `		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
			continue
		}
		if stopped == nil {
			stopped = r.emit(ev)
		}
	}
	wg.Wait()
	for _, p := range calls {
		if stopped == nil {
			stopped = r.emit(outcomes[p.slot].end())
		}
	}
`,
				Rule: "TestEachEndComesAsItsCallFinishes",
			},
			{
				Name: "the goroutines emit their own events, under a lock",
				File: "batch.go",
				Old: `	events := make(chan Event)
	var wg sync.WaitGroup
	for _, p := range calls {
		wg.Go(func() {
			updates := &reporter{send: func(partial string) {
				events <- ToolExecutionUpdate{ToolCallID: p.call.ID, ToolName: p.call.Name, Args: p.call.Arguments, PartialResult: partial}
			}}
			o := executePreparedToolCall(r.ctx, p, updates.report)
			updates.close()
			o = r.finalizeExecutedToolCall(msg, p, o)
			outcomes[p.slot] = o
			events <- o.end()
		})
	}
	var stopped error
	for ended := 0; ended < len(calls); {
		ev := <-events
		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
		if stopped == nil {
			stopped = r.emit(ev)
		}
	}
	wg.Wait()
	return stopped`,
				New: `	var mu sync.Mutex // emit is not safe for concurrent use
	var wg sync.WaitGroup
	for _, p := range calls {
		wg.Go(func() {
			o := executePreparedToolCall(r.ctx, p, func(partial string) {
				mu.Lock()
				defer mu.Unlock()
				_ = r.emit(ToolExecutionUpdate{ToolCallID: p.call.ID, ToolName: p.call.Name, Args: p.call.Arguments, PartialResult: partial})
			})
			o = r.finalizeExecutedToolCall(msg, p, o)
			outcomes[p.slot] = o
			mu.Lock()
			defer mu.Unlock()
			_ = r.emit(o.end())
		})
	}
	wg.Wait()
	return nil`,
				Rule: "TestEveryEventComesFromTheRunsGoroutine",
			},
			{
				Name: "results in completion order instead of the model's order",
				File: "batch.go",
				Old: `			outcomes[p.slot] = o
			events <- o.end()
		})
	}
	var stopped error
	for ended := 0; ended < len(calls); {
		ev := <-events
		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
`,
				New: `			events <- o.end()
		})
	}
	var stopped error
	for ended := 0; ended < len(calls); {
		ev := <-events
		if end, ok := ev.(ToolExecutionEnd); ok {
			// Each result as it comes.
			outcomes[calls[ended].slot] = outcome{call: fakemodel.ToolCall{ID: end.ToolCallID, Name: end.ToolName}, content: end.Result, isError: end.IsError}
			ended++
		}
`,
				Rule: "TestResultsComeInTheModelsOrder",
			},
			{
				Name: "a result written to the wrong slot: the call's index in the prepared calls, not its slot in the batch",
				File: "batch.go",
				Old: `	for _, p := range calls {
		wg.Go(func() {`,
				New: `	for i, p := range calls {
		p.slot = i
		wg.Go(func() {`,
				Rule: "TestResultsComeInTheModelsOrder",
			},
			{
				Name: "the reporter never closed",
				File: "batch.go",
				Old:  "\t\t\tupdates.close()\n",
				New:  "",
				Rule: "TestAReportAfterTheCallReturnedIsDropped",
			},
			{
				Name: "the tools run without the run's context",
				File: "batch.go",
				Old:  "o := executePreparedToolCall(r.ctx, p, updates.report)",
				New:  "o := executePreparedToolCall(context.Background(), p, updates.report)",
				Rule: "TestCancellationAbortsTheRun",
			},
			{
				Name: "a goroutine that outlives the run: the loop stops taking events when the consumer stops",
				File: "batch.go",
				Old: `	var stopped error
	for ended := 0; ended < len(calls); {
		ev := <-events
		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
		if stopped == nil {
			stopped = r.emit(ev)
		}
	}
	wg.Wait()
	return stopped`,
				New: `	for ended := 0; ended < len(calls); {
		ev := <-events
		if _, ok := ev.(ToolExecutionEnd); ok {
			ended++
		}
		if err := r.emit(ev); err != nil {
			return err
		}
	}
	wg.Wait()
	return nil`,
				Rule: "TestNoGoroutineOutlivesARun",
			},
			{
				Name: "a sequential batch that emits all ends before any result message",
				File: "batch.go",
				Old: `		result := outcomes[0].message()
		results = append(results, result)
		if err := r.emitAll(MessageStart{result}, MessageEnd{result}); err != nil {
			return nil, err
		}
		if r.ctx.Err() != nil {
			break
		}
	}
	return results, nil`,
				New: `		results = append(results, outcomes[0].message())
		if r.ctx.Err() != nil {
			break
		}
	}
	for _, result := range results {
		if err := r.emitAll(MessageStart{result}, MessageEnd{result}); err != nil {
			return nil, err
		}
	}
	return results, nil`,
				Rule: "TestSequentialRunsOneCallAtATime",
			},
			{
				Name: "the Sequential tool flag ignored",
				File: "batch.go",
				Old: `		tool, ok := findTool(r.cfg.Tools, c.Name)
		return ok && tool.Sequential`,
				New:  `		return false`,
				Rule: "TestASequentialToolSerialisesItsWholeBatch",
			},
			{
				Name: "a sequential batch that goes on after a cancel",
				File: "batch.go",
				Old: `		if r.ctx.Err() != nil {
			break
		}
	}
	return results, nil`,
				New: `	}
	return results, nil`,
				Rule: "TestACancelStopsASequentialBatch",
			},
		},
	})
}
