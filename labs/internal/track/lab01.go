package track

func init() {
	register(Lab{
		Name: "01-no-loop",
		Idea: Text{EN: "One request: the model asks for a tool, and nothing runs it."},
		Exercises: []Exercise{{
			ID:      "one-request",
			Title:   Text{EN: "the single request and what the reply asks for"},
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
    tool and ask no second time: this lab stops after one request.`},
					Code: `return nil, fmt.Errorf("askOnce is not written yet")`,
				},
				{
					File: "main.go",
					ID:   "unanswered",
					TODO: Text{EN: `TODO: return what the model asked for and nothing answered: each tool
call of each fakemodel.AssistantMessage in history for which no
fakemodel.ToolResultMessage exists. resultFor(history, call.ID) finds
the result of a call.`},
					Code: `return nil`,
				},
			},
			Rules: []Rule{
				{Test: "TestTheRequestCarriesThePromptAndTheTool", Text: Text{EN: "askOnce sends one request, which holds the prompt and offers the calculator"}},
				{Test: "TestModelFailureIsReported", Text: Text{EN: `a failed request ends the program with its error, wrapped as "ask the model: …"`}},
				{Test: "TestTheHistoryHoldsThePromptAndTheReply", Text: Text{EN: "the reply is appended: the history holds the prompt and the reply, 2 messages, and no tool result"}},
				{Test: "TestOneRequestLeavesTheToolCallUnanswered", Text: Text{EN: "the reply asks for calculate, and nothing runs it: unanswered lists call_1"}},
				{Test: "TestACallWithAResultIsAnswered", Text: Text{EN: "unanswered lists only the calls that no tool result answers"}},
			},
			Hints: []Text{
				{EN: `askOnce first. history is a []fakemodel.Message that holds
fakemodel.UserMessage{Text: prompt}. Ask with
model.Reply(ctx, fakemodel.Request{Messages: history,
Tools: []fakemodel.ToolSpec{calculateSpec}}), and wrap its error as
fmt.Errorf("ask the model: %w", err). That passes the first two rules.`},
				{EN: `Return append(history, reply), nil. The reply holds a tool call,
call_1: leave it alone. Running it, and asking again, is lab 02's loop.`},
				{EN: `unanswered: walk the history; for each message that is a
fakemodel.AssistantMessage (a, ok := m.(fakemodel.AssistantMessage)),
look at each call in a.ToolCalls, and keep it if
resultFor(history, call.ID) finds no result.`},
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
