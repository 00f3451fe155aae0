package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A scenario is a scenario file: a whole agent session as data. The model's
// replies, what each tool does and what the simulated user types are all
// written down, so a learner can ask "what happens if..." without writing
// Go. scenarios/README.md documents every field.
type scenario struct {
	Prompt        string                       `json:"prompt"`
	ToolExecution string                       `json:"toolExecution"`
	QueueMode     string                       `json:"queueMode"`
	Replies       []scenarioReply              `json:"replies"`
	Tools         map[string]scenarioBehaviour `json:"tools"`
	Calls         map[string]scenarioBehaviour `json:"calls"`
	Block         map[string]string            `json:"block"`
	Steer         []scenarioMessage            `json:"steer"`
	FollowUp      []scenarioMessage            `json:"followUp"`
	StopAfterTurn int                          `json:"stopAfterTurn"`
}

type scenarioReply struct {
	Text       string         `json:"text"`
	ToolCalls  []scenarioCall `json:"toolCalls"`
	StopReason string         `json:"stopReason"`
}

type scenarioCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// scenarioBehaviour is a tool's behaviour in "tools", or one call's in
// "calls". Its fields are pointers so that a call's entry can tell a field
// it sets from one it leaves to its tool.
type scenarioBehaviour struct {
	Result     *string   `json:"result"`
	DurationMs *int      `json:"durationMs"`
	Sequential *bool     `json:"sequential"`
	Error      *string   `json:"error"`
	Panic      *string   `json:"panic"`
	Terminate  *bool     `json:"terminate"`
	Updates    *[]string `json:"updates"`
}

type scenarioMessage struct {
	Text string `json:"text"`
	At   string `json:"at"`
}

// maxDurationMs bounds a tool's duration: a scenario is a lesson, not a wait.
const maxDurationMs = 60_000

// maxScenarioBytes bounds a scenario file's size. The examples are under
// 2 KiB; the bound stops a file such as /dev/zero from filling the memory.
const maxScenarioBytes = 1 << 20

// A scenarioError is a scenario file that cannot run. It names the file,
// where the problem is (the line and column, or the whole file) and the
// problem.
type scenarioError struct {
	file, where, problem string
}

// Error names the file, the place and the problem.
func (e *scenarioError) Error() string {
	return fmt.Sprintf("scenario %s: %s: %s", e.file, e.where, e.problem)
}

// loadScenario reads and checks a scenario file.
func loadScenario(path string) (scenario, error) {
	fail := func(format string, a ...any) (scenario, error) {
		return scenario{}, &scenarioError{file: path, where: "file", problem: fmt.Sprintf(format, a...)}
	}
	f, err := os.Open(path)
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return fail("is a directory, not a scenario file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxScenarioBytes+1))
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	if len(data) > maxScenarioBytes {
		return fail("larger than 1 MiB: a scenario never needs that much")
	}
	return parseScenario(path, data)
}

// unwrapPath drops the operation and the path from an error of package os:
// the scenarioError names the file already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// byteOrderMark is what some editors put at the start of a UTF-8 file.
var byteOrderMark = []byte{0xEF, 0xBB, 0xBF}

// parseScenario decodes a scenario strictly: every field is checked for its
// exact name and type before a value is checked for sense.
func parseScenario(file string, data []byte) (scenario, error) {
	fail := func(offset int64, format string, a ...any) (scenario, error) {
		return scenario{}, &scenarioError{file: file, where: position(data, offset), problem: fmt.Sprintf(format, a...)}
	}
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return scenario{}, &scenarioError{file: file, where: "file", problem: `empty: a scenario is a JSON object with at least "prompt"`}
	case bytes.HasPrefix(data, byteOrderMark):
		return fail(0, "starts with a byte-order mark; save it as UTF-8 without one")
	}
	if bad := invalidUTF8(data); bad >= 0 {
		return fail(int64(bad), "not valid UTF-8 (byte 0x%02X); save the file as UTF-8", data[bad])
	}
	root, byOffset, err := checkJSON(data, reflect.TypeFor[scenario]())
	if err != nil {
		var bad *jsonError
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &bad):
			return fail(bad.offset, "%s", bad.problem)
		case errors.As(err, &syntax):
			return fail(syntax.Offset, "not valid JSON: %v", syntax)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fail(int64(len(data)), "not valid JSON: unexpected end of JSON input")
		}
		return fail(int64(len(data)), "not valid JSON: %v", err)
	}
	var s scenario
	if err := json.Unmarshal(data, &s); err != nil {
		var wrongType *json.UnmarshalTypeError
		if !errors.As(err, &wrongType) {
			return scenario{}, &scenarioError{file: file, where: "file", problem: err.Error()}
		}
		what, at := "field "+wrongType.Field, wrongType.Offset
		if n, ok := byOffset[wrongType.Offset]; ok {
			what, at = n.path().what(), n.start
		}
		return fail(at, "%s must be %s, not %s", what, jsonType(wrongType.Type), jsonValue(wrongType.Value))
	}
	if err := s.check(); err != nil {
		var bad *checkError
		if !errors.As(err, &bad) {
			return scenario{}, err
		}
		n := root.find(bad.path)
		at := n.start
		if bad.key && len(n.path()) == len(bad.path) {
			at = n.keyAt
		}
		return fail(at, "%v", bad)
	}
	return s, nil
}

