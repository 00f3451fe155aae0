package track

func init() {
	register(Lab{
		Name: "03-maxturns",
		Idea: Text{
			EN: "A turn limit, because a model that always asks again never stops.",
			ZH: "轮数上限：模型若总要再调一次工具，循环就永远停不下来。",
		},
		Exercises: []Exercise{{
			ID:      "turn-limit",
			Title:   Text{EN: "the turn limit and its stop reason", ZH: "轮数上限及其停止原因"},
			Section: "Build it yourself",
			Regions: []Region{{
				File: "loop.go",
				ID:   "turn-limit",
				TODO: Text{
					EN: `TODO: add the turn limit. README.md, section "Build it yourself",
explains it; go run ./labs check 03-maxturns says which rule is still
broken. Below is lab 02's loop: it goes on as long as the model asks for
tools, so a model that always asks never stops.
 1. Check the limit before each request: the loop runs at most maxTurns
    turns. A limit of N allows N turns, no more and no fewer.
 2. When the limit ends the loop, return the history, Turns: maxTurns and
    StopReason MaxTurns, with a nil error: reaching the limit is a way for
    a run to end, not a failure.`,
					ZH: `TODO：加上轮数上限。README.zh-CN.md 的「自己动手写
（Build it yourself）」一节有讲解；go run ./labs check 03-maxturns
会告诉你哪条规则还没满足。下面是实验 02 的循环：只要模型还要工具，
它就一直转下去，所以总要工具的模型永远停不下来。
 1. 每次请求之前检查上限：循环最多转 maxTurns 轮。上限为 N 就允许
    N 轮，不多也不少。
 2. 上限结束循环时，返回历史、Turns: maxTurns 和 StopReason
    MaxTurns，错误为 nil：到达上限是运行结束的一种方式，不是失败。`},
				Code: `for turn := 1; ; turn++ {
	// Step 2: ask the model, sending the full history, because a model
	// remembers nothing between requests.
	reply, err := model.Reply(ctx, fakemodel.Request{Messages: history, Tools: specs(tools)})
	if err != nil {
		return Result{History: history, Turns: turn}, fmt.Errorf("turn %d: ask the model: %w", turn, err)
	}
	history = append(history, reply)

	// Step 3: branch on the reply. A reply without tool calls is the
	// answer; nobody has to understand what it says.
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
				{Test: "TestStubbornModelIsStoppedAfterThreeTurns", Text: Text{
					EN: "the loop checks the limit before each request, and reports the turns that ran: a limit of 3 stops a model that never stops asking after exactly 3 turns, without an error",
					ZH: "循环在每次请求之前检查上限，并如实报告跑了几轮：上限为 3 时，一个永不收手的模型恰好跑满 3 轮就被拦下，不报错",
				}},
				{Test: "TestTheLimitCountsTurns", Text: Text{
					EN: "a limit of N allows exactly N turns, one request each, for any N",
					ZH: "上限为 N 就恰好允许 N 轮，每轮一次请求，N 取什么值都成立",
				}},
				{Test: "TestTheStopReasonSaysWhyTheLoopEnded", Text: Text{
					EN: "a run the limit ends has stop reason max_turns and no answer; a run that ends with an answer, even in the last allowed turn, completed",
					ZH: "被上限结束的运行，停止原因是 max_turns，没有回答；以回答结束的运行，哪怕是在允许的最后一轮，停止原因也是 completed",
				}},
				{Test: "TestCalculatorCompletesUnderTheLimit", Text: Text{
					EN: "a model that answers within the limit completes as in lab 02: 2 turns, 4 messages, the answer",
					ZH: "在上限内给出回答的模型，和实验 02 一样正常完成：2 轮，4 条消息，给出回答",
				}},
				{Test: "TestEveryToolCallOfAReplyRunsInOrder", Text: Text{
					EN: "as in lab 02, every tool call of a reply runs, not only the first, and each result reaches the history in the order of the calls",
					ZH: "和实验 02 一样，一条回复里的每个工具调用都会执行，不只是第一个；每个结果按调用的顺序进入历史",
				}},
			},
			Hints: []Text{
				{EN: `The limit belongs in the for statement's condition, which lab 02's loop
leaves empty: for turn := 1; CONDITION; turn++. The condition is checked
before each turn, so it decides whether the next request is sent. Which
condition lets turn 1, 2, ..., maxTurns run, and stops before
maxTurns+1?`,
					ZH: `上限写在 for 语句的条件里，实验 02 的循环把这个位置空着：
for turn := 1; CONDITION; turn++。条件在每一轮之前检查，所以由它
决定下一次请求发不发。什么样的条件能让第 1、2、……、maxTurns 轮
运行，并在第 maxTurns+1 轮之前停下？`},
				{EN: `With the condition in place, the loop can now end without a return, so
the compiler asks for one after it. That is where the limit ended the run:
return Result{History: history, Turns: maxTurns, StopReason: MaxTurns}, nil.
Not an error, and not Completed: the model still wanted a tool.`,
					ZH: `有了条件，循环就可能不经过 return 而结束，所以编译器要求在它后面
再写一个 return。代码走到那里，就说明是上限结束了这次运行：
return Result{History: history, Turns: maxTurns, StopReason: MaxTurns}, nil。
不是错误，也不是 Completed：模型还想要工具。`},
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
