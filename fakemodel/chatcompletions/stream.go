package chatcompletions

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A wireChunk is the JSON of one event of the stream: a piece of the reply.
// The fields after Choices are how servers report an error mid-stream.
type wireChunk struct {
	Choices []wireChoice    `json:"choices"`
	Error   json.RawMessage `json:"error"`
	Object  string          `json:"object"`
	Message string          `json:"message"`
}

// A wireChoice is one of the replies a chunk carries pieces of. A request
// asks for one, so only the choice with index 0 counts.
type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

// A wireDelta is what a chunk adds to the reply: more text, more of the
// tool calls, or both.
type wireDelta struct {
	Content   string              `json:"content"`
	ToolCalls []wireToolCallDelta `json:"tool_calls"`
}

// A wireToolCallDelta is a piece of one tool call. The first piece of a
// call usually brings its ID and name; the arguments follow in pieces of
// text that only make JSON once they are joined. Index says which call of
// the reply the piece belongs to.
type wireToolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// An assembly collects a reply from the pieces the chunks bring.
type assembly struct {
	text   strings.Builder
	held   string         // text not passed on yet: see APIKey.redactPiece
	key    APIKey         // redacted from the text and the arguments
	calls  []*partialCall // in the order their first piece arrived
	finish string         // the finish_reason, once one arrived
}

// A partialCall is a tool call whose pieces are still arriving.
type partialCall struct {
	index    int
	id, name string
	args     []byte
}

// readReply reads the stream's events and assembles the reply they carry.
// It passes each piece of text to onText as it arrives, unless ctx is
// cancelled: then it returns ctx.Err() and delivers nothing more. Its other
// errors say what was wrong with the stream. history is the request's, for
// the IDs of tool calls that come without one.
func readReply(ctx context.Context, events *eventReader, onText func(string), history []fakemodel.Message) (fakemodel.AssistantMessage, error) {
	a := assembly{key: events.key}
	for {
		ev, err := events.next()
		if errors.Is(err, io.EOF) {
			if a.finish == "" {
				return fakemodel.AssistantMessage{}, errors.New("the stream ended before the reply did: no finish_reason and no data: [DONE]")
			}
			break // the reply is whole; only the [DONE] is missing
		}
		if err != nil {
			return fakemodel.AssistantMessage{}, err
		}
		if err := ctx.Err(); err != nil {
			return fakemodel.AssistantMessage{}, err
		}
		if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
			if a.finish == "" {
				return fakemodel.AssistantMessage{}, fmt.Errorf("the stream sent data: [DONE] at line %d, before a finish_reason said how the reply ended", ev.line)
			}
			break
		}
		if ev.name == "error" {
			return fakemodel.AssistantMessage{}, midStreamError(serverMessage(ev.data))
		}
		var c wireChunk
		if err := json.Unmarshal(ev.data, &c); err != nil {
			return fakemodel.AssistantMessage{}, fmt.Errorf("malformed JSON in the chunk at line %d (%v): %s", ev.line, err, quote(ev.data))
		}
		if msg, ok := c.failure(); ok {
			return fakemodel.AssistantMessage{}, midStreamError(msg)
		}
		for _, choice := range c.Choices {
			if choice.Index != 0 {
				continue
			}
			if err := a.add(ctx, choice, onText, ev.line); err != nil {
				return fakemodel.AssistantMessage{}, err
			}
		}
	}
	a.pass(a.held, onText) // the end of the text, which cannot start a key any more
	return a.reply(history)
}

// pass adds text to the reply and passes it on to onText.
func (a *assembly) pass(text string, onText func(string)) {
	if text == "" {
		return
	}
	a.text.WriteString(text)
	if onText != nil {
		onText(text)
	}
}

