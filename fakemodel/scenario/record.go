package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Recorder writes a session down as a scenario while it happens, so that
// the scenario replays it: the same events, in the same order, offline. Lab
// 06's -chat -record uses one. The session tells it what the user and the
// model did (Prompt, Thinking, Reply, Failed, Entered, Interrupt, Left),
// what the tools reported (Update), and every event as its trace line
// (See), on the loop's goroutine as the event happens; Finish takes the
// history, for the tools' results. Its methods are safe for concurrent use,
// and a nil *Recorder records nothing.
//
// What makes the replay exact, and what it changes:
//
//   - A steering or follow-up message is anchored to the poll where it
//     entered the history, not to when it was typed: its at is the last
//     event before that poll (the prompt's message_end user, or a
//     turn_end), with the occurrence of that event over the session.
//   - A Ctrl-C is anchored to the event at which it cancelled the run.
//   - A tool call's duration and the moments of its updates are what they
//     took, in milliseconds, nudged up where needed so that the calls of a
//     parallel batch end, and report, in the order they did.
//   - A call that ended right after it started, with an error, is blocked
//     (its own "block"): it failed its preparation, as a call with invalid
//     arguments does, before the batch ran.
//   - Arguments that the format cannot hold, text that is not JSON or JSON
//     nested too deeply, are {}. The loop refuses such arguments, so the
//     call is blocked with the error it got, which quotes them, and the
//     replay's trace is the session's.
//   - Texts are one line, as the format requires: in a reply's text, each
//     line break, tab or other white space that does not print as itself
//     becomes a space, which keeps the reply streaming in the same words,
//     and any other character that does not print as itself becomes its Go
//     escape, such as \x1b. Trace lines hold no such text.
type Recorder struct {
	mu sync.Mutex
	s  Scenario
	// tools are the session's tools, each with whether it is sequential.
	tools map[string]bool
	// counts are how many events matched each anchor so far.
	counts map[string]int
	// last is the last event seen; poll, the last before a poll.
	last, poll moment
	// prompted is set at agent_start: the next message_end user is the
	// prompt's.
	prompted bool
	prev     string // the previous trace line
	// thinking is what the model reasoned before its next reply.
	thinking string
	calls    map[string]*recordedCall
	// The calls that run side by side now, whose moments are ordered
	// against each other: running is set once one of them has reported
	// or ended, and latest is the moment of the last such event, and the
	// order of its call.
	running       bool
	latest, after int
}

// A moment is an event, as an at and its occurrence.
type moment struct {
	at         string
	occurrence int
}

// A recordedCall is what the trace showed of one tool call. Its moments
// are in milliseconds from its start.
type recordedCall struct {
	order   int // its place among the calls that started
	start   time.Time
	blocked bool // it failed right after it started
	notes   []string
	updates []int
	end     int
}

// NewRecorder returns a recorder for a session whose agent has tools, each
// name with whether the tool is sequential, and takes queued messages and
// runs its batches as queueMode and sequential say.
func NewRecorder(tools map[string]bool, queueMode string, sequential bool) *Recorder {
	r := &Recorder{tools: tools, counts: map[string]int{}, calls: map[string]*recordedCall{}}
	if queueMode != "" && queueMode != "one-at-a-time" {
		r.s.QueueMode = &queueMode
	}
	if sequential {
		mode := "sequential"
		r.s.ToolExecution = &mode
	}
	return r
}

// StopAfterTurn records the turn limit of the session's runs, as the
// scenario's stopAfterTurn: a replay stops each run where the session's
// stopped.
func (r *Recorder) StopAfterTurn(n int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s.StopAfterTurn = n
}

// Prompt records the prompt of the next run.
func (r *Recorder) Prompt(text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	text = userText(text)
	if r.s.Prompt == nil {
		r.s.Prompt = &text
	} else {
		r.s.NextPrompts = append(r.s.NextPrompts, text)
	}
}

// Thinking records the reasoning that the model streamed before its next
// reply, or before its request failed.
func (r *Recorder) Thinking(text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.thinking = oneLineText(text)
}

// Reply records a reply of the model.
func (r *Recorder) Reply(m fakemodel.AssistantMessage) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	reply := Reply{Text: oneLineText(m.Text), Thinking: r.thinking}
	r.thinking = ""
	for _, c := range m.ToolCalls {
		reply.ToolCalls = append(reply.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Args: holdable(c.Arguments)})
	}
	if want := map[bool]fakemodel.StopReason{true: fakemodel.StopReasonToolUse, false: fakemodel.StopReasonStop}[len(m.ToolCalls) > 0]; m.StopReason != want {
		reason := string(m.StopReason)
		reply.StopReason = &reason
	}
	r.s.Replies = append(r.s.Replies, reply)
}

