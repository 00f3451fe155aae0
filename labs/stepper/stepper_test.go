package stepper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/diagram"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper/steppertest"
	"github.com/google/go-cmp/cmp"
)

// calculatorRun is lab 02's run, finished: 2 turns, 3 steps, 4 messages.
func calculatorRun(reply string) diagram.Finished {
	prompt := fakemodel.UserMessage{Text: "What is 23 × 17?"}
	asks := fakemodel.AssistantMessage{Text: "I will use the calculator.", StopReason: fakemodel.StopReasonToolUse,
		ToolCalls: []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"op":"multiply","a":23,"b":17}`)}}}
	result := fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: "391"}
	answer := fakemodel.AssistantMessage{Text: reply, StopReason: fakemodel.StopReasonStop}
	tools := []fakemodel.ToolSpec{{Name: "calculate"}}
	return diagram.Finished{
		History:  []fakemodel.Message{prompt, asks, result, answer},
		Requests: []fakemodel.Request{{Messages: []fakemodel.Message{prompt}, Tools: tools}, {Messages: []fakemodel.Message{prompt, asks, result}, Tools: tools}},
		Turns:    2, StopReason: "completed", Answer: reply, Answered: true,
	}
}

// page writes the page of runs to standard output, as -html - does, and
// reads it back.
func page(t *testing.T, lang Lang, runs ...diagram.Finished) (*steppertest.Page, string) {
	t.Helper()
	var out bytes.Buffer
	if err := (Options{File: "-", Lang: lang, program: "02-loop"}).Write(&out, runs...); err != nil {
		t.Fatal(err)
	}
	p, err := steppertest.Read(out.Bytes())
	if err != nil {
		t.Fatalf("the page does not read back: %v", err)
	}
	return p, out.String()
}

// TestAFinishedRunStepsThroughTheSixSteps replays lab 02's run: the steps
// as the README names them, the history and the counts at chosen steps,
// and the page's words in each language.
func TestAFinishedRunStepsThroughTheSixSteps(t *testing.T) {
	p, html := page(t, English, calculatorRun("23 × 17 = 391."))
	var loop []string
	for _, s := range p.Steps {
		loop = append(loop, s.Loop)
	}
	if diff := cmp.Diff([]string{"1", "2", "3", "4", "5", "2", "3", "end"}, loop); diff != "" {
		t.Errorf("the steps, by their place in the loop (-want +got):\n%s", diff)
	}
	if got, want := p.Steps[3].Label, `4 · run the tool of each call: calculate {"op":"multiply","a":23,"b":17}`; got != want {
		t.Errorf("step 4 is %q, want %q", got, want)
	}
	tests := []struct {
		step                    int
		roles                   []string
		turn, requests, execs   int
		request                 string
		calls                   []steppertest.Call
		newMessage, noteOfAnEnd bool
	}{
		{0, nil, 0, 0, 0, "", []steppertest.Call{{ID: "call_1", Name: "calculate", State: "future"}}, false, false},
		{2, []string{"user", "assistant"}, 1, 1, 0, "1 message, the whole history: user", []steppertest.Call{{ID: "call_1", Name: "calculate", State: "future"}}, true, false},
		{4, []string{"user", "assistant"}, 1, 1, 1, "1 message, the whole history: user", []steppertest.Call{{ID: "call_1", Name: "calculate", State: "past", Result: "391"}}, false, false},
		{5, []string{"user", "assistant", "toolResult"}, 1, 1, 1, "1 message, the whole history: user", []steppertest.Call{{ID: "call_1", Name: "calculate", State: "past", Result: "391"}}, true, false},
		{8, []string{"user", "assistant", "toolResult", "assistant"}, 2, 2, 1, "3 messages, the whole history: user, assistant, toolResult", []steppertest.Call{{ID: "call_1", Name: "calculate", State: "past", Result: "391"}}, false, true},
	}
	for _, tt := range tests {
		st := p.At(tt.step)
		if diff := cmp.Diff(tt.roles, st.Roles()); diff != "" {
			t.Errorf("step %d: the history's roles (-want +got):\n%s", tt.step, diff)
		}
		if st.Turn != tt.turn || st.Requests != tt.requests || st.Execs != tt.execs || st.Messages != len(tt.roles) {
			t.Errorf("step %d: turn %d, %d requests, %d executions, %d messages; want %d, %d, %d, %d",
				tt.step, st.Turn, st.Requests, st.Execs, st.Messages, tt.turn, tt.requests, tt.execs, len(tt.roles))
		}
		if st.Request != tt.request {
			t.Errorf("step %d: the request is %q, want %q", tt.step, st.Request, tt.request)
		}
		if diff := cmp.Diff(tt.calls, st.Calls); diff != "" {
			t.Errorf("step %d: the calls (-want +got):\n%s", tt.step, diff)
		}
		if n := len(st.History); tt.newMessage != (n > 0 && st.History[n-1].New) {
			t.Errorf("step %d: the last message is marked new: %v, want %v", tt.step, !tt.newMessage, tt.newMessage)
		}
		if tt.noteOfAnEnd && !slicesContain(st.Notes, "answer: 23 × 17 = 391.") {
			t.Errorf("step %d: the notes are %q, want the answer among them", tt.step, st.Notes)
		}
	}
	for _, want := range []string{"Lab 05 turns these steps into events", `<html lang="en">`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	_, zh := page(t, Chinese, calculatorRun("23 × 17 = 391."))
	for _, want := range []string{"实验 05 把这些步变成", "第 4 步 · 执行每个调用的工具", `<html lang="zh-CN">`, "23 × 17 = 391."} {
		if !strings.Contains(zh, want) {
			t.Errorf("the Chinese page does not say %q", want)
		}
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tricky is a reply that would break a page that did not escape it.
const tricky = "</script><script>alert(1)</script> <!-- a comment --> <b>bold</b> \u2028line\u2029 & \"quotes\" 'too' </style>"

// TestWhatARunSaysIsEscaped writes a run whose reply, arguments, tool
// result and prompt hold what would end a script, open a comment or a tag,
// or end a line of JavaScript: the page holds one script and no comment,
// and reads back each text as the run said it.
func TestWhatARunSaysIsEscaped(t *testing.T) {
	f := calculatorRun(tricky)
	f.History[0] = fakemodel.UserMessage{Text: tricky}
	asks := f.History[1].(fakemodel.AssistantMessage)
	asks.ToolCalls = []fakemodel.ToolCall{{ID: "call_1", Name: "calculate", Arguments: json.RawMessage(`{"x":"` + strings.ReplaceAll(tricky, `"`, `\"`) + `"}`)}}
	f.History[1] = asks
	f.History[2] = fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "calculate", Content: tricky}
	p, html := page(t, English, f)
	if n := strings.Count(strings.ToLower(html), "<script"); n != 1 {
		t.Errorf("the page has %d <script tags, want 1: the script", n)
	}
	if n := strings.Count(strings.ToLower(html), "</script"); n != 1 {
		t.Errorf("the page has %d </script, want 1: the end of the script", n)
	}
	if strings.Contains(html, "<!--") || strings.Contains(html, "<b>") || strings.Contains(html, "</style></") {
		t.Errorf("a comment or a tag of the run reaches the page unescaped")
	}
	// The script and the style are the page's own, whole: no text of the
	// run is in them. (A line separator in the page's text is only text.)
	script := html[strings.Index(html, "<script>")+len("<script>\n") : strings.Index(html, "</script>")]
	if script != pageJS+"\n" {
		t.Errorf("the page's script is not page.js as it is")
	}
	style := html[strings.Index(html, "<style>")+len("<style>\n") : strings.Index(html, "</style>")]
	if style != pageCSS+"\n" {
		t.Errorf("the page's style is not page.css as it is")
	}
	st := p.At(len(p.Steps))
	for i, want := range []string{tricky, "I will use the calculator.", tricky, tricky} {
		if got := st.History[i].Text; got != want {
			t.Errorf("message %d reads back as %q, want %q", i+1, got, want)
		}
	}
	if got := p.Steps[3].Label; !strings.Contains(got, "</script><script>alert(1)</script>") {
		t.Errorf("step 4's label reads back as %q, without the arguments as the model wrote them", got)
	}
}

// TestEventsMakeSteps drives a page as a lab's narrative does: beats, then
// the event's trace line; what the agent holds after each event. Each
// event is a step; the reply streams in before it enters the history; the
// queues show what the user typed and when a poll took it.
func TestEventsMakeSteps(t *testing.T) {
	var out bytes.Buffer
	pg := Options{File: "-", program: "06-steering"}.Events(&out)
	agent := &fakeAgent{}
	prompt := fakemodel.UserMessage{Text: "Find flights."}
	reply := fakemodel.AssistantMessage{Text: "I will search.", StopReason: fakemodel.StopReasonToolUse,
		ToolCalls: []fakemodel.ToolCall{{ID: "call_1", Name: "search", Arguments: json.RawMessage(`{"q":"x"}`)}}}
	result := fakemodel.ToolResultMessage{ToolCallID: "call_1", ToolName: "search", Content: "3 flights"}
	steer := fakemodel.UserMessage{Text: "Only direct flights."}

	pg.Part(1, "a part", []string{"a setup line"})
	pg.Run(nil)
	pg.Holds(agent)
	event := func(line string, beats ...func()) {
		for _, b := range beats {
			b()
		}
		pg.Event(line)
		pg.Holds(agent) // what the polls left
		pg.Holds(agent) // what the user typed
	}
	event("agent_start")
	event("turn_start", pg.Turn)
	event("message_start user", func() { pg.User(prompt.Text, false) })
	event("message_end user", func() { agent.history = append(agent.history, prompt) })
	event("message_start assistant")
	pg.Request(fakemodel.Request{Messages: []fakemodel.Message{prompt}, Tools: []fakemodel.ToolSpec{{Name: "search"}}})
	event("message_update assistant", func() { pg.Delta("I will ") })
	event("message_update assistant", func() { pg.Delta("search.") })
	event("message_end assistant", func() { pg.Reply(reply) })
	event("tool_execution_start call_1 search", func() { pg.ToolStart("call_1", "search", reply.ToolCalls[0].Arguments) })
	agent.steering = []fakemodel.Message{steer} // typed at tool_execution_start
	pg.Holds(agent)
	event("tool_execution_end call_1", func() { pg.ToolEnd("call_1", "search", "3 flights", false, []string{"terminate"}) })
	event("message_start toolResult call_1")
	event("message_end toolResult call_1", func() { pg.Result(result) })
	event("turn_end results=1")
	agent.steering = nil // the poll after turn_end
	event("turn_start", pg.Turn)
	event("message_start user", func() { pg.User(steer.Text, true) })
	event("message_end user")
	pg.Ended("loop ended: 2 turns")
	event("agent_end messages=5")
	pg.Note("the agent's history holds 5 messages; nothing is queued")
	if err := pg.Write(); err != nil {
		t.Fatal(err)
	}
	p, err := steppertest.Read(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range p.Steps {
		lines = append(lines, s.TraceLine())
	}
	if len(lines) != 17 || lines[8] != "tool_execution_start call_1 search" {
		t.Fatalf("the steps are %q, want the 17 events in order", lines)
	}
	if st := p.At(6); !st.Replying || st.Streaming != "I will " || len(st.History) != 1 {
		t.Errorf("at the first chunk, the reply streams in as %q, out of the history %v", st.Streaming, st.Roles())
	}
	if st := p.At(6); st.Request != "1 message, the whole history: user" {
		t.Errorf("at the first chunk, the request is %q", st.Request)
	}
	if st := p.At(8); st.Replying || !reflect.DeepEqual(st.Roles(), []string{"user", "assistant"}) || !st.History[1].New {
		t.Errorf("at message_end, the reply enters the history: %v, streaming %v", st.Roles(), st.Replying)
	}
	st := p.At(9)
	if !reflect.DeepEqual(st.Steering, []string{steer.Text}) || !reflect.DeepEqual(st.Typed, []string{steer.Text}) {
		t.Errorf("at tool_execution_start, the steering queue is %q, typed %q; want the message, typed there", st.Steering, st.Typed)
	}
	if want := []steppertest.Call{{ID: "call_1", Name: "search", State: "now"}}; !reflect.DeepEqual(st.Calls, want) {
		t.Errorf("at tool_execution_start, the calls are %+v, want %+v", st.Calls, want)
	}
	if st := p.At(10); st.Calls[0].State != "past" || st.Calls[0].Result != "3 flights (terminate)" {
		t.Errorf("at tool_execution_end, the call is %+v", st.Calls[0])
	}
	if st := p.At(13); len(st.Steering) != 1 {
		t.Errorf("at turn_end, the steering message still waits: %q", st.Steering)
	}
	if st := p.At(14); len(st.Steering) != 0 || !reflect.DeepEqual(st.Taken, []string{steer.Text}) {
		t.Errorf("at the turn_start after the poll, the queue holds %q and the poll took %q", st.Steering, st.Taken)
	}
	end := p.At(17)
	if want := []string{"user", "assistant", "toolResult", "user"}; !reflect.DeepEqual(end.Roles(), want) {
		t.Errorf("at the end, the history is %v, want %v", end.Roles(), want)
	}
	if end.Turn != 2 || end.Requests != 1 || end.Execs != 1 || end.Messages != 4 {
		t.Errorf("at the end: turn %d, %d requests, %d executions, %d messages", end.Turn, end.Requests, end.Execs, end.Messages)
	}
	if want := []string{"loop ended: 2 turns", "the agent's history holds 5 messages; nothing is queued"}; !reflect.DeepEqual(end.Notes, want) {
		t.Errorf("at the end, the notes are %q, want %q", end.Notes, want)
	}
}

// fakeAgent is a Holder whose history and queues a test sets.
type fakeAgent struct {
	history, steering, followUp []fakemodel.Message
}

func (a *fakeAgent) Messages() []fakemodel.Message { return a.history }

func (a *fakeAgent) Queued() (steering, followUp []fakemodel.Message) {
	return a.steering, a.followUp
}

// TestBothLanguagesSayTheSame keeps the two sets of words in step: every
// word has a Chinese twin, with the same values to fill in.
func TestBothLanguagesSayTheSame(t *testing.T) {
	verbs := regexp.MustCompile(`%(\[[0-9]\])?[sd]|\{[nm]\}`)
	en, zh := reflect.ValueOf(english), reflect.ValueOf(chinese)
	for i := range en.NumField() {
		name := en.Type().Field(i).Name
		e, z := en.Field(i).String(), zh.Field(i).String()
		if strings.TrimSpace(e) == "" || strings.TrimSpace(z) == "" {
			t.Errorf("%s: a word is missing in English %q or in Chinese %q", name, e, z)
			continue
		}
		if len(verbs.FindAllString(e, -1)) != len(verbs.FindAllString(z, -1)) {
			t.Errorf("%s: English %q and Chinese %q fill in different values", name, e, z)
		}
	}
}

// TestFlags checks -html and -lang on a lab's flags: what goes together,
// what the flag package refuses, and the help.
func TestFlags(t *testing.T) {
	dir := t.TempDir()
	notAFolder := filepath.Join(dir, "a-file")
	if err := os.WriteFile(notAFolder, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string // the first line of standard error, or "" if fine
	}{
		{[]string{"-html", filepath.Join(dir, "run.html")}, ""},
		{[]string{"-html", "-", "-lang", "zh", "-max-turns", "2"}, ""},
		{[]string{"-html", "-", "-trace"}, "-html and -trace cannot go together: one writes the run as a page, the other prints it: run the lab once for each"},
		{[]string{"-diagram", "-html", "-"}, "-html and -diagram cannot go together: one writes the run as a page, the other prints it: run the lab once for each"},
		{[]string{"-html", "-", "-requests"}, "-html and -requests cannot go together: the page shows every request already"},
		{[]string{"-lang", "zh"}, "-lang needs -html: it sets the language of the page's own words; the labs' output stays English"},
		{[]string{"-html", "-", "-lang", "fr"}, `invalid value "fr" for flag -lang: must be en or zh`},
		{[]string{"-html", ""}, `invalid value "" for flag -html: must name a file, or - for standard output`},
		{[]string{"-html", dir}, fmt.Sprintf(`-html %s: is a folder: name a file in it, such as %q`, dir, filepath.Join(dir, "run.html"))},
		{[]string{"-html", filepath.Join(dir, "no", "run.html")}, fmt.Sprintf(`-html %s: its folder %s does not exist`, filepath.Join(dir, "no", "run.html"), filepath.Join(dir, "no"))},
		{[]string{"-html", filepath.Join(notAFolder, "run.html")}, fmt.Sprintf(`-html %s: %s is not a folder`, filepath.Join(notAFolder, "run.html"), notAFolder)},
	}
	for _, tt := range tests {
		var opts struct {
			trace, diagram, requests bool
			turns                    int
			page                     Options
		}
		fs := cli.NewFlagSet("00-demo", "Lab 00.")
		fs.BoolVar(&opts.trace, "trace", false, "")
		fs.BoolVar(&opts.diagram, "diagram", false, "")
		fs.BoolVar(&opts.requests, "requests", false, "")
		fs.IntVar(&opts.turns, "max-turns", 3, "")
		opts.page.Flags(fs)
		var stdout, stderr bytes.Buffer
		err := fs.Parse(tt.args, &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if first == "" && err != nil {
			// A file that cannot take the page is bad input, which the
			// program reports in one line: the error.
			first = err.Error()
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v (%s), want it taken", tt.args, err, first)
		case tt.want != "" && first != tt.want:
			t.Errorf("%q: standard error starts %q, want %q", tt.args, first, tt.want)
		}
		if opts.page.program != "00-demo" {
			t.Errorf("the page is %q's, want the flag set's name", opts.page.program)
		}
	}
	var help bytes.Buffer
	fs := cli.NewFlagSet("00-demo", "Lab 00.")
	new(Options).Flags(fs)
	_ = fs.Parse([]string{"-h"}, &help, &help)
	for _, want := range []string{"-html FILE", "a page to step through in a browser", "-lang en", "en or zh"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("the help does not say %q:\n%s", want, help.String())
		}
	}
}

// TestWithoutAPageNothingIsWritten: a lab run without -html, or with
// -html - (standard output), writes nothing in the folder it runs in, not
// even to try whether it could: the test cache of go test ./... reads the
// labs' folders, and a program writes only what it was asked to.
func TestWithoutAPageNothingIsWritten(t *testing.T) {
	t.Chdir(t.TempDir())
	changed := func() time.Time {
		info, err := os.Stat(".")
		if err != nil {
			t.Fatal(err)
		}
		return info.ModTime()
	}
	for _, args := range [][]string{nil, {"-html", "-"}} {
		before := changed()
		var page Options
		fs := cli.NewFlagSet("00-demo", "Lab 00.")
		page.Flags(fs)
		var stdout, stderr bytes.Buffer
		if err := fs.Parse(args, &stdout, &stderr); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		entries, err := os.ReadDir(".")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("%q: the folder it ran in holds %s, want nothing", args, e.Name())
		}
		if !changed().Equal(before) {
			t.Errorf("%q: the folder it ran in changed (a file was made in it, and removed), want it untouched", args)
		}
	}
}

// TestAFileThatCannotBeWritten names a file in a folder no one may write
// to: -html refuses it, and writes nothing.
func TestAFileThatCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	if f, err := os.CreateTemp(locked, "probe"); err == nil {
		f.Close()
		t.Skip("this user may write into a read-only folder (root): nothing to refuse")
	}
	err := writable(filepath.Join(locked, "run.html"))
	if err == nil || !strings.Contains(err.Error(), "cannot be written in its folder") {
		t.Errorf("a page in a read-only folder: %v, want it refused", err)
	}
	existing := filepath.Join(dir, "old.html")
	if err := os.WriteFile(existing, []byte("kept"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := writable(existing); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("a read-only page: %v, want it refused", err)
	}
	if data, _ := os.ReadFile(existing); string(data) != "kept" {
		t.Errorf("checking the file changed it to %q", data)
	}
}

// TestThePageGoesToItsFile writes a page to a file: standard output gets
// one line that says where and how to open it; the file holds the page,
// whose bytes are the same on every run.
func TestThePageGoesToItsFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.html")
	var first []byte
	for range 2 {
		var out bytes.Buffer
		if err := (Options{File: file, program: "02-loop"}).Write(&out, calculatorRun("23 × 17 = 391.")); err != nil {
			t.Fatal(err)
		}
		line := regexp.MustCompile(`^wrote the page .*run\.html \(8 steps, [0-9]+ KB\): open file:///.*run\.html in a browser, and step with ← and →\n$`)
		if !line.MatchString(out.String()) {
			t.Errorf("standard output is %q, want one line that says where the page is", out.String())
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if first != nil && !bytes.Equal(first, data) {
			t.Errorf("the page differs from one run to the next")
		}
		first = data
	}
	if !bytes.HasPrefix(first, []byte("<!DOCTYPE html>")) {
		t.Errorf("the file does not hold a page: %.40q", first)
	}
	for _, ref := range []string{"http:", "https:", "src=", "href=", "@import", "url("} {
		if bytes.Contains(first, []byte(ref)) {
			t.Errorf("the page holds %q: it must ask the network for nothing", ref)
		}
	}
}

// TestTicksMarkRoundTimes marks axes of the demo clock: at most five marks,
// at round times, each where its time lies on the axis.
func TestTicksMarkRoundTimes(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		t0, t1 time.Duration
		want   []tick
	}{
		{0, 400 * ms, []tick{{0, "0.0 s"}, {25, "0.1 s"}, {50, "0.2 s"}, {75, "0.3 s"}, {100, "0.4 s"}}},
		{0, 900 * ms, []tick{{0, "0.0 s"}, {22.22, "0.2 s"}, {44.44, "0.4 s"}, {66.67, "0.6 s"}, {88.89, "0.8 s"}}},
		{0, 100 * ms, []tick{{0, "0.0 s"}, {50, "0.05 s"}, {100, "0.1 s"}}},
		{300 * ms, 800 * ms, []tick{{20, "0.4 s"}, {60, "0.6 s"}, {100, "0.8 s"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ticks(tt.t0, tt.t1), cmp.AllowUnexported(tick{})); diff != "" {
			t.Errorf("ticks(%v, %v) (-want +got):\n%s", tt.t0, tt.t1, diff)
		}
	}
}
