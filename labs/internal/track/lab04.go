package track

func init() {
	register(Lab{
		Name: "04-tool-errors",
		Idea: Text{EN: "A failing tool call becomes a result the model reads; only a failed request ends the loop."},
		Exercises: []Exercise{
			{
				ID:      "execute",
				Title:   Text{EN: "execute: every failing call becomes an error result"},
				Section: "Build it yourself",
				Regions: []Region{{
					File: "tools.go",
					ID:   "execute",
					TODO: Text{EN: `TODO: run the tool that call names, and return a result for the call,
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
    result is a named result, so that a deferred function can change it.`},
					Code: `return fakemodel.ToolResultMessage{Content: fmt.Sprintf("execute is not written yet, so %s did not run", call.Name)}`,
				}},
				Rules: []Rule{
					{Test: "TestExecuteReturnsTheToolsOutput", Text: Text{EN: "a call that works gets a result with the call's ID, the tool's name and the tool's output, not marked as an error"}},
					{Test: "TestExecuteTurnsAnUnknownToolIntoAnErrorResult", Text: Text{EN: `a call of a tool that does not exist gets a result marked as an error (IsError), "Tool NAME not found"`}},
					{Test: "TestExecuteTurnsBadArgumentsIntoAnErrorResult", Text: Text{EN: `arguments the tool does not take get an error result in Pi's words: Validation failed for tool "NAME": PROBLEM. Received arguments: ARGUMENTS`}},
					{Test: "TestExecuteTurnsAToolErrorIntoAnErrorResult", Text: Text{EN: "an error the tool returns becomes an error result with the error's text"}},
					{Test: "TestExecuteRecoversAPanicIntoAnErrorResult", Text: Text{EN: `a panic in a tool is recovered into an error result, Tool "NAME" panicked: VALUE, and does not escape execute`}},
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
and not used; the failures' texts will use it.`},
					{EN: `Every failure sets two fields, Content and IsError, and returns. A small
helper keeps them together:
fail := func(format string, a ...any) fakemodel.ToolResultMessage {
	result.Content, result.IsError = fmt.Sprintf(format, a...), true
	return result
}
Then, for an unknown tool, return fail("Tool %s not found", call.Name),
and for arguments decode refuses, on one line:
return fail("Validation failed for tool %q: %v. Received arguments: %s", call.Name, err, call.Arguments)`},
					{EN: `A panic: before tool.run, defer func() { if v := recover(); v != nil {
result = fail("Tool %q panicked: %v", call.Name, v) } }(). recover only
works in a deferred function, and only a named result lets the deferred
function change what execute returns.`},
				},
			},
			{
				ID:      "loop",
				Title:   Text{EN: "the loop: error results go on, a failed request ends it"},
				Section: "Build it yourself",
				Regions: []Region{
					{
						File: "loop.go",
						ID:   "failed-request",
						TODO: Text{EN: `TODO: a failed request, the one failure that ends
the loop. err is model.Reply's error. README.md, section
"Build it yourself", explains it; write steps 4 and 5 below
first. When err is not nil, there is no reply to act on:
 1. Record the failed reply in the history, as Pi does: a
    fakemodel.AssistantMessage with StopReason
    fakemodel.StopReasonError and the error's text in
    ErrorMessage.
 2. Return the history, this turn's number and StopReason
    ModelError. The failed request counts as a turn.`},
						Code: `_ = err`,
					},
					{
						File: "loop.go",
						ID:   "tool-results",
						TODO: Text{EN: `TODO: steps 4 and 5. For each tool call of the reply,
run execute, which always returns a result, and append the
result to the history: an error result too, since reading it
is how the model corrects itself. A failing tool does not end
the run. README.md, section "Build it yourself", explains it.`},
					},
				},
				Rules: []Rule{
					{Test: "TestSelfCorrectingModelAnswersInTurnThree", Text: Text{EN: "a failing tool does not end the run: its error result reaches the history, and the model, asked again, corrects itself and answers in turn 3"}},
					{Test: "TestEveryFailingCallGetsAnErrorResultAndTheLoopGoesOn", Text: Text{EN: "every call of a reply gets a result, in the order of the calls, whatever fails, and the loop goes on"}},
					{Test: "TestEveryRequestCarriesTheFullHistory", Text: Text{EN: "every request carries the full history, the error result included, and offers the tools"}},
					{Test: "TestAFailedModelRequestEndsTheLoopWithStopReasonError", Text: Text{EN: "a failed request ends the loop with stop reason error, after the failed reply is recorded in the history"}},
				},
				Hints: []Text{
					{EN: `Steps 4 and 5 are two lines in a for loop over reply.ToolCalls:
result := execute(ctx, tools, call), then history = append(history,
result). No check of result.IsError, and no return: the model decides
what to do about a failed call, in its next turn.`},
					{EN: `The failed request: if err != nil { ... }. Append
fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError,
ErrorMessage: err.Error()} to the history, then return
Result{History: history, Turns: turn, StopReason: ModelError}. Without
the return, the loop would go on with a reply that does not exist.`},
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
				Name: "an error result not appended",
				File: "loop.go",
				Old:  "\t\t\thistory = append(history, result)\n",
				New:  "\t\t\tif !result.IsError {\n\t\t\t\thistory = append(history, result)\n\t\t\t}\n",
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
