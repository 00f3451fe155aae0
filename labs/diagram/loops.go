package diagram

import (
	"fmt"
	"maps"
	"slices"
)

// The loop of each lab, as its README draws it, in English and in Chinese.
// Each chart is whole; what is new in a lab is what the chart of the lab
// before it does not have, so the marks cannot drift from the charts. The
// names a box gives as code must be in the lab's Go code
// (TestEachLoopNamesItsLabsCode), so that a box cannot outlive the code it
// stands for.

// The answers of a decision.
var (
	yes = text{"yes", "是"}
	no  = text{"no", "否"}
)

// The boxes the labs share.
var (
	prompt     = end("prompt", text{"the user's prompt", "用户的提示词"})
	enters     = box("s1", text{"1 · the prompt enters the history", "1 · 提示词进入历史"}, "Step 1:")
	asks       = box("s2", text{"2 · ask the model, sending the full history", "2 · 请求模型，带上完整的历史"}, "Step 2:")
	branches   = ask("s3", text{"3 · tool calls in the reply?", "3 · 回复里有工具调用吗？"}, "Step 3:")
	answers    = end("done", text{"the reply is the answer: stop reason completed", "回复就是回答：停止原因 completed"}, `"completed"`)
	runs       = box("s4", text{"4 · run the tool of each call", "4 · 为每个调用执行它的工具"}, "Step 4:")
	appends    = box("s5", text{"5 · append its result to the history", "5 · 把它的结果追加进历史"}, "Step 5:", "Step 6:")
	guards     = ask("guard", text{"turn limit reached?", "到达轮数上限了吗？"}, "maxTurns")
	maxedOut   = end("max", text{"stop reason max_turns", "停止原因 max_turns"}, `"max_turns"`)
	fails      = ask("failed", text{"request failed?", "请求失败了吗？"}, "StopReasonError")
	failed     = end("err", text{"stop reason error", "停止原因 error"}, `"error"`)
	streams    = box("s2", text{"2 · ask the model, sending the full history: its reply streams in", "2 · 请求模型，带上完整的历史：回复以流式传回"}, "MessageUpdate")
	interrupts = ask("failed", text{"request failed, or aborted by Ctrl-C?", "请求失败了，或者被 Ctrl-C 中止了吗？"}, "StopReasonAborted")
	stopped    = end("err", text{"stop reason error or aborted", "停止原因 error 或 aborted"}, `"error"`, `"aborted"`)
	prepares   = box("prep", text{"4 · prepare each call: find its tool, check its arguments, ask BeforeToolCall", "4 · 准备每个调用：找到它的工具，检查参数，询问 BeforeToolCall"}, "prepareToolCall", "BeforeToolCall")
	executes   = box("exec", text{"4 · run the prepared calls: all at once, or one at a time if a tool must run alone", "4 · 执行准备好的调用：一起执行；有工具必须单独运行时，一个一个来"}, "executeParallel", "executeSequential", "Sequential")
	finalizes  = box("after", text{"4 · AfterToolCall may change each result", "4 · AfterToolCall 可以修改每个结果"}, "AfterToolCall")
	inOrder    = box("s5", text{"5 · append the results to the history, in the order of the calls", "5 · 按调用的顺序把结果追加进历史"})
	emits      = beside("events", text{"every step emits events, from agent_start to agent_end, which the program prints as they come", "每一步都发出事件，从 agent_start 到 agent_end，程序随到随打印"}, "AgentStart", "AgentEnd")
)

// The labels of the arrows back.
var (
	askAgain = text{"6 · ask again", "6 · 再问一次"}
	nextTurn = text{"6 · next turn", "6 · 下一轮"}
)

