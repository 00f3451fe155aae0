package track

func init() {
	register(Lab{
		Name: "02-loop",
		Idea: Text{EN: "The agent loop: ask with the full history, run the tools, append each result, ask again."},
		Exercises: []Exercise{{
			ID:      "run-loop",
			Title:   Text{EN: "the six steps of runLoop"},
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
 6. Go back to step 2.`},
				Code: `return Result{}, fmt.Errorf("runLoop is not written yet")`,
			}},
			Rules: []Rule{
				{Test: "TestTheFirstRequestCarriesThePromptAndTheTools", Text: Text{EN: "steps 1 and 2: the first request holds the prompt, and offers the tools"}},
				{Test: "TestAFailingModelStopsThisLoop", Text: Text{EN: `step 2: a failed request ends the run with its error, wrapped as "turn N: ask the model: …"`}},
				{Test: "TestAReplyWithoutToolCallsIsTheAnswer", Text: Text{EN: "steps 2 and 3: the reply reaches the history, and a reply without tool calls ends the loop with stop reason completed"}},
				{Test: "TestAFailingToolStopsThisLoop", Text: Text{EN: `step 4: the loop runs the tool the model asked for, and a failing tool ends the run, wrapped as "turn N: …"`}},
				{Test: "TestUnknownToolStopsThisLoop", Text: Text{EN: "step 4: a call of a tool that does not exist ends the run with execute's error"}},
				{Test: "TestCalculatorTakesTwoTurnsAndFourMessages", Text: Text{EN: "step 5: each tool result reaches the history, so the calculator run takes 2 turns and ends with 4 messages"}},
				{Test: "TestEveryRequestCarriesTheFullHistory", Text: Text{EN: "step 2: every request carries the full history, the tool result included"}},
				{Test: "TestNothingStopsAStubbornModel", Text: Text{EN: "step 6: the loop goes on while the model asks for tools, until a request fails"}},
			},
			Hints: []Text{
				{EN: `Start with steps 1 to 3. history is a []fakemodel.Message that holds
fakemodel.UserMessage{Text: prompt}. Ask with
model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)}),
append the reply to history, and return when len(reply.ToolCalls) == 0.
That passes the first three rules.`},
				{EN: `The loop is "for turn := 1; ; turn++ { ... }": it has no condition, and
only a return leaves it. Every return says how far the run got:
Result{History: history, Turns: turn}, with StopReason: Completed for the
answer. Wrap errors with fmt.Errorf("turn %d: ...: %w", turn, err).`},
				{EN: `Steps 4 and 5: for each call in reply.ToolCalls, run
output, err := execute(ctx, tools, call), then append
fakemodel.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name,
Content: output} to history. Without the append, the model never sees the
result and asks for it again, turn after turn.`},
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
