// Package fakemodel is the workbook's stand-in for an LLM provider.
//
// A real provider SDK gives you two things: the vocabulary of a conversation
// (messages, tool calls, stop reasons, tool descriptions) and a model you can
// send that conversation to. This package gives you the same two things, so
// that the labs read like code written against a real SDK.
//
// The models here are fake on purpose. A real model needs a network, an API
// key and money, and it answers differently every time. A fake model needs
// nothing and prints the same bytes on every run, so a lab's output can be
// compared with its golden file byte for byte, and a test can assert exactly
// what the loop did.
//
// The fake models are honest in the one way that matters for the lessons: like
// a real model, each one decides only from the request it is handed. It keeps
// no memory between requests, reads no clock and draws no random numbers. If
// the loop forgets to append a tool result to the history, the fake model does
// not see it either, and it asks again, just as a real model would. And like
// a real model, each has a context window ([ContextWindow]): a request whose
// history does not fit fails, so a loop that never ends fails too, after some
// thousands of turns, instead of running forever.
//
// The vocabulary follows Pi's, from the npm package @earendil-works/pi-ai
// 0.83.0 (packages/ai in github.com/earendil-works/pi): user, assistant and
// toolResult messages, tool calls with an ID, a name and JSON arguments, and
// the stop reasons of a finished reply, stop, toolUse, length, error and
// aborted. (Pi has a sixth, pending, which a reply carries while it still
// streams; in the labs a reply that is still streaming has no stop reason.)
// Two simplifications keep the labs short: message content is plain
// text instead of a list of content blocks, and a failed request is a Go error
// returned by [Model.Reply]. From lab 04 on, the labs turn that error into an
// assistant message, which is what Pi's providers hand the loop. Lab 04 always
// gives it stop reason error; labs 05 and 06 give it stop reason aborted when
// the run's context was cancelled, and error otherwise.
package fakemodel