// add adds one choice's delta to the reply.
func (a *assembly) add(ctx context.Context, choice wireChoice, onText func(string), line int) error {
	if text := choice.Delta.Content; text != "" {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The eventReader redacted the key from each line; a key that
		// a server split over two pieces is caught here.
		a.pass(a.key.redactPiece(&a.held, text), onText)
	}
	for _, d := range choice.Delta.ToolCalls {
		c := a.call(d)
		if c.id == "" {
			c.id = d.ID
		}
		if c.name == "" {
			c.name = d.Function.Name
		}
		args := d.Function.Arguments
		switch {
		case len(args) == 0 || string(args) == "null":
		case args[0] == '"':
			var piece string
			if err := json.Unmarshal(args, &piece); err != nil {
				return fmt.Errorf("malformed tool call arguments in the chunk at line %d: %v", line, err)
			}
			c.args = append(c.args, piece...)
		case args[0] == '{':
			// Arguments should be a string that holds JSON; a few
			// servers send the JSON itself.
			c.args = append(c.args, args...)
		default:
			return fmt.Errorf("malformed tool call arguments in the chunk at line %d: want a string, got %s", line, quote(args))
		}
	}
	if choice.FinishReason != "" {
		a.finish = choice.FinishReason
	}
	return nil
}

// call returns the call that the piece d belongs to, and starts a new call
// for a piece with an index not seen before. A few servers send no index:
// they send each call whole, so a piece with a new ID starts a new call and
// a piece without an ID continues the last one.
func (a *assembly) call(d wireToolCallDelta) *partialCall {
	if d.Index != nil {
		for _, c := range a.calls {
			if c.index == *d.Index {
				return c
			}
		}
		return a.start(*d.Index)
	}
	if d.ID == "" && len(a.calls) > 0 {
		return a.calls[len(a.calls)-1]
	}
	for _, c := range a.calls {
		if c.id == d.ID {
			return c
		}
	}
	next := 0
	for _, c := range a.calls {
		next = max(next, c.index+1)
	}
	return a.start(next)
}

func (a *assembly) start(index int) *partialCall {
	c := &partialCall{index: index}
	a.calls = append(a.calls, c)
	return c
}

// reply returns the assembled reply, its tool calls in the order of their
// indexes. A finish reason that is none of stop, tool_calls, length and
// their other names is an error: the reply is not a whole answer.
func (a *assembly) reply(history []fakemodel.Message) (fakemodel.AssistantMessage, error) {
	reply := fakemodel.AssistantMessage{Text: a.text.String()}
	switch a.finish {
	case "stop", "end": // "end": some versions of Ollama and LM Studio
		reply.StopReason = fakemodel.StopReasonStop
	case "tool_calls", "function_call": // "function_call": the older functions API
		reply.StopReason = fakemodel.StopReasonToolUse
	case "length":
		reply.StopReason = fakemodel.StopReasonLength
	case "content_filter":
		return fakemodel.AssistantMessage{}, errors.New("the server's content filter stopped the reply (finish_reason content_filter)")
	default:
		return fakemodel.AssistantMessage{}, fmt.Errorf("the reply ended with finish_reason %s, which is none of stop, end, tool_calls, function_call and length", quote([]byte(a.finish)))
	}
	calls := slices.SortedStableFunc(slices.Values(a.calls), func(x, y *partialCall) int { return cmp.Compare(x.index, y.index) })
	earlier := 0
	for _, m := range history {
		if m, ok := m.(fakemodel.AssistantMessage); ok {
			earlier += len(m.ToolCalls)
		}
	}
	for i, c := range calls {
		id := c.id
		if id == "" {
			// The loop pairs each result with its call by ID, so
			// every call needs one. This is how the fake models
			// number theirs.
			id = fmt.Sprintf("call_%d", earlier+i+1)
		}
		reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: id, Name: c.name, Arguments: arguments(a.key.redactBytes(c.args))})
	}
	return reply, nil
}

// arguments returns the text a model wrote as a tool call's arguments, as
// fakemodel.ToolCall.Arguments holds it. Valid JSON is kept, compacted, as
// Pi keeps it (it parses the arguments and writes them anew), so that a
// call prints the same whatever spacing the model chose. No text at all,
// which some servers send for a tool without parameters, becomes {}.
// Anything else, such as the arguments of a call that a length limit cut
// off, becomes a JSON string that holds the text: a json.RawMessage that is
// not valid JSON makes json.Marshal fail, and so would the history that
// holds it. The loop's check of the arguments then rejects a string,
// because arguments must be an object, and its error result shows the model
// what it wrote.
func arguments(text []byte) json.RawMessage {
	if len(bytes.TrimSpace(text)) == 0 {
		return json.RawMessage("{}")
	}
	var compact bytes.Buffer
	if json.Compact(&compact, text) == nil {
		return compact.Bytes()
	}
	quoted, _ := json.Marshal(string(text)) // a string always encodes
	return quoted
}
