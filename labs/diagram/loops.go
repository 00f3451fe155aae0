package diagram

import (
	"fmt"
	"maps"
	"slices"
)

// The loop of each lab, as its README draws it. Each chart is whole; what
// is new in a lab is what the chart of the lab before it does not have, so
// the marks cannot drift from the charts. The names a box gives as code
// must be in the lab's Go code (TestEachLoopNamesItsLabsCode), so that a
// box cannot outlive the code it stands for.

// The boxes the labs share.
var (
	prompt     = end("prompt", "the user's prompt")
	enters     = box("s1", "1 · the prompt enters the history", "Step 1:")
	asks       = box("s2", "2 · ask the model, sending the full history", "Step 2:")
	branches   = ask("s3", "3 · tool calls in the reply?", "Step 3:")
	answers    = end("done", "the reply is the answer: stop reason completed", `"completed"`)
	runs       = box("s4", "4 · run the tool of each call", "Step 4:")
	appends    = box("s5", "5 · append its result to the history", "Step 5:", "Step 6:")
	guards     = ask("guard", "turn limit reached?", "maxTurns")
	maxedOut   = end("max", "stop reason max_turns", `"max_turns"`)
	fails      = ask("failed", "request failed?", "StopReasonError")
	failed     = end("err", "stop reason error", `"error"`)
	streams    = box("s2", "2 · ask the model, sending the full history: its reply streams in", "MessageUpdate")
	interrupts = ask("failed", "request failed, or aborted by Ctrl-C?", "StopReasonAborted")
	stopped    = end("err", "stop reason error or aborted", `"error"`, `"aborted"`)
	prepares   = box("prep", "4 · prepare each call: find its tool, check its arguments, ask BeforeToolCall", "prepareToolCall", "BeforeToolCall")
	executes   = box("exec", "4 · run the prepared calls: all at once, or one at a time if a tool must run alone", "executeParallel", "executeSequential", "Sequential")
	finalizes  = box("after", "4 · AfterToolCall may change each result", "AfterToolCall")
	inOrder    = box("s5", "5 · append the results to the history, in the order of the calls")
	emits      = beside("events", "every step emits events, from agent_start to agent_end, which the program prints as they come", "AgentStart", "AgentEnd")
)

// loops are the labs' charts, by lab.
var loops = map[string]chart{
	"01-no-loop": {
		nodes: []node{
			prompt,
			box("s1", "1 · the prompt enters the history", "askOnce"),
			box("s2", "2 · ask the model, sending the full history", "askOnce"),
			ask("s3", "3 · tool calls in the reply?"),
			end("done", "the reply is the answer"),
			end("hole", "nothing runs the tool: the program ends with the question unanswered", "unanswered"),
		},
		edges: []edge{to("prompt", "s1"), to("s1", "s2"), to("s2", "s3"), on("s3", "no", "done"), on("s3", "yes", "hole")},
	},
	"02-loop": {
		nodes: []node{prompt, enters, asks, branches, answers, runs, appends},
		edges: []edge{
			to("prompt", "s1"), to("s1", "s2"), to("s2", "s3"), on("s3", "no", "done"), on("s3", "yes", "s4"),
			to("s4", "s5"), on("s5", "6 · ask again", "s2"),
		},
	},
	"03-maxturns": {
		nodes: []node{prompt, enters, guards, maxedOut, asks, branches, answers, runs, appends},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", "yes", "max"), on("guard", "no", "s2"),
			to("s2", "s3"), on("s3", "no", "done"), on("s3", "yes", "s4"), to("s4", "s5"), on("s5", "6 · next turn", "guard"),
		},
	},
	"04-tool-errors": {
		nodes: []node{
			prompt, enters, guards, maxedOut, asks, fails, failed, branches, answers,
			box("s4", "4 · run the tool of each call: whatever fails becomes an error result", "Step 4:", "IsError"),
			box("s5", "5 · append its result to the history, an error result too", "Step 5:", "Step 6:"),
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", "yes", "max"), on("guard", "no", "s2"),
			to("s2", "failed"), on("failed", "yes", "err"), on("failed", "no", "s3"),
			on("s3", "no", "done"), on("s3", "yes", "s4"), to("s4", "s5"), on("s5", "6 · next turn", "guard"),
		},
	},
	"05-parallel": {
		nodes: []node{
			prompt, emits, enters, guards, maxedOut, streams, interrupts, stopped, branches, answers,
			prepares, executes, finalizes, inOrder,
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "guard"), on("guard", "yes", "max"), on("guard", "no", "s2"),
			to("s2", "failed"), on("failed", "yes", "err"), on("failed", "no", "s3"),
			on("s3", "no", "done"), on("s3", "yes", "prep"), to("prep", "exec"), to("exec", "after"), to("after", "s5"),
			on("s5", "6 · next turn", "guard"),
		},
	},
	"06-steering": {
		nodes: []node{
			end("prompt", "Prompt, or Continue without a prompt", "Prompt", "Continue"),
			emits,
			box(enters.id, enters.label, "prompts"),
			box("enter", "the messages the last poll took from a queue enter the history", "GetSteeringMessages", "GetFollowUpMessages"),
			streams, interrupts, stopped,
			ask(branches.id, branches.label, "len(reply.ToolCalls) > 0"),
			prepares, executes, finalizes, inOrder,
			ask("policy", "ShouldStopAfterTurn says stop?", "ShouldStopAfterTurn"),
			end("stop", "stop reason stopped", `"stopped"`),
			ask("steer", "steering messages queued?", "Steer"),
			ask("more", "tool calls, and not every result asked to terminate?", "Terminate"),
			ask("follow", "follow-up messages queued?", "FollowUp"),
			end("done", "stop reason completed, or terminated", `"completed"`, `"terminated"`),
		},
		edges: []edge{
			to("prompt", "s1"), to("s1", "enter"), to("enter", "s2"),
			to("s2", "failed"), on("failed", "yes", "err"), on("failed", "no", "s3"),
			on("s3", "yes", "prep"), to("prep", "exec"), to("exec", "after"), to("after", "s5"),
			on("s3", "no", "policy"), to("s5", "policy"),
			on("policy", "yes", "stop"), on("policy", "no", "steer"),
			on("steer", "yes: 6 · next turn", "enter"), on("steer", "no", "more"),
			on("more", "yes: 6 · next turn", "enter"), on("more", "no", "follow"),
			on("follow", "yes: next turn", "enter"), on("follow", "no", "done"),
		},
	},
}

// Loop returns the loop of the lab named lab, such as "02-loop", as a
// Mermaid flowchart: its steps, the decisions between them and the ways a
// run ends, with what is new since the lab before marked. The labs'
// READMEs show it.
func Loop(lab string) (string, error) {
	c, ok := loops[lab]
	if !ok {
		return "", fmt.Errorf("no loop chart for lab %q", lab)
	}
	// The first lab's chart marks nothing: all of it is new.
	before := c
	if labs := Labs(); lab != labs[0] {
		before = loops[labs[slices.Index(labs, lab)-1]]
	}
	return c.mermaid(before), nil
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
