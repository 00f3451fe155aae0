package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

// TestNothingIsLost is a property test. In each of many sessions, goroutines
// other than the agent's call Steer and FollowUp at arbitrary moments: while
// a tool runs, while the model streams, between runs. The runs end in every
// way a run can: the model answers, a ShouldStopAfterTurn policy stops
// them, a tool result terminates them, the model request fails, or the
// context is cancelled. However they fall, every message must enter the
// history exactly once, in the order it was queued, or still be queued when
// the session ends.
//
// The sessions run in synctest bubbles: the tools and the senders sleep for
// random lengths of fake time, so each seed gives another interleaving, and
// no test waits for real time. No two goroutines ever wake at the same fake
// moment, whose order the scheduler would pick: each sleeps whole
// milliseconds from an offset of its own (see offset), so a seed fixes the
// whole session, and a session that fails fails on every run. 200 sessions
// catch what one would miss. The test says in how many sessions a message
// went astray, which tells how rare the mistake's moment is, and shows the
// first of them, since the others most likely show the same mistake.
func TestNothingIsLost(t *testing.T) {
	const sessions = 200
	failed := 0
	var first []problem // what went wrong in the first session that failed
	var firstSeed uint64
	for seed := range uint64(sessions) {
		var problems []problem
		synctest.Test(t, func(t *testing.T) { problems = session(t, seed) })
		if len(problems) > 0 {
			if failed == 0 {
				first, firstSeed = problems, seed
			}
			failed++
		}
	}
	for _, p := range first {
		expected.Report(t, expected.Finding{
			Message: fmt.Sprintf("a message was lost, repeated or reordered in %d of %d sessions; in the first, session %d, %s: "+
				"every message enters the history once, in the order it was queued, or is still queued (mode %s); "+
				"the messages in the history, then those still queued",
				failed, sessions, firstSeed, p.queue, p.mode),
			Want: fmt.Sprintf("%q", p.queued),
			Got:  upTo(p.got, len(p.queued)+5),
		})
	}
}

// A problem is a queue of a session whose messages went astray.
type problem struct {
	queue  string // "steer" or "followUp"
	mode   QueueMode
	queued []string // the messages in the order they were queued
	got    []string // the messages that entered the history, then those still queued
}

// offset is where a goroutine of a session starts to count its sleeps of
// whole milliseconds: the tools, and the test between its prompts, at 0
// (a tool's progress note comes at half its duration, so at 0 or 0.5 ms);
// each sender and the cancel at a microsecond of their own. Their wake-ups
// never meet.
func offset(goroutine int) time.Duration { return time.Duration(goroutine) * time.Microsecond }

// failsAt is a model whose request number at fails, as a provider that is
// down would make it.
type failsAt struct {
	model    fakemodel.Model
	requests int
	at       int
}

func (f *failsAt) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	f.requests++
	if f.requests == f.at {
		return fakemodel.AssistantMessage{}, errors.New("provider unavailable")
	}
	return f.model.Reply(ctx, req)
}

// endings are the ways a session's runs may end.
const (
	answered = iota
	stopPolicy
	terminated
	modelFails
	cancelled
	endings
)

// session runs the session of seed and returns what went wrong in it.
func session(t *testing.T, seed uint64) (problems []problem) {
	rng := rand.New(rand.NewPCG(seed, 42))
	mode := []QueueMode{OneAtATime, All}[rng.IntN(2)]
	ending := rng.IntN(endings)
	cfg := Config{
		Model: fakemodel.Researcher("search"),
		Tools: []Tool{tool("search", scenario.Action{
			Result:    "found",
			Duration:  time.Duration(rng.IntN(50)) * time.Millisecond,
			Updates:   []string{"working"},
			Terminate: ending == terminated,
		})},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	switch ending {
	case stopPolicy:
		cfg.ShouldStopAfterTurn = maxTurns(1 + rng.IntN(3))
	case modelFails:
		cfg.Model = &failsAt{model: cfg.Model, at: 1 + rng.IntN(4)}
	case cancelled:
		time.AfterFunc(offset(4)+time.Duration(rng.IntN(120))*time.Millisecond, cancel)
	}
	cfg.Model = guard(t, cfg.Model, endless)
	a := NewAgent(AgentOptions{Config: cfg, SteeringMode: mode, FollowUpMode: mode})

	// queued records the order in which messages really entered each queue:
	// the lock makes recording and queueing one step.
	var mu sync.Mutex
	queued := map[string][]string{}
	send := func(kind string, n int) {
		mu.Lock()
		defer mu.Unlock()
		text := fmt.Sprintf("%s %d", kind, n)
		queued[kind] = append(queued[kind], text)
		if kind == "steer" {
			a.Steer(fakemodel.UserMessage{Text: text})
		} else {
			a.FollowUp(fakemodel.UserMessage{Text: text})
		}
	}

	var senders sync.WaitGroup
	for g := range 3 {
		kind := []string{"steer", "followUp", "steer"}[g]
		delays := make([]time.Duration, 5)
		for i := range delays {
			delays[i] = time.Duration(rng.IntN(40)) * time.Millisecond
		}
		delays[0] += offset(1 + g)
		senders.Go(func() {
			for i, d := range delays {
				time.Sleep(d)
				send(kind, g*100+i)
			}
		})
	}
	for run := range 1 + rng.IntN(3) {
		err := a.Prompt(ctx, fmt.Sprintf("prompt %d", run), func(Event) {})
		if !expected.NoError(t, err, "session %d: every run ends without an error", seed) {
			t.FailNow()
		}
		time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
	}
	senders.Wait()

	entered := map[string][]string{}
	for _, m := range a.Messages() {
		if u, ok := m.(fakemodel.UserMessage); ok && !strings.HasPrefix(u.Text, "prompt ") {
			kind, _, _ := strings.Cut(u.Text, " ")
			entered[kind] = append(entered[kind], u.Text)
		}
	}
	steering, followUp := a.Queued()
	waiting := map[string][]fakemodel.Message{"steer": steering, "followUp": followUp}
	for _, kind := range []string{"steer", "followUp"} {
		got := append(entered[kind], texts(waiting[kind])...)
		if !slices.Equal(queued[kind], got) {
			problems = append(problems, problem{queue: kind, mode: mode, queued: queued[kind], got: got})
		}
	}
	return problems
}

// upTo quotes the first n texts of list, and counts the others, so that a loop that
// takes the same message again and again prints one short line.
func upTo(list []string, n int) string {
	if len(list) <= n {
		return fmt.Sprintf("%q", list)
	}
	return fmt.Sprintf("%q … and %d more", list[:n], len(list)-n)
}
