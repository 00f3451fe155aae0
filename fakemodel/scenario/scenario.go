// Package scenario reads scenario files: a whole agent session written down
// as data, so that a learner can ask "what happens if..." without writing
// Go. A scenario scripts the whole fake world of lab 06: the user's prompt,
// the model's replies, what each tool does and how long it takes, and what
// the simulated user types while the agent works.
//
// Load and Parse read a file strictly: every field is checked for its exact
// name and type, then every value for sense, and a file that cannot run is
// refused with an *Error that names the file, the line and column, and the
// problem. README.md in this directory is the format's reference.
//
// A parsed Scenario also plays its part of the fake world: Model is the
// model that plays its replies, FakeTools say what each call of each tool
// does (Action.Do), waiting on the demo clock, User is the simulated user,
// Prompts and Messages are its runs and the history it starts from, and
// Hooks are the hooks it gives as data. Lab 06 binds them to its Agent. A
// Recorder goes the other way: it writes a session of lab 06's -chat down
// as a scenario, which replays it.
package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/labs/strictjson"
)

// A Scenario is a scenario file. Every field may be left out but one:
// prompt, or runs. A pointer left nil, or a field left zero, means the
// default that README.md gives. The tags' omitempty leaves such a field out
// when a recording is written (Recorder), so that the file reads back the
// same.
type Scenario struct {
	// Prompt is the user's first message, which starts the first run.
	Prompt *string `json:"prompt,omitempty"`
	// NextPrompts start one more run each, in order, once the run before
	// has ended, as a user at lab 06's -chat types them.
	NextPrompts []string `json:"nextPrompts,omitempty"`
	// Runs are the session's runs, in order, each a prompt or a Continue:
	// the long form of prompt and nextPrompts, given instead of them. An
	// empty list is a session with no run.
	Runs *[]Run `json:"runs,omitempty"`
	// History is the conversation the agent holds before the first run.
	History []HistoryMessage `json:"history,omitempty"`
	// ToolExecution is "parallel" (the default) or "sequential".
	ToolExecution *string `json:"toolExecution,omitempty"`
	// QueueMode is "one-at-a-time" (the default) or "all".
	QueueMode *string `json:"queueMode,omitempty"`
	// Replies are the model's replies, in order, one per request.
	Replies []Reply `json:"replies,omitempty"`
	// Tools are the agent's tools, by name, and what each does.
	Tools map[string]Behaviour `json:"tools,omitempty"`
	// Calls are what single calls do, by call ID, where they differ from
	// their tool.
	Calls map[string]Behaviour `json:"calls,omitempty"`
	// Block names the tools whose calls are blocked, each with the reason
	// its calls get.
	Block map[string]string `json:"block,omitempty"`
	// Steer are the steering messages the simulated user types.
	Steer []Message `json:"steer,omitempty"`
	// FollowUp are the follow-up messages the simulated user queues.
	FollowUp []Message `json:"followUp,omitempty"`
	// WhileRunning are the prompts and Continues the simulated user tries
	// while a run is going: the agent refuses each.
	WhileRunning []Attempt `json:"whileRunning,omitempty"`
	// Interrupts are the moments the simulated user presses Ctrl-C: each
	// aborts the run it comes in, and the session goes on.
	Interrupts []Interrupt `json:"interrupts,omitempty"`
	// StopAfterTurn stops a run after this many turns; 0 means never.
	StopAfterTurn int `json:"stopAfterTurn,omitempty"`
	// TransformContext, if set, is what the TransformContext hook does.
	TransformContext *Transform `json:"transformContext,omitempty"`
	// AfterToolCall are the results the AfterToolCall hook overrides, by
	// tool name.
	AfterToolCall map[string]Override `json:"afterToolCall,omitempty"`
	// PrepareNextTurn are the models the PrepareNextTurn hook swaps in, in
	// order.
	PrepareNextTurn []Swap `json:"prepareNextTurn,omitempty"`
}

// A Run is one run of a session: a Prompt, or a Continue.
type Run struct {
	// Prompt, if not empty, starts the run with this user message.
	Prompt string `json:"prompt,omitempty"`
	// Continue runs the agent from its history as it is, with no new
	// prompt.
	Continue bool `json:"continue,omitempty"`
}

// An Attempt is a prompt, or a Continue, that the simulated user tries at
// the Occurrence-th event whose trace line matches At, while a run is
// going: the agent refuses it.
type Attempt struct {
	// Prompt, if not empty, is the prompt the user tries.
	Prompt string `json:"prompt,omitempty"`
	// Continue tries a Continue instead.
	Continue bool `json:"continue,omitempty"`
	// At and Occurrence pick the event, as in a Message; At is required.
	At         string `json:"at"`
	Occurrence *int   `json:"occurrence,omitempty"`
}

