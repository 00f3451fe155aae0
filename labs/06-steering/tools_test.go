package main

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
)

func TestSearch(t *testing.T) {
	tool := search(true)
	expected.Equal(t, "search", tool.Spec.Name, "the tool's name")
	args, err := tool.decode(json.RawMessage(`{"query":"Oslo to Lima"}`))
	if !expected.NoError(t, err, "search decodes a query") {
		return
	}
	var reports []string
	got, err := tool.run(context.Background(), "call_1", args, func(p string) { reports = append(reports, p) })
	if !expected.NoError(t, err, "the search runs without an error") {
		return
	}
	expected.Equal(t, ToolResult{Content: "3 flights, 1 direct: 480 € on 12 May", Terminate: true}, got, "search(true) returns the flights it found, in a result that asks to terminate")
	expected.Equal(t, []string{"asking 3 airlines"}, reports, "the search reports its progress once")
}

// TestFakeTool checks that a fake tool hands each call's Action its call's
// ID and report, and turns what the Action returns into a ToolResult.
// (fakemodel/scenario tests the Actions themselves.)
func TestFakeTool(t *testing.T) {
	tests := []struct {
		name    string
		a       scenario.Action
		want    ToolResult
		err     string
		updates []string
	}{
		{name: "result", a: scenario.Action{Result: "ok", Duration: 90 * time.Millisecond}, want: ToolResult{Content: "ok"}},
		{name: "terminate", a: scenario.Action{Result: "ok", Terminate: true}, want: ToolResult{Content: "ok", Terminate: true}},
		{name: "error", a: scenario.Action{Error: "disk full", Duration: 10 * time.Millisecond}, err: "disk full"},
		{name: "updates", a: scenario.Action{Result: "ok", Updates: []string{"1", "2"}}, want: ToolResult{Content: "ok"}, updates: []string{"1", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var updates []string
				got, err := tool("x", tt.a).run(context.Background(), "id", map[string]any{}, func(u string) { updates = append(updates, u) })
				expected.Equal(t, tt.a.Duration, time.Since(start), "the call takes its duration")
				expected.Equal(t, tt.updates, updates, "the call reports the Action's updates")
				if tt.err != "" {
					expected.EqualError(t, err, tt.err, "the call fails with the Action's error")
					return
				}
				if !expected.NoError(t, err, "the call runs without an error") {
					return
				}
				expected.Equal(t, tt.want, got, "the call's result is the Action's")
			})
		})
	}
}

func TestFakeToolPanics(t *testing.T) {
	x := tool("x", scenario.Action{Panic: "boom"})
	got := func() (v any) {
		defer func() { v = recover() }()
		_, _ = x.run(context.Background(), "id", nil, func(string) {})
		return nil
	}()
	expected.Equal(t, any("boom"), got, "the call panics with the Action's value")
}

func TestFakeToolPerCall(t *testing.T) {
	x := fakeTool(nil, scenario.Tool{
		Name:       "x",
		Sequential: true,
		Default:    scenario.Action{Result: "default"},
		Calls:      map[string]scenario.Action{"b": {Result: "special"}},
	})
	expected.Equal(t, true, x.Sequential, "the tool is sequential, as the scenario says")
	for id, want := range map[string]string{"a": "default", "b": "special"} {
		got, err := x.run(context.Background(), id, nil, func(string) {})
		if !expected.NoError(t, err, "call %s runs without an error", id) {
			return
		}
		expected.Equal(t, want, got.Content, "call %s gets its own Action, or the default", id)
	}
}

// TestFakeToolTakesAnyObject checks the promise of the scenario format: a
// fake tool takes any JSON object, even one with a number no float64 holds,
// and nothing else.
func TestFakeToolTakesAnyObject(t *testing.T) {
	x := tool("x", scenario.Action{})
	for _, args := range []string{`{}`, `{"n":1e999}`, `{"a":[null,{"b":true}]}`} {
		_, err := x.decode(json.RawMessage(args))
		expected.NoError(t, err, "a fake tool takes %s", args)
	}
	// In the words of the typed tools' checks, so that a recorded -chat
	// session replays with the messages it showed.
	for args, want := range map[string]string{
		`[1]`:  "arguments must be a JSON object, not an array",
		`null`: "arguments must be a JSON object, not null",
		`"x"`:  "arguments must be a JSON object, not a string",
		`3`:    "arguments must be a JSON object, not a number",
		`{"a"`: "arguments are not valid JSON: unexpected end of JSON input",
	} {
		_, err := x.decode(json.RawMessage(args))
		expected.EqualError(t, err, want, "a fake tool refuses %s", args)
	}
}

func TestFakeToolStopsWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		x := tool("x", scenario.Action{Result: "ok", Duration: time.Hour})
		start := time.Now()
		time.AfterFunc(time.Second, cancel)
		_, err := x.run(ctx, "id", nil, func(string) {})
		expected.ErrorIs(t, err, context.Canceled, "the call ends with the cancellation")
		expected.Equal(t, time.Second, time.Since(start), "the call stops when the context is cancelled, not when its hour is over")
	})
}
