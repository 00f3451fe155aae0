package track

func init() {
	register(Lab{
		Name: "02-loop",
		Idea: Text{EN: "The agent loop: ask with the full history, run the tools, append each result, ask again.", ZH: "Agent Loop：带着完整历史请求模型，执行工具，回填每个结果，再问一次。"},
		Exercises: []Exercise{{
			ID:      "run-loop",
			Title:   Text{EN: "the six steps of runLoop", ZH: "runLoop 的六步"},
			Section: "Build it yourself",
			Regions: []Region{{
				File: "loop.go",
				ID:   "run-loop",
				TODO: Text{EN: `TODO: write the agent loop in six steps. README.md, section
"Build it yourself", explains each; go run ./labs check 02-loop says
which rule is still broken.
 1. The prompt becomes the first message of the history.
 2. Each turn, ask the model with the full history and specs(tools), and
    append its reply. A failed request ends the run, wrapped as
    "turn N: ask the model: ...".
 3. A reply without tool calls is the answer: return the history, the
    number of turns and StopReason Completed.
 4. Run each tool call with execute. Its error ends the run, wrapped as
    "turn N: ...".
 5. Append each result to the history: a fakemodel.ToolResultMessage with
    the call's ID and the tool's name.
 6. Go back to step 2.`,
					ZH: `TODO：分六步写出 Agent Loop。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节逐步讲解；go run ./labs check 02-loop
会告诉你哪条规则还没满足。
 1. 提示词成为历史的第一条消息。
 2. 每一轮带着完整历史和 specs(tools) 请求模型，把回复追加进历史。
    请求失败就结束运行，错误包装成 "turn N: ask the model: ..."。
 3. 不带工具调用的回复就是答案：返回历史、轮数和
    StopReason Completed。
 4. 用 execute 执行每个工具调用。它的错误结束运行，包装成 "turn N: ..."。
 5. 把每个结果追加进历史：一条 fakemodel.ToolResultMessage，带上
    调用的 ID 和工具名。
 6. 回到第 2 步。`},
				Code: `return Result{}, fmt.Errorf("runLoop is not written yet")`,
			}},
			Rules: []Rule{
				{Test: "TestTheFirstRequestCarriesThePromptAndTheTools", Text: Text{EN: "steps 1 and 2: the first request holds the prompt, and offers the tools", ZH: "第 1、2 步：第一次请求包含提示词，并提供工具"}},
				{Test: "TestAFailingModelStopsThisLoop", Text: Text{EN: `step 2: a failed request ends the run with its error, wrapped as "turn N: ask the model: …"`, ZH: `第 2 步：请求失败，运行就带着它的错误结束，错误包装成 "turn N: ask the model: …"`}},
				{Test: "TestAReplyWithoutToolCallsIsTheAnswer", Text: Text{EN: "steps 2 and 3: the reply reaches the history, and a reply without tool calls ends the loop with stop reason completed", ZH: "第 2、3 步：回复进入历史；不带工具调用的回复结束循环，停止原因为 completed"}},
				{Test: "TestAFailingToolStopsThisLoop", Text: Text{EN: `step 4: the loop runs the tool the model asked for, and a failing tool ends the run, wrapped as "turn N: …"`, ZH: `第 4 步：循环执行模型要求的工具；工具失败则结束运行，错误包装成 "turn N: …"`}},
				{Test: "TestUnknownToolStopsThisLoop", Text: Text{EN: "step 4: a call of a tool that does not exist ends the run with execute's error", ZH: "第 4 步：调用一个不存在的工具，运行以 execute 返回的错误结束"}},
				{Test: "TestCalculatorTakesTwoTurnsAndFourMessages", Text: Text{EN: "step 5: each tool result reaches the history, so the calculator run takes 2 turns and ends with 4 messages", ZH: "第 5 步：每个工具结果都进入历史，所以计算器这次运行用 2 轮，结束时有 4 条消息"}},
				{Test: "TestEveryToolCallOfAReplyRunsInOrder", Text: Text{EN: "steps 4 and 5: every tool call of a reply runs, not only the first, and each result reaches the history in the order of the calls", ZH: "第 4、5 步：一条回复里的每个工具调用都会执行，不只是第一个；每个结果按调用的顺序进入历史"}},
				{Test: "TestEveryRequestCarriesTheFullHistory", Text: Text{EN: "step 2: every request carries the full history, the tool result included", ZH: "第 2 步：每次请求都带着完整历史，工具结果也在其中"}},
				{Test: "TestNothingStopsAStubbornModel", Text: Text{EN: "step 6: the loop goes on while the model asks for tools, until a request fails", ZH: "第 6 步：只要模型还在要工具，循环就一直继续，直到某次请求失败"}},
			},
			Hints: []Text{
				{EN: `Start with steps 1 to 3. history is a []fakemodel.Message that holds
fakemodel.UserMessage{Text: prompt}. Ask with
model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)});
if that fails,
return Result{}, fmt.Errorf("turn %d: ask the model: %w", turn, err),
with turn := 1 before it until you write the loop of step 6. Otherwise
append the reply to history, and return when len(reply.ToolCalls) == 0.
That passes the first three rules.`,
					ZH: `先写第 1 到 3 步。history 是一个 []fakemodel.Message，里面放着
fakemodel.UserMessage{Text: prompt}。用
model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)})
请求模型；请求失败就
return Result{}, fmt.Errorf("turn %d: ask the model: %w", turn, err)，
在写出第 6 步的循环之前，先在前面写一句 turn := 1。请求成功就把回复
追加进 history；len(reply.ToolCalls) == 0 时返回。这样前三条规则就能
通过。`},
				{EN: `The loop is "for turn := 1; ; turn++ { ... }": it has no condition, and
only a return leaves it. Every return says how far the run got:
Result{History: history, Turns: turn}, with StopReason: Completed for the
answer. Wrap errors with fmt.Errorf("turn %d: ...: %w", turn, err).`,
					ZH: `循环写成 "for turn := 1; ; turn++ { ... }"：它没有条件，只有 return
能离开它。每个 return 都要说明运行走到了哪里：
Result{History: history, Turns: turn}，给出答案时再加上
StopReason: Completed。错误这样包装：
fmt.Errorf("turn %d: ...: %w", turn, err)。`},
				{EN: `Steps 4 and 5: for each call in reply.ToolCalls, run
output, err := execute(ctx, tools, call), then append
fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name,
Content: output} to history. Without the append, the model never sees the
result and asks for it again, turn after turn.`,
					ZH: `第 4、5 步：对 reply.ToolCalls 里的每个 call，先执行
output, err := execute(ctx, tools, call)，再把
fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name,
Content: output} 追加进 history。少了这次追加，模型永远看不到结果，
于是一轮又一轮地再要同一个工具。`},
			},
		}},
		Mistakes: []Mistake{
			{
				Name: "a result not appended",
				File: "loop.go",
				Old:  "history = append(history, fakemodel.ToolResultMessage{",
				New:  "_ = append(history, fakemodel.ToolResultMessage{",
				Rule: "TestCalculatorTakesTwoTurnsAndFourMessages",
			},
			{
				Name: "only the first tool call of a reply run",
				File: "loop.go",
				Old:  "for _, call := range reply.ToolCalls {",
				New:  "for _, call := range reply.ToolCalls[:1] {",
				Rule: "TestEveryToolCallOfAReplyRunsInOrder",
			},
			{
				Name: "the reply not appended",
				File: "loop.go",
				Old:  "\t\thistory = append(history, reply)\n",
				New:  "",
				Rule: "TestAReplyWithoutToolCallsIsTheAnswer",
			},
			{
				Name: "only the newest message sent",
				File: "loop.go",
				Old:  "fakemodel.Request{Messages: history, ",
				New:  "fakemodel.Request{Messages: history[len(history)-1:], ",
				Rule: "TestEveryRequestCarriesTheFullHistory",
			},
		},
	})
}
