package talk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// A liveModel stands between the agent's loop and the model of -chat, the
// offline one or a real one. It changes nothing of the loop's steps; it
// makes what a model sends safe to print and possible to record:
//
//   - Ctrl-C stops the request at once, even after the reply's last word:
//     a real model may think for a minute before its first word.
//   - Text reaches the loop in whole words, as the fake models stream it,
//     so that a recording replays in the same message_update events.
//   - Text, arguments and error messages print as they are: any character
//     that does not print as itself, a terminal's escape sequence for
//     instance, is escaped, except line breaks and tabs in a reply.
//   - A tool call gets an ID and a name that a scenario file accepts: an
//     ID that breaks the format's rule, or that an earlier call has, is
//     replaced by call_N, and a name's other characters become _.
//
// With pace set, it also takes its time, as the offline model does, so
// that a person can type while it works.
type liveModel struct {
	chat  *Chat
	model fakemodel.Model
	// think is how long it waits before a reply, and word how long before
	// each word of it.
	think, word time.Duration
	// ids are the call IDs the session has used.
	ids map[string]bool
}

// Reply asks the model, streams its reply word by word, and its reasoning
// as it comes, and records them.
func (m *liveModel) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	r := m.chat.current
	mctx, stop := untilCut(ctx, r.cut)
	defer stop()
	var (
		words    wordBuffer
		streamed strings.Builder
		thought  strings.Builder
		cut      bool
	)
	show := fakemodel.OnThinking(ctx)
	mctx = fakemodel.WithOnThinking(mctx, func(chunk string) {
		if mctx.Err() != nil {
			return
		}
		chunk = screen(chunk)
		thought.WriteString(chunk)
		if show != nil {
			show(chunk)
		}
	})
	deliver := func(word string) {
		if cut || !pause(mctx, m.word) {
			cut = true
			return
		}
		streamed.WriteString(word)
		if req.OnText != nil {
			req.OnText(word)
		}
	}
	inner := req
	inner.OnText = func(chunk string) {
		for _, word := range words.add(screen(chunk)) {
			deliver(word)
		}
	}
	pause(mctx, m.think) // if Ctrl-C ends the wait, the model sees it at once
	reply, err := m.model.Reply(mctx, inner)
	if err == nil || mctx.Err() == nil {
		// The end of the text, which waited for the start of the next
		// word: a stream that failed keeps it too.
		if rest := words.rest(); rest != "" {
			deliver(rest)
		}
	}
	// A Ctrl-C while the last word was shown still stops the reply, as
	// Model's contract says.
	if err == nil && (cut || mctx.Err() != nil || r.interrupted()) {
		err = fmt.Errorf("the reply stopped streaming: %w", context.Canceled)
	}
	m.chat.rec.Thinking(thought.String())
	if err != nil {
		msg := cli.Printable(err.Error())
		if r.interruptedNow() {
			// Cancel the run here, where the loop waits for this reply:
			// the loop then marks it aborted, and no event comes
			// between, so the recording can cancel at the last event.
			m.chat.cancelRun(r)
		}
		m.chat.rec.Failed(msg, streamed.String())
		return fakemodel.AssistantMessage{}, errors.New(msg)
	}
	reply.Text = streamed.String()
	reply.ToolCalls = m.normalize(reply.ToolCalls)
	m.chat.rec.Reply(reply) // arguments it cannot hold become {} (scenario.Recorder)
	return reply, nil
}

// normalize gives each call an ID and a name that a scenario file accepts,
// and arguments that print as they are.
func (m *liveModel) normalize(calls []fakemodel.ToolCall) []fakemodel.ToolCall {
	out := make([]fakemodel.ToolCall, len(calls))
	for i, c := range calls {
		for n := len(m.ids) + 1; !scenario.IsCallID(c.ID) || m.ids[c.ID]; n++ {
			c.ID = fmt.Sprintf("call_%d", n)
		}
		m.ids[c.ID] = true
		c.Name = toolName(c.Name)
		c.Arguments = printableJSON(c.Arguments)
		out[i] = c
	}
	return out
}

// toolName returns name with each character that a tool's name may not
// hold replaced by _, and cut to 64 characters.
func toolName(name string) string {
	if scenario.IsToolName(name) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if b.Len() == 64 {
			break
		}
		if r <= unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "unnamed"
	}
	return b.String()
}

// printableJSON returns JSON in which every character that does not print
// as itself is written as a \u escape: the same JSON value, which prints
// as it is. Such a character can only stand inside a string.
func printableJSON(data json.RawMessage) json.RawMessage {
	s := string(data)
	if !strings.ContainsFunc(s, notPrintable) {
		return data
	}
	var b strings.Builder
	for _, r := range s {
		if !notPrintable(r) {
			b.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return json.RawMessage(b.String())
}

// notPrintable reports whether r does not print as itself.
func notPrintable(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }

// screen returns a model's text with every character that does not print as
// itself escaped (cli.Printable), but line breaks and tabs, which a reply
// may hold and a terminal prints as they are.
func screen(text string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(text, "\n\t")
		if i < 0 {
			b.WriteString(cli.Printable(text))
			return b.String()
		}
		b.WriteString(cli.Printable(text[:i]))
		b.WriteByte(text[i])
		text = text[i+1:]
	}
}

// A wordBuffer cuts streamed text into the chunks fakemodel.Chunks cuts a
// whole text into: a word and the white space after it, or a character of
// Chinese or Japanese. A chunk is whole once the character that starts the
// next one (fakemodel.ChunkStarts) follows it.
type wordBuffer struct {
	pending []rune
}

// add takes more text, and returns the chunks it completes.
func (w *wordBuffer) add(text string) []string {
	var words []string
	for _, r := range text {
		n := len(w.pending)
		if n > 0 && fakemodel.ChunkStarts(w.pending[n-1], r) {
			words = append(words, string(w.pending))
			w.pending = w.pending[:0]
		}
		w.pending = append(w.pending, r)
	}
	return words
}

// rest returns the text not returned yet, at the end of the stream.
func (w *wordBuffer) rest() string {
	rest := string(w.pending)
	w.pending = nil
	return rest
}

// liveTool wraps a tool of -chat: Ctrl-C stops its call at once, its
// result, error and progress notes print as they are, an error always has
// a message, and the recording gets each progress note.
func (c *Chat) liveTool(t Tool) Tool {
	decode, run := t.Decode, t.Run
	t.Decode = func(raw json.RawMessage) (any, error) {
		args, err := decode(raw)
		if err != nil {
			err = errors.New(cli.Printable(err.Error()))
		}
		return args, err
	}
	t.Run = func(_ context.Context, toolCallID string, args any, report func(string)) (string, bool, error) {
		// The run's cut context: Ctrl-C cancels it at once, and it ends
		// with the run (liveRun).
		ctx := c.current.cut
		out, terminate, err := run(ctx, toolCallID, args, func(note string) {
			note = cli.Printable(note)
			c.rec.Update(toolCallID, note)
			report(note)
		})
		if err != nil {
			msg := cli.Printable(err.Error())
			if strings.TrimSpace(msg) == "" {
				msg = "the call failed"
			}
			return "", false, errors.New(msg)
		}
		return cli.Printable(out), terminate, nil
	}
	return t
}

// untilCut returns a context that is cancelled when ctx is, or when cut is,
// and a function that releases it.
func untilCut(ctx, cut context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(cut, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// pause waits for d, and reports whether ctx let it: false if ctx was
// cancelled before.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
