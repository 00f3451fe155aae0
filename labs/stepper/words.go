package stepper

// The page's own words, in English and in Chinese (-lang). What a run says
// (a reply, a tool's result, the narrative's lines of lab 05 and 06) stays
// as the run said it: the labs' output is English in both languages, as
// README.zh-CN.md says.

// words are the page's own words in one language. A field that takes
// values is a format for fmt.Sprintf.
type words struct {
	Title, IntroEvents, IntroSteps, Keys, Footer string

	First, Prev, Next, Last, Slider string
	// AtEvent and AtStep say where the page is, with {n} and {m}; Before
	// says it at step 0.
	AtEvent, AtStep, BeforeEvents, BeforeSteps string

	Turn, Steps, Messages, Clock string
	// Requests1 and RequestsN count model requests, Execs1 and ExecsN tool
	// executions, with {n}: the steps.
	Requests1, RequestsN, Execs1, ExecsN string
	TurnWhat, MessagesWhat               string

	Part, TheRun, GoToPart, Events, Steps2, Colon string

	History, HistoryWhat, Empty, New, Draft, Waiting string
	Request, RequestNone, RequestWhole, RequestPart  string
	ToolsOffered, NoTools, NotObserved               string
	Queues, QueuesWhat, Steering, FollowUp           string
	TypedNow, Taken                                  string
	LanesClock, LanesSteps, LanesClockWhat           string
	LanesStepsWhat, NoCalls, Running, Failed         string
	// NeverRan marks a call that the loop refused before its tool ran.
	NeverRan string

	// The events of labs 05 and 06, each a format.
	AgentStart, TurnStart, UserStart, UserEnd, ReplyStart, Chunk     string
	ReplyCalls, ReplyAnswer, ReplyFailed, ReplyAborted, ResultStart  string
	ResultEnd, ToolStart, ToolUpdate, ToolEnd, ToolError, Terminates string
	TurnEnd, AgentEnd, OtherEvent                                    string

	// The six steps of labs 02 to 04, as their READMEs name them, and
	// what each did.
	Step1, Step2, Step3Yes, Step3No, StepFailed, Step4, Step5   string
	Step1What, Step2What, Step3What, StepFailedWhat, Step4What  string
	Step5What, StepEnd, StepEndLimit, StepEndWhat, StepEndError string
}

