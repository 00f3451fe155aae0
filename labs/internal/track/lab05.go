package track

func init() {
	register(Lab{
		Name: "05-parallel",
		Race: true,
		Idea: Text{EN: "Events as things happen, and the tool calls of one reply run in parallel.", ZH: "事情一发生就发出事件；一条回复里的工具调用并行执行。"},
		Exercises: []Exercise{
			{
				ID:      "parallel-batch",
				Title:   Text{EN: "the parallel batch: the calls at once, their ends in completion order, their results in the model's order", ZH: "并行的一批：调用同时运行，结束事件按完成顺序发出，结果按模型给出的顺序排列"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "batch.go",
						ID:   "parallel-results",
						TODO: Text{
							EN: `TODO: run the prepared calls, then return the batch's results.
README.md, section "Build it yourself", explains it; go run ./labs check
05-parallel says which rule is still broken. Above, each call was
prepared in the model's order: ready holds the calls to run, each with
its slot, and outcomes holds the outcomes of the calls that failed
preparation.
 1. Run the prepared calls, all of them at once: r.execute(msg, ready,
    outcomes). It fills their slots of outcomes. Pass its error up.
 2. Then, slot by slot, in the model's order: make each outcome its
    toolResult message (o.message()), emit message_start and message_end
    for it (r.emitAll), and return the messages in that order.`,
							ZH: `TODO：运行准备好的调用，然后返回这一批的结果。README.zh-CN.md 的
「自己动手写（Build it yourself）」一节有讲解；
go run ./labs check 05-parallel 会告诉你哪条规则还没满足。
上面已经按模型给出的顺序准备好了每个调用：ready 里是要运行的调用，
各带自己的槽位（slot）；outcomes 里已经放着没通过准备阶段的那些
调用的 outcome。
 1. 运行准备好的调用，全部同时运行：r.execute(msg, ready, outcomes)。
    它会填好这些调用在 outcomes 里的槽位。它返回的错误原样往上传。
 2. 然后一个槽位接一个槽位，按模型给出的顺序：把每个 outcome 变成
    它的 toolResult 消息（o.message()），为它发出 message_start 和
    message_end（r.emitAll），并按这个顺序返回这些消息。`},
						Code: `return nil, fmt.Errorf("executeParallel is not finished yet")`,
					},
					{
						File: "batch.go",
						ID:   "execute-at-once",
						TODO: Text{
							EN: `TODO: run the calls at once, and pass their events on as they come
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
 3. Wait for the goroutines, and return emit's first error.`,
							ZH: `TODO：同时运行这些调用，它们的事件来一个就转发一个
（README.zh-CN.md 的「自己动手写（Build it yourself）」一节）。
 1. 每个调用启动一个 goroutine（用 sync.WaitGroup 的 Go 方法）。它用
    executePreparedToolCall(r.ctx, p, report) 运行工具，其中 report
    是一个 &reporter{send: ...} 的 report 方法，send 把一个
    ToolExecutionUpdate 交给循环；工具返回后就关闭这个 reporter。
    然后调用 r.finalizeExecutedToolCall，把 outcome 写进它自己的槽位
    outcomes[p.slot]，再把它的 end，即 o.end()，交给循环。goroutine
    从不调用 r.emit。
 2. 与此同时，在当前这个 goroutine 上（唯一发出事件的那个）：从一个
    channel 里取各个 goroutine 的事件，来一个发一个，直到每个调用都
    结束。emit 一旦失败（消费方停止了），就不再发出事件，但要继续取
    事件，直到每个调用都结束。
 3. 等待这些 goroutine 结束，返回 emit 的第一个错误。`},
						Code: `return fmt.Errorf("execute is not written yet")`,
					},
				},
				Rules: []Rule{
					{Test: "TestAParallelBatchTakesAsLongAsItsSlowestCall", Text: Text{EN: "the prepared calls run at once, each on its own goroutine: part 1's batch takes 0.4 s, as long as its slowest call, not the 0.9 s of its calls one after another", ZH: "准备好的调用同时运行，各在自己的 goroutine 上：第 1 部分的这一批用 0.4 s，等于其中最慢的调用，而不是调用一个接一个运行的 0.9 s"}},
					{Test: "TestEachEndComesAsItsCallFinishes", Text: Text{EN: "each call's tool_execution_end comes as the call finishes, so the ends come in completion order: call_2, call_1, call_3", ZH: "每个调用的 tool_execution_end 在它完成时发出，所以这些结束事件按完成顺序到来：call_2、call_1、call_3"}},
					{Test: "TestEveryEventComesFromTheRunsGoroutine", Text: Text{EN: "every event reaches the consumer on the goroutine that ranges over the run: a tool's goroutine hands its events to the loop, and never emits", ZH: "每个事件都在遍历这次运行的那个 goroutine 上到达消费方：工具的 goroutine 把事件交给循环，自己从不发出事件"}},
					{Test: "TestResultsComeInTheModelsOrder", Text: Text{EN: "the toolResult messages, turn_end's results and the history hold the results in the model's order, each in its call's slot, after the whole batch", ZH: "整批结束之后，toolResult 消息、turn_end 带的结果和历史都按模型给出的顺序排列结果，每个结果在它所属调用的槽位里"}},
					{Test: "TestProgressBecomesUpdateEvents", Text: Text{EN: "a tool's progress note reaches the consumer as a tool_execution_update as soon as the tool reports it", ZH: "工具一报告进度说明，它就作为一个 tool_execution_update 到达消费方"}},
					{Test: "TestAReportAfterTheCallReturnedIsDropped", Text: Text{EN: "a note a tool reports after its call returned is dropped: no update follows the call's end, and no goroutine waits for a loop that moved on", ZH: "调用返回之后工具才报告的说明会被丢掉：调用的结束事件之后不会再有 tool_execution_update，也没有 goroutine 在等一个已经往下走的循环"}},
					{Test: "TestHooksRunAtTheirPoints", Text: Text{EN: "AfterToolCall runs on each executed call, right before its end", ZH: "AfterToolCall 在每个执行过的调用上运行，紧挨在它的结束事件之前"}},
					{Test: "TestHooksChangeResults", Text: Text{EN: "what AfterToolCall decides becomes the call's result, in its end and in turn_end", ZH: "AfterToolCall 的决定成为调用的结果，在它的结束事件里和 turn_end 里都是如此"}},
					{Test: "TestAPanickingToolBecomesAnErrorResult", Text: Text{EN: "a tool that panics gets an error result, and the other calls of its batch go on", ZH: "panic 的工具得到一个错误结果，同一批的其他调用照常进行"}},
					{Test: "TestCancellationAbortsTheRun", Text: Text{EN: "the tools run with the run's context: a cancel stops the running calls at once, and each gets an error result", ZH: "工具带着这次运行的 context 运行：一取消，正在运行的调用立刻停下，各自得到一个错误结果"}},
					{Test: "TestNoGoroutineOutlivesARun", Text: Text{EN: "no tool goroutine outlives the run: execute takes every call's end, even after the consumer stopped, and waits for its goroutines", ZH: "没有哪个工具 goroutine 比这次运行活得更久：即使消费方已经停止，execute 也会取走每个调用的结束事件，并等待它的 goroutine 结束"}},
					{Test: "TestAConsumerThatStopsEndsTheRun", Text: Text{EN: "a consumer that stops ranging ends the run: nothing is emitted after, and the running tools are cancelled", ZH: "停止遍历的消费方会结束这次运行：之后不再发出任何事件，正在运行的工具被取消"}},
				},
				Hints: []Text{
					{EN: `Start with executeParallel's part: call r.execute(msg, ready, outcomes),
then loop over outcomes (slot i answers msg.ToolCalls[i]) and build
results[i] = o.message(), emitting r.emitAll(MessageStart{results[i]},
MessageEnd{results[i]}). The results are in the model's order because
the slots are; nothing needs sorting.`,
						ZH: `先写 executeParallel 那部分：调用 r.execute(msg, ready, outcomes)，
然后遍历 outcomes（槽位 i 回答的是 msg.ToolCalls[i]），构造
results[i] = o.message()，并发出
r.emitAll(MessageStart{results[i]}, MessageEnd{results[i]})。槽位本来
就按模型给出的顺序排列，结果也就是这个顺序；什么都不用排序。`},
					{EN: `execute: events := make(chan Event), var wg sync.WaitGroup, and for each
p in calls, wg.Go(func() { ... }). Inside, the goroutine writes
outcomes[p.slot] and sends events <- o.end(): it never emits, because
only the run's goroutine may call yield. The channel is unbuffered, so a
goroutine waits until the loop takes its event: read it before wg.Wait,
or every goroutine waits for a loop that waits for them.`,
						ZH: `execute：events := make(chan Event)，var wg sync.WaitGroup，然后对
calls 里的每个 p 调用 wg.Go(func() { ... })。在里面，goroutine 写入
outcomes[p.slot]，再发送 events <- o.end()：它从不发出事件，因为只有
这次运行的 goroutine 才能调用 yield。channel 是无缓冲的，所以
goroutine 要等循环取走它的事件才能继续：在 wg.Wait 之前就得去读，
否则每个 goroutine 都在等一个正在等它们的循环。`},
					{EN: `The loop that forwards, on the run's goroutine:

    for ended := 0; ended < len(calls); {
        ev := <-events
        // count a ToolExecutionEnd; emit ev, unless emit failed before
    }

It ends only when every call has ended, so no goroutine is left waiting
to send; then wg.Wait(), and return emit's first error. For the updates,
updates := &reporter{send: func(partial string) { events <- ... }}:
hand updates.report to executePreparedToolCall, and call
updates.close() once it returned.`,
						ZH: `负责转发的循环，跑在这次运行的 goroutine 上：

    for ended := 0; ended < len(calls); {
        ev := <-events
        // 遇到 ToolExecutionEnd 就计数；发出 ev，除非 emit 之前已经失败
    }

每个调用都结束了，它才结束，所以不会有 goroutine 留在那里等着发送；
然后 wg.Wait()，返回 emit 的第一个错误。至于 update，
updates := &reporter{send: func(partial string) { events <- ... }}：
把 updates.report 交给 executePreparedToolCall，它返回后调用
updates.close()。`},
				},
			},
			{
				ID:      "sequential",
				Title:   Text{EN: "the sequential path: one call at a time, when the config or a tool asks for it", ZH: "顺序执行的路径：配置或某个工具要求时，一次只执行一个调用"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "batch.go",
						ID:   "sequential",
						TODO: Text{
							EN: `TODO: run the batch one call at a time. README.md, section "Build it
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
Return the results in the model's order.`,
							ZH: `TODO：一次一个调用地执行这一批。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节有讲解；go run ./labs check 05-parallel
会告诉你哪条规则还没满足。按模型给出的顺序处理每个调用，下面这些
都要在下一个调用开始之前做完：
 1. 发出它的 start，即 toolStart(call)，然后准备它：r.prepareToolCall。
 2. 没通过准备阶段的调用立刻有了 outcome：发出它的 end。准备好的调用
    单独运行，通过 r.execute(msg, []prepared{p}, outcomes)，其中
    outcomes 是只有一个元素的切片；execute 会发出它的 end。
 3. 发出它的 toolResult 消息（message_start 和 message_end），并把
    这条消息留下。
运行一旦被取消（r.ctx.Err() != nil），就不再开始任何调用。
按模型给出的顺序返回这些结果。`},
						Code: `return nil, fmt.Errorf("executeSequential is not written yet")`,
					},
					{
						File: "batch.go",
						ID:   "sequential-tool",
						TODO: Text{
							EN: `TODO: report whether the call c names a tool that must
not run alongside others: a tool of r.cfg.Tools (findTool finds it
by name) whose Sequential is set. One such call makes the whole
batch sequential.`,
							ZH: `TODO：判断调用 c 点名的工具是否不能和其他调用
同时运行：也就是 r.cfg.Tools 里的一个工具（findTool
按名字找到它），并且设置了 Sequential。只要有一个
这样的调用，整批就顺序执行。`},
						Code: `return false`,
					},
				},
				Rules: []Rule{
					{Test: "TestSequentialRunsOneCallAtATime", Text: Text{EN: "with Config.Sequential, each call goes through its start, its run, its end and its result message before the next call starts: part 1's batch takes 0.9 s, the sum of its calls", ZH: "设置了 Config.Sequential 时，每个调用都走完开始、运行、结束和结果消息，下一个调用才开始：第 1 部分的这一批用 0.9 s，即所有调用之和"}},
					{Test: "TestASequentialBatchEndsAFailedCallAtOnce", Text: Text{EN: "in a sequential batch, a call that fails preparation ends at once, and gets its result message before the next call starts", ZH: "在顺序执行的一批里，没通过准备阶段的调用立刻结束，并在下一个调用开始之前得到它的结果消息"}},
					{Test: "TestASequentialToolSerialisesItsWholeBatch", Text: Text{EN: "a batch that calls a Sequential tool runs one call at a time, although the config does not ask for it", ZH: "调用了 Sequential 工具的一批，即使配置没有要求，也一次只执行一个调用"}},
					{Test: "TestACancelStopsASequentialBatch", Text: Text{EN: "once the run is cancelled, a sequential batch starts no further call", ZH: "运行一旦被取消，顺序执行的一批就不再开始任何调用"}},
				},
				Hints: []Text{
					{EN: `The body is a for loop over msg.ToolCalls with one result per pass:
r.emit(toolStart(call)); p, immediate := r.prepareToolCall(msg, call);
outcomes := make([]outcome, 1). If immediate != nil, outcomes[0] =
*immediate and emit immediate.end(); otherwise r.execute(msg,
[]prepared{p}, outcomes) runs it and emits its end. Then
result := outcomes[0].message(), emit MessageStart{result} and
MessageEnd{result}, append it, and check r.ctx.Err().`,
						ZH: `函数体是一个遍历 msg.ToolCalls 的 for 循环，每一遍得到一个结果：
r.emit(toolStart(call))；p, immediate := r.prepareToolCall(msg, call)；
outcomes := make([]outcome, 1)。如果 immediate != nil，就令
outcomes[0] = *immediate，并发出 immediate.end()；否则由
r.execute(msg, []prepared{p}, outcomes) 运行它并发出它的 end。然后
result := outcomes[0].message()，发出 MessageStart{result} 和
MessageEnd{result}，把它追加进结果，再检查 r.ctx.Err()。`},
					{EN: `The choice in executeToolCalls: r.cfg.Sequential || any call's tool
is Sequential. In the function you write, tool, ok :=
findTool(r.cfg.Tools, c.Name), and the call counts only if the tool
exists (ok) and is Sequential.`,
						ZH: `executeToolCalls 里的选择是：r.cfg.Sequential || 某个调用的工具是
Sequential。在你写的这个函数里，tool, ok :=
findTool(r.cfg.Tools, c.Name)，只有工具存在（ok）并且是 Sequential，
这个调用才算数。`},
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
