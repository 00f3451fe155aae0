package fakemodel

import "context"

// A model that reasons before it answers, as many real ones do, streams its
// reasoning too: Pi calls it thinking, and keeps it in the reply apart from
// the text (pi-ai's thinking_delta events). The loop needs none of it to
// decide what comes next, so a Request has no field for it. A caller that
// wants to show it, as lab 06's -chat does while a real model thinks,
// hands a function to the model through the request's context, as
// net/http/httptrace hands its hooks to a request. A model without
// reasoning ignores it.

// onThinkingKey is the context key of WithOnThinking.
type onThinkingKey struct{}

// WithOnThinking returns a copy of ctx that carries onThinking: a model
// asked with that context passes its reasoning to onThinking in chunks, as
// it streams in, before Reply returns, on the goroutine that called Reply.
func WithOnThinking(ctx context.Context, onThinking func(chunk string)) context.Context {
	return context.WithValue(ctx, onThinkingKey{}, onThinking)
}

// OnThinking returns the function that WithOnThinking put in ctx, or nil.
func OnThinking(ctx context.Context) func(chunk string) {
	f, _ := ctx.Value(onThinkingKey{}).(func(string))
	return f
}
