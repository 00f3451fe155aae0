package track

func init() {
	register(Lab{
		Name: "04-tool-errors",
		Idea: Text{
			EN: "A failing tool call becomes a result the model reads; only a failed request ends the loop.",
			ZH: "失败的工具调用变成一个模型读得到的结果；只有请求失败才会结束循环。",
		},
		Exercises: []Exercise{
			{
				ID:      "execute",
				Title:   Text{EN: "execute: every failing call becomes an error result", ZH: "execute：每个失败的调用都变成一个错误结果"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "tools.go",
					ID:   "execute",
					TODO: Text{
						EN: `TODO: run the tool that call names, and return a result for the call,
whatever happens. README.md, section "Build it yourself", explains it;
go run ./labs check 04-tool-errors says which rule is still broken.
 1. The result answers the call: a fakemodel.ToolResultMessage with the
    call's ID and the tool's name. findTool finds the tool; tool.decode
    checks the arguments and decodes them; tool.run runs the tool with
    them. Its output is the result's Content.
 2. Each failure returns at once a result whose Content says what went
    wrong and whose IsError is true, in Pi's words:
    - no tool of that name:  Tool NAME not found
    - decode refuses:        Validation failed for tool "NAME": ERROR.
                             Received arguments: ARGUMENTS
      (one line; ARGUMENTS are the bytes the model wrote)
    - the tool's error:      its text, as it is
 3. A panic in the tool becomes the result Tool "NAME" panicked: VALUE.
    result is a named result, so that a deferred function can change it.`,
						ZH: `TODO：运行 call 点名的工具；不管发生什么，都为这个调用返回一个结果。
README.zh-CN.md 的「自己动手写（Build it yourself）」一节有讲解；
go run ./labs check 04-tool-errors 会告诉你哪条规则还没满足。
 1. 结果回应这个调用：一个 fakemodel.ToolResultMessage，带上调用的
    ID 和工具名。findTool 找到工具；tool.decode 检查参数并解码；
    tool.run 用解码后的参数运行工具。它的输出就是结果的 Content。
 2. 每种失败都立刻返回一个结果：Content 说明哪里出了错，IsError 为
    true，用的是 Pi 的措辞：
    - 没有叫这个名字的工具：  Tool NAME not found
    - decode 拒绝了参数：     Validation failed for tool "NAME": ERROR.
                              Received arguments: ARGUMENTS
      （写在一行里；ARGUMENTS 是模型写的原始字节）
    - 工具返回的错误：        它的文本，原样照搬
 3. 工具里的 panic 变成结果 Tool "NAME" panicked: VALUE。result 是
    命名返回值，这样 defer 的函数才能修改它。`},
					Code: `return fakemodel.ToolResultMessage{Content: fmt.Sprintf("execute is not written yet, so %s did not run", call.Name)}`,
				}},
				Rules: []Rule{
					{Test: "TestExecuteReturnsTheToolsOutput", Text: Text{EN: "a call that works gets a result with the call's ID, the tool's name and the tool's output, not marked as an error", ZH: "成功的调用得到一个结果，带着调用的 ID、工具名和工具的输出，不标记为错误"}},
					{Test: "TestExecuteTurnsAnUnknownToolIntoAnErrorResult", Text: Text{EN: `a call of a tool that does not exist gets a result marked as an error (IsError), "Tool NAME not found"`, ZH: `调用一个不存在的工具，得到一个标记为错误（IsError）的结果："Tool NAME not found"`}},
					{Test: "TestExecuteTurnsBadArgumentsIntoAnErrorResult", Text: Text{EN: `arguments the tool does not take get an error result in Pi's words: Validation failed for tool "NAME": PROBLEM. Received arguments: ARGUMENTS`, ZH: `工具不接受的参数得到一个错误结果，用的是 Pi 的措辞：Validation failed for tool "NAME": PROBLEM. Received arguments: ARGUMENTS`}},
					{Test: "TestExecuteTurnsAToolErrorIntoAnErrorResult", Text: Text{EN: "an error the tool returns becomes an error result with the error's text", ZH: "工具返回的错误变成一个错误结果，文本就是错误的文本"}},
					{Test: "TestExecuteRecoversAPanicIntoAnErrorResult", Text: Text{EN: `a panic in a tool is recovered into an error result, Tool "NAME" panicked: VALUE, and does not escape execute`, ZH: `工具里的 panic 被接住（recover），变成错误结果 Tool "NAME" panicked: VALUE，不会逃出 execute`}},
				},
				Hints: []Text{
					{EN: `Start with the call that works:
result = fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name}
tool, _ := findTool(tools, call.Name)
args, _ := tool.decode(call.Arguments)
output, _ := tool.run(ctx, args)
result.Content = output
return result
That passes the first rule. Each _ is a failure that a later rule asks
you to handle. Until your code uses fmt, the compiler says "fmt" imported
and not used; the failures' texts will use it.`,
						ZH: `先写成功的调用：
result = fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name}
tool, _ := findTool(tools, call.Name)
args, _ := tool.decode(call.Arguments)
output, _ := tool.run(ctx, args)
result.Content = output
return result
这样就能通过第一条规则。每个 _ 都是一种失败，后面的规则会要求你处理
它。在你的代码用上 fmt 之前，编译器会报 "fmt" imported and not used；
各种失败的文本会用到它。`},
					{EN: `Every failure sets two fields, Content and IsError, and returns. A small
helper keeps them together:
fail := func(format string, a ...any) fakemodel.ToolResultMessage {
	result.Content, result.IsError = fmt.Sprintf(format, a...), true
	return result
}
Then, for an unknown tool, return fail("Tool %s not found", call.Name),
and for arguments decode refuses, on one line:
return fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)`,
						ZH: `每种失败都要设置 Content 和 IsError 两个字段，然后返回。用一个小小的
辅助函数把它们放在一起：
fail := func(format string, a ...any) fakemodel.ToolResultMessage {
	result.Content, result.IsError = fmt.Sprintf(format, a...), true
	return result
}
然后，遇到未知工具，return fail("Tool %s not found", call.Name)；
遇到 decode 拒绝的参数，写在一行里：
return fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)`},
					{EN: `A panic: before tool.run, defer func() { if v := recover(); v != nil {
result = fail("Tool %q panicked: %v", call.Name, v) } }(). recover only
works in a deferred function, and only a named result lets the deferred
function change what execute returns.`,
						ZH: `panic：在 tool.run 之前写 defer func() { if v := recover(); v != nil {
result = fail("Tool %q panicked: %v", call.Name, v) } }()。recover 只在
defer 的函数里起作用；而且只有命名返回值，才能让 defer 的函数改变
execute 返回的内容。`},
				},
			},
			{
				ID:      "loop",
				Title:   Text{EN: "the loop: error results go on, a failed request ends it", ZH: "循环：遇到错误结果照常继续，请求失败才结束"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "loop.go",
						ID:   "failed-request",
						TODO: Text{
							EN: `TODO: a failed request, the one failure that ends
the loop. err is model.Reply's error. README.md, section
"Build it yourself", explains it; write steps 4 and 5 below
first. When err is not nil, there is no reply to act on:
 1. Record the failed reply in the history, as Pi does: a
    fakemodel.AssistantMessage with StopReason
    fakemodel.StopReasonError and the error's text in
    ErrorMessage.
 2. Return the history, this turn's number and StopReason
    ModelError. The failed request counts as a turn.`,
							ZH: `TODO：请求失败，这是唯一会结束循环的失败。
err 是 model.Reply 返回的错误。README.zh-CN.md 的
「自己动手写（Build it yourself）」一节有讲解；
先写下面的第 4、5 步。
err 不为 nil 时，没有回复可以处理：
 1. 像 Pi 那样，把失败的回复记进历史：一条
    fakemodel.AssistantMessage，StopReason 为
    fakemodel.StopReasonError，ErrorMessage 里是
    错误的文本。
 2. 返回历史、这一轮的序号和 StopReason ModelError。
    失败的请求也算一轮。`},
						Code: `_ = err`,
					},
					{
						File: "loop.go",
						ID:   "tool-results",
						TODO: Text{
							EN: `TODO: steps 4 and 5. For each tool call of the reply,
run execute, which always returns a result, and append the
result to the history: an error result too, since reading it
is how the model corrects itself. A failing tool does not end
the run. README.md, section "Build it yourself", explains it.`,
							ZH: `TODO：第 4、5 步。对回复里的每个工具调用运行 execute
（它总会返回一个结果），并把结果追加进历史：错误结果也要
追加，因为模型正是读了它才能自我纠正。失败的工具不会结束
运行。README.zh-CN.md 的「自己动手写（Build it yourself）」
一节有讲解。`},
					},
				},
				Rules: []Rule{
					{Test: "TestSelfCorrectingModelAnswersInTurnThree", Text: Text{EN: "a failing tool does not end the run: its error result reaches the history, and the model, asked again, corrects itself and answers in turn 3", ZH: "失败的工具不会结束运行：它的错误结果进入历史，模型被再问一次时自我纠正，在第 3 轮给出回答"}},
					{Test: "TestEveryFailingCallGetsAnErrorResultAndTheLoopGoesOn", Text: Text{EN: "every call of a reply gets a result, in the order of the calls, whatever fails, and the loop goes on", ZH: "一条回复里的每个调用都得到一个结果，按调用的顺序排列；不管哪里失败，循环都继续"}},
					{Test: "TestEveryRequestCarriesTheFullHistory", Text: Text{EN: "every request carries the full history, the error result included, and offers the tools", ZH: "每次请求都带着完整历史（错误结果也在其中），并提供工具"}},
					{Test: "TestAFailedModelRequestEndsTheLoopWithStopReasonError", Text: Text{EN: "a failed request ends the loop with stop reason error, after the failed reply is recorded in the history", ZH: "请求失败以停止原因 error 结束循环，结束之前先把失败的回复记进历史"}},
				},
				Hints: []Text{
					{EN: `Steps 4 and 5 are two lines in a for loop over reply.ToolCalls:
result := execute(ctx, tools, call), then history = append(history,
result). No check of result.IsError, and no return: the model decides
what to do about a failed call, in its next turn.`,
						ZH: `第 4、5 步是遍历 reply.ToolCalls 的 for 循环里的两行：
result := execute(ctx, tools, call)，然后 history = append(history,
result)。不检查 result.IsError，也不 return：调用失败了怎么办，由模型
在下一轮决定。`},
					{EN: `The failed request: if err != nil { ... }. Append
fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError,
ErrorMessage: err.Error()} to the history, then return
Result{History: history, Turns: turn, StopReason: ModelError}. Without
the return, the loop would go on with a reply that does not exist.`,
						ZH: `失败的请求：if err != nil { ... }。把
fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError,
ErrorMessage: err.Error()} 追加进历史，然后
return Result{History: history, Turns: turn, StopReason: ModelError}。
没有这个 return，循环就会拿着一条并不存在的回复继续往下走。`},
				},
			},
		},
		Mistakes: []Mistake{
			{
				Name: "the result not marked as an error (IsError false)",
				File: "tools.go",
				Old:  "result.Content, result.IsError = fmt.Sprintf(format, a...), true",
				New:  "result.Content = fmt.Sprintf(format, a...)",
				Rule: "TestExecuteTurnsAnUnknownToolIntoAnErrorResult",
			},
			{
				Name: "an unknown tool not caught: a nil decode panics in execute",
				File: "tools.go",
				Old: `	tool, ok := findTool(tools, call.Name)
	if !ok {
		return fail("Tool %s not found", call.Name)
	}
`,
				New: `	tool, _ := findTool(tools, call.Name)
`,
				Rule: "TestExecuteTurnsAnUnknownToolIntoAnErrorResult",
			},
			{
				Name: "the validation error not in Pi's words",
				File: "tools.go",
				Old:  `fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)`,
				New:  `fail("invalid arguments for %s: %v", call.Name, err)`,
				Rule: "TestExecuteTurnsBadArgumentsIntoAnErrorResult",
			},
			{
				Name: "a panic not recovered",
				File: "tools.go",
				Old: `	defer func() {
		// A bug in one tool must not take the whole agent down.
		if v := recover(); v != nil {
			result = fail("Tool %q panicked: %v", call.Name, v)
		}
	}()
`,
				New:  "",
				Rule: "TestExecuteRecoversAPanicIntoAnErrorResult",
			},
			{
				Name: "a tool error that still ends the run",
				File: "loop.go",
				Old:  "\t\t\thistory = append(history, result)\n",
				New:  "\t\t\thistory = append(history, result)\n\t\t\tif result.IsError {\n\t\t\t\treturn Result{History: history, Turns: turn, StopReason: ModelError}\n\t\t\t}\n",
				Rule: "TestSelfCorrectingModelAnswersInTurnThree",
			},
			{
				Name: "a failed request treated as a result: the loop goes on",
				File: "loop.go",
				Old:  "return Result{History: history, Turns: turn, StopReason: ModelError}",
				New:  "continue",
				Rule: "TestAFailedModelRequestEndsTheLoopWithStopReasonError",
			},
			{
				Name: "the failed reply not recorded in the history",
				File: "loop.go",
				Old: `			history = append(history, fakemodel.AssistantMessage{
				StopReason:   fakemodel.StopReasonError,
				ErrorMessage: err.Error(),
			})
`,
				New:  "",
				Rule: "TestAFailedModelRequestEndsTheLoopWithStopReasonError",
			},
		},
	})
}
