package fakemodel

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAModelHandsOnEachRequestItGets asks the calculator model twice with a
// context from WithOnRequest: the function gets both requests, in order,
// as they were sent; a request cancelled before it is sent reaches nobody.
func TestAModelHandsOnEachRequestItGets(t *testing.T) {
	var got []Request
	ctx := WithOnRequest(context.Background(), func(req Request) { got = append(got, req) })
	model := Calculator()
	prompt := UserMessage{Text: CalculatorPrompt}
	first := Request{Messages: []Message{prompt}, Tools: []ToolSpec{calculate}}
	reply, err := model.Reply(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	second := Request{Messages: []Message{prompt, reply, ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}}, Tools: first.Tools}
	if _, err := model.Reply(ctx, second); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Request{first, second}, got, cmp.Comparer(func(a, b func(string)) bool { return a == nil && b == nil })); diff != "" {
		t.Errorf("the requests handed on (-want +got):\n%s", diff)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := model.Reply(cancelled, first); err == nil {
		t.Fatal("a cancelled request got a reply")
	}
	if len(got) != 2 {
		t.Errorf("a request cancelled before it was sent was handed on: %d requests, want 2", len(got))
	}
	if _, err := model.Reply(WithOnRequest(ctx, nil), first); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Errorf("WithOnRequest(ctx, nil) still handed a request on: %d requests, want 2", len(got))
	}
	Sent(context.Background(), first) // with no function, nothing happens
}