// A HistoryMessage is one message of the history a scenario starts with:
// a user message, an assistant message or a tool result, by its Role.
type HistoryMessage struct {
	// Role is "user", "assistant" or "toolResult".
	Role string `json:"role"`
	// Text is a user message's text, a reply's text, or a tool result's.
	Text string `json:"text,omitempty"`
	// ToolCalls and StopReason are an assistant message's, as in a Reply.
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	StopReason *string    `json:"stopReason,omitempty"`
	// ToolCallID and IsError are a tool result's: the call of an earlier
	// assistant message of the history that it answers, and whether it
	// reports a failure.
	ToolCallID string `json:"toolCallId,omitempty"`
	IsError    *bool  `json:"isError,omitempty"`
}

// A Transform is the data form of the TransformContext hook: what the
// model is shown of the history.
type Transform struct {
	// KeepLast shows the model only the history's last KeepLast messages.
	// It is required: nil is a field left out.
	KeepLast *int `json:"keepLast"`
}

// An Override is the data form of the AfterToolCall hook for a tool: the
// fields of each of its results that it replaces. A field left out keeps
// the tool's.
type Override struct {
	// Content replaces the result's text.
	Content *string `json:"content,omitempty"`
	// IsError replaces whether the result reports a failure.
	IsError *bool `json:"isError,omitempty"`
	// Terminate replaces whether it asks the run to stop.
	Terminate *bool `json:"terminate,omitempty"`
}

// A Swap is the data form of the PrepareNextTurn hook: after a turn, it
// swaps the model for another, which plays its own replies.
type Swap struct {
	// AfterTurn is the turn after which it swaps: the AfterTurn-th time
	// PrepareNextTurn is asked, counted over the whole session. It is
	// required: nil is a field left out.
	AfterTurn *int `json:"afterTurn"`
	// Replies are the new model's replies, in order, one per request. They
	// are required: nil is a field left out, [] a model with no reply.
	Replies []Reply `json:"replies"`
}

// A Reply is one reply of the model.
type Reply struct {
	// Text is what the model says, or, with stop reason error, the
	// error of the failed request.
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls the model asks for, in its order.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// StopReason is "stop", "toolUse", "length" or "error"; left out, it
	// is toolUse with tool calls and stop without.
	StopReason *string `json:"stopReason,omitempty"`
	// Partial, only with stop reason error, is the text that streamed
	// before the request failed.
	Partial string `json:"partial,omitempty"`
	// Thinking is the model's reasoning, which streams before the reply
	// (fakemodel.WithOnThinking): what a recording of a real model that
	// thinks keeps of it.
	Thinking string `json:"thinking,omitempty"`
	// Stream, if false, delivers the reply whole, with no message_update,
	// as a provider that does not stream does; the default is true.
	Stream *bool `json:"stream,omitempty"`
}

// A ToolCall is one call a reply asks for.
type ToolCall struct {
	// ID names the call, uniquely in the whole file.
	ID string `json:"id"`
	// Name is the tool to call.
	Name string `json:"name"`
	// Args are the arguments, any JSON value; Parse makes them {} when
	// they are left out, and writes them on one line.
	Args json.RawMessage `json:"args,omitempty"`
}

// A Behaviour is what a tool does, in "tools", or one call, in "calls".
// Its fields are pointers so that a call's entry can tell a field it sets
// from one it leaves to its tool.
type Behaviour struct {
	// Result is the text the model reads as the call's result.
	Result *string `json:"result,omitempty"`
	// DurationMs is how long the call takes, in milliseconds.
	DurationMs *int `json:"durationMs,omitempty"`
	// Sequential, only in "tools", makes a batch that calls the tool run
	// one call at a time.
	Sequential *bool `json:"sequential,omitempty"`
	// Error, if not empty, makes the call fail with this message.
	Error *string `json:"error,omitempty"`
	// Panic, if not empty, makes the tool panic with this value.
	Panic *string `json:"panic,omitempty"`
	// Terminate makes the result ask the run to stop after its batch.
	Terminate *bool `json:"terminate,omitempty"`
	// Updates are progress notes, spread evenly over the duration unless
	// UpdatesAtMs says when each comes.
	Updates *[]string `json:"updates,omitempty"`
	// UpdatesAtMs, if set, are the moments of the updates, in
	// milliseconds from the call's start, one per update.
	UpdatesAtMs *[]int `json:"updatesAtMs,omitempty"`
	// Block, only in "calls", blocks the call before it runs, as "block"
	// blocks every call of a tool: its error result is this reason.
	Block *string `json:"block,omitempty"`
	// EchoArgs makes the result the arguments the tool got, as JSON.
	EchoArgs *bool `json:"echoArgs,omitempty"`
	// SetArgs, only in "calls", is the data form of a BeforeToolCall hook
	// that changes a call's arguments before it runs: it sets each of its
	// keys in them, as Pi's hook writes into its args.
	SetArgs json.RawMessage `json:"setArgs,omitempty"`
}