// holdable returns a call's arguments as a scenario file can hold them: as
// they are, or {} for text that is not JSON, which a real model may write,
// and for JSON nested deeper than the file may nest (maxDepth) where a
// call's args sit, six levels down.
func holdable(args json.RawMessage) json.RawMessage {
	const argsAt = 6 // the scenario, replies, a reply, toolCalls, a call, its args
	if !json.Valid(args) || argsAt-1+toolargs.Depth(args) > maxDepth {
		return json.RawMessage("{}")
	}
	return args
}

// Failed records a request that failed, or was cancelled, with the error
// message the run reports and the text that streamed before it did.
func (r *Recorder) Failed(message, partial string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	message = oneLineText(message)
	if strings.TrimSpace(message) == "" {
		message = "the request failed"
	}
	reason := "error"
	r.s.Replies = append(r.s.Replies, Reply{Text: message, StopReason: &reason, Partial: oneLineText(partial), Thinking: r.thinking})
	r.thinking = ""
}

// Update records a progress note that the call callID reported.
func (r *Recorder) Update(callID, note string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.call(callID)
	c.notes = append(c.notes, oneLineText(note))
}

// call returns what is known of the call callID. The caller holds r.mu.
func (r *Recorder) call(callID string) *recordedCall {
	c, ok := r.calls[callID]
	if !ok {
		c = &recordedCall{order: len(r.calls)}
		r.calls[callID] = c
	}
	return c
}

// See records one event, by its trace line, at this moment.
func (r *Recorder) See(traceLine string) {
	if r == nil {
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	at := anchor(traceLine)
	r.counts[at]++
	r.last = moment{at, r.counts[at]}
	f := strings.Fields(traceLine)
	switch f[0] {
	case "agent_start":
		r.prompted = true
	case "turn_end":
		r.poll = r.last
	case "message_end":
		if r.prompted && traceLine == "message_end user" {
			r.prompted = false
			r.poll = r.last
		}
	case "tool_execution_start":
		if r.running {
			r.running, r.latest, r.after = false, 0, 0
		}
		c := r.call(f[1])
		c.start, c.order = now, len(r.calls)
	case "tool_execution_update":
		c := r.call(f[1])
		c.updates = append(c.updates, r.moment(c, now))
	case "tool_execution_end":
		c := r.call(f[1])
		if len(f) > 2 && strings.HasPrefix(r.prev, "tool_execution_start "+f[1]+" ") {
			c.blocked = true
		} else {
			c.end = r.moment(c, now)
		}
	}
	r.prev = traceLine
}

// moment returns the moment of an update or the end of the call c, which
// comes now: the milliseconds since it started, nudged up where needed so
// that the calls that run side by side report and end in the order they
// did when they replay. Each comes no earlier than the one before it, and,
// at the same millisecond, after it only if its call started later, as the
// demo clock orders calls due at the same moment. The caller holds r.mu.
func (r *Recorder) moment(c *recordedCall, now time.Time) int {
	ms := int(now.Sub(c.start) / time.Millisecond)
	if r.running {
		if ms < r.latest {
			ms = r.latest
		}
		if ms == r.latest && c.order < r.after {
			ms++
		}
	}
	ms = min(ms, MaxDurationMs)
	r.running, r.latest, r.after = true, ms, c.order
	return ms
}

// anchor returns the at by which a scenario names the event of a trace
// line: the line without what varies from run to run or is not needed to
// tell the event, such as a count or an error's text.
func anchor(traceLine string) string {
	f := strings.Fields(traceLine)
	switch f[0] {
	case "turn_end", "agent_end":
		return f[0]
	case "tool_execution_start", "tool_execution_update", "tool_execution_end":
		return f[0] + " " + f[1]
	case "message_start", "message_end":
		if len(f) > 3 {
			return strings.Join(f[:3], " ")
		}
	}
	return traceLine
}

// Entered records that a message the user queued entered the history at the
// last poll: a steering message, or a follow-up.
func (r *Recorder) Entered(followUp bool, text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue(followUp, text, r.poll)
}

// Left records a message still queued when the session ended: the replay
// queues it at the last event.
func (r *Recorder) Left(followUp bool, text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue(followUp, text, r.last)
}

// queue adds a user message at m. The caller holds r.mu.
func (r *Recorder) queue(followUp bool, text string, m moment) {
	msg := Message{Text: userText(text), At: m.at, Occurrence: occurrence(m)}
	if followUp {
		r.s.FollowUp = append(r.s.FollowUp, msg)
	} else {
		r.s.Steer = append(r.s.Steer, msg)
	}
}

// Interrupt records that Ctrl-C cancelled the run at the last event.
func (r *Recorder) Interrupt() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s.Interrupts = append(r.s.Interrupts, Interrupt{At: r.last.at, Occurrence: occurrence(r.last)})
}

// occurrence is m's occurrence as the format writes it: left out for the
// first.
func occurrence(m moment) *int {
	if m.occurrence <= 1 {
		return nil
	}
	return &m.occurrence
}

// ErrNoPrompt is Encode's error for a session that had no prompt: it has
// nothing to replay.
var ErrNoPrompt = errors.New("the session had no prompt")

