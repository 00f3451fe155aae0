package fakemodel

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Assistant returns the offline model of lab 06's -chat: a model that
// handles simple requests with the tools of fakemodel/services, so that a
// person can talk to the agent, and steer it, on any machine. Like every
// fake model it decides from the request alone.
//
// It reads the user messages of the current exchange: those since its last
// answer (a reply without tool calls), or since a reply that failed. In
// each it finds tasks, in the order they are written:
//
//   - arithmetic on two numbers, "2 plus 3", "23 times 17", "10 / 4":
//     a call to calculate;
//   - a city's weather, "the weather in Oslo", or just a city the weather
//     service knows (Oslo, Lima, Cairo): a call to weather;
//   - "remember ...", "note that ...", "save a note: ...": a call to write,
//     of a new note (note-1.txt, note-2.txt, ...); "save that" saves its
//     last answer;
//   - "read my notes", "what are my notes": a call to read for each note
//     it wrote; "delete my notes", "forget my notes": a call to rm for each.
//
// While some task has no call yet in the exchange, it asks for the calls of
// all such tasks in one reply, so that they run as one batch. A message
// that arrives while they run (a steering message) adds its tasks to the
// next reply, which says "Noted:" first. Once every task has its call, it
// answers from their results, in the order of the calls, and says "Noted:"
// for each message in which it found no task.
func Assistant() Model {
	return fake{name: "assistant", decide: assistant}
}

// AssistantCities are the cities whose weather [Assistant] looks up without
// being asked for "the weather": those of the fake weather service.
var AssistantCities = []string{"Oslo", "Lima", "Cairo"}

// A task is something the user asked for: a tool call, and what the model
// says it will do.
type task struct {
	tool string
	args json.RawMessage
	says string
}

// assistantPatterns are the regular expressions the Assistant reads a
// message with.
type assistantPatterns struct {
	arithmetic, weatherIn, noteThat, saveThat, readNotes, dropNotes *regexp.Regexp
	// cityNames find the cities of the weather service in a text.
	cityNames map[string]*regexp.Regexp
}

// patterns compiles them the first time the Assistant reads a message, not
// when a program starts: every lab links this package, and a program
// catches Ctrl-C only once its packages are initialized.
var patterns = sync.OnceValue(func() *assistantPatterns {
	p := &assistantPatterns{
		arithmetic: regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)\s*(plus|\+|minus|-|times|×|\*|x|multiplied by|divided by|over|÷|/)\s*(-?\d+(?:\.\d+)?)`),
		weatherIn:  regexp.MustCompile(`(?i:\bweather\b.*?\bin) ([A-Z][\p{L}-]*)`),
		noteThat:   regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:(?:remember|note)(?: that)?|save a note|take a note|write a note)\b\s*[:,]?\s*(.*?)[.!]?\s*$`),
		saveThat:   regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:save|keep|note|remember) (?:that|it|this|the answer)(?: as a note| in a note| for me)?[.!]?\s*$`),
		readNotes:  regexp.MustCompile(`(?i)\b(?:read|show|list|what are|what's in)\b.*\bnotes?\b`),
		dropNotes:  regexp.MustCompile(`(?i)\b(?:delete|forget|remove|rm)\b.*\bnotes?\b`),
		cityNames:  map[string]*regexp.Regexp{},
	}
	for _, city := range AssistantCities {
		p.cityNames[city] = regexp.MustCompile(`(?i)\b` + city + `\b`)
	}
	return p
})

// operations maps how a person writes an operation to the calculator's op.
var operations = map[string]string{
	"plus": "add", "+": "add",
	"minus": "subtract", "-": "subtract",
	"times": "multiply", "×": "multiply", "*": "multiply", "x": "multiply", "multiplied by": "multiply",
	"divided by": "divide", "over": "divide", "÷": "divide", "/": "divide",
}

// opWords is how the model says each op.
var opWords = map[string]string{"add": "plus", "subtract": "minus", "multiply": "times", "divide": "divided by"}

