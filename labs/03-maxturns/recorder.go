package main

import (
	"context"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A recorder passes each request on to a model and keeps it, so that
// -requests can show what the model was sent.
type recorder struct {
	model    fakemodel.Model
	requests []fakemodel.Request
}

// Reply records req and asks the model.
func (r *recorder) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	r.requests = append(r.requests, req)
	return r.model.Reply(ctx, req)
}

// shown returns the recorded requests if -requests asks to print them, and
// nil otherwise.
func (r *recorder) shown(opts options) []fakemodel.Request {
	if !opts.requests {
		return nil
	}
	return r.requests
}
