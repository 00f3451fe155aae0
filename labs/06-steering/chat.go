package main

import (
	"context"
	"io"

	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// runChat is -chat: a session in which you talk to an Agent yourself. The
// package talk reads what you type and Ctrl-C, stands between the agent
// and its model, offline or real, and records the session; the lab gives
// it the Agent, with the tools of the fake world and a turn limit, and
// prints each run as the demo does.
func runChat(ctx context.Context, stdout, stderr io.Writer, opts options) error {
	chat, err := talk.NewChat(opts.chat, string(opts.queueMode), opts.sequential)
	if err != nil {
		return err
	}
	var tools []Tool
	for _, t := range chat.Tools() {
		tools = append(tools, toolOf(t))
	}
	agent := NewAgent(AgentOptions{
		// Lab 03's turn limit, as a policy.
		Config:       Config{Model: chat.Model(), Tools: tools, Sequential: opts.sequential, ShouldStopAfterTurn: maxTurns(opts.chat.MaxTurns)},
		SteeringMode: opts.queueMode, FollowUpMode: opts.queueMode,
	})
	s := talk.Show{Printer: opts.out.Printer(stdout), Errw: stderr, Trace: opts.trace}
	return chat.Run(ctx, s, agent, runs(agent, chat.Clock(), opts.chat.MaxTurns))
}
