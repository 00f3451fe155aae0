package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk"
)

// TestOutputMatchesGoldenFile runs the program, the demo and every example
// scenario, in a synctest bubble, where the machine's time is fake: the
// demo clock's real waits take no time.
func TestOutputMatchesGoldenFile(t *testing.T) {
	cases, err := expected.LabCases("06-steering")
	if !expected.NoError(t, err, "read the lab's cases") {
		return
	}
	if !expected.NotEmpty(t, cases, "the lab has golden files to compare with") {
		return
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			root, err := expected.Root()
			if !expected.NoError(t, err, "find the repository's root") {
				return
			}
			t.Chdir(root) // scenario paths are relative to the repository root
			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), c.Args, &stdout, &stderr), "the program runs without an error") {
					return
				}
				expected.Check(t, c.Name, stdout.Bytes())
				expected.Equal(t, "", stderr.String(), "standard error stays empty")
			})
		})
	}
}

// guardTurns is how many turns a test lets the loop run, far more than any
// test here needs.
const guardTurns = 50

// endless names what most likely keeps a run of the two-level loop going.
const endless = "does the loop set pending to nil once its messages enter the history, " +
	"and end the run when the model answers and no steering or follow-up message waits?"

// guard wraps model in expected.Guard: a loop that never ends fails its
// test within a second, with a sentence that names the likely cause,
// instead of hanging until go test's timeout.
func guard(t *testing.T, model fakemodel.Model, cause string) fakemodel.Model {
	return expected.Guard(t, model, guardTurns, cause)
}

// collect runs one Prompt (or, with no prompt, one Continue) and returns its
// events.
func collect(t *testing.T, a *Agent, prompt string) []Event {
	t.Helper()
	var events []Event
	handle := func(ev Event) { events = append(events, ev) }
	var err error
	if prompt == "" {
		err = a.Continue(context.Background(), handle)
	} else {
		err = a.Prompt(context.Background(), prompt, handle)
	}
	if !expected.NoError(t, err, "the run, Prompt(%q) or with no prompt Continue, ends without an error", prompt) {
		t.FailNow()
	}
	return events
}

// trace writes events the way -trace prints them.
func trace(events []Event) []string {
	lines := make([]string, len(events))
	for i, ev := range events {
		lines[i] = traceLine(ev)
	}
	return lines
}

// head returns the first n lines, or all of them if there are fewer, so that
// a run that printed less fails its test instead of panicking.
func head(lines []string, n int) []string {
	return lines[:min(n, len(lines))]
}

// without drops the lines equal to drop from a trace.
func without(lines []string, drop string) []string {
	var out []string
	for _, l := range lines {
		if l != drop {
			out = append(out, l)
		}
	}
	return out
}

// summarize returns what the events say about the run.
func summarize(events []Event) summary {
	var s summary
	for _, ev := range events {
		s.observe(ev)
	}
	return s
}

// roles lists who wrote each message.
func roles(messages []fakemodel.Message) []fakemodel.Role {
	out := make([]fakemodel.Role, len(messages))
	for i, m := range messages {
		out[i] = m.Role()
	}
	return out
}

// tool returns a fake tool named name whose every call does a, on the
// machine's clock.
func tool(name string, a scenario.Action) Tool {
	return fakeTool(nil, scenario.Tool{Name: name, Default: a})
}

// user is a user message.
func user(text string) fakemodel.UserMessage { return fakemodel.UserMessage{Text: text} }

// call builds a tool call.
func call(id, name, args string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// reply builds an assistant reply.
func reply(text string, calls ...fakemodel.ToolCall) fakemodel.AssistantMessage {
	return fakemodel.AssistantMessage{Text: text, ToolCalls: calls}
}

// recorder is a model that keeps every request it gets.
type recorder struct {
	model    fakemodel.Model
	requests []fakemodel.Request
}

func (r *recorder) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	r.requests = append(r.requests, req)
	return r.model.Reply(ctx, req)
}

