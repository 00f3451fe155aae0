package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

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

// A scenarioError is a scenario file that cannot run. It names the file, the
// field and, where JSON gives it, the line and column.
type scenarioError struct {
	file, where, problem string
}

// Error names the file, the place and the problem.
func (e *scenarioError) Error() string {
	return fmt.Sprintf("scenario %s: %s: %s", e.file, e.where, e.problem)
}

// loadScenario reads and checks a scenario file.
func loadScenario(path string) (scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return scenario{}, &scenarioError{file: path, where: "file", problem: err.Error()}
	}
	return parseScenario(path, data)
}

// parseScenario decodes a scenario strictly: every field is checked for its
// exact name and type before a value is checked for sense.
func parseScenario(file string, data []byte) (scenario, error) {
	fail := func(where, format string, a ...any) (scenario, error) {
		return scenario{}, &scenarioError{file: file, where: where, problem: fmt.Sprintf(format, a...)}
	}
	scalars, err := checkNames(data, reflect.TypeFor[scenario]())
	if err != nil {
		var unknown *nameError
		var trailing *trailingDataError
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &unknown):
			return fail(position(data, unknown.offset), "%v", unknown)
		case errors.As(err, &trailing):
			return fail(position(data, trailing.offset), "not valid JSON: %v", trailing)
		case errors.As(err, &syntax):
			return fail(position(data, syntax.Offset), "not valid JSON: %v", syntax)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fail(position(data, int64(len(data))), "not valid JSON: unexpected end of JSON input")
		}
		return fail(position(data, int64(len(data))), "not valid JSON: %v", err)
	}
	var s scenario
	if err := json.Unmarshal(data, &s); err != nil {
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) {
			at, ok := scalars[wrongType.Offset]
			if !ok {
				at = scalar{path: wrongType.Field, start: wrongType.Offset}
			}
			what := "field " + at.path
			if at.path == "" {
				what = "the scenario"
			}
			return fail(position(data, at.start), "%s must be %s, not %s", what, jsonType(wrongType.Type), jsonValue(wrongType.Value))
		}
		return fail("file", "%v", err)
	}
	if err := s.check(); err != nil {
		var e *scenarioError
		if errors.As(err, &e) {
			e.file = file
		}
		return scenario{}, err
	}
	return s, nil
}

// check rejects values that are well typed but make no sense.
func (s *scenario) check() error {
	fail := func(where, format string, a ...any) error {
		return &scenarioError{where: where, problem: fmt.Sprintf(format, a...)}
	}
	if strings.TrimSpace(s.Prompt) == "" {
		return fail("prompt", "missing: a scenario starts with the user's first message")
	}
	if !slices.Contains([]string{"", "parallel", "sequential"}, s.ToolExecution) {
		return fail("toolExecution", "must be parallel or sequential, not %q", s.ToolExecution)
	}
	if !slices.Contains([]string{"", string(OneAtATime), string(All)}, s.QueueMode) {
		return fail("queueMode", "must be %s or %s, not %q", OneAtATime, All, s.QueueMode)
	}
	seen := map[string]bool{} // call IDs
	for i := range s.Replies {
		r := &s.Replies[i]
		where := fmt.Sprintf("replies[%d]", i)
		if !slices.Contains([]string{"", "stop", "toolUse", "length", "error"}, r.StopReason) {
			return fail(where+".stopReason", "must be stop, toolUse, length or error, not %q", r.StopReason)
		}
		if r.StopReason == "error" && len(r.ToolCalls) > 0 {
			return fail(where+".toolCalls", "a failed request has no tool calls")
		}
		if r.StopReason == "error" && strings.TrimSpace(r.Text) == "" {
			return fail(where+".text", "missing: a failed request's text is its error message")
		}
		for j := range r.ToolCalls {
			c := &r.ToolCalls[j]
			where := fmt.Sprintf("%s.toolCalls[%d]", where, j)
			switch {
			case c.ID == "":
				return fail(where+".id", "missing")
			case c.Name == "":
				return fail(where+".name", "missing")
			case seen[c.ID]:
				return fail(where+".id", "%q is already the ID of another call", c.ID)
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
		if err := s.Tools[name].check("tools." + name); err != nil {
			return err
		}
	}
	callTools := s.callTools()
	for _, id := range slices.Sorted(maps.Keys(s.Calls)) {
		where := "calls." + id
		tool, ok := callTools[id]
		switch {
		case !ok:
			return fail(where, "no reply makes a call with ID %q", id)
		case !hasKey(s.Tools, tool):
			return fail(where, "call %q asks for %q, and tools has no such tool", id, tool)
		case s.Calls[id].Sequential != nil:
			return fail(where+".sequential", "sequential belongs to a tool, not to one call")
		}
		// A call's own fields are checked; what it inherits was checked
		// with its tool, and a call's error outranks its tool's result.
		if err := s.Calls[id].check(where); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Block)) {
		if !hasKey(s.Tools, name) {
			return fail("block."+name, "tools has no tool %q to block", name)
		}
	}
	for _, list := range []struct {
		field    string
		messages []scenarioMessage
	}{{"steer", s.Steer}, {"followUp", s.FollowUp}} {
		for i, m := range list.messages {
			where := fmt.Sprintf("%s[%d]", list.field, i)
			if strings.TrimSpace(m.Text) == "" {
				return fail(where+".text", "missing")
			}
			if m.At != "" && !startsWithEvent(m.At) {
				return fail(where+".at", "%q does not start with an event's name, such as tool_execution_start or turn_end", m.At)
			}
		}
	}
	if s.StopAfterTurn < 0 {
		return fail("stopAfterTurn", "must be 0 (never) or more, not %d", s.StopAfterTurn)
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

func startsWithEvent(at string) bool {
	name, _, _ := strings.Cut(at, " ")
	return slices.Contains(eventNames, name)
}

// check rejects a behaviour that cannot happen.
func (b scenarioBehaviour) check(where string) error {
	fail := func(field, format string, a ...any) error {
		return &scenarioError{where: where + field, problem: fmt.Sprintf(format, a...)}
	}
	if b.DurationMs != nil && (*b.DurationMs < 0 || *b.DurationMs > maxDurationMs) {
		return fail(".durationMs", "must be from 0 to %d, not %d", maxDurationMs, *b.DurationMs)
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
	var tools []Tool
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		def := s.Tools[name]
		perCall := map[string]behaviour{}
		for id, b := range s.Calls {
			if callTools[id] == name {
				perCall[id] = b.merged(def).behaviour()
			}
		}
		tools = append(tools, fakeTool(name, def.behaviour(), perCall, def.Sequential != nil && *def.Sequential))
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
	sh := show{p: newPrinter(stdout), trace: opts.trace}
	sh.p.header("scenario " + filepath.Base(opts.scenario))
	return sh.run(ctx, s.part())
}

// position turns a byte offset in data into "line L, column C".
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	column := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, column)
}