// ErrTooLarge is Encode's error for a session longer than a scenario file
// may be (MaxBytes).
var ErrTooLarge = errors.New("more than the bytes a scenario file may hold")

// Encode returns the session as a scenario file, given the agent's history
// at its end, whose tool results say what each call returned. It checks
// the file as Load would, so that what it returns always replays, and fails
// if the session had no prompt, or if the file would be too large to load.
func (r *Recorder) Encode(history []fakemodel.Message) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.s.Prompt == nil {
		return nil, ErrNoPrompt
	}
	s := r.s
	s.Tools, s.Calls = map[string]Behaviour{}, map[string]Behaviour{}
	for _, m := range history {
		res, ok := m.(fakemodel.ToolResultMessage)
		c := r.calls[res.ToolCallID]
		if _, known := r.tools[res.ToolName]; !ok || c == nil || !known {
			// A call to a tool the agent does not have fails the same
			// way again, and a call that never started has no result.
			continue
		}
		s.Calls[res.ToolCallID] = c.behaviour(res)
		var tool Behaviour
		if sequential := r.tools[res.ToolName]; sequential {
			tool.Sequential = &sequential
		}
		s.Tools[res.ToolName] = tool
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if data.Len() > MaxBytes {
		return nil, fmt.Errorf("the session takes %d bytes as a scenario, %w (%d)", data.Len(), ErrTooLarge, MaxBytes)
	}
	if _, err := Parse("the recording", data.Bytes()); err != nil {
		return nil, fmt.Errorf("the recording would not replay: %w", err)
	}
	return data.Bytes(), nil
}

// behaviour returns what the call did, as its entry in "calls": the result
// res, after its moments.
func (c *recordedCall) behaviour(res fakemodel.ToolResultMessage) Behaviour {
	text := oneLineText(res.Content)
	if c.blocked {
		return Behaviour{Block: &text}
	}
	var b Behaviour
	if c.end > 0 {
		b.DurationMs = &c.end
	}
	if len(c.updates) > 0 {
		notes := make([]string, len(c.updates))
		copy(notes, c.notes)
		b.Updates, b.UpdatesAtMs = &notes, &c.updates
	}
	switch {
	case !res.IsError:
		b.Result = &text
	case strings.TrimSpace(text) == "":
		failed := "the call failed"
		b.Error = &failed
	default:
		b.Error = &text
	}
	return b
}

// oneLineText returns s as a text of one line that prints as it is, which
// the format accepts: white space that does not print as itself, such as a
// line break or a tab, becomes a space, so that the text still streams in
// the same words, and any other character that does not print as itself,
// such as an escape or a bidirectional override, becomes its Go escape.
func oneLineText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// userText returns what the user typed as the format takes it: one line
// (oneLineText), and never blank.
func userText(text string) string {
	text = oneLineText(text)
	if strings.TrimSpace(text) == "" {
		return "(a blank line)"
	}
	return text
}

// CanWriteNew checks that WriteNew could write a new file at path now: no
// file is there, and its directory takes a new file. A session checks it
// before it starts, so that its recording is not lost at its end.
func CanWriteNew(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return errors.New("the file exists, and a recording never replaces a file: name another, or remove it")
	}
	probe, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("cannot write there: %w", pathless(err))
	}
	probe.Close()
	return pathless(os.Remove(probe.Name()))
}

// pathless returns the reason of a file system error without the path it
// names: the caller names the file the user gave, quoted, and the path of a
// temporary file, with its random digits, would make the message differ
// from run to run, and could carry the raw name to the terminal.
func pathless(err error) error {
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &pathErr):
		return pathErr.Err
	case errors.As(err, &linkErr):
		return linkErr.Err
	}
	return err
}

// createTemp creates a new file beside path, for WriteNew to link to path.
// Unlike os.CreateTemp, which makes a file only its owner may read, it
// makes one with the mode of any new file, 0666 less the umask: a
// recording is a file like any other the user writes.
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for n := 0; ; n++ {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%d-%d.tmp", base, os.Getpid(), tempCount.Add(1)))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) || n == 1000 {
			return f, err
		}
	}
}

// tempCount numbers the temporary files of this process.
var tempCount atomic.Int64

// WriteNew writes data to a new file at path: never half a file, and never
// over a file that exists. It writes a temporary file beside path first,
// then links it to path, which fails if path exists. Its errors name no
// path: the caller names the file.
func WriteNew(path string, data []byte) (err error) {
	defer func() { err = pathless(err) }()
	tmp, err := createTemp(path)
	if err != nil {
		return err
	}
	defer func() {
		if rmErr := os.Remove(tmp.Name()); err == nil && rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			err = rmErr
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists, and a recording never replaces a file", quote(path))
		}
		// A file system without hard links: rename, which replaces, so
		// look first.
		if _, statErr := os.Lstat(path); statErr == nil {
			return fmt.Errorf("%s exists, and a recording never replaces a file", quote(path))
		}
		return os.Rename(tmp.Name(), path)
	}
	return nil
}