// invalidUTF8 returns the offset of the first byte of data that is not
// valid UTF-8, or -1.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// A checkError is a value that is well typed but makes no sense. It names
// the value by its path; parseScenario adds the line and column.
type checkError struct {
	path jsonPath
	// key places the error at the value's key rather than at the value:
	// the problem is the key itself, such as a tool's name.
	key     bool
	problem string
}

// Error names the value and the problem.
func (e *checkError) Error() string { return e.path.String() + ": " + e.problem }

// failAt returns a checkError for the value at path.
func failAt(path jsonPath, format string, a ...any) error {
	return &checkError{path: path, problem: fmt.Sprintf(format, a...)}
}

// failKey returns a checkError for the key of the value at path.
func failKey(path jsonPath, format string, a ...any) error {
	return &checkError{path: path, key: true, problem: fmt.Sprintf(format, a...)}
}

var (
	// toolName is what providers accept as a tool's name.
	toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	// callID is what a scenario accepts as a call's ID: enough for the IDs
	// providers send (toolu_01A..., call_abc...), and no character that
	// would break a trace line or an at.
	callID = regexp.MustCompile(`^[a-zA-Z0-9_.:-]{1,64}$`)
)

const (
	toolNameRule = "use 1 to 64 characters from a-z, A-Z, 0-9, _ and -"
	callIDRule   = "use 1 to 64 characters from a-z, A-Z, 0-9, _, ., : and -"
)

