package narrative

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// printerFor parses args with a lab's output flags, -trace among them, and
// returns the printer they choose, writing to out, and the Output, which
// closes it.
func printerFor(t *testing.T, out *bytes.Buffer, args ...string) (*Printer, Output) {
	t.Helper()
	var o Output
	var trace bool
	fs := cli.NewFlagSet("00-demo", "Lab 00.")
	fs.BoolVar(&trace, "trace", false, "one line per event")
	o.Flags(fs)
	if err := fs.Parse(args, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return o.Printer(out), o
}

// tell hands a printer the beats of a short run, as a lab's narrate does.
func tell(p *Printer) {
	p.Part(1, "a run", nil)
	r := p.Run()
	r.NextTurn()
	r.User("Hi.")
	r.Delta("Hello.")
	r.MessageEnd(fakemodel.AssistantMessage{Text: "Hello.", ToolCalls: []fakemodel.ToolCall{{ID: "c", Name: "look"}}})
	r.ToolStart("c", "look", json.RawMessage(`{}`))
	r.ToolEnd("c", "look", "no", true, false)
	r.ToolStart("d", "rm", json.RawMessage(`{}`))
	r.ToolEnd("d", "rm", "blocked", true, true)
	r.MessageEnd(fakemodel.ToolResultMessage{ToolCallID: "c"})
	r.Ended(1, "max_turns", false, "")
	r.Messages("history holds", []fakemodel.Message{fakemodel.UserMessage{}})
	r.Answer("", false)
	p.AgentState(3, nil, nil)
}

// TestOutputPicksWhatTheRunsBecome checks each choice of Output: without a
// flag the narrative, with -diagram a sequence diagram of the same beats,
// with -timeline a Gantt chart of its tool calls, or, as here, where no
// call waited on a clock, the line that says so.
func TestOutputPicksWhatTheRunsBecome(t *testing.T) {
	for args, want := range map[string]string{
		"":          "=== part 1: a run ===\n",
		"-trace":    "=== part 1: a run ===\n",
		"-diagram":  "\nsequenceDiagram\n",
		"-timeline": "no timeline: no tool call waited on the demo clock (-diagram draws the run)\n",
	} {
		var out bytes.Buffer
		p, o := printerFor(t, &out, strings.Fields(args)...)
		tell(p)
		var err error
		o.Finish(&err)
		if err != nil {
			t.Errorf("with %q, Finish: %v", args, err)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("with %q, the output is\n%s\nwant it to hold %q", args, out.String(), want)
		}
	}
	var out bytes.Buffer
	p, _ := printerFor(t, &out, "-diagram")
	tell(p)
	// Labels are wrapped onto lines; read each as one.
	drawn := strings.ReplaceAll(out.String(), "<br/>", " ")
	for _, line := range []string{
		"    Note over U,M: part 1: a run",
		"    L->>M: turn 1 · request",
		"    M-->>L: Hello. · calls look",
		"    T1--x-L: c ⇒ error: no",
		"    L--xL: d rm: never run ⇒ error: blocked",
		"    Note over L: history ← result of c",
		"    Note over L: loop ended: 1 turn, stop reason max_turns",
		"    Note over L: history holds 1 message: user",
		"    L--xU: no answer: the loop stopped before the model answered",
		"    Note over L: the agent's history holds 3 messages#59; nothing is queued",
	} {
		if !strings.Contains(drawn, line+"\n") {
			t.Errorf("the diagram lacks the line %q; it is:\n%s", line, out.String())
		}
	}
	if strings.Contains(out.String(), "model said") {
		t.Errorf("the diagram holds %q, a line of the narrative; it is:\n%s", "model said", out.String())
	}
}

// TestFinishDrawsATimeline: a timeline is drawn once every run is over,
// when the lab finishes its Output, however many printers it made; a second
// Finish draws nothing more.
func TestFinishDrawsATimeline(t *testing.T) {
	var out bytes.Buffer
	p, o := printerFor(t, &out, "-timeline")
	tell(p)
	tell(o.Printer(&out))
	if out.Len() != 0 {
		t.Errorf("the timeline wrote %q before Finish, want nothing", out.String())
	}
	var err error
	o.Finish(&err)
	o.Finish(&err)
	if err != nil {
		t.Errorf("Finish: %v", err)
	}
	if want := strings.Repeat("no timeline: no tool call waited on the demo clock (-diagram draws the run)\n", 2); out.String() != want {
		t.Errorf("after Finish, the output is %q, want %q: one line for each printer", out.String(), want)
	}
}

// TestAPictureHasNoColours: a diagram goes to a file, or into a Markdown
// page, even from a terminal.
func TestAPictureHasNoColours(t *testing.T) {
	device := terminal(t)
	o := Output{diagram: true}
	if got := o.Printer(device).Warn("x"); got != "x" {
		t.Errorf("a diagram's Warn(%q) on a terminal = %q, want it without colour", "x", got)
	}
}

// TestOnlyOneOutputFlag: -trace, -diagram and -timeline each print the run
// instead of the narrative, so a command line may give only one.
func TestOnlyOneOutputFlag(t *testing.T) {
	var o Output
	var trace bool
	fs := cli.NewFlagSet("00-demo", "Lab 00.")
	fs.BoolVar(&trace, "trace", false, "one line per event")
	o.Flags(fs)
	var stderr bytes.Buffer
	err := fs.Parse([]string{"-timeline", "-trace"}, &bytes.Buffer{}, &stderr)
	if !errors.Is(err, cli.ErrUsage) {
		t.Fatalf("-timeline -trace: error %v, want cli.ErrUsage", err)
	}
	if want := "-trace and -timeline cannot go together: each prints the run instead of the narrative\n"; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("-timeline -trace: standard error is\n%s\nwant it to start with\n%s", stderr.String(), want)
	}
}
