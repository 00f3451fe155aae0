package main

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// An Agent owns a conversation and runs the loop over it. It mirrors Pi's
// Agent (packages/agent/src/agent.ts): it keeps the history, and two queues
// through which a user talks to it while it works.
//
// Steer and FollowUp may be called from any goroutine at any time: while a
// run is going on, from inside an event handler, or between runs. The loop
// takes what they queued only at fixed points of a run, so no message is
// lost and none races with the history.
type Agent struct {
	cfg Config

	mu       sync.Mutex
	history  []fakemodel.Message
	running  bool
	steering queue
	followUp queue
}

// AgentOptions configure an Agent.
type AgentOptions struct {
	// Config is the loop's configuration. Its GetSteeringMessages and
	// GetFollowUpMessages are ignored: the agent's queues answer them.
	Config Config
	// SteeringMode and FollowUpMode say how many queued messages one poll
	// takes. The default is OneAtATime.
	SteeringMode, FollowUpMode QueueMode
	// History is the conversation the agent starts with, if any.
	History []fakemodel.Message
}

// NewAgent returns an agent.
func NewAgent(opts AgentOptions) *Agent {
	a := &Agent{cfg: opts.Config, history: slices.Clone(opts.History)}
	a.steering.mode = cmp.Or(opts.SteeringMode, OneAtATime)
	a.followUp.mode = cmp.Or(opts.FollowUpMode, OneAtATime)
	a.cfg.GetSteeringMessages = a.steering.drain
	a.cfg.GetFollowUpMessages = a.followUp.drain
	return a
}

// ErrBusy is the error of Prompt or Continue while a run is going on.
var ErrBusy = errors.New("the agent is already running: queue the message with Steer or FollowUp, or wait for the run to end")

// Steer queues a message to add before the model's next request: after the
// tool calls of the current turn, never in the middle of them. A message
// steered while the agent is idle goes into the next run's first turn.
func (a *Agent) Steer(m fakemodel.UserMessage) { a.steering.add(m) }

// FollowUp queues a message for when the agent would otherwise stop: when
// the model asks for no tool and no steering message is left.
func (a *Agent) FollowUp(m fakemodel.UserMessage) { a.followUp.add(m) }

// Queued returns the messages still waiting in each queue.
func (a *Agent) Queued() (steering, followUp []fakemodel.Message) {
	return a.steering.waiting(), a.followUp.waiting()
}

// Messages returns a copy of the history.
func (a *Agent) Messages() []fakemodel.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.history)
}

// Prompt runs the loop with a new user message, calling handle with each
// event. It returns when the run has ended; handle runs on the caller's
// goroutine, and the run waits for it, like Pi's awaited listeners.
func (a *Agent) Prompt(ctx context.Context, text string, handle func(Event)) error {
	return a.run(ctx, []fakemodel.Message{fakemodel.UserMessage{Text: text}}, handle)
}

// Continue runs the loop from the history as it is, with no new prompt:
// to let queued messages in after a ShouldStopAfterTurn policy stopped a
// run after a turn with tool calls, or to go on from a history the agent
// was given. The model must not answer its own reply, so from a history
// that ends with one, Continue runs what is queued instead, as Pi's
// Agent.continue does: the steering messages of one poll, as a new prompt
// whose run skips its first steering poll, or, if none wait, the
// follow-ups of one poll. With nothing queued, it refuses.
func (a *Agent) Continue(ctx context.Context, handle func(Event)) error {
	return a.run(ctx, nil, handle)
}

var (
	errNothingToContinue  = errors.New("cannot continue: the history holds no messages")
	errContinueAfterReply = errors.New("cannot continue from an assistant message with nothing queued: the request would end with the model's " +
		"own reply, leaving it nothing to answer; send a new prompt instead")
)

func (a *Agent) run(ctx context.Context, prompts []fakemodel.Message, handle func(Event)) error {
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return ErrBusy
	}
	cfg := a.cfg
	if prompts == nil && len(a.history) == 0 {
		a.mu.Unlock()
		return errNothingToContinue
	}
	if prompts == nil && a.history[len(a.history)-1].Role() == fakemodel.RoleAssistant {
		if prompts = a.steering.drain(); len(prompts) > 0 {
			polled := false // this drain was the run's first steering poll
			cfg.GetSteeringMessages = func() []fakemodel.Message {
				if !polled {
					polled = true
					return nil
				}
				return a.steering.drain()
			}
		} else if prompts = a.followUp.drain(); len(prompts) == 0 {
			a.mu.Unlock()
			return errContinueAfterReply
		}
	}
	a.running = true
	history := a.history
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.running = false
		a.mu.Unlock()
	}()

	for ev := range runLoop(ctx, cfg, history, prompts) {
		// Like Pi's Agent, the history grows as each message ends.
		if end, ok := ev.(MessageEnd); ok {
			a.mu.Lock()
			a.history = append(a.history, end.Message)
			a.mu.Unlock()
		}
		handle(ev)
	}
	return nil
}
