package fakemodel

import "context"

// A caller that wants to see what a model was sent, as the page of -html
// shows the request of each turn (labs/stepper), hands a function to the
// model through the request's context, as WithOnThinking does for the
// model's reasoning. The loop itself never needs it: it built the request.

// onRequestKey is the context key of WithOnRequest.
type onRequestKey struct{}

// WithOnRequest returns a copy of ctx that carries onRequest: a model of
// this package, or a scenario's, asked with that context hands onRequest
// each request it gets, on the goroutine that called Reply, before it
// answers. A nil onRequest hands them to nobody.
func WithOnRequest(ctx context.Context, onRequest func(Request)) context.Context {
	return context.WithValue(ctx, onRequestKey{}, onRequest)
}

// Sent hands req to the function that WithOnRequest put in ctx, if any. A
// model calls it with each request it gets.
func Sent(ctx context.Context, req Request) {
	if f, _ := ctx.Value(onRequestKey{}).(func(Request)); f != nil {
		f(req)
	}
}
