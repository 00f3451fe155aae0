package expected

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
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

// wantHeld checks that an assertion returned true: what it checks holds.
func wantHeld(t *testing.T, held bool) {
	t.Helper()
	if !held {
		t.Error("the assertion returned false, want true: what it checks holds")
	}
}

// wantFailed checks that an assertion returned false: what it checks does
// not hold.
func wantFailed(t *testing.T, held bool) {
	t.Helper()
	if held {
		t.Error("the assertion returned true, want false: what it checks does not hold")
	}
}

// wantFindings checks the findings rec holds, in order; none if want is.
func wantFindings(t *testing.T, rec *recordingT, want ...string) {
	t.Helper()
	if !slices.Equal(rec.failures, want) {
		t.Errorf("the findings differ (-want +got):\n%s", cmp.Diff(want, rec.failures))
	}
}

// wantFindingCount ends the test unless rec holds n findings.
func wantFindingCount(t *testing.T, rec *recordingT, n int) {
	t.Helper()
	if len(rec.failures) != n {
		t.Fatalf("%d findings, want %d: %q", len(rec.failures), n, rec.failures)
	}
}

// wantContains checks that text, which what names, holds part.
func wantContains(t *testing.T, what, text, part string) {
	t.Helper()
	if !strings.Contains(text, part) {
		t.Errorf("%s does not hold %q; it is:\n%s", what, part, text)
	}
}

func TestGuardPassesRepliesOnUntilTheLimit(t *testing.T) {
	rec := &recordingT{TB: t}
	model := Guard(rec, fakemodel.Stubborn(), 3, "does each tool result reach the history?")
	req := fakemodel.Request{Tools: []fakemodel.ToolSpec{{Name: "calculate"}}}
	for turn := 1; turn <= 3; turn++ {
		reply, err := model.Reply(context.Background(), req)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if len(reply.ToolCalls) == 0 {
			t.Errorf("turn %d: the reply asks for no call, want at least one", turn)
		}
	}
	if len(rec.failures) != 0 {
		t.Errorf("findings %q, want none: three turns are within the limit", rec.failures)
	}

	_, err := model.Reply(context.Background(), req)
	if !errors.Is(err, ErrGuard) {
		t.Fatalf("turn 4: error %v, want ErrGuard", err)
	}
	wantFindings(t, rec, "the loop did not end after 3 turns: does each tool result reach the history?")

	_, err = model.Reply(context.Background(), req)
	if !errors.Is(err, ErrGuard) {
		t.Fatalf("turn 5: error %v, want ErrGuard: every request after the limit fails", err)
	}
	if len(rec.failures) != 1 {
		t.Errorf("%d findings, want 1: the test fails once", len(rec.failures))
	}
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
	if want := "the loop did not end after 5 turns, although every request after turn 2 failed: does a failed request end the run?"; panicked != want {
		t.Errorf("the guard panicked with %#v, want %q", panicked, want)
	}
}
