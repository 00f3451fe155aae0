package expected

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordingT is a testing.TB that keeps its failures instead of failing.
type recordingT struct {
	testing.TB
	failures []string
}

func (r *recordingT) Helper() {}

func (r *recordingT) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingT) Error(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
}

func TestGuardPassesRepliesOnUntilTheLimit(t *testing.T) {
	rec := &recordingT{TB: t}
	model := Guard(rec, fakemodel.Stubborn(), 3, "does each tool result reach the history?")
	req := fakemodel.Request{Tools: []fakemodel.ToolSpec{{Name: "calculate"}}}
	for range 3 {
		reply, err := model.Reply(context.Background(), req)
		require.NoError(t, err)
		assert.NotEmpty(t, reply.ToolCalls)
	}
	assert.Empty(t, rec.failures, "three turns are within the limit")

	_, err := model.Reply(context.Background(), req)
	require.ErrorIs(t, err, ErrGuard)
	assert.Equal(t, []string{"the loop did not end after 3 turns: does each tool result reach the history?"}, rec.failures)

	_, err = model.Reply(context.Background(), req)
	require.ErrorIs(t, err, ErrGuard, "every request after the limit fails")
	assert.Len(t, rec.failures, 1, "the test fails once")
}

// TestGuardEndsALoopThatIgnoresFailedRequests drives the guard as a loop
// that goes on after errors would: it panics, and the test still ends.
func TestGuardEndsALoopThatIgnoresFailedRequests(t *testing.T) {
	rec := &recordingT{TB: t}
	model := Guard(rec, fakemodel.Stubborn(), 2, "does a failed request end the run?")
	panicked := func() (msg any) {
		defer func() { msg = recover() }()
		for range 100 {
			_, err := model.Reply(context.Background(), fakemodel.Request{})
			if err != nil && !errors.Is(err, ErrGuard) {
				t.Fatal(err)
			}
		}
		return nil
	}()
	assert.Equal(t, "the loop did not end after 5 turns, although every request after turn 2 failed: does a failed request end the run?", panicked)
}
