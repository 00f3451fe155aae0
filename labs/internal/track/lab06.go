package track

func init() {
	register(Lab{
		Name: "06-steering",
		Idea: Text{
			EN: "Steering and follow-up queues, and Pi's two-level loop that polls them.",
			ZH: "插队消息队列和后续消息队列，以及轮询它们的 Pi 两层循环。",
		},
		Exercises: []Exercise{
			{
				ID:      "drain",
				Title:   Text{EN: "the queues' two drain modes", ZH: "队列 drain 的两种模式"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "queue.go",
					ID:   "drain",
					TODO: Text{EN: `TODO: take the messages of one poll out of the queue, oldest first.
README.md, section "Build it yourself", explains it; go run ./labs check
06-steering says which rule is still broken.
 1. Hold q.mu while you read and change q.messages: Steer and FollowUp
    add to the queue from other goroutines, at any time.
 2. Mode OneAtATime takes the oldest message, or none if the queue is
    empty; mode All takes every queued message.
 3. What a poll takes leaves the queue; the rest stays, in order. Return
    a slice of your own, not a part of q.messages, which later adds and
    polls change. No message is ever lost or taken twice.`,
						ZH: `TODO：取出一次轮询的消息，最早的在前。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节有讲解；go run ./labs check 06-steering
会告诉你哪条规则还没满足。
 1. 读写 q.messages 时要持有 q.mu：Steer 和 FollowUp 会在任何时候从
    别的 goroutine 往队列里加消息。
 2. OneAtATime 模式取走最早的那条消息，队列为空时一条也不取；All
    模式取走所有排队的消息。
 3. 取走的消息离开队列，其余的按原来的顺序留下。返回一个属于你自己
    的切片，而不是 q.messages 的一部分：之后的添加和轮询会改动它。
    任何消息都不能丢，也不能被取走两次。`},
					Code: `return nil`,
				}},
				Rules: []Rule{
					{Test: "TestOneAtATimeTakesOneMessagePerPoll", Text: Text{
						EN: "a poll in mode one-at-a-time takes one message, the oldest, and leaves the others queued in order",
						ZH: "one-at-a-time 模式下，一次轮询取走一条消息，即最早的那条，其余的按顺序留在队列里",
					}},
					{Test: "TestAllTakesEveryQueuedMessage", Text: Text{
						EN: "a poll in mode all takes every queued message, oldest first, and leaves the queue empty",
						ZH: "all 模式下，一次轮询取走所有排队的消息，最早的在前，队列随之清空",
					}},
					{Test: "TestAQueueNeverLosesAMessage", Text: Text{
						EN: "a queue never loses a message: a poll's messages are its own, a poll holds q.mu as add does, and goroutines may add while the loop polls",
						ZH: "队列从不丢消息：一次轮询取到的消息归它自己所有；轮询和 add 一样持有 q.mu；循环轮询的同时，其他 goroutine 也可以往里加",
					}},
				},
				Hints: []Text{
					{EN: `Start with q.mu.Lock() and defer q.mu.Unlock(). Then work out n, how
many messages this poll takes: len(q.messages) in mode All, and at most
1 otherwise (min(n, 1) is 0 for an empty queue).`,
						ZH: `先写 q.mu.Lock() 和 defer q.mu.Unlock()。再算出 n，即这次轮询取走
几条消息：All 模式下是 len(q.messages)，否则最多 1 条（队列为空时
min(n, 1) 是 0）。`},
					{EN: `Copy the first n messages before you remove them:
taken := slices.Clone(q.messages[:n]). Then remove them from the queue
with slices.Delete(q.messages, 0, n). Without the copy, taken shares its
array with q.messages, and the next change to the queue rewrites it.`,
						ZH: `先复制前 n 条消息，再删除它们：
taken := slices.Clone(q.messages[:n])。然后用
slices.Delete(q.messages, 0, n) 把它们从队列里删掉。不复制的话，taken
和 q.messages 共用同一个底层数组，队列的下一次改动就会改写它。`},
				},
			},
			{
				ID:      "terminate",
				Title:   Text{EN: "terminate only when every result asks", ZH: "只有每个结果都要求时才终止"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "batch.go",
					ID:   "terminate",
					TODO: Text{EN: `TODO: set b.terminate, the batch's request to stop the run. README.md,
section "Build it yourself", explains it. It is true only if the batch
has results and every outcome asks to terminate (o.terminate): one call
that still expects the model to go on is enough to go on.`,
						ZH: `TODO：设置 b.terminate，即这一批对“停止运行”的要求。README.zh-CN.md
的「自己动手写（Build it yourself）」一节有讲解。只有这一批有结果、
并且每个 outcome 都要求终止（o.terminate）时，它才为 true：只要有
一个调用还指望模型继续，运行就要继续。`},
				}},
				Rules: []Rule{
					{Test: "TestABatchTerminatesOnlyIfEveryResultAsks", Text: Text{
						EN: "a batch terminates the run only if it has results and every one of them asks to",
						ZH: "只有一批调用有结果、并且每个结果都要求终止时，它才终止运行",
					}},
				},
				Hints: []Text{
					{EN: `"Every outcome asks" is "no outcome does not ask". slices.ContainsFunc
finds an outcome with !o.terminate. Mind the empty batch: no outcome
does not ask, and still it must not terminate.`,
						ZH: `“每个 outcome 都要求”就是“没有哪个 outcome 不要求”。
slices.ContainsFunc 能找出 !o.terminate 的 outcome。留意空批次：
它也没有哪个 outcome 不要求，可它仍然不能终止。`},
				},
			},
			{
				ID:      "two-level-loop",
				Title:   Text{EN: "Pi's two-level loop and its polls", ZH: "Pi 的两层循环及其轮询"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "loop.go",
					ID:   "two-level-loop",
					TODO: Text{EN: `TODO: make this loop Pi's two-level loop. README.md, section "Build it
yourself", explains it; go run ./labs check 06-steering says which rule
is still broken. Below is lab 05's loop in this lab's plumbing: it runs
turns while the model asks for tools, and never looks at the queues.
 1. Before the first request, poll for steering messages
    (poll(r.cfg.GetSteeringMessages)): they are pending.
 2. At the start of each turn, the pending messages enter the history,
    each with r.append and MessageStart, MessageEnd; then none is pending.
 3. After each turn, once ShouldStopAfterTurn has said go on, poll for
    steering again. Never before it: a stop must leave the queue alone.
 4. The inner loop runs turns while the model asks for tools or
    steering messages are pending. A batch whose results all ask to
    terminate (b.terminate) asks for no more tool calls.
 5. When the inner loop ends, poll for follow-ups
    (poll(r.cfg.GetFollowUpMessages)): if there are any, they are
    pending, and the outer loop goes round again; if not, the run ends
    with AgentEnd{Messages: r.added}.`,
						ZH: `TODO：把这个循环改成 Pi 的两层循环。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节有讲解；go run ./labs check 06-steering
会告诉你哪条规则还没满足。
下面是实验 05 的循环，套在本实验的管线里：只要模型还要工具，它就
一轮接一轮地跑，从不看队列。
 1. 第一次请求之前，轮询插队消息（poll(r.cfg.GetSteeringMessages)）：
    取到的消息就是待处理的（pending）。
 2. 每一轮开始时，待处理的消息进入历史，每条都用 r.append，并发出
    MessageStart、MessageEnd；之后就没有待处理的消息了。
 3. 每一轮之后，等 ShouldStopAfterTurn 说了继续，再轮询一次插队消息。
    绝不能排在它前面：停下时不能动队列。
 4. 只要模型还要工具，或者还有待处理的插队消息，内层循环就一轮接一轮
    地跑。结果全都要求终止的批次（b.terminate）不会再让循环为工具
    调用继续转。
 5. 内层循环结束时，轮询后续消息（poll(r.cfg.GetFollowUpMessages)）：
    有的话，它们就是待处理的，外层循环再转一圈；没有的话，运行以
    AgentEnd{Messages: r.added} 结束。`},
					Code: `for firstTurn := true; ; firstTurn = false {
	if !firstTurn { // start emitted the first turn_start
		if err := r.emit(TurnStart{}); err != nil {
			return err
		}
	}
	reply, err := r.streamAssistantResponse()
	if err != nil {
		return err
	}
	r.append(reply)
	if reply.StopReason == fakemodel.StopReasonError || reply.StopReason == fakemodel.StopReasonAborted {
		return r.emitAll(TurnEnd{Message: reply}, AgentEnd{Messages: r.added})
	}

	var b batch
	if len(reply.ToolCalls) > 0 {
		if reply.StopReason == fakemodel.StopReasonLength {
			b, err = r.failTruncatedToolCalls(reply)
		} else {
			b, err = r.executeToolCalls(reply)
		}
		if err != nil {
			return err
		}
		for _, res := range b.results {
			r.append(res)
		}
	}
	if err := r.emit(TurnEnd{Message: reply, ToolResults: b.results}); err != nil {
		return err
	}

	// After turn_end, in Pi's order: prepare the next turn, then ask
	// whether to stop.
	turn := TurnContext{Message: reply, ToolResults: b.results, Messages: slices.Clip(r.history), NewMessages: slices.Clip(r.added)}
	if r.cfg.PrepareNextTurn != nil {
		if next := r.cfg.PrepareNextTurn(r.ctx, turn); next.Model != nil {
			r.cfg.Model = next.Model
		}
	}
	if r.cfg.ShouldStopAfterTurn != nil && r.cfg.ShouldStopAfterTurn(r.ctx, turn) {
		return r.emit(AgentEnd{Messages: r.added})
	}
	if len(reply.ToolCalls) == 0 { // the model answered
		return r.emit(AgentEnd{Messages: r.added})
	}
}`,
				}},
				Rules: []Rule{
					{Test: "TestFirstSteeringPollComesBeforeTheFirstRequest", Text: Text{
						EN: "the first steering poll comes before the first request: a message steered while the agent was idle enters turn 1, after the prompt",
						ZH: "第一次插队轮询在第一次请求之前：Agent 空闲时发来的插队消息进入第 1 轮，排在提示词之后",
					}},
					{Test: "TestSteeringWaitsForTheWholeBatch", Text: Text{
						EN: "after each turn the loop polls for steering: a message steered during a batch enters after the batch's turn_end, before the next request",
						ZH: "每一轮之后，循环轮询插队消息：一批调用运行期间发来的插队消息，在这一批的 turn_end 之后、下一次请求之前进入",
					}},
					{Test: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_the_tool_call_and_the_steering_message", Text: Text{
						EN: "the follow-up poll comes when the run would otherwise end, and a follow-up gets a turn of its own",
						ZH: "后续轮询只在运行本来要结束时才来，一条后续消息单独得到一轮",
					}},
					{Test: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_every_steering_message", Text: Text{
						EN: "the inner loop goes on while steering messages are pending: a steering message taken after the model's answer gets its turn before any follow-up",
						ZH: "只要还有插队消息待处理，内层循环就继续：在模型回答之后取到的插队消息，先于任何后续消息得到它的那一轮",
					}},
					{Test: "TestTerminate", Text: Text{
						EN: "a batch whose every result asks to terminate ends the run after its turn_end, but a waiting steering or follow-up message still gets its turn",
						ZH: "每个结果都要求终止的批次，在它的 turn_end 之后结束运行，但等着的插队消息或后续消息仍然得到它的那一轮",
					}},
					{Test: "TestAStopNeverTakesASteeringMessage", Text: Text{
						EN: "ShouldStopAfterTurn is asked before the steering poll, so a stop leaves the steering message queued for the next run",
						ZH: "ShouldStopAfterTurn 在插队轮询之前被询问，所以停下时插队消息仍留在队列里，等下一次运行",
					}},
					{Test: "TestHooksAfterATurnRunInPisOrder", Text: Text{
						EN: "after turn_end, in Pi's order: PrepareNextTurn, ShouldStopAfterTurn, the steering poll; the follow-up poll only at the end",
						ZH: "turn_end 之后按 Pi 的顺序：PrepareNextTurn、ShouldStopAfterTurn、插队轮询；后续轮询只在最后",
					}},
					{Test: "TestQueueModes", Text: Text{
						EN: "through the Agent, three queued messages take a turn each in mode one-at-a-time, or share one in mode all",
						ZH: "通过 Agent，三条排队的消息在 one-at-a-time 模式下各占一轮，在 all 模式下共用一轮",
					}},
					{Test: "TestErrorAndAbortedEndTheRunAfterTurnEnd", Text: Text{
						EN: "a failed or aborted request ends the run right after its turn_end: no hook and no poll, and the queues keep their messages",
						ZH: "失败或被中止的请求在它的 turn_end 之后立刻结束运行：不调用钩子，不轮询，队列保留它们的消息",
					}},
					{Test: "TestNothingIsLost", Text: Text{
						EN: "however runs end, every queued message enters the history once, in order, or is still queued",
						ZH: "不管运行怎样结束，每条排过队的消息要么恰好进入历史一次、保持顺序，要么仍在队列里",
					}},
				},
				Hints: []Text{
					{EN: `Keep the pending messages in a variable, pending, outside both loops:
pending := poll(r.cfg.GetSteeringMessages) before the first turn. At the
top of each turn, after its turn_start, append each pending message to
the history with r.append(m), emit MessageStart{m} and MessageEnd{m},
then set pending = nil. That passes the first rule.`,
						ZH: `把待处理的消息放在两层循环之外的一个变量 pending 里：第一轮之前写
pending := poll(r.cfg.GetSteeringMessages)。每一轮的开头，在它的
turn_start 之后，用 r.append(m) 把每条待处理消息追加进历史，发出
MessageStart{m} 和 MessageEnd{m}，然后设 pending = nil。这样第一条
规则就能通过。`},
					{EN: `Two loops, one inside the other. The inner one is
for moreToolCalls || len(pending) > 0 { ... }, with moreToolCalls := true
before it; after the batch, moreToolCalls = len(reply.ToolCalls) > 0 &&
!b.terminate. Its last statement is the steering poll,
pending = poll(r.cfg.GetSteeringMessages), after the ShouldStopAfterTurn
check: a poll takes messages out of the queue, and a stop after it would
drop them.`,
						ZH: `两个循环，一个套在另一个里面。内层是
for moreToolCalls || len(pending) > 0 { ... }，它前面写
moreToolCalls := true；这一批执行完之后，moreToolCalls =
len(reply.ToolCalls) > 0 && !b.terminate。内层循环体的最后一条语句
是插队轮询 pending = poll(r.cfg.GetSteeringMessages)，放在
ShouldStopAfterTurn 的检查之后：轮询会把消息从队列里取出来，如果在
它之后停下，这些消息就丢了。`},
					{EN: `The outer loop is a plain for { ... }. After the inner loop, poll for
follow-ups: if pending = poll(r.cfg.GetFollowUpMessages) holds nothing,
return r.emit(AgentEnd{Messages: r.added}); otherwise the outer loop goes
round and the inner one runs again with them pending. Keep the
turn_start of the very first turn out: start emitted it (firstTurn).`,
						ZH: `外层循环就是一个普通的 for { ... }。内层循环之后轮询后续消息：如果
pending = poll(r.cfg.GetFollowUpMessages) 什么也没取到，就
return r.emit(AgentEnd{Messages: r.added})；否则外层循环再转一圈，
内层循环带着这些待处理的消息再跑一次。最开始那一轮不要再发
turn_start：start 已经发过了（firstTurn）。`},
				},
			},
		},
		Mistakes: []Mistake{
			{
				Name: "a queue that drains all in mode one-at-a-time",
				File: "queue.go",
				Old:  "\tif q.mode != All {\n\t\tn = min(n, 1)\n\t}\n",
				New:  "",
				Rule: "TestOneAtATimeTakesOneMessagePerPoll",
			},
			{
				Name: "a poll without q.mu",
				File: "queue.go",
				Old:  "\tq.mu.Lock()\n\tdefer q.mu.Unlock()\n\tn := len(q.messages)\n",
				New:  "\tn := len(q.messages)\n",
				Rule: "TestAQueueNeverLosesAMessage",
			},
			{
				Name: "terminate on any result instead of every result",
				File: "batch.go",
				Old:  "!slices.ContainsFunc(outcomes, func(o outcome) bool { return !o.terminate })",
				New:  "slices.ContainsFunc(outcomes, func(o outcome) bool { return o.terminate })",
				Rule: "TestABatchTerminatesOnlyIfEveryResultAsks",
			},
			{
				Name: "no steering poll before the first request",
				File: "loop.go",
				Old:  "pending := poll(r.cfg.GetSteeringMessages)",
				New:  "var pending []fakemodel.Message",
				Rule: "TestFirstSteeringPollComesBeforeTheFirstRequest",
			},
			{
				Name: "no steering poll after a turn",
				File: "loop.go",
				Old:  "\t\t\tpending = poll(r.cfg.GetSteeringMessages)\n",
				New:  "",
				Rule: "TestSteeringWaitsForTheWholeBatch",
			},
			{
				Name: "no follow-up poll",
				File: "loop.go",
				Old:  "if pending = poll(r.cfg.GetFollowUpMessages); len(pending) == 0 {",
				New:  "if len(pending) == 0 {",
				Rule: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_the_tool_call_and_the_steering_message",
			},
			{
				Name: "follow-ups polled while steering messages wait (the inner loop ends with steering messages pending)",
				File: "loop.go",
				Old:  "for moreToolCalls || len(pending) > 0 {",
				New:  "for moreToolCalls {",
				Rule: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_every_steering_message",
			},
			{
				Name: "terminate ignored by the loop",
				File: "loop.go",
				Old:  "moreToolCalls = len(reply.ToolCalls) > 0 && !b.terminate",
				New:  "moreToolCalls = len(reply.ToolCalls) > 0",
				Rule: "TestTerminate",
			},
			{
				Name: "the stop check after the steering poll (a stop takes and drops a steering message)",
				File: "loop.go",
				Old: `			if r.cfg.ShouldStopAfterTurn != nil && r.cfg.ShouldStopAfterTurn(r.ctx, turn) {
				return r.emit(AgentEnd{Messages: r.added})
			}
			pending = poll(r.cfg.GetSteeringMessages)
`,
				New: `			pending = poll(r.cfg.GetSteeringMessages)
			if r.cfg.ShouldStopAfterTurn != nil && r.cfg.ShouldStopAfterTurn(r.ctx, turn) {
				return r.emit(AgentEnd{Messages: r.added})
			}
`,
				Rule: "TestAStopNeverTakesASteeringMessage",
			},
		},
	})
}