func assistant(req Request) (AssistantMessage, error) {
	start, previous := 0, ""
	for i, m := range req.Messages {
		a, ok := m.(AssistantMessage)
		switch {
		case !ok:
		case a.StopReason == StopReasonError || a.StopReason == StopReasonAborted:
			start = i + 1
		case len(a.ToolCalls) == 0:
			start, previous = i+1, a.Text
		}
	}
	exchange := req.Messages[start:]
	// The notes written before the exchange; its own writes add theirs
	// as its messages are read, so a task reads the same on every request.
	notes := writtenNotes(req.Messages[:start])

	called := map[string]bool{}
	for _, m := range exchange {
		if a, ok := m.(AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				called[c.Name+string(c.Arguments)] = true
			}
		}
	}
	var pending []task
	var said, idle []string // messages since the last reply; messages with no task
	replied := false
	for _, m := range exchange {
		switch m := m.(type) {
		case AssistantMessage:
			said, replied = nil, true
		case UserMessage:
			tasks := tasksIn(m.Text, previous, &notes)
			if len(tasks) == 0 {
				idle = append(idle, m.Text)
			}
			said = append(said, m.Text)
			for _, t := range tasks {
				if !called[t.tool+string(t.args)] && !slices.ContainsFunc(pending, func(p task) bool { return p.tool == t.tool && string(p.args) == string(t.args) }) {
					pending = append(pending, t)
				}
			}
		}
	}
	if len(pending) == 0 {
		return AssistantMessage{Text: answer(exchange, idle)}, nil
	}
	var calls []ToolCall
	var does []string
	for _, t := range pending {
		if !offers(req, t.tool) {
			return needs(t.tool), nil
		}
		calls = append(calls, ToolCall{ID: nextCallID(req.Messages, len(calls)), Name: t.tool, Arguments: t.args})
		does = append(does, t.says)
	}
	text := "I will " + list(does) + "."
	if replied && len(said) > 0 {
		// Steered: what arrived while the calls ran.
		text = "Noted: " + quoteAll(said) + ". " + text
	}
	return AssistantMessage{Text: text, ToolCalls: calls}, nil
}

// tasksIn returns the tasks in one message, in the order they are written.
// previous is the model's last answer, for "save that"; notes are the notes
// written so far, to which a write adds its own.
func tasksIn(text, previous string, notes *[]string) []task {
	type found struct {
		at int
		t  task
	}
	var all []found
	p := patterns()
	add := func(at int, tool string, args any, says string) {
		data, _ := json.Marshal(args) // maps and strings always encode
		all = append(all, found{at, task{tool: tool, args: data, says: says}})
	}
	for _, m := range p.arithmetic.FindAllStringSubmatchIndex(text, -1) {
		a, _ := strconv.ParseFloat(text[m[2]:m[3]], 64)
		b, _ := strconv.ParseFloat(text[m[6]:m[7]], 64)
		op := operations[strings.ToLower(text[m[4]:m[5]])]
		args := map[string]any{"op": op, "a": a, "b": b}
		add(m[0], "calculate", args, fmt.Sprintf("work out %s %s %s", format(a), opWords[op], format(b)))
	}
	cities := map[string]bool{}
	city := func(at int, name string) {
		if !cities[name] {
			cities[name] = true
			add(at, "weather", map[string]string{"city": name}, "look up the weather in "+name)
		}
	}
	for _, m := range p.weatherIn.FindAllStringSubmatchIndex(text, -1) {
		city(m[2], text[m[2]:m[3]])
	}
	for _, name := range AssistantCities {
		if m := p.cityNames[name].FindStringIndex(text); m != nil {
			city(m[0], name)
		}
	}
	switch {
	case p.saveThat.MatchString(text) && previous != "":
		*notes = append(*notes, fmt.Sprintf("note-%d.txt", len(*notes)+1))
		path := (*notes)[len(*notes)-1]
		add(0, "write", map[string]string{"path": path, "text": previous}, "save my last answer as "+path)
	case p.noteThat.MatchString(text) && !p.readNotes.MatchString(text) && !p.dropNotes.MatchString(text):
		if body := p.noteThat.FindStringSubmatch(text)[1]; body != "" {
			*notes = append(*notes, fmt.Sprintf("note-%d.txt", len(*notes)+1))
			path := (*notes)[len(*notes)-1]
			add(0, "write", map[string]string{"path": path, "text": body}, "save "+path)
		}
	case p.readNotes.MatchString(text):
		for _, path := range *notes {
			add(0, "read", map[string]string{"path": path}, "read "+path)
		}
	case p.dropNotes.MatchString(text):
		for _, path := range *notes {
			add(0, "rm", map[string]string{"path": path}, "delete "+path)
		}
	}
	slices.SortStableFunc(all, func(x, y found) int { return x.at - y.at })
	tasks := make([]task, len(all))
	for i, f := range all {
		tasks[i] = f.t
	}
	return tasks
}

