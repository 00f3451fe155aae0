package track

func init() {
	register(Lab{
		Name: "03-maxturns",
		Idea: Text{EN: "A turn limit, because a model that always asks again never stops."},
		Exercises: []Exercise{{
			ID:      "turn-limit",
			Title:   Text{EN: "the turn limit and its stop reason"},
			Section: "Build it yourself",
			Regions: []Region{{
				File: "loop.go",
				ID:   "turn-limit",
				TODO: Text{EN: `TODO: add the turn limit. README.md, section "Build it yourself",
explains it; go run ./labs check 03-maxturns says which rule is still
broken. Below is lab 02's loop: it goes on as long as the model asks for
tools, so a model that always asks never stops.
 1. Check the limit before each request: the loop runs at most maxTurns
    turns. A limit of N allows N turns, no more and no fewer.
 2. When the limit ends the loop, return the history, Turns: maxTurns and
    StopReason MaxTurns, with a nil error: reaching the limit is a way for
    a run to end, not a failure.`},
				Code: `for turn := 1; ; turn++ {
	// Step 2: ask the model, sending the full history, because a model
	// remembers nothing between requests.
	reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)})
	if err != nil {
		return Result{History: history, Turns: turn}, fmt.Errorf("turn %d: ask the model: %w", turn, err)
	}
	history = append(history, reply)

	// Step 3: the only branch of the loop. A reply without tool calls
	// is the answer; nobody has to understand what it says.
	if len(reply.ToolCalls) == 0 {
		return Result{History: history, Turns: turn, StopReason: Completed}, nil
	}

	for _, call := range reply.ToolCalls {
		// Step 4: run the tool the model asked for.
		output, err := execute(ctx, tools, call)
		if err != nil {
			return Result{History: history, Turns: turn}, fmt.Errorf("turn %d: %w", turn, err)
		}
		// Step 5: append the result to the history. Without it the
		// model never sees the result, and asks for the tool again.
		history = append(history, fakemodel.ToolResultMessage{
			ToolCallID: call.ID,
			ToolName:   call.Name,
			Content:    output,
		})
	}
	// Step 6: back to step 2, with a longer history.
}`,
			}},
			Rules: []Rule{
				{Test: "TestStubbornModelIsStoppedAfterThreeTurns", Text: Text{EN: "the loop checks the limit before each request: a limit of 3 stops a model that never stops asking after exactly 3 turns, without an error"}},
				{Test: "TestTheLimitCountsTurns", Text: Text{EN: "a limit of N allows exactly N turns, one request each, for any N"}},
				{Test: "TestTheStopReasonSaysWhyTheLoopEnded", Text: Text{EN: "a run the limit ends has stop reason max_turns and no answer; a run that ends with an answer, even in the last allowed turn, completed"}},
				{Test: "TestCalculatorCompletesUnderTheLimit", Text: Text{EN: "a model that answers within the limit completes as in lab 02: 2 turns, 4 messages, the answer"}},
			},
			Hints: []Text{
				{EN: `The limit belongs in the for statement's condition, which lab 02's loop
leaves empty: for turn := 1; CONDITION; turn++. The condition is checked
before each turn, so it decides whether the next request is sent. Which
condition lets turn 1, 2, ..., maxTurns run, and stops before
maxTurns+1?`},
				{EN: `With the condition in place, the loop can now end without a return, so
the compiler asks for one after it. That is where the limit ended the run:
return Result{History: history, Turns: maxTurns, StopReason: MaxTurns}, nil.
Not an error, and not Completed: the model still wanted a tool.`},
			},
		}},
		Mistakes: []Mistake{
			{
				Name: "the limit checked one turn late (turns counted from 0)",
				File: "loop.go",
				Old:  "for turn := 1; turn <= maxTurns; turn++ {",
				New:  "for turn := 0; turn <= maxTurns; turn++ {",
				Rule: "TestStubbornModelIsStoppedAfterThreeTurns",
			},
			{
				Name: "the limit checked one turn early",
				File: "loop.go",
				Old:  "turn <= maxTurns;",
				New:  "turn < maxTurns;",
				Rule: "TestStubbornModelIsStoppedAfterThreeTurns",
			},
			{
				// Lab 02's loop with no condition would leave the exit
				// unreachable, which vet refuses; comparing with the flag's
				// upper bound, 1000, checks the limit just as little.
				Name: "the limit never checked (maxTurnsLimit, the flag's upper bound, in place of maxTurns)",
				File: "loop.go",
				Old:  "turn <= maxTurns;",
				New:  "turn <= maxTurnsLimit;",
				Rule: "TestStubbornModelIsStoppedAfterThreeTurns",
			},
			{
				Name: "the limit hard-coded as 3",
				File: "loop.go",
				Old:  "turn <= maxTurns;",
				New:  "turn <= 3;",
				Rule: "TestTheLimitCountsTurns",
			},
			{
				Name: "the wrong stop reason",
				File: "loop.go",
				Old:  "StopReason: MaxTurns}, nil",
				New:  "StopReason: Completed}, nil",
				Rule: "TestTheStopReasonSaysWhyTheLoopEnded",
			},
		},
	})
}
