package expected

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// ErrGuard is the error a guarded model returns once the loop has run past
// its limit. A loop that ends on a failed request ends there.
var ErrGuard = errors.New("the test's guard stopped the loop")

// Guard returns model, guarded for a test of a loop. A loop that never ends
// would hang the test until go test's timeout, minutes later, with a
// goroutine dump that names no cause. The guard counts requests, one per
// turn: the request that would start turn turns+1 fails t with
//
//	the loop did not end after TURNS turns: CAUSE
//
// and gets ErrGuard instead of a reply, as does every request after it. cause
// names what most likely keeps the loop going, as a question: "does each tool
// result reach the history?". A loop that goes on even when every request
// fails panics with the same sentence after as many turns again, so that the
// test still ends.
//
// turns must leave room for the turns the test expects: a test that cancels
// the run after 50 turns guards it with more.
func Guard(t testing.TB, model fakemodel.Model, turns int, cause string) fakemodel.Model {
	return &guarded{t: t, model: model, turns: turns, cause: cause}
}

// guarded is the model Guard returns.
type guarded struct {
	t     testing.TB
	model fakemodel.Model
	turns int
	cause string

	mu       sync.Mutex // the loops of labs 05 and 06 may ask from another goroutine
	requests int
}

// Reply passes req on to the model, until the loop has run turns turns.
func (g *guarded) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	g.t.Helper() // the failure names the line of the loop that asked
	g.mu.Lock()
	g.requests++
	n := g.requests
	g.mu.Unlock()
	switch {
	case n <= g.turns:
		return g.model.Reply(ctx, req)
	case n == g.turns+1:
		Fail(g.t, "the loop did not end after %s: %s", turns(g.turns), g.cause)
	case n > 2*g.turns+1:
		panic(fmt.Sprintf("the loop did not end after %s, although every request after turn %d failed: %s", turns(n-1), g.turns, g.cause))
	}
	return fakemodel.AssistantMessage{}, fmt.Errorf("%w after %s", ErrGuard, turns(g.turns))
}

// turns writes n turns, in the singular for 1.
func turns(n int) string {
	if n == 1 {
		return "1 turn"
	}
	return fmt.Sprintf("%d turns", n)
}