// loops are the labs' charts, by lab.
var loops = map[string]chart{
	"01-no-loop": {
		nodes: []node{
			prompt,
			box("s1", enters.label, "askOnce"),
			box("s2", asks.label, "askOnce"),
			ask("s3", branches.label),
			end("done", text{"the reply is the answer", "回复就是回答"}),
			end("hole", text{"nothing runs the tool: the program ends with the question unanswered", "没有谁执行工具：程序结束，问题没有得到回答"}, "unanswered"),
		},
		edges: []edge{to("prompt", "s1"), to("s1", "s2"), to("s2", "s3"), on("s3", no, "done"), on("s3", yes, "hole")},
	},
	"02-loop": {
		nodes: []node{prompt, enters, asks, branches, answers, runs, appends},
		edges: []edge{
			to("prompt", "s1"), to("s1", "s2"), to("s2", "s3"), on("s3", no, "done"), on("s3", yes, "s4"),
			to("s4", "s5"), on("s5", askAgain, "s2"),
		},
	},
	"03-maxturns": {
		nodes: []node{prompt, enters, guards, maxedOut, asks, branches, answers, runs, appends},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", yes, "max"), on("guard", no, "s2"),
			to("s2", "s3"), on("s3", no, "done"), on("s3", yes, "s4"), to("s4", "s5"), on("s5", nextTurn, "guard"),
		},
	},
	"04-tool-errors": {
		nodes: []node{
			prompt, enters, guards, maxedOut, asks, fails, failed, branches, answers,
			box("s4", text{"4 · run the tool of each call: whatever fails becomes an error result", "4 · 为每个调用执行它的工具：任何失败都变成一个错误结果"}, "Step 4:", "IsError"),
			box("s5", text{"5 · append its result to the history, an error result too", "5 · 把它的结果追加进历史，错误结果也一样"}, "Step 5:", "Step 6:"),
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", yes, "max"), on("guard", no, "s2"),
			to("s2", "failed"), on("failed", yes, "err"), on("failed", no, "s3"),
			on("s3", no, "done"), on("s3", yes, "s4"), to("s4", "s5"), on("s5", nextTurn, "guard"),
		},
	},
	"05-parallel": {
		nodes: []node{
			prompt, emits, enters, guards, maxedOut, streams, interrupts, stopped, branches, answers,
			prepares, executes, finalizes, inOrder,
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", yes, "max"), on("guard", no, "s2"),
			to("s2", "failed"), on("failed", yes, "err"), on("failed", no, "s3"),
			on("s3", no, "done"), on("s3", yes, "prep"), to("prep", "exec"), to("exec", "after"), to("after", "s5"),
			on("s5", nextTurn, "guard"),
		},
	},
	// Pi's runLoop: an inner loop, one turn each time round, while the
	// reply has tool calls or steering messages wait; after it, an outer
	// loop, which runs the inner one again for each poll that finds
	// follow-up messages. The steps of a turn are lab 05's, summed up.
	"06-steering": {
		compact: true,
		nodes: []node{
			end("prompt", text{"Prompt, or Continue", "Prompt 或 Continue"}, "Prompt", "Continue"),
			emits,
			box(enters.id, enters.label, "prompts"),
			box("enter", text{"the messages the last poll took from a queue enter the history", "上一次轮询从队列里取走的消息进入历史"}, "GetSteeringMessages", "GetFollowUpMessages"),
			recap(box(streams.id, text{"2 · ask the model: its reply streams in", "2 · 请求模型：回复以流式传回"}, "MessageUpdate")),
			recap(ask(branches.id, text{"3 · tool calls?", "3 · 有工具调用吗？"}, "len(reply.ToolCalls) > 0")),
			recap(box("calls", text{"4, 5 · run the calls, as in lab 05", "4、5 · 执行调用，和实验 05 一样"}, "executeToolCalls")),
			ask("policy", text{"ShouldStopAfterTurn\nsays stop?", "ShouldStopAfterTurn\n说停吗？"}, "ShouldStopAfterTurn"),
			ask("more", text{"tool calls and no terminate,\nor steering queued?", "有工具调用且没有终止，\n或者有插队消息？"}, "moreToolCalls", "Terminate", "Steer"),
			ask("follow", text{"follow-ups queued?", "有后续消息吗？"}, "FollowUp"),
			stopped,
			end("stop", text{"stop reason stopped", "停止原因 stopped"}, `"stopped"`),
			end("done", text{"stop reason completed, or terminated", "停止原因 completed 或 terminated"}, `"completed"`, `"terminated"`),
		},
		groups: []group{
			{id: "outer", label: text{"outer loop: queued follow-ups run the inner loop again", "外层循环：排队的后续消息让内层循环再转起来"}, nodes: []string{"follow"}},
			{id: "inner", label: text{"inner loop: one turn each time round", "内层循环：每转一圈是一轮"}, parent: "outer", nodes: []string{"enter", "s2", "s3", "calls", "policy", "more"}},
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "enter"), to("enter", "s2"),
			recapEdge(on("s2", text{"request failed, or Ctrl-C", "请求失败，或者 Ctrl-C"}, "err")), to("s2", "s3"),
			on("s3", yes, "calls"), to("calls", "policy"), on("s3", no, "policy"),
			on("policy", yes, "stop"), on("policy", no, "more"),
			on("more", text{"yes: " + nextTurn.en, "是：" + nextTurn.zh}, "enter"), on("more", no, "follow"),
			on("follow", text{"yes: next turn", "是：下一轮"}, "enter"), on("follow", no, "done"),
		},
	},
}

// Loop returns the loop of the lab named lab, such as "02-loop", as a
// Mermaid flowchart with its labels in lang, English or Chinese: its steps,
// the decisions between them and the ways a run ends, with what is new
// since the lab before marked. The labs' READMEs show it, README.md in
// English and README.zh-CN.md in Chinese.
func Loop(lab, lang string) (string, error) {
	c, ok := loops[lab]
	if !ok {
		return "", fmt.Errorf("no loop chart for lab %q", lab)
	}
	if lang != English && lang != Chinese {
		return "", fmt.Errorf("no loop chart in language %q: want %q or %q", lang, English, Chinese)
	}
	// The first lab's chart marks nothing: all of it is new.
	before := c
	if labs := Labs(); lab != labs[0] {
		before = loops[labs[slices.Index(labs, lab)-1]]
	}
	return c.mermaid(before, lang), nil
}

// Labs returns the labs that have a loop chart, in order.
func Labs() []string {
	return slices.Sorted(maps.Keys(loops))
}

// Code returns the names the boxes of a lab's loop chart say its Go code
// holds, each once, in order.
func Code(lab string) []string {
	var names []string
	for _, n := range loops[lab].nodes {
		for _, name := range n.code {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	return names
}
