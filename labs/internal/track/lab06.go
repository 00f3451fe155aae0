package track

func init() {
	register(Lab{
		Name: "06-steering",
		Idea: Text{EN: "Steering and follow-up queues, and Pi's two-level loop that polls them."},
		Exercises: []Exercise{
			{
				ID:      "drain",
				Title:   Text{EN: "the queues' two drain modes"},
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
    polls change. No message is ever lost or taken twice.`},
					Code: `return nil`,
				}},
				Rules: []Rule{
					{Test: "TestOneAtATimeTakesOneMessagePerPoll", Text: Text{EN: "a poll in mode one-at-a-time takes one message, the oldest, and leaves the others queued in order"}},
					{Test: "TestAllTakesEveryQueuedMessage", Text: Text{EN: "a poll in mode all takes every queued message, oldest first, and leaves the queue empty"}},
					{Test: "TestAQueueNeverLosesAMessage", Text: Text{EN: "a queue never loses a message: a poll's messages are its own, and goroutines may add while the loop polls"}},
				},
				Hints: []Text{
					{EN: `Start with q.mu.Lock() and defer q.mu.Unlock(). Then work out n, how
many messages this poll takes: len(q.messages) in mode All, and at most
1 otherwise (min(n, 1) is 0 for an empty queue).`},
					{EN: `Copy the first n messages before you remove them:
taken := slices.Clone(q.messages[:n]). Then remove them from the queue
with slices.Delete(q.messages, 0, n). Without the copy, taken shares its
array with q.messages, and the next change to the queue rewrites it.`},
				},
			},
			{
				ID:      "terminate",
				Title:   Text{EN: "terminate only when every result asks"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "batch.go",
					ID:   "terminate",
					TODO: Text{EN: `TODO: set b.terminate, the batch's request to stop the run. README.md,
section "Build it yourself", explains it. It is true only if the batch
has results and every outcome asks to terminate (o.terminate): one call
that still expects the model to go on is enough to go on.`},
				}},
				Rules: []Rule{
					{Test: "TestABatchTerminatesOnlyIfEveryResultAsks", Text: Text{EN: "a batch terminates the run only if it has results and every one of them asks to"}},
				},
				Hints: []Text{
					{EN: `"Every outcome asks" is "no outcome does not ask". slices.ContainsFunc
finds an outcome with !o.terminate. Mind the empty batch: no outcome
does not ask, and still it must not terminate.`},
				},
			},
			{
				ID:      "two-level-loop",
				Title:   Text{EN: "Pi's two-level loop and its polls"},
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
    with AgentEnd{Messages: r.added}.`},
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
					{Test: "TestFirstSteeringPollComesBeforeTheFirstRequest", Text: Text{EN: "the first steering poll comes before the first request: a message steered while the agent was idle enters turn 1, after the prompt"}},
					{Test: "TestSteeringWaitsForTheWholeBatch", Text: Text{EN: "after each turn the loop polls for steering: a message steered during a batch enters after the batch's turn_end, before the next request"}},
					{Test: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_the_tool_call_and_the_steering_message", Text: Text{EN: "the follow-up poll comes when the run would otherwise end, and a follow-up gets a turn of its own"}},
					{Test: "TestFollowUpsComeOnlyWhenTheRunWouldEnd/after_every_steering_message", Text: Text{EN: "the inner loop goes on while steering messages are pending: a steering message taken after the model's answer gets its turn before any follow-up"}},
					{Test: "TestTerminate", Text: Text{EN: "a batch whose every result asks to terminate ends the run after its turn_end, but a waiting steering or follow-up message still gets its turn"}},
					{Test: "TestAStopNeverTakesASteeringMessage", Text: Text{EN: "ShouldStopAfterTurn is asked before the steering poll, so a stop leaves the steering message queued for the next run"}},
					{Test: "TestHooksAfterATurnRunInPisOrder", Text: Text{EN: "after turn_end, in Pi's order: PrepareNextTurn, ShouldStopAfterTurn, the steering poll; the follow-up poll only at the end"}},
					{Test: "TestQueueModes", Text: Text{EN: "through the Agent, three queued messages take a turn each in mode one-at-a-time, or share one in mode all"}},
					{Test: "TestErrorAndAbortedEndTheRunAfterTurnEnd", Text: Text{EN: "a failed or aborted request ends the run right after its turn_end: no hook and no poll, and the queues keep their messages"}},
					{Test: "TestNothingIsLost", Text: Text{EN: "however runs end, every queued message enters the history once, in order, or is still queued"}},
				},
				Hints: []Text{
					{EN: `Keep the pending messages in a variable, pending, outside both loops:
pending := poll(r.cfg.GetSteeringMessages) before the first turn. At the
top of each turn, after its turn_start, append each pending message to
the history with r.append(m), emit MessageStart{m} and MessageEnd{m},
then set pending = nil. That passes the first rule.`},
					{EN: `Two loops, one inside the other. The inner one is
for moreToolCalls || len(pending) > 0 { ... }, with moreToolCalls := true
before it; after the batch, moreToolCalls = len(reply.ToolCalls) > 0 &&
!b.terminate. Its last statement is the steering poll,
pending = poll(r.cfg.GetSteeringMessages), after the ShouldStopAfterTurn
check: a poll takes messages out of the queue, and a stop after it would
drop them.`},
					{EN: `The outer loop is a plain for { ... }. After the inner loop, poll for
follow-ups: if pending = poll(r.cfg.GetFollowUpMessages) holds nothing,
return r.emit(AgentEnd{Messages: r.added}); otherwise the outer loop goes
round and the inner one runs again with them pending. Keep the
turn_start of the very first turn out: start emitted it (firstTurn).`},
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