// A Message is one message the simulated user sends.
type Message struct {
	// Text is the message.
	Text string `json:"text"`
	// At is the start of the trace line of the event the user reacts
	// to; empty means before the run starts.
	At string `json:"at,omitempty"`
	// Occurrence, with At, picks the event: the Occurrence-th whose trace
	// line matches At, counted over the whole session. Left out, it is
	// the first.
	Occurrence *int `json:"occurrence,omitempty"`
}

// An Interrupt is a moment the simulated user presses Ctrl-C: at the
// Occurrence-th event whose trace line matches At.
type Interrupt struct {
	// At is the start of the trace line of the event; it is required.
	At string `json:"at"`
	// Occurrence picks the event, as in a Message.
	Occurrence *int `json:"occurrence,omitempty"`
}

// MaxDurationMs bounds a tool's duration: a scenario is a lesson, not a
// wait.
const MaxDurationMs = 60_000

// MaxBytes bounds a scenario file's size. The examples are under 2 KiB;
// the bound stops a file such as /dev/zero from filling the memory.
const MaxBytes = 1 << 20

// An Error is a scenario file that cannot run. Its message names the file,
// where the problem is (the line and column, or the whole file) and the
// problem, on one line.
type Error struct {
	// File is the file's name, as the user gave it.
	File string
	// Where is "line L, column C", or "file" when the whole file is the
	// problem.
	Where string
	// Problem says what is wrong.
	Problem string
}

// Error names the file, the place and the problem. A file name with a
// character that does not print as itself, such as a line break or the
// escape that starts a terminal's colour codes, is quoted.
func (e *Error) Error() string {
	return fmt.Sprintf("scenario %s: %s: %s", quote(e.File), e.Where, e.Problem)
}

// quote returns name as it is if every character of it prints as itself,
// and quoted as in Go otherwise.
func quote(name string) string {
	if utf8.ValidString(name) && strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// Load reads the scenario file at path and checks it (see Parse). Reading
// stops when ctx is cancelled, even when path is a pipe that nothing
// writes to: Load then returns ctx's error. Any other problem is an *Error.
func Load(ctx context.Context, path string) (*Scenario, error) {
	data, err := read(ctx, path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// read reads the file at path, up to one byte more than MaxBytes, on a
// goroutine of its own, so that a cancelled ctx ends the wait. Closing the
// file ends a read that waits; an open that waits for a FIFO's first writer
// cannot be ended, and that goroutine ends when the program does.
func read(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		data []byte
		err  error
	}
	opened := make(chan *os.File, 1)
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{err: err}
			return
		}
		opened <- f
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			done <- result{err: errDirectory}
			return
		}
		data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
		done <- result{data, err}
	}()

	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		select {
		case f := <-opened:
			f.Close()
		default:
		}
		return nil, ctx.Err()
	}
	fail := func(problem string) ([]byte, error) {
		return nil, &Error{File: path, Where: "file", Problem: problem}
	}
	switch {
	case r.err != nil:
		var pe *fs.PathError
		if errors.As(r.err, &pe) {
			r.err = pe.Err // the Error names the file already
		}
		return fail(r.err.Error())
	case len(r.data) > MaxBytes:
		return fail("larger than 1 MiB: a scenario never needs that much")
	}
	return r.data, nil
}

// errDirectory is the problem of a path that names a directory.
var errDirectory = errors.New("is a directory, not a scenario file")

// maxDepth bounds how deeply a scenario's arrays and objects nest. A
// scenario never needs more; without a bound, a file of a million [ would
// take the walk a million levels down.
const maxDepth = 64

// format is the scenario file's format, as package strictjson reads it.
var format = strictjson.Format{Root: "the scenario", MaxDepth: maxDepth, TooDeep: "a scenario never needs that many"}

// A jsonPath names a value of the scenario, step by step: a string is an
// object's key, an int an array's index.
type jsonPath = strictjson.Path

// Parse decodes the scenario file named file, whose content is data,
// strictly: every field is checked for its exact name and type before a
// value is checked for sense. A file that cannot run gives an *Error.
func Parse(file string, data []byte) (*Scenario, error) {
	fail := func(offset int64, format string, a ...any) (*Scenario, error) {
		return nil, &Error{File: file, Where: strictjson.Position(data, offset), Problem: fmt.Sprintf(format, a...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Where: "file", Problem: `empty: a scenario is a JSON object with at least "prompt" or "runs"`}
	}
	var s Scenario
	root, err := format.Decode(data, &s)
	if err != nil {
		var bad *strictjson.Error
		if !errors.As(err, &bad) || bad.Offset < 0 {
			return nil, &Error{File: file, Where: "file", Problem: err.Error()}
		}
		return fail(bad.Offset, "%v", bad)
	}
	if err := s.check(); err != nil {
		var bad *checkError
		if !errors.As(err, &bad) {
			return nil, err
		}
		n := root.Find(bad.path)
		at := n.Start
		if bad.key && len(n.Path()) == len(bad.path) {
			at = n.KeyAt
		}
		return fail(at, "%v", bad)
	}
	return &s, nil
}
