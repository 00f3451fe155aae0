package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A checkError is a value that is well typed but makes no sense. It names
// the value by its path; Parse adds the line and column.
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

// IsToolName reports whether name is a tool's name as providers, and the
// format, accept it: 1 to 64 characters from a-z, A-Z, 0-9, _ and -.
func IsToolName(name string) bool { return fromSet(name, "_-") }

// IsCallID reports whether id is a call's ID as the format accepts it: 1 to
// 64 characters from a-z, A-Z, 0-9, _, ., : and -. That is enough for the
// IDs providers send (toolu_01A..., call_abc...), with no character that
// would break a trace line or an at.
func IsCallID(id string) bool { return fromSet(id, "_.:-") }

// fromSet reports whether s is 1 to 64 characters, each an ASCII letter, a
// digit or one of extra.
func fromSet(s, extra string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && strings.IndexByte(extra, c) < 0 {
			return false
		}
	}
	return true
}

const (
	toolNameRule = "use 1 to 64 characters from a-z, A-Z, 0-9, _ and -"
	callIDRule   = "use 1 to 64 characters from a-z, A-Z, 0-9, _, ., : and -"
)

// oneLine rejects a text that the narrative cannot print on one line as it
// is: one with a line break, or with any other character that does not
// print as itself (Unprintable), such as a tab, the escape that starts a
// terminal's colour codes, a bidirectional control, which makes a line read
// differently from what it holds, or a zero-width space, which no reader
// sees.
func oneLine(path jsonPath, text string) error {
	// U+2028 and U+2029 are Unicode's line and paragraph separators.
	if strings.ContainsAny(text, "\n\r\u2028\u2029") {
		return failAt(path, "must be one line: the narrative prints it on one")
	}
	r, found := Unprintable(text)
	switch {
	case !found:
		return nil
	case unicode.IsControl(r):
		return failAt(path, "must not hold the control character %U: the narrative prints text as it is", r)
	case bidiControl(r):
		return failAt(path, "must not hold the bidirectional control character %U: it would make the line read differently from what it holds", r)
	}
	return failAt(path, "must not hold %U, a character that does not print as itself "+
		"(an invisible or format character, or a space other than U+0020): the narrative prints text as it is", r)
}

