package fakemodel

import (
	"context"
	"fmt"
	"slices"
	"unicode"
)

// A Model answers a conversation with its next reply. It is the one call an
// agent loop makes to a provider.
type Model interface {
	// Reply returns the model's next message for the conversation in req.
	//
	// An error means the request failed and there is no reply. When ctx is
	// cancelled, Reply returns an error that wraps ctx.Err(), so that
	// errors.Is(err, context.Canceled) tells a cancellation from a failure.
	Reply(ctx context.Context, req Request) (AssistantMessage, error)
}

// A Request is what a loop sends to a model: the whole history, because a
// model remembers nothing between requests, and the tools it may ask for.
type Request struct {
	// Messages is the history, oldest first.
	Messages []Message
	// Tools describes the tools the model may ask for.
	Tools []ToolSpec
	// OnText, if not nil, receives the reply's text in chunks, the way a
	// streaming API delivers it, before Reply returns. Reply calls it on the
	// goroutine that called Reply. Joined, the chunks are the reply's Text.
	OnText func(chunk string)
}

// fake is the one Model implementation behind every model in this package.
// Each model differs only in its decide function, which picks the reply from
// the request alone: that is what keeps them free of hidden state.
type fake struct {
	name   string
	decide func(req Request) (AssistantMessage, error)
}

// ContextWindow is the most messages a fake model reads in one request. A
// real model's context window is counted in tokens, and a request that does
// not fit fails. So does a fake model's: a loop that never ends sends a
// longer history every turn, and it fails here after some thousands of turns
// instead of running forever. The labs' legitimate runs stay far below it:
// the longest, 1000 turns of lab 03, sends 1,999 messages.
const ContextWindow = 4096

// Reply decides the reply from req alone, then streams its text to
// req.OnText, if set.
func (m fake) Reply(ctx context.Context, req Request) (AssistantMessage, error) {
	if err := ctx.Err(); err != nil {
		return AssistantMessage{}, fmt.Errorf("%s model: %w", m.name, err)
	}
	Sent(ctx, req)
	if n := len(req.Messages); n > ContextWindow {
		return AssistantMessage{}, fmt.Errorf("%s model: the request holds %d messages, more than the context window of %d", m.name, n, ContextWindow)
	}
	reply, err := m.decide(req)
	if err != nil {
		return AssistantMessage{}, fmt.Errorf("%s model: %w", m.name, err)
	}
	reply.ToolCalls = slices.Clone(reply.ToolCalls)
	if reply.StopReason == "" {
		reply.StopReason = StopReasonStop
		if len(reply.ToolCalls) > 0 {
			reply.StopReason = StopReasonToolUse
		}
	}
	if req.OnText != nil {
		for _, chunk := range Chunks(reply.Text) {
			// A real stream can be cancelled halfway through a reply.
			if err := ctx.Err(); err != nil {
				return AssistantMessage{}, fmt.Errorf("%s model: %w", m.name, err)
			}
			req.OnText(chunk)
		}
	}
	// A cancel while the last chunk was handled, or after it, still
	// cancels the reply, as pi-ai's providers check the signal once the
	// stream has ended and end the message aborted: a cancel never comes
	// too late to stop a reply that has not been returned.
	if err := ctx.Err(); err != nil {
		return AssistantMessage{}, fmt.Errorf("%s model: %w", m.name, err)
	}
	return reply, nil
}

// Chunks splits text the way the fake models stream it: each chunk a word
// with the spaces that follow it, or a character of Chinese or Japanese, as
// ChunkStarts says.
// Joined, the chunks are text again. The split depends on nothing but text,
// so a streamed reply arrives in the same chunks on every run.
func Chunks(text string) []string {
	var chunks []string
	start, prev := 0, rune(-1)
	for i, r := range text {
		if i > 0 && ChunkStarts(prev, r) {
			chunks = append(chunks, text[start:i])
			start = i
		}
		prev = r
	}
	if start < len(text) {
		chunks = append(chunks, text[start:])
	}
	return chunks
}

// ChunkStarts reports whether a new chunk of streamed text starts at r, the
// character after prev: at a word after white space, and at each character
// of Chinese or Japanese, which put no spaces between words, so that such a
// text streams a character at a time rather than all at once.
func ChunkStarts(prev, r rune) bool {
	if unicode.IsSpace(r) {
		return false
	}
	return unicode.IsSpace(prev) || standsAlone(prev) || standsAlone(r)
}

// standsAlone reports whether r is a chunk of its own: a Chinese character
// (Han, which Japanese uses too), kana, or the punctuation and the half- and
// full-width forms written with them.
func standsAlone(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303F) || // CJK symbols and punctuation: 。、「」
		(r >= 0xFF00 && r <= 0xFFEF) // half- and full-width forms: ，！？（）
}

// offers reports whether the request offers a tool with this name.
func offers(req Request, name string) bool {
	return slices.ContainsFunc(req.Tools, func(t ToolSpec) bool { return t.Name == name })
}

// needs is a model's answer when the request does not offer the tool it
// needs: a model may only ask for a tool it was offered.
func needs(tool string) AssistantMessage {
	return AssistantMessage{Text: fmt.Sprintf("I need a %s tool to answer that.", tool)}
}

// nextCallID numbers tool calls across the whole conversation: call_1,
// call_2, ... Real providers send opaque IDs; these are only easier to read.
func nextCallID(history []Message, offset int) string {
	n := 0
	for _, m := range history {
		if a, ok := m.(AssistantMessage); ok {
			n += len(a.ToolCalls)
		}
	}
	return fmt.Sprintf("call_%d", n+offset+1)
}

// toolResults returns the tool results in history, oldest first.
func toolResults(history []Message) []ToolResultMessage {
	var results []ToolResultMessage
	for _, m := range history {
		if r, ok := m.(ToolResultMessage); ok {
			results = append(results, r)
		}
	}
	return results
}

// lastResult returns the newest tool result in history, and how many tool
// results the history holds, without copying them. A loop that never ends
// sends thousands of messages in each request before the context window
// stops it; a model that copied every result on every request would spend
// seconds on such a run, and a test of a loop that lacks its limit would be
// slow as well as failing.
func lastResult(history []Message) (last ToolResultMessage, count int) {
	for _, m := range history {
		if r, ok := m.(ToolResultMessage); ok {
			last = r
			count++
		}
	}
	return last, count
}