// check rejects values that are well typed but make no sense.
func (s *scenario) check() error {
	if strings.TrimSpace(s.Prompt) == "" {
		return failAt(jsonPath{"prompt"}, "missing: a scenario starts with the user's first message")
	}
	if !slices.Contains([]string{"", "parallel", "sequential"}, s.ToolExecution) {
		return failAt(jsonPath{"toolExecution"}, "must be parallel or sequential, not %q", s.ToolExecution)
	}
	if !slices.Contains([]string{"", string(OneAtATime), string(All)}, s.QueueMode) {
		return failAt(jsonPath{"queueMode"}, "must be %s or %s, not %q", OneAtATime, All, s.QueueMode)
	}
	seen := map[string]bool{} // call IDs
	for i := range s.Replies {
		r := &s.Replies[i]
		where := jsonPath{"replies", i}
		if !slices.Contains([]string{"", "stop", "toolUse", "length", "error"}, r.StopReason) {
			return failAt(append(where, "stopReason"), "must be stop, toolUse, length or error, not %q", r.StopReason)
		}
		if r.StopReason == "error" && len(r.ToolCalls) > 0 {
			return failAt(append(where, "toolCalls"), "a failed request has no tool calls")
		}
		if r.StopReason == "error" && strings.TrimSpace(r.Text) == "" {
			return failAt(append(where, "text"), "missing: a failed request's text is its error message")
		}
		for j := range r.ToolCalls {
			c := &r.ToolCalls[j]
			where := jsonPath{"replies", i, "toolCalls", j}
			switch {
			case c.ID == "":
				return failAt(append(where, "id"), "missing")
			case !callID.MatchString(c.ID):
				return failAt(append(where, "id"), "%q is not a call ID: %s", c.ID, callIDRule)
			case seen[c.ID]:
				return failAt(append(where, "id"), "%q is already the ID of another call", c.ID)
			case c.Name == "":
				return failAt(append(where, "name"), "missing")
			case !toolName.MatchString(c.Name):
				return failAt(append(where, "name"), "%q is not a tool name: %s", c.Name, toolNameRule)
			}
			seen[c.ID] = true
			if len(c.Args) == 0 {
				c.Args = json.RawMessage(`{}`)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, c.Args); err == nil {
				c.Args = compact.Bytes()
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		if !toolName.MatchString(name) {
			return failKey(jsonPath{"tools", name}, "%q is not a tool name: %s", name, toolNameRule)
		}
		if err := s.Tools[name].check(jsonPath{"tools", name}); err != nil {
			return err
		}
	}
	callTools := s.callTools()
	for _, id := range slices.Sorted(maps.Keys(s.Calls)) {
		where := jsonPath{"calls", id}
		tool, ok := callTools[id]
		switch {
		case !ok:
			return failKey(where, "no reply makes a call with ID %q", id)
		case !hasKey(s.Tools, tool):
			return failKey(where, "call %q asks for %q, and tools has no such tool", id, tool)
		case s.Calls[id].Sequential != nil:
			return failAt(append(where, "sequential"), "sequential belongs to a tool, not to one call")
		}
		// A call's own fields are checked; what it inherits was checked
		// with its tool, and a call's error outranks its tool's result.
		if err := s.Calls[id].check(where); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Block)) {
		// A tool that is not in tools may be blocked: a call to it fails
		// as an unknown tool before the block is asked.
		if !toolName.MatchString(name) {
			return failKey(jsonPath{"block", name}, "%q is not a tool name: %s", name, toolNameRule)
		}
	}
	for _, list := range []struct {
		field    string
		messages []scenarioMessage
	}{{"steer", s.Steer}, {"followUp", s.FollowUp}} {
		for i, m := range list.messages {
			where := jsonPath{list.field, i}
			if strings.TrimSpace(m.Text) == "" {
				return failAt(append(where, "text"), "missing")
			}
			if m.At != "" {
				if problem := s.checkAt(m.At, callTools); problem != "" {
					return failAt(append(where, "at"), "%s", problem)
				}
			}
		}
	}
	if s.StopAfterTurn < 0 {
		return failAt(jsonPath{"stopAfterTurn"}, "must be 0 (never) or more, not %d", s.StopAfterTurn)
	}
	return nil
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// eventNames are the names a trace line starts with.
var eventNames = []string{
	"agent_start", "agent_end", "turn_start", "turn_end", "message_start", "message_update", "message_end",
	"tool_execution_start", "tool_execution_update", "tool_execution_end",
}

// traceForms are the trace lines each event prints (traceLine in trace.go).
var traceForms = map[string]string{
	"agent_start":           `"agent_start"`,
	"agent_end":             `"agent_end messages=N"`,
	"turn_start":            `"turn_start"`,
	"turn_end":              `"turn_end results=N"`,
	"message_start":         `"message_start user", "message_start assistant" or "message_start toolResult ID [error]"`,
	"message_update":        `"message_update assistant"`,
	"message_end":           `"message_end user", "message_end assistant" or "message_end toolResult ID [error]"`,
	"tool_execution_start":  `"tool_execution_start ID NAME"`,
	"tool_execution_update": `"tool_execution_update ID"`,
	"tool_execution_end":    `"tool_execution_end ID" or "tool_execution_end ID error: RESULT"`,
}

// checkAt returns what is wrong with an at, or "". An at must be the start,
// in whole words, of a trace line that its event can print in this
// scenario: a call it names is one that a reply makes, with its tool's
// name. callTools maps each call ID to its tool's name.
func (s *scenario) checkAt(at string, callTools map[string]string) string {
	name, rest, spaced := strings.Cut(at, " ")
	if !slices.Contains(eventNames, name) {
		return fmt.Sprintf("%q does not start with an event's name, such as tool_execution_start or turn_end", at)
	}
	if spaced && rest == "" {
		return fmt.Sprintf("%q: separate words with one space, with none at the start or end", at)
	}
	words := strings.Split(rest, " ")
	if name == "tool_execution_end" {
		// After "error:" comes the result's first line, which may hold
		// anything but a line break.
		words = strings.SplitN(rest, " ", 3)
		if len(words) == 3 && words[1] == "error:" && !strings.Contains(words[2], "\n") {
			words = words[:2]
		}
	}
	if rest == "" {
		words = nil
	}
	if slices.Contains(words, "") {
		return fmt.Sprintf("%q: separate words with one space, with none at the start or end", at)
	}
	bad := fmt.Sprintf("%q is not the start of a trace line of %s, which reads %s", at, name, traceForms[name])
	// call checks the word that names a call, and returns what is wrong.
	call := func(id string) string {
		if _, ok := callTools[id]; !ok {
			return fmt.Sprintf("%q: no reply makes a call with ID %q", at, id)
		}
		return ""
	}
	switch name {
	case "agent_start", "turn_start":
		if len(words) > 0 {
			return bad
		}
	case "agent_end", "turn_end":
		if len(words) == 0 {
			return ""
		}
		label := map[string]string{"agent_end": "messages=", "turn_end": "results="}[name]
		n, ok := strings.CutPrefix(words[0], label)
		if len(words) > 1 || !ok || !wholeNumber(n) {
			return bad
		}
		if name == "turn_end" && !slices.ContainsFunc(s.Replies, func(r scenarioReply) bool { return strconv.Itoa(len(r.ToolCalls)) == n }) && n != "0" {
			return fmt.Sprintf("%q: no reply makes %s tool calls, so no turn ends with %s results", at, n, n)
		}
	case "message_update":
		if len(words) > 1 || len(words) == 1 && words[0] != "assistant" {
			return bad
		}
	case "message_start", "message_end":
		switch {
		case len(words) == 0:
		case words[0] == "user" || words[0] == "assistant":
			if len(words) > 1 {
				return bad
			}
		case words[0] == "toolResult":
			if len(words) > 3 || len(words) == 3 && words[2] != "error" {
				return bad
			}
			if len(words) > 1 {
				return call(words[1])
			}
		default:
			return bad
		}
	case "tool_execution_start":
		if len(words) > 2 {
			return bad
		}
		if len(words) > 0 {
			if problem := call(words[0]); problem != "" {
				return problem
			}
		}
		if len(words) == 2 && words[1] != callTools[words[0]] {
			return fmt.Sprintf("%q: call %q is a call to %q, not %q", at, words[0], callTools[words[0]], words[1])
		}
	case "tool_execution_update":
		if len(words) > 1 {
			return bad
		}
		if len(words) == 1 {
			return call(words[0])
		}
	case "tool_execution_end":
		if len(words) > 2 || len(words) == 2 && words[1] != "error:" {
			return bad
		}
		if len(words) > 0 {
			return call(words[0])
		}
	}
	return ""
}

// wholeNumber reports whether s is a whole number as %d writes it.
func wholeNumber(s string) bool {
	if s == "0" {
		return true
	}
	return s != "" && s[0] != '0' && strings.Trim(s, "0123456789") == ""
}

// check rejects a behaviour that cannot happen.
func (b scenarioBehaviour) check(where jsonPath) error {
	fail := func(field, format string, a ...any) error {
		path := where
		if field != "" {
			path = append(slices.Clip(where), field)
		}
		return failAt(path, format, a...)
	}
	if b.DurationMs != nil && (*b.DurationMs < 0 || *b.DurationMs > maxDurationMs) {
		return fail("durationMs", "must be from 0 to %d, not %d", maxDurationMs, *b.DurationMs)
	}
	set := func(s *string) bool { return s != nil && *s != "" }
	switch {
	case set(b.Error) && set(b.Panic):
		return fail("", "a call either fails (error) or panics (panic), not both")
	case (set(b.Error) || set(b.Panic)) && (set(b.Result) || b.Terminate != nil && *b.Terminate):
		return fail("", "a call that fails (error) or panics (panic) returns no result and cannot terminate")
	}
	return nil
}

// merged returns a call's behaviour b completed from its tool's, def. The
// duration and the updates come from def unless b sets them. How the call
// ends (result, terminate, error, panic) comes all from b if b sets any of
// them, and all from def otherwise: a call that fails does not inherit its
// tool's result, and a call with a result of its own does not inherit its
// tool's error.
func (b scenarioBehaviour) merged(def scenarioBehaviour) scenarioBehaviour {
	b.DurationMs = cmp.Or(b.DurationMs, def.DurationMs)
	b.Updates = cmp.Or(b.Updates, def.Updates)
	if b.Result == nil && b.Terminate == nil && b.Error == nil && b.Panic == nil {
		b.Result, b.Terminate, b.Error, b.Panic = def.Result, def.Terminate, def.Error, def.Panic
	}
	return b
}

// behaviour turns a scenario's behaviour into a fake tool's.
func (b scenarioBehaviour) behaviour() behaviour {
	var out behaviour
	if b.Result != nil {
		out.Result = *b.Result
	}
	if b.DurationMs != nil {
		out.Duration = time.Duration(*b.DurationMs) * time.Millisecond
	}
	if b.Updates != nil {
		out.Updates = *b.Updates
	}
	if b.Error != nil {
		out.Error = *b.Error
	}
	if b.Panic != nil {
		out.Panic = *b.Panic
	}
	if b.Terminate != nil {
		out.Terminate = *b.Terminate
	}
	return out
}

// callTools maps each call ID of the replies to the tool it calls.
func (s scenario) callTools() map[string]string {
	tools := map[string]string{}
	for _, r := range s.Replies {
		for _, c := range r.ToolCalls {
			tools[c.ID] = c.Name
		}
	}
	return tools
}

// part turns the scenario into a part the demo's show can run.
func (s scenario) part() part {
	replies := make([]fakemodel.AssistantMessage, len(s.Replies))
	for i, r := range s.Replies {
		reply := fakemodel.AssistantMessage{Text: r.Text, StopReason: fakemodel.StopReason(r.StopReason)}
		if r.StopReason == "error" {
			reply = fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: r.Text}
		}
		for _, c := range r.ToolCalls {
			reply.ToolCalls = append(reply.ToolCalls, fakemodel.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
		}
		replies[i] = reply
	}
	callTools := s.callTools()
	clk := newClock()
	var tools []Tool
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		def := s.Tools[name]
		perCall := map[string]behaviour{}
		for id, b := range s.Calls {
			if callTools[id] == name {
				perCall[id] = b.merged(def).behaviour()
			}
		}
		tools = append(tools, fakeTool(clk, name, def.behaviour(), perCall, def.Sequential != nil && *def.Sequential))
	}
	cfg := Config{Model: fakemodel.Scripted(replies...), Tools: tools, Sequential: s.ToolExecution == "sequential"}
	if len(s.Block) > 0 {
		cfg.BeforeToolCall = func(_ context.Context, c BeforeToolCallContext) (BeforeToolCallResult, error) {
			reason, blocked := s.Block[c.ToolCall.Name]
			return BeforeToolCallResult{Block: blocked, Reason: reason}, nil
		}
	}
	var plan []userAction
	for _, m := range s.Steer {
		plan = append(plan, userAction{At: m.At, Text: m.Text})
	}
	for _, m := range s.FollowUp {
		plan = append(plan, userAction{At: m.At, FollowUp: true, Text: m.Text})
	}
	mode := cmp.Or(QueueMode(s.QueueMode), OneAtATime)
	return part{
		clock:    clk,
		agent:    AgentOptions{Config: cfg, SteeringMode: mode, FollowUpMode: mode},
		maxTurns: s.StopAfterTurn,
		prompt:   s.Prompt,
		plan:     plan,
	}
}

// runScenario runs the scenario file named by -scenario.
func runScenario(ctx context.Context, stdout, stderr io.Writer, opts options) error {
	s, err := loadScenario(opts.scenario)
	if err != nil {
		return err
	}
	sh := show{p: newPrinter(stdout), errw: stderr, trace: opts.trace}
	pt := s.part()
	pt.title = "scenario " + filepath.Base(opts.scenario)
	return sh.run(ctx, 0, pt)
}

// position turns a byte offset in data into "line L, column C". Columns
// count characters, not bytes, as editors do.
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	column := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("line %d, column %d", line, column)
}