// english are the page's words in English.
var english = words{
	Title: "Step through a run",
	IntroEvents: "Each step of this page is one event that the loop emitted while it ran: the events that -trace prints, " +
		"with Pi's names. At each step you see the history as the loop holds it, the request of the current turn, " +
		"the tool calls on a time axis, and the counts.",
	IntroSteps: "Labs 02 to 04 print a run once it has ended, so this page replays the run from what it left behind: " +
		"its history, and the requests the model got. Each step is one of the six steps of the loop, named as in the " +
		"lab's README. Lab 05 turns these steps into events that the loop emits while it runs.",
	Keys:   "← and → move one step, Home and End to the first and the last; the address ends with #step=N, a link to the step you are on.",
	Footer: "Written by the lab itself from its run, not by hand: the same command writes the same bytes.",

	First: "First step (Home)", Prev: "Previous step (←)", Next: "Next step (→)", Last: "Last step (End)", Slider: "Step",
	AtEvent: "event {n} of {m}", AtStep: "step {n} of {m}",
	BeforeEvents: "before the first event", BeforeSteps: "before the run",

	Turn: "turn", Steps: "steps", Messages: "messages", Clock: "demo clock",
	Requests1: "1 request", RequestsN: "{n} requests", Execs1: "1 tool execution", ExecsN: "{n} tool executions",
	TurnWhat:     "one reply of the model and the tool calls it triggers",
	MessagesWhat: "entries of the history",

	Part: "part %d", TheRun: "The run", Colon: ": ", GoToPart: "Go to its first step", Events: "Events", Steps2: "Steps",

	History: "History", HistoryWhat: "what the loop holds; a message this step added is marked",
	Empty: "empty", New: "new", Draft: "streaming in: not in the history yet",
	Waiting: "waiting for the reply…",
	Request: "Request of this turn", RequestNone: "no request sent yet",
	RequestWhole: "%s, the whole history", RequestPart: "%d of the history's %d messages",
	ToolsOffered: "tools offered: %s", NoTools: "no tools offered", NotObserved: "this model does not report what it is sent",
	Queues: "Queues", QueuesWhat: "messages the user typed, waiting for the loop to poll for them",
	Steering: "steering", FollowUp: "follow-up", TypedNow: "typed at this step", Taken: "taken by a poll",
	LanesClock: "Tool calls on the demo clock", LanesSteps: "Tool calls, step by step",
	LanesClockWhat: "one lane per call; the line is the clock at this step (it counts the tools' waits, not the model's writing)",
	LanesStepsWhat: "one lane per call; no demo clock times these tools, so the axis counts steps",
	NoCalls:        "no tool calls",
	Running:        "running", Failed: "error: %s", NeverRan: "never ran",

	AgentStart:   "The run starts.",
	TurnStart:    "Turn %d starts: one reply of the model, and the tool calls it asks for.",
	UserStart:    "A user message starts. It enters the history at its message_end.",
	UserEnd:      "The user message enters the history.",
	ReplyStart:   "The loop sends the request; the model's reply starts to stream in. It is not in the history yet.",
	Chunk:        "A chunk of the reply streams in; the text so far shows under the history.",
	ReplyCalls:   "The reply is complete and enters the history. It asks for %s.",
	ReplyAnswer:  "The reply is complete and enters the history. It asks for no tool.",
	ReplyFailed:  "The request failed: the reply enters the history with stop reason error.",
	ReplyAborted: "The request was cancelled: the reply enters the history with stop reason aborted.",
	ResultStart:  "The result of %s starts.",
	ResultEnd:    "The result of %s enters the history.",
	ToolStart:    "The loop hands %s to the tool %s.",
	ToolUpdate:   "%s reports its progress.",
	ToolEnd:      "%s ends. Its result enters the history after the batch, in the order of the calls.",
	ToolError:    "%s ends with an error, a result like any other for the model to read.",
	Terminates:   "Its result asks to terminate the run.",
	TurnEnd:      "Turn %d ends, with %s.",
	AgentEnd:     "The run ends. It added %s to the history.",
	OtherEvent:   "An event of the run.",

	Step1:          "1 · the prompt enters the history",
	Step2:          "2 · ask the model, sending the full history",
	Step3Yes:       "3 · tool calls in the reply? yes: %s",
	Step3No:        "3 · tool calls in the reply? no: the reply is the answer",
	StepFailed:     "request failed? yes: stop reason error",
	Step4:          "4 · run the tool of each call: %s %s",
	Step5:          "5 · append its result to the history: %s",
	Step1What:      "The user's prompt becomes the first message of the history.",
	Step2What:      "The model gets the full history and the tools; its reply is appended to the history.",
	Step3What:      "The loop looks at one thing: does the reply hold tool calls?",
	StepFailedWhat: "The request failed. Its reply, with stop reason error, is in the history, and the loop ends.",
	Step4What:      "The loop runs the tool the model named, with the model's arguments.",
	Step5What:      "The result goes into the history, with the call's ID.",
	StepEnd:        "the loop ends: %s, stop reason %s",
	StepEndLimit:   "the turn limit is reached: %s, stop reason %s",
	StepEndWhat:    "The loop returns its result: the history, the number of turns and the stop reason.",
	StepEndError:   "The loop returns; the model did not answer.",
}