// greeting is a part whose model streams "Hello world." and whose user
// acts at an event given by at.
func greeting(at string) part {
	return part{
		title:   "greeting",
		agent:   AgentOptions{Config: Config{Model: fakemodel.Scripted(reply("Hello world."), reply("Bye."))}},
		prompts: []string{"Hi."},
		plan:    []scenario.UserMessage{{At: at, FollowUp: true, Text: "And you?"}},
	}
}

func TestTheNarrativeKeepsTheModelsLineWhole(t *testing.T) {
	var stdout, stderr bytes.Buffer
	s := talk.Show{Printer: narrative.NewPrinter(&stdout), Errw: &stderr}
	if !expected.NoError(t, play(context.Background(), s, 0, greeting("message_update assistant")), "the part plays without an error") {
		return
	}
	expected.Contains(t, stdout.String(), "turn 1 · model said: Hello world.\n(the user queues a follow-up: \"And you?\")\n",
		"what the user does while the reply streams waits for the end of its line")
}

func TestATraceHoldsOnlyEvents(t *testing.T) {
	var stdout, stderr bytes.Buffer
	s := talk.Show{Printer: narrative.NewPrinter(&stdout), Errw: &stderr, Trace: true}
	if !expected.NoError(t, play(context.Background(), s, 1, greeting("tool_execution_start nowhere")), "the part plays without an error") {
		return
	}
	for line := range strings.Lines(stdout.String()) {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		expected.Includes(t, []string{
			"agent_start", "agent_end", "turn_start", "turn_end", "message_start", "message_update", "message_end",
			"tool_execution_start", "tool_execution_update", "tool_execution_end",
		}, name, "every line of a trace is an event's")
	}
	expected.Equal(t, "never sent: \"And you?\", because no event matched \"tool_execution_start nowhere\"\n", stderr.String(),
		"standard error names the message that was never sent, and why")
}

func TestAnEmptyAnswerIsSaidToBeEmpty(t *testing.T) {
	var stdout, stderr bytes.Buffer
	s := talk.Show{Printer: narrative.NewPrinter(&stdout), Errw: &stderr}
	pt := part{title: "empty", agent: AgentOptions{Config: Config{Model: fakemodel.Scripted(reply(""))}}, prompts: []string{"Hi."}}
	if !expected.NoError(t, play(context.Background(), s, 0, pt), "the part plays without an error") {
		return
	}
	expected.Contains(t, stdout.String(), "\nanswer: (an empty reply)\n", "the narrative says the answer is empty")
}

// outcomes returns the lines of a narrative that say how each run ended and
// what the agent held afterwards.
func outcomes(narrative string) []string {
	var out []string
	for line := range strings.Lines(narrative) {
		if strings.HasPrefix(line, "loop ended:") || strings.HasPrefix(line, "the agent's history holds") {
			out = append(out, strings.TrimSuffix(line, "\n"))
		}
	}
	return out
}

// TestTheDemoPartsEndAsTheyClaim checks what each part of the demo says it
// shows: in part 1 each steering message gets a turn of its own, or, in
// queue mode all, they share one; part 2 terminates after its batch; in
// part 3 terminate lets the waiting steering message in; in part 4 the stop
// policy leaves it queued, and Continue takes it.
func TestTheDemoPartsEndAsTheyClaim(t *testing.T) {
	later := []string{
		"loop ended: 1 turn, stop reason terminated (every result of the last batch asked to terminate)",
		"the agent's history holds 3 messages; nothing is queued",
		"loop ended: 2 turns, stop reason completed",
		"the agent's history holds 5 messages; nothing is queued",
		"loop ended: 1 turn, stop reason stopped (ShouldStopAfterTurn returned true)",
		`the agent's history holds 3 messages; still queued: steering message "Only direct flights."`,
		"loop ended: 1 turn, stop reason stopped (ShouldStopAfterTurn returned true)",
		"the agent's history holds 5 messages; nothing is queued",
	}
	tests := []struct {
		mode  QueueMode
		part1 []string
	}{
		{OneAtATime, []string{"loop ended: 4 turns, stop reason completed", "the agent's history holds 9 messages; nothing is queued"}},
		{All, []string{"loop ended: 3 turns, stop reason completed", "the agent's history holds 8 messages; nothing is queued"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if !expected.NoError(t, runDemo(context.Background(), &stdout, &stderr, options{queueMode: tt.mode}), "the demo runs without an error") {
				return
			}
			expected.Equal(t, append(tt.part1, later...), outcomes(stdout.String()), "how each part's runs end, and what the agent holds afterwards")
		})
	}
}

