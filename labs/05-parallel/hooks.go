package main

import (
	"context"
	"regexp"
)

// requireApproval is the demo's BeforeToolCall. It blocks every call to rm,
// as an application that asks the user before deleting anything would, when
// there is no user to ask.
func requireApproval(ctx context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
	if c.ToolCall.Name == "rm" {
		return BeforeToolCallResult{Block: true, Reason: "rm needs the user's approval"}, nil
	}
	return BeforeToolCallResult{}, nil
}

// apiKey matches an API key of the fake provider.
var apiKey = regexp.MustCompile(`sk-[A-Za-z0-9-]+`)

// redactSecrets is the demo's AfterToolCall. It hides API keys in results, so
// that they never reach the model, whichever tool read them.
func redactSecrets(ctx context.Context, c AfterToolCallContext) (AfterToolCallResult, error) {
	redacted := apiKey.ReplaceAllString(c.Result, "[redacted]")
	if redacted == c.Result {
		return AfterToolCallResult{}, nil
	}
	return AfterToolCallResult{Content: &redacted}, nil
}