// chinese are the page's words in Chinese, in the terms of the workbook's
// glossary (README.zh-CN.md).
var chinese = words{
	Title:       "逐步查看一次运行",
	IntroEvents: "本页的每一步，是循环在运行时发出的一个事件：就是 -trace 打印的那些事件，用的是 Pi 的名字。在每一步，你能看到循环此刻持有的历史、当前这一轮的请求、时间轴上的工具调用，以及各项计数。",
	IntroSteps:  "实验 02 到 04 在运行结束后才打印，所以本页根据运行留下的东西重放它：它的历史，以及模型收到的各次请求。每一步是循环六步中的一步，名字和实验 README 里的一样。实验 05 把这些步变成循环在运行时发出的事件。",
	Keys:        "← 和 → 前后移动一步，Home 和 End 跳到第一步和最后一步；地址末尾的 #step=N 就是指向当前这一步的链接。",
	Footer:      "由实验自己根据它的运行写出，不是手写的：同样的命令写出同样的字节。",

	First: "第一步（Home）", Prev: "上一步（←）", Next: "下一步（→）", Last: "最后一步（End）", Slider: "步",
	AtEvent: "第 {n} 个事件，共 {m} 个", AtStep: "第 {n} 步，共 {m} 步",
	BeforeEvents: "第一个事件之前", BeforeSteps: "运行之前",

	Turn: "轮次", Steps: "步数", Messages: "消息数", Clock: "演示时钟",
	Requests1: "1 次请求", RequestsN: "{n} 次请求", Execs1: "1 次工具执行", ExecsN: "{n} 次工具执行",
	TurnWhat:     "模型的一次回复，加上它触发的工具调用",
	MessagesWhat: "历史里的条目",

	Part: "第 %d 部分", TheRun: "这次运行", Colon: "：", GoToPart: "跳到它的第一步", Events: "事件", Steps2: "步骤",

	History: "历史", HistoryWhat: "循环此刻持有的消息；这一步新加的会标出来",
	Empty: "空", New: "新", Draft: "流式到达中：还不在历史里",
	Waiting: "等待回复……",
	Request: "这一轮的请求", RequestNone: "还没有发出请求",
	RequestWhole: "%s，整个历史", RequestPart: "历史 %[2]d 条消息中的 %[1]d 条",
	ToolsOffered: "提供的工具：%s", NoTools: "没有提供工具", NotObserved: "这个模型不报告它收到了什么",
	Queues: "队列", QueuesWhat: "用户输入的消息，等着循环来轮询",
	Steering: "插队消息", FollowUp: "后续消息", TypedNow: "在这一步输入", Taken: "被一次轮询取走",
	LanesClock: "演示时钟上的工具调用", LanesSteps: "工具调用，一步一步",
	LanesClockWhat: "每个调用一条泳道；竖线是这一步的时钟（它只计工具的等待，不计模型写回复的时间）",
	LanesStepsWhat: "每个调用一条泳道；这些工具没有演示时钟计时，所以横轴数的是步",
	NoCalls:        "没有工具调用",
	Running:        "运行中", Failed: "错误：%s", NeverRan: "没有运行",

	AgentStart:   "运行开始。",
	TurnStart:    "第 %d 轮开始：模型的一次回复，加上它要求的工具调用。",
	UserStart:    "一条用户消息开始。它在 message_end 时进入历史。",
	UserEnd:      "这条用户消息进入历史。",
	ReplyStart:   "循环发出请求；模型的回复开始流式到达。它还不在历史里。",
	Chunk:        "回复的一块流式到达；到目前为止的文本显示在历史下面。",
	ReplyCalls:   "回复完整了，进入历史。它要求 %s。",
	ReplyAnswer:  "回复完整了，进入历史。它没有要求任何工具。",
	ReplyFailed:  "请求失败：这条回复带着停止原因 error 进入历史。",
	ReplyAborted: "请求被取消：这条回复带着停止原因 aborted 进入历史。",
	ResultStart:  "%s 的结果开始。",
	ResultEnd:    "%s 的结果进入历史。",
	ToolStart:    "循环把 %s 交给工具 %s。",
	ToolUpdate:   "%s 报告进度。",
	ToolEnd:      "%s 结束。它的结果在这一批结束后、按调用的顺序进入历史。",
	ToolError:    "%s 以错误结束：对模型来说，这也是一个可以读的结果。",
	Terminates:   "它的结果要求终止这次运行。",
	TurnEnd:      "第 %d 轮结束，带着 %s。",
	AgentEnd:     "运行结束。它往历史里加了 %s。",
	OtherEvent:   "运行中的一个事件。",

	Step1:          "第 1 步 · 提示词进入历史",
	Step2:          "第 2 步 · 请求模型，发送完整历史",
	Step3Yes:       "第 3 步 · 回复里有工具调用吗？有：%s",
	Step3No:        "第 3 步 · 回复里有工具调用吗？没有：这条回复就是答案",
	StepFailed:     "请求失败了吗？是：停止原因 error",
	Step4:          "第 4 步 · 执行每个调用的工具：%s %s",
	Step5:          "第 5 步 · 把它的结果追加进历史：%s",
	Step1What:      "用户的提示词成为历史的第一条消息。",
	Step2What:      "模型收到完整历史和工具；它的回复追加进历史。",
	Step3What:      "循环只看一件事：回复里有没有工具调用？",
	StepFailedWhat: "请求失败了。它那条停止原因为 error 的回复在历史里，循环结束。",
	Step4What:      "循环用模型写的参数，执行模型点名的工具。",
	Step5What:      "结果带着调用的 ID 进入历史。",
	StepEnd:        "循环结束：%s，停止原因 %s",
	StepEndLimit:   "达到轮数上限：%s，停止原因 %s",
	StepEndWhat:    "循环返回它的结果：历史、轮数和停止原因。",
	StepEndError:   "循环返回；模型没有给出答案。",
}

// wordsIn returns the page's words in lang.
func wordsIn(lang Lang) *words {
	if lang == Chinese {
		return &chinese
	}
	return &english
}

// counted writes n of a thing in lang: "3 tool calls", "3 个工具调用".
func counted(lang Lang, n int, one, many, zh string) string {
	if lang == Chinese {
		return itoa(n) + " " + zh
	}
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}
