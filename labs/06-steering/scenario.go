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
	"slices"
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
	ToolExecution *string                      `json:"toolExecution"`
	QueueMode     *string                      `json:"queueMode"`
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
	StopReason *string        `json:"stopReason"`
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
		if n, ok := strings.CutPrefix(wrongType.Value, "number "); ok {
			return fail(at, "%s %s", what, numberProblem(n, wrongType.Type))
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
	return behaviour{
		Result:    value(b.Result),
		Duration:  time.Duration(value(b.DurationMs)) * time.Millisecond,
		Updates:   value(b.Updates),
		Error:     value(b.Error),
		Panic:     value(b.Panic),
		Terminate: value(b.Terminate),
	}
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

// value is what p points to, or the zero value if p is nil: a field the
// file leaves out takes its default.
func value[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// part turns the scenario into a part the demo's show can run.
func (s scenario) part() part {
	replies := make([]fakemodel.AssistantMessage, len(s.Replies))
	for i, r := range s.Replies {
		reply := fakemodel.AssistantMessage{Text: r.Text, StopReason: fakemodel.StopReason(value(r.StopReason))}
		if value(r.StopReason) == "error" {
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
		tools = append(tools, fakeTool(clk, name, def.behaviour(), perCall, value(def.Sequential)))
	}
	cfg := Config{Model: fakemodel.Scripted(replies...), Tools: tools, Sequential: value(s.ToolExecution) == "sequential"}
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
	mode := cmp.Or(QueueMode(value(s.QueueMode)), OneAtATime)
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