// Unprintable returns the first character of text that does not print as
// itself on a terminal, and true; or false if every character does. Such a
// character is any but the space that unicode.IsPrint refuses: a control
// character, a line or paragraph separator, a bidirectional control, a
// format character such as a zero-width space or a tag character, a space
// other than U+0020, an unassigned or private character. Scenario texts and
// the lines a person types at -chat are held to this one rule, so that a
// recording of -chat always replays. The text must be valid UTF-8.
func Unprintable(text string) (rune, bool) {
	i := strings.IndexFunc(text, func(r rune) bool { return r != ' ' && !unicode.IsPrint(r) })
	if i < 0 {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r, true
}

// bidiControl reports whether r is one of Unicode's bidirectional controls
// (Bidi_Control): the Arabic letter mark U+061C, the marks U+200E and
// U+200F, and the embeddings, overrides and isolates U+202A to U+202E and
// U+2066 to U+2069, which reorder the text around them when a terminal
// shows it.
func bidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

// check rejects values that are well typed but make no sense.
func (s *Scenario) check() error {
	if err := s.checkRuns(); err != nil {
		return err
	}
	// A choice may be left out, which means its default, but a choice
	// that is there must be one of its words: "" is a mistake.
	if s.ToolExecution != nil && !slices.Contains([]string{"parallel", "sequential"}, *s.ToolExecution) {
		return failAt(jsonPath{"toolExecution"}, "must be parallel or sequential, not %q", *s.ToolExecution)
	}
	if s.QueueMode != nil && !slices.Contains([]string{"one-at-a-time", "all"}, *s.QueueMode) {
		return failAt(jsonPath{"queueMode"}, "must be one-at-a-time or all, not %q", *s.QueueMode)
	}
	seen := map[string]bool{} // call IDs, in the whole file
	if err := s.checkHistory(seen); err != nil {
		return err
	}
	if err := checkReplies(jsonPath{"replies"}, s.Replies, seen); err != nil {
		return err
	}
	for i, swap := range s.PrepareNextTurn {
		where := jsonPath{"prepareNextTurn", i}
		switch {
		case swap.AfterTurn == nil:
			return failAt(append(where, "afterTurn"), "missing: the turn after which the model is swapped")
		case *swap.AfterTurn < 1 || i > 0 && *swap.AfterTurn <= value(s.PrepareNextTurn[i-1].AfterTurn):
			return failAt(append(where, "afterTurn"), "must be 1 or more, and more than the afterTurn before it, not %d", *swap.AfterTurn)
		case swap.Replies == nil:
			return failAt(append(where, "replies"), "missing: the new model's replies, [] for none")
		}
		if err := checkReplies(append(where, "replies"), swap.Replies, seen); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		if !IsToolName(name) {
			return failKey(jsonPath{"tools", name}, "%q is not a tool name: %s", name, toolNameRule)
		}
		if s.Tools[name].Block != nil {
			return failAt(jsonPath{"tools", name, "block"}, "only an entry of calls may hold block; to block every call of a tool, name it in the top-level block")
		}
		if s.Tools[name].SetArgs != nil {
			return failAt(jsonPath{"tools", name, "setArgs"}, "only an entry of calls may hold setArgs: it changes the arguments of one call")
		}
		if err := s.Tools[name].check(jsonPath{"tools", name}, s.Tools[name]); err != nil {
			return err
		}
	}
	callTools := s.callTools()
	for _, id := range slices.Sorted(maps.Keys(s.Calls)) {
		where := jsonPath{"calls", id}
		tool, ok := callTools[id]
		switch {
		case !ok && s.historyCall(id):
			return failKey(where, "%q is a call of the history, which never runs", id)
		case !ok:
			return failKey(where, "no reply makes a call with ID %q", id)
		case !hasKey(s.Tools, tool):
			return failKey(where, "call %q asks for %q, and tools has no such tool", id, tool)
		case s.Calls[id].Sequential != nil:
			return failAt(append(where, "sequential"), "sequential belongs to a tool, not to one call")
		}
		// A call's own fields are checked; what it inherits was checked
		// with its tool, and a call's error outranks its tool's result.
		// Its update moments are checked against the duration it ends
		// up with.
		if err := s.Calls[id].check(where, s.Calls[id].merged(s.Tools[tool])); err != nil {
			return err
		}
		if err := s.checkSetArgs(where, id, tool); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Block)) {
		// A tool that is not in tools may be blocked: a call to it fails
		// as an unknown tool before the block is asked.
		if !IsToolName(name) {
			return failKey(jsonPath{"block", name}, "%q is not a tool name: %s", name, toolNameRule)
		}
		if err := oneLine(jsonPath{"block", name}, s.Block[name]); err != nil {
			return err
		}
	}
	for _, list := range []struct {
		field    string
		messages []Message
	}{{"steer", s.Steer}, {"followUp", s.FollowUp}} {
		for i, m := range list.messages {
			where := jsonPath{list.field, i}
			if err := notBlank(append(where, "text"), m.Text, "missing", "a message needs a text"); err != nil {
				return err
			}
			if err := oneLine(append(where, "text"), m.Text); err != nil {
				return err
			}
			if err := s.checkMoment(where, m.At, m.Occurrence, callTools); err != nil {
				return err
			}
		}
	}
	for i, a := range s.WhileRunning {
		where := jsonPath{"whileRunning", i}
		if err := checkRun(where, a.Prompt, a.Continue); err != nil {
			return err
		}
		if a.At == "" {
			return failAt(append(where, "at"), "missing: a run is going only while its events come, so the user tries at an event")
		}
		if err := s.checkMoment(where, a.At, a.Occurrence, callTools); err != nil {
			return err
		}
	}
	for i, in := range s.Interrupts {
		where := jsonPath{"interrupts", i}
		if in.At == "" {
			return failAt(append(where, "at"), "missing: an interrupt happens at an event")
		}
		if err := s.checkMoment(where, in.At, in.Occurrence, callTools); err != nil {
			return err
		}
	}
	if s.StopAfterTurn < 0 {
		return failAt(jsonPath{"stopAfterTurn"}, "must be 0 (never) or more, not %d", s.StopAfterTurn)
	}
	switch t := s.TransformContext; {
	case t == nil:
	case t.KeepLast == nil:
		return failAt(jsonPath{"transformContext", "keepLast"}, "missing: how many of the last messages the model is shown")
	case *t.KeepLast < 1:
		return failAt(jsonPath{"transformContext", "keepLast"}, "must be 1 or more: the model is shown at least the last message, not %d", *t.KeepLast)
	}
	for _, name := range slices.Sorted(maps.Keys(s.AfterToolCall)) {
		where, o := jsonPath{"afterToolCall", name}, s.AfterToolCall[name]
		switch {
		case !hasKey(s.Tools, name):
			return failKey(where, "tools has no tool %q: a call to it fails before it runs, and AfterToolCall sees only calls that ran", name)
		case o.Content == nil && o.IsError == nil && o.Terminate == nil:
			return failAt(where, "overrides nothing: give content, isError or terminate")
		case o.Content != nil:
			if err := oneLine(append(where, "content"), *o.Content); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRuns checks the runs of a session: prompt and nextPrompts, or runs.
func (s *Scenario) checkRuns() error {
	switch {
	case s.Runs != nil && (s.Prompt != nil || s.NextPrompts != nil):
		return failKey(jsonPath{"runs"}, "runs replace prompt and nextPrompts: give the runs either way, not both")
	case s.Runs == nil && s.Prompt == nil:
		return failAt(jsonPath{"prompt"}, "missing: a scenario starts with the user's first message (prompt), or lists its runs (runs)")
	case s.Prompt != nil:
		if err := checkPrompt(jsonPath{"prompt"}, *s.Prompt); err != nil {
			return err
		}
	}
	for i, p := range s.NextPrompts {
		if err := checkPrompt(jsonPath{"nextPrompts", i}, p); err != nil {
			return err
		}
	}
	for i, r := range value(s.Runs) {
		if err := checkRun(jsonPath{"runs", i}, r.Prompt, r.Continue); err != nil {
			return err
		}
	}
	return nil
}

// checkRun checks a run, or an attempt at one, at where: a prompt, or a
// Continue. A prompt of "" is one left out: the field's default.
func checkRun(where jsonPath, prompt string, cont bool) error {
	switch {
	case prompt != "" && cont:
		return failAt(where, "a run starts with a prompt or continues, not both")
	case cont:
		return nil
	case prompt == "":
		return failAt(where, `missing: a run starts with a prompt, or is "continue": true`)
	}
	return checkPrompt(append(where, "prompt"), prompt)
}

// checkPrompt checks a prompt that is there, at where: it has a text, on
// one line.
func checkPrompt(where jsonPath, prompt string) error {
	if err := notBlank(where, prompt, "blank", "a prompt is what the user says, and needs a text"); err != nil {
		return err
	}
	return oneLine(where, prompt)
}

// notBlank rejects a text at where that is empty, as empty says ("missing"
// where "" is the text left out, "blank" where the text is there), or only
// spaces, which is blank: why says what the text is for.
func notBlank(where jsonPath, text, empty, why string) error {
	switch {
	case text == "":
		return failAt(where, "%s: %s", empty, why)
	case strings.TrimSpace(text) == "":
		return failAt(where, "blank: %s", why)
	}
	return nil
}

// checkReplies checks the replies at where, and adds the IDs of their calls
// to seen, the IDs of the whole file.
func checkReplies(where jsonPath, replies []Reply, seen map[string]bool) error {
	for i := range replies {
		r := &replies[i]
		where := append(slices.Clip(where), i)
		if r.StopReason != nil && !slices.Contains([]string{"stop", "toolUse", "length", "error"}, *r.StopReason) {
			return failAt(append(where, "stopReason"), "must be stop, toolUse, length or error, not %q", *r.StopReason)
		}
		if value(r.StopReason) == "error" && len(r.ToolCalls) > 0 {
			return failAt(append(where, "toolCalls"), "a failed request has no tool calls")
		}
		if value(r.StopReason) == "error" && strings.TrimSpace(r.Text) == "" {
			return failAt(append(where, "text"), "missing: a failed request's text is its error message")
		}
		if err := oneLine(append(where, "text"), r.Text); err != nil {
			return err
		}
		if r.Partial != "" && value(r.StopReason) != "error" {
			return failAt(append(where, "partial"), "only a failed request (stopReason error) has a partial text")
		}
		if r.Partial != "" && r.Stream != nil && !*r.Stream {
			return failAt(append(where, "partial"), "a reply that does not stream (stream false) has no partial text that streamed")
		}
		if err := oneLine(append(where, "partial"), r.Partial); err != nil {
			return err
		}
		if err := oneLine(append(where, "thinking"), r.Thinking); err != nil {
			return err
		}
		if err := checkCalls(append(where, "toolCalls"), r.ToolCalls, seen); err != nil {
			return err
		}
	}
	return nil
}

// checkCalls checks the tool calls at where, and adds their IDs to seen.
func checkCalls(where jsonPath, calls []ToolCall, seen map[string]bool) error {
	for j := range calls {
		c := &calls[j]
		where := append(slices.Clip(where), j)
		switch {
		case c.ID == "":
			return failAt(append(where, "id"), "missing")
		case !IsCallID(c.ID):
			return failAt(append(where, "id"), "%q is not a call ID: %s", c.ID, callIDRule)
		case seen[c.ID]:
			return failAt(append(where, "id"), "%q is already the ID of another call", c.ID)
		case c.Name == "":
			return failAt(append(where, "name"), "missing")
		case !IsToolName(c.Name):
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
		// The narrative prints the args as they are: a string in them
		// may hold a character JSON lets through unescaped, such as a
		// bidirectional override; written \u202e, it prints as text.
		if err := oneLine(append(where, "args"), string(c.Args)); err != nil {
			return err
		}
	}
	return nil
}

// checkHistory checks the history a scenario starts with, and adds the IDs
// of its calls to seen. Each message has the fields of its role only; a
// tool result answers a call of an earlier assistant message, once.
func (s *Scenario) checkHistory(seen map[string]bool) error {
	calls := map[string]bool{} // the history's calls: answered or not
	for i := range s.History {
		m := &s.History[i]
		where := jsonPath{"history", i}
		fields := map[string]bool{
			"toolCalls": m.ToolCalls != nil, "stopReason": m.StopReason != nil,
			"toolCallId": m.ToolCallID != "", "isError": m.IsError != nil,
		}
		own := map[string][]string{"user": nil, "assistant": {"toolCalls", "stopReason"}, "toolResult": {"toolCallId", "isError"}}
		allowed, ok := own[m.Role]
		if !ok {
			return failAt(append(where, "role"), "must be user, assistant or toolResult, not %q", m.Role)
		}
		for _, field := range []string{"toolCalls", "stopReason", "toolCallId", "isError"} {
			if fields[field] && !slices.Contains(allowed, field) {
				return failKey(append(where, field), "a %s message has no %s", m.Role, field)
			}
		}
		if m.Role == "user" {
			if err := notBlank(append(where, "text"), m.Text, "missing", "a user message needs a text"); err != nil {
				return err
			}
		}
		if err := oneLine(append(where, "text"), m.Text); err != nil {
			return err
		}
		switch m.Role {
		case "assistant":
			if m.StopReason != nil && !slices.Contains([]string{"stop", "toolUse", "length"}, *m.StopReason) {
				return failAt(append(where, "stopReason"), "must be stop, toolUse or length, not %q", *m.StopReason)
			}
			if err := checkCalls(append(where, "toolCalls"), m.ToolCalls, seen); err != nil {
				return err
			}
			for _, c := range m.ToolCalls {
				calls[c.ID] = false
			}
		case "toolResult":
			answered, ok := calls[m.ToolCallID]
			switch {
			case m.ToolCallID == "":
				return failAt(append(where, "toolCallId"), "missing: a tool result answers a call")
			case !ok:
				return failAt(append(where, "toolCallId"), "no assistant message before it in the history makes a call with ID %q", m.ToolCallID)
			case answered:
				return failAt(append(where, "toolCallId"), "call %q has a result already", m.ToolCallID)
			}
			calls[m.ToolCallID] = true
		}
	}
	return nil
}

// historyCall reports whether id is the ID of a call of the history.
func (s *Scenario) historyCall(id string) bool {
	return slices.ContainsFunc(s.History, func(m HistoryMessage) bool {
		return slices.ContainsFunc(m.ToolCalls, func(c ToolCall) bool { return c.ID == id })
	})
}

// checkSetArgs checks the setArgs of the call id, to the tool named tool, at
// where: an object, for a call whose arguments are one, and that is not
// blocked, by its own entry or by the top-level block.
func (s *Scenario) checkSetArgs(where jsonPath, id, tool string) error {
	set := s.Calls[id].SetArgs
	if set == nil {
		return nil
	}
	where = append(where, "setArgs")
	if _, err := Args(set); err != nil {
		return failAt(where, "must be a JSON object: the keys it sets in the call's arguments, and their values")
	}
	if s.Calls[id].Block != nil {
		return failAt(where, "a blocked call never runs, so no arguments of it are changed")
	}
	if hasKey(s.Block, tool) {
		return failAt(where, "the top-level block blocks every call of %q: a blocked call never runs, so no arguments of it are changed", tool)
	}
	args := json.RawMessage(`{}`)
	for _, r := range s.allReplies() {
		for _, c := range r.ToolCalls {
			if c.ID == id {
				args = c.Args
			}
		}
	}
	if _, err := Args(args); err != nil {
		return failAt(where, "call %q fails its check before BeforeToolCall is asked: its args are not a JSON object", id)
	}
	// JSON lets a string of it hold a character that does not print as
	// itself, and the narrative prints it.
	var one bytes.Buffer
	_ = json.Compact(&one, set)
	return oneLine(where, one.String())
}

// checkMoment checks the at and occurrence of a user message or an
// interrupt, at where.
func (s *Scenario) checkMoment(where jsonPath, at string, occurrence *int, callTools map[string]string) error {
	if at != "" {
		if err := oneLine(append(where, "at"), at); err != nil {
			return err
		}
		if problem := s.checkAt(at, callTools); problem != "" {
			return failAt(append(where, "at"), "%s", problem)
		}
	}
	switch {
	case occurrence == nil:
	case at == "":
		return failAt(append(where, "occurrence"), "needs an at: it counts the events that match the at")
	case *occurrence < 1:
		return failAt(append(where, "occurrence"), "must be 1 (the first event that matches) or more, not %d", *occurrence)
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

// traceForms are the trace lines each event prints (traceLine in lab 06's
// trace.go).
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
func (s *Scenario) checkAt(at string, callTools map[string]string) string {
	if strings.TrimSpace(at) != at {
		return fmt.Sprintf("%q: separate words with one space, with none at the start or end", at)
	}
	name, rest, _ := strings.Cut(at, " ")
	if !slices.Contains(eventNames, name) {
		return fmt.Sprintf("%q does not start with an event's name, such as tool_execution_start or turn_end", at)
	}
	words := strings.Split(rest, " ")
	if name == "tool_execution_end" {
		// After "error:" comes the result's first line, which may hold
		// spaces.
		words = strings.SplitN(rest, " ", 3)
		if len(words) == 3 && words[1] == "error:" {
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
		_, ok := callTools[id]
		switch {
		case !ok && s.historyCall(id):
			return fmt.Sprintf("%q: call %q is a call of the history, which never runs", at, id)
		case !ok:
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
		if name == "turn_end" && !slices.ContainsFunc(s.Replies, func(r Reply) bool { return strconv.Itoa(len(r.ToolCalls)) == n }) && n != "0" {
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

// check rejects a behaviour that cannot happen. merged is b with what it
// inherits from its tool, if it is a call's, or b itself.
func (b Behaviour) check(where jsonPath, merged Behaviour) error {
	fail := func(field, format string, a ...any) error {
		path := where
		if field != "" {
			path = append(slices.Clip(where), field)
		}
		return failAt(path, format, a...)
	}
	if b.DurationMs != nil && (*b.DurationMs < 0 || *b.DurationMs > MaxDurationMs) {
		return fail("durationMs", "must be from 0 to %d, not %d", MaxDurationMs, *b.DurationMs)
	}
	for _, text := range []struct {
		field string
		value *string
	}{{"result", b.Result}, {"error", b.Error}, {"panic", b.Panic}} {
		if text.value != nil {
			if err := oneLine(append(slices.Clip(where), text.field), *text.value); err != nil {
				return err
			}
		}
	}
	if b.Updates != nil {
		for i, note := range *b.Updates {
			if err := oneLine(append(slices.Clip(where), "updates", i), note); err != nil {
				return err
			}
		}
	}
	if b.Block != nil {
		if b.Result != nil || b.DurationMs != nil || b.Error != nil || b.Panic != nil || b.Terminate != nil || b.Updates != nil || b.UpdatesAtMs != nil || b.EchoArgs != nil {
			return fail("", "a blocked call (block) does not run: it has no result, echoArgs, durationMs, error, panic, terminate, updates or updatesAtMs")
		}
		return oneLine(append(slices.Clip(where), "block"), *b.Block)
	}
	if b.UpdatesAtMs != nil && (b.Updates == nil || len(*b.UpdatesAtMs) != len(*b.Updates)) {
		return fail("updatesAtMs", "must give one moment per update: updates has %d, updatesAtMs %d", len(value(b.Updates)), len(*b.UpdatesAtMs))
	}
	// The moments may come from the tool, and the duration from the call.
	duration := value(merged.DurationMs)
	for i, at := range value(merged.UpdatesAtMs) {
		if at >= 0 && at <= duration && (i == 0 || at >= (*merged.UpdatesAtMs)[i-1]) {
			continue
		}
		if b.UpdatesAtMs == nil {
			return fail("", "the updatesAtMs of its tool do not fit in its durationMs, %d", duration)
		}
		return failAt(append(slices.Clip(where), "updatesAtMs", i),
			"%d is not a moment of the call: each must be from 0 to its durationMs, %d, and not before the one before it", at, duration)
	}
	// "" and false are the defaults: a call with "error": "" does not
	// fail, as if the field were left out.
	fails, panics := value(b.Error) != "", value(b.Panic) != ""
	switch {
	case fails && panics:
		return fail("", "a call either fails (error) or panics (panic), not both")
	case (fails || panics) && (value(b.Result) != "" || value(b.Terminate) || value(b.EchoArgs)):
		return fail("", "a call that fails (error) or panics (panic) returns no result and cannot terminate")
	case value(b.EchoArgs) && value(b.Result) != "":
		return fail("", "a call's result is its arguments (echoArgs) or its result, not both")
	}
	return nil
}