// writtenNotes returns the paths of the notes that the history's calls to
// write created and no later call to rm deleted, in the order written.
func writtenNotes(history []Message) []string {
	var notes []string
	for _, m := range history {
		a, ok := m.(AssistantMessage)
		if !ok {
			continue
		}
		for _, c := range a.ToolCalls {
			var args struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(c.Arguments, &args) != nil || args.Path == "" {
				continue
			}
			switch c.Name {
			case "write":
				if !slices.Contains(notes, args.Path) {
					notes = append(notes, args.Path)
				}
			case "rm":
				notes = slices.DeleteFunc(notes, func(p string) bool { return p == args.Path })
			}
		}
	}
	return notes
}

// answer is the model's answer to an exchange whose every task has its
// call: a sentence per call, from its result, and "Noted:" for the
// messages in which it found no task.
func answer(exchange []Message, idle []string) string {
	results := map[string]ToolResultMessage{}
	for _, r := range toolResults(exchange) {
		results[r.ToolCallID] = r
	}
	var sentences, noted []string
	p := patterns()
	for _, text := range idle {
		if p.readNotes.MatchString(text) || p.dropNotes.MatchString(text) {
			sentences = append(sentences, "There are no notes.")
		} else {
			noted = append(noted, text)
		}
	}
	if len(noted) > 0 {
		sentences = append([]string{"Noted: " + quoteAll(noted) + "."}, sentences...)
	}
	calls := 0
	for _, m := range exchange {
		a, ok := m.(AssistantMessage)
		if !ok {
			continue
		}
		for _, c := range a.ToolCalls {
			calls++
			sentences = append(sentences, sentence(c, results))
		}
	}
	if len(sentences) == 0 || calls == 0 && len(noted) > 0 {
		sentences = append(sentences, "I can work out sums such as 2 plus 3, look up the weather in Oslo, Lima or Cairo, and keep notes: say \"remember ...\", then \"read my notes\".")
	}
	return strings.Join(sentences, " ")
}

// sentence says what one call found.
func sentence(c ToolCall, results map[string]ToolResultMessage) string {
	r, ok := results[c.ID]
	if !ok {
		return fmt.Sprintf("I got no result for %s.", c.ID)
	}
	var args struct {
		Op   string  `json:"op"`
		A    float64 `json:"a"`
		B    float64 `json:"b"`
		City string  `json:"city"`
		Path string  `json:"path"`
	}
	_ = json.Unmarshal(c.Arguments, &args) // a call that failed says so below
	failed := func(what string) string {
		return fmt.Sprintf("I could not %s: %s.", what, strings.TrimSuffix(r.Content, "."))
	}
	switch {
	case c.Name == "calculate" && r.IsError:
		return failed(fmt.Sprintf("work out %s %s %s", format(args.A), opWords[args.Op], format(args.B)))
	case c.Name == "calculate":
		return fmt.Sprintf("%s %s %s is %s.", format(args.A), opWords[args.Op], format(args.B), r.Content)
	case c.Name == "weather" && r.IsError:
		return failed("look up the weather in " + args.City)
	case c.Name == "weather":
		return fmt.Sprintf("Weather: %s.", r.Content)
	case r.IsError:
		return failed(c.Name + " " + args.Path)
	case c.Name == "write":
		return fmt.Sprintf("I saved %s.", args.Path)
	case c.Name == "read":
		return fmt.Sprintf("%s says: %s", args.Path, r.Content)
	case c.Name == "rm":
		return fmt.Sprintf("I deleted %s.", args.Path)
	}
	return fmt.Sprintf("%s returned: %s", c.Name, r.Content)
}

// format writes a number as the user would: 5, 2.5.
func format(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// list joins items as a sentence does: "a", "a and b", "a, b and c".
func list(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// quoteAll quotes each text and lists them.
func quoteAll(texts []string) string {
	quoted := make([]string, len(texts))
	for i, t := range texts {
		quoted[i] = strconv.Quote(t)
	}
	return list(quoted)
}
