package track

func init() {
	register(Lab{
		Name: "01-no-loop",
		Idea: Text{EN: "One request: the model asks for a tool, and nothing runs it.", ZH: "一次请求：模型要求调用工具，却没有任何东西运行它。"},
		Exercises: []Exercise{{
			ID:      "one-request",
			Title:   Text{EN: "the single request and what the reply asks for", ZH: "那一次请求，以及回复要了什么"},
			Section: "Build it yourself",
			Regions: []Region{
				{
					File: "main.go",
					ID:   "ask-once",
					TODO: Text{EN: `TODO: send this lab's one request. README.md, section "Build it
yourself", explains it; go run ./labs check 01-no-loop says which rule
is still broken.
 1. The prompt becomes the first message of the history, a
    fakemodel.UserMessage.
 2. Ask the model once, with the history and the calculator's spec,
    calculateSpec. A failed request ends the program, wrapped as
    "ask the model: ...".
 3. Append the reply to the history, and return the history. Run no
    tool and ask no second time: this lab stops after one request.`,
						ZH: `TODO：发出本实验唯一的那次请求。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节有讲解；go run ./labs check 01-no-loop
会告诉你哪条规则还没满足。
 1. 提示词成为历史的第一条消息，类型是 fakemodel.UserMessage。
 2. 带着历史和计算器的工具说明 calculateSpec，向模型请求一次。
    请求失败就结束程序，错误包装成 "ask the model: ..."。
 3. 把回复追加到历史，再返回历史。不运行任何工具，也不问第二次：
    本实验发出一次请求就停。`},
					Code: `return nil, fmt.Errorf("askOnce is not written yet")`,
				},
				{
					File: "main.go",
					ID:   "unanswered",
					TODO: Text{EN: `TODO: return what the model asked for and nothing answered: each tool
call of each fakemodel.AssistantMessage in history for which no
fakemodel.ToolResultMessage exists. resultFor(history, call.ID) finds
the result of a call.`,
						ZH: `TODO：返回模型要了、却没有任何东西回应的调用：history 里每条
fakemodel.AssistantMessage 的每个工具调用，只要没有对应的
fakemodel.ToolResultMessage，就算一个。resultFor(history, call.ID)
会找出一次调用的结果。`},
					Code: `return nil`,
				},
			},
			Rules: []Rule{
				{Test: "TestTheRequestCarriesThePromptAndTheTool", Text: Text{EN: "askOnce sends one request, which holds the prompt and offers the calculator", ZH: "askOnce 发出一次请求，请求里带着提示词，并提供计算器"}},
				{Test: "TestModelFailureIsReported", Text: Text{EN: `a failed request ends the program with its error, wrapped as "ask the model: …"`, ZH: `请求失败时，程序带着这个错误结束，错误包装成 "ask the model: …"`}},
				{Test: "TestTheHistoryHoldsThePromptAndTheReply", Text: Text{EN: "the reply is appended: the history holds the prompt and the reply, 2 messages, and no tool result", ZH: "回复被追加进历史：历史里是提示词和回复，共 2 条消息，没有工具结果"}},
				{Test: "TestOneRequestLeavesTheToolCallUnanswered", Text: Text{EN: "the reply asks for calculate, and nothing runs it: unanswered lists call_1", ZH: "回复要求调用 calculate，但没有东西运行它：unanswered 列出 call_1"}},
				{Test: "TestACallWithAResultIsAnswered", Text: Text{EN: "unanswered lists only the calls that no tool result answers", ZH: "unanswered 只列出没有工具结果回答的调用"}},
			},
			Hints: []Text{
				{EN: `askOnce first. history is a []fakemodel.Message that holds
fakemodel.UserMessage{Text: prompt}. Ask with
model.Reply(ctx, fakemodel.Request{Messages: history,
Tools: []fakemodel.ToolSpec{calculateSpec}}), and wrap its error as
fmt.Errorf("ask the model: %w", err). That passes the first two rules.`,
					ZH: `先写 askOnce。history 是一个 []fakemodel.Message，里面放着
fakemodel.UserMessage{Text: prompt}。用
model.Reply(ctx, fakemodel.Request{Messages: history,
Tools: []fakemodel.ToolSpec{calculateSpec}}) 发出请求，错误用
fmt.Errorf("ask the model: %w", err) 包装。这样前两条规则就能通过。`},
				{EN: `Return append(history, reply), nil. The reply holds a tool call,
call_1: leave it alone. Running it, and asking again, is lab 02's loop.`,
					ZH: `返回 append(history, reply), nil。回复里有一个工具调用 call_1：
别去动它。运行它、再问一次，是实验 02 的循环要做的事。`},
				{EN: `unanswered: walk the history; for each message that is a
fakemodel.AssistantMessage (a, ok := m.(fakemodel.AssistantMessage)),
look at each call in a.ToolCalls, and keep it if
resultFor(history, call.ID) finds no result.`,
					ZH: `unanswered：遍历历史；对每条是 fakemodel.AssistantMessage 的消息
（a, ok := m.(fakemodel.AssistantMessage)），逐个查看 a.ToolCalls
里的调用，如果 resultFor(history, call.ID) 找不到结果，就留下它。`},
			},
		}},
		Mistakes: []Mistake{
			{
				Name: "the tool not offered",
				File: "main.go",
				Old:  "Tools:    []fakemodel.ToolSpec{calculateSpec},",
				New:  "Tools:    nil,",
				Rule: "TestTheRequestCarriesThePromptAndTheTool",
			},
			{
				Name: "the reply not appended",
				File: "main.go",
				Old:  "return append(history, reply), nil",
				New:  "_ = append(history, reply)\n\treturn history, nil",
				Rule: "TestTheHistoryHoldsThePromptAndTheReply",
			},
			{
				Name: "every call listed, answered or not",
				File: "main.go",
				Old: `				if _, ok := resultFor(history, call.ID); !ok {
					calls = append(calls, call)
				}
`,
				New: `				calls = append(calls, call)
`,
				Rule: "TestACallWithAResultIsAnswered",
			},
		},
	})
}
