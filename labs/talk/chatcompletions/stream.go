package chatcompletions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A wireChunk is the JSON of one event of the stream: a piece of the reply.
// The fields after Choices are how servers report an error mid-stream.
// Every field is kept raw, and read only if it has the type it should
// have: pi-ai skips what it cannot use, and so does this package.
type wireChunk struct {
	Choices json.RawMessage `json:"choices"`
	Error   json.RawMessage `json:"error"`
	Object  json.RawMessage `json:"object"`
	Message json.RawMessage `json:"message"`
}

// A wireChoice is one of the replies a chunk carries pieces of. A request
// asks for one; like pi-ai, this package reads the first choice of each
// chunk, whatever its index says.
type wireChoice struct {
	Delta        json.RawMessage `json:"delta"`
	FinishReason json.RawMessage `json:"finish_reason"`
}

// A wireDelta is what a chunk adds to the reply: more text, more of the
// model's reasoning, more of the tool calls, or several of these.
type wireDelta struct {
	Content json.RawMessage `json:"content"`
	// The reasoning of a model that thinks before it answers. Servers
	// differ in the field's name: llama.cpp's server and vLLM use
	// reasoning_content, Ollama and others reasoning. Like pi-ai, this
	// package reads the first of the three that holds text.
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ReasoningText    json.RawMessage `json:"reasoning_text"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
}

// A wireToolCallDelta is a piece of one tool call. The first piece of a
// call usually brings its ID and name; the arguments follow in pieces of
// text that only make JSON once they are joined. Index says which call of
// the reply the piece belongs to.
type wireToolCallDelta struct {
	Index    json.RawMessage `json:"index"`
	ID       json.RawMessage `json:"id"`
	Function struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// An assembly collects a reply from the pieces the chunks bring.
type assembly struct {
	text     bytes.Buffer
	onText   func(string)
	textKey  pieceRedactor
	thinking func(string)
	thinkKey pieceRedactor
	calls    []*partialCall // in the order their first piece arrived
	byIndex  map[int]*partialCall
	byID     map[string]*partialCall
	finish   string // the finish_reason, once one arrived
	// reported is the message of an error that the server reported in a
	// chunk that pi-ai does not take for one, such as vLLM's
	// {"object": "error"}: if no finish_reason follows, it says why.
	reported string
}

// A partialCall is a tool call whose pieces are still arriving.
type partialCall struct {
	id, name string
	args     bytes.Buffer
}

// readReply reads the stream's events and assembles the reply they carry.
// It passes each piece of text to onText as it arrives, and each piece of
// reasoning to the context's fakemodel.OnThinking, unless ctx is
// cancelled: then it returns ctx.Err() and delivers nothing more. Its other
// errors say what was wrong with the stream; the text that arrived before
// is all passed on first. history is the request's, for the IDs of tool
// calls that come without one.
func readReply(ctx context.Context, events *eventReader, key APIKey, onText func(string), history []fakemodel.Message) (fakemodel.AssistantMessage, error) {
	a := assembly{
		onText: onText, textKey: newPieceRedactor(key),
		thinking: fakemodel.OnThinking(ctx), thinkKey: newPieceRedactor(key),
		byIndex: map[int]*partialCall{}, byID: map[string]*partialCall{},
	}
	err := a.read(ctx, events)
	if ctx.Err() != nil {
		return fakemodel.AssistantMessage{}, ctx.Err()
	}
	// The ends that were held back, in case they began the key, are no
	// longer part of one: a failed stream keeps all its text, as pi-ai's
	// keeps it.
	a.passThinking(a.thinkKey.flush())
	a.passText(a.textKey.flush())
	if err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	return a.reply(key, history)
}

// read reads the events until the stream ends.
func (a *assembly) read(ctx context.Context, events *eventReader) error {
	for {
		ev, err := events.next()
		if errors.Is(err, io.EOF) {
			if a.finish == "" {
				return a.unfinished("the stream ended before the reply did: no finish_reason and no data: [DONE]")
			}
			return nil // the reply is whole; only the [DONE] is missing
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if bytes.HasPrefix(ev.data, []byte("[DONE]")) {
			if a.finish == "" {
				return a.unfinished(fmt.Sprintf("the stream sent data: [DONE] at line %d, before a finish_reason said how the reply ended", ev.line))
			}
			return nil
		}
		if !json.Valid(ev.data) {
			if ev.name == "error" {
				return midStreamError(oneLine(string(ev.data)))
			}
			var c any
			err := json.Unmarshal(ev.data, &c)
			return fmt.Errorf("malformed JSON in the chunk at line %d (%v): %s", ev.line, err, quote(ev.data))
		}
		var c wireChunk
		if json.Unmarshal(ev.data, &c) != nil {
			continue // JSON, but no object: pi-ai skips it
		}
		if truthy(c.Error) {
			return midStreamError(errorText(c.Error))
		}
		if msg := c.reportedError(ev.name); msg != "" {
			a.reported = msg
		}
		var choices []json.RawMessage
		var choice wireChoice
		if json.Unmarshal(c.Choices, &choices) != nil || len(choices) == 0 || json.Unmarshal(choices[0], &choice) != nil {
			continue
		}
		a.add(choice)
	}
}

// unfinished returns the error of a stream that ended without a
// finish_reason, with the error the server reported before, if any.
func (a *assembly) unfinished(msg string) error {
	if a.reported != "" {
		msg += "; the server had reported an error: " + a.reported
	}
	return errors.New(msg)
}

// passText adds text to the reply and passes it on to onText.
func (a *assembly) passText(text string) {
	if text == "" {
		return
	}
	a.text.WriteString(text)
	if a.onText != nil {
		a.onText(text)
	}
}

// passThinking passes reasoning on, if anyone wants it.
func (a *assembly) passThinking(text string) {
	if text != "" && a.thinking != nil {
		a.thinking(text)
	}
}

// add adds one choice's delta to the reply.
func (a *assembly) add(choice wireChoice) {
	if reason, ok := jsonString(choice.FinishReason); ok && reason != "" {
		a.finish = reason
	}
	var d wireDelta
	if json.Unmarshal(choice.Delta, &d) != nil {
		return
	}
	if text, ok := jsonString(d.Content); ok {
		a.passText(a.textKey.add(text))
	}
	for _, field := range []json.RawMessage{d.ReasoningContent, d.Reasoning, d.ReasoningText} {
		if text, ok := jsonString(field); ok && text != "" {
			a.passThinking(a.thinkKey.add(text))
			break
		}
	}
	var pieces []wireToolCallDelta
	if json.Unmarshal(d.ToolCalls, &pieces) != nil {
		return
	}
	for _, piece := range pieces {
		c := a.call(piece)
		if name, ok := jsonString(piece.Function.Name); ok && c.name == "" {
			c.name = name
		}
		switch args := bytes.TrimSpace(piece.Function.Arguments); {
		case !truthy(args):
		case args[0] == '"':
			text, _ := jsonString(args)
			c.args.WriteString(text)
		default:
			// Arguments should be a string that holds JSON; a few
			// servers send the JSON itself. pi-ai adds such a value to
			// the text as JavaScript prints it ("[object Object]"),
			// which its parser reads as []; this package adds it as
			// JSON, so that the call runs with what the model wrote.
			c.args.Write(args)
		}
	}
}

// call returns the call that the piece d belongs to, as pi-ai finds it:
// the call with d's index, else the call with d's ID, else a new call. A
// piece with neither index nor ID starts a new call: a server that sends
// no index sends each call whole.
func (a *assembly) call(d wireToolCallDelta) *partialCall {
	index, hasIndex := jsonInt(d.Index)
	id, _ := jsonString(d.ID)
	var c *partialCall
	if hasIndex {
		c = a.byIndex[index]
	}
	if c == nil && id != "" {
		c = a.byID[id]
	}
	if c == nil {
		c = &partialCall{id: id}
		a.calls = append(a.calls, c)
		if hasIndex {
			a.byIndex[index] = c
		}
	}
	if id != "" {
		a.byID[id] = c
		if c.id == "" {
			c.id = id
		}
	}
	return c
}

// reply returns the assembled reply, its tool calls in the order their
// first pieces arrived. A finish reason that is none of stop, tool_calls,
// length and their other names is an error: the reply is not a whole
// answer.
func (a *assembly) reply(key APIKey, history []fakemodel.Message) (fakemodel.AssistantMessage, error) {
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
	earlier := 0
	for _, m := range history {
		if m, ok := m.(fakemodel.AssistantMessage); ok {
			earlier += len(m.ToolCalls)
		}
	}
	for i, c := range a.calls {
		id := key.redact(c.id)
		if id == "" {
			// The loop pairs each result with its call by ID, so
			// every call needs one; pi-ai leaves it empty. This is how
			// the fake models number theirs.
			id = fmt.Sprintf("call_%d", earlier+i+1)
		}
		name := key.redact(c.name)
		args, err := arguments(key, c.args.String())
		if err != nil {
			return fakemodel.AssistantMessage{}, fmt.Errorf("the arguments of tool call %s (%s) %w", cut(id), cut(name), err)
		}
		reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: id, Name: name, Arguments: args})
	}
	return reply, nil
}

// arguments returns the text a model wrote as a tool call's arguments, as
// fakemodel.ToolCall.Arguments holds it: what pi-ai reads in the text
// (readArguments), written anew as JSON, as Pi writes it, so that a call
// prints the same whatever spacing and escapes the model chose. Arguments
// that cannot be read stay the text the model wrote, which is not JSON:
// the loop's check of the arguments answers the call with an error that
// says what is wrong with them. Either way the key is redacted, from the
// strings the arguments hold, escaped or not. Arguments nested more than
// maxNesting levels deep are an error, errTooDeep.
func arguments(key APIKey, text string) (json.RawMessage, error) {
	args, ok, err := readArguments(text)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return json.RawMessage(key.redact(text)), nil
	case !key.IsSet():
		return args, nil
	}
	v, err := parseJSON(string(args))
	if err != nil {
		return json.RawMessage(key.redact(string(args))), nil
	}
	return encodeJS(mapStrings(v, key.redact)), nil
}

// reportedError returns the message of a chunk that reports an error in a
// way pi-ai does not take for one: vLLM's {"object": "error", "message":
// ...}, or an event named error with a message. pi-ai reads on, and so does
// this package; the message only explains a stream that then ends without
// a finish_reason.
func (c wireChunk) reportedError(event string) string {
	if object, _ := jsonString(c.Object); object != "error" && event != "error" {
		return ""
	}
	if msg := errorText(c.Message); msg != "" {
		return msg
	}
	return "without a message"
}

// jsonString returns raw as a string, if it is a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonInt returns raw as an int, if it is a JSON number that is one.
func jsonInt(raw json.RawMessage) (int, bool) {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// truthy reports whether a JSON value is true to JavaScript: neither
// absent, null, false, 0 nor "".
func truthy(raw json.RawMessage) bool {
	var v any
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	}
	return true
}