// TestEveryExampleScenarioEndsAsItsDocumentationSays checks each example of
// scenarios/README.md: how its run ends, what the agent holds afterwards,
// and the order in which its tool calls end.
func TestEveryExampleScenarioEndsAsItsDocumentationSays(t *testing.T) {
	nothing := "nothing is queued"
	tests := []struct {
		file     string
		turns    string
		reason   string
		messages int
		queued   string
		ends     []string
	}{
		{"blocked-call", "2 turns", "completed", 5, nothing, []string{"d", "l"}},
		{"ctrl-c", "2 turns", "aborted", 6, `still queued: follow-up "And tomorrow?"`, []string{"l", "o", "c"}},
		{"cut-off-reply", "3 turns", "completed", 8, nothing, []string{"w1", "w2", "w3", "w4"}},
		{"follow-up-chain", "5 turns", "completed", 10, nothing, []string{"s"}},
		{"model-error", "2 turns", "error", 4, `still queued: follow-up "Are you still there?"`, []string{"r"}},
		{"parallel-lookups", "2 turns", "completed", 6, nothing, []string{"b", "a", "c"}},
		{"self-correction", "3 turns", "completed", 6, nothing, []string{"c1", "c2"}},
		{"sequential-write", "2 turns", "completed", 5, nothing, []string{"w", "r"}},
		{"stop-after-turn", "1 turn", "stopped (ShouldStopAfterTurn returned true)", 3, `still queued: steering message "Only direct flights."`, []string{"s"}},
		{"terminate-vs-steering", "2 turns", "completed", 5, nothing, []string{"p"}},
		{"terminate", "2 turns", "terminated (every result of the last batch asked to terminate)", 6, nothing, []string{"d1", "n1", "d2"}},
	}
	root, err := expected.Root()
	if !expected.NoError(t, err, "find the repository's root") {
		return
	}
	files, err := filepath.Glob(filepath.Join(root, "labs", "06-steering", "scenarios", "*.json"))
	if !expected.NoError(t, err, "list the example scenarios") {
		return
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasPrefix(filepath.Base(f), "pi-") })
	if !expected.Equal(t, len(tests), len(files), "every example but Pi's tests (pi_test.go) has a row here; the examples: %q", files) {
		return
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(root, "labs", "06-steering", "scenarios", tt.file+".json")
			synctest.Test(t, func(t *testing.T) {
				var narrative, trace, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", path}, &narrative, &stderr), "the scenario runs without an error") {
					return
				}
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", path, "-trace"}, &trace, &stderr), "the scenario runs with -trace without an error") {
					return
				}
				expected.Equal(t, []string{
					fmt.Sprintf("loop ended: %s, stop reason %s", tt.turns, tt.reason),
					fmt.Sprintf("the agent's history holds %d messages; %s", tt.messages, tt.queued),
				}, outcomes(narrative.String()), "how the run ends, and what the agent holds afterwards")
				var ends []string
				for line := range strings.Lines(trace.String()) {
					if id, ok := strings.CutPrefix(line, "tool_execution_end "); ok {
						id, _, _ = strings.Cut(strings.TrimSpace(id), " ")
						ends = append(ends, id)
					}
				}
				expected.Equal(t, tt.ends, ends, "the order the calls end in")
			})
		})
	}
}
