package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper/steppertest"
)

// output runs the program with args in a synctest bubble and returns what
// it printed.
func output(t *testing.T, args ...string) []byte {
	t.Helper()
	var out []byte
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if expected.NoError(t, run(context.Background(), args, &stdout, &stderr), "the program runs without an error") {
			out = stdout.Bytes()
		}
	})
	return out
}

// stepThrough runs the program with -html - and args, and reads its page.
func stepThrough(t *testing.T, args ...string) *steppertest.Page {
	t.Helper()
	p, err := steppertest.Read(output(t, append([]string{"-html", "-"}, args...)...))
	if !expected.NoError(t, err, "the page reads back") {
		t.FailNow()
	}
	return p
}

// stepIn returns the number of the nth step (from 1) of the part whose
// heading starts with part whose trace line is line.
func stepIn(t *testing.T, p *steppertest.Page, part, line string, nth int) int {
	t.Helper()
	for _, s := range p.Steps {
		if strings.HasPrefix(s.Part, part) && s.TraceLine() == line {
			if nth--; nth == 0 {
				return s.N
			}
		}
	}
	t.Fatalf("%s has no step %q", part, line)
	return 0
}

// scenarioFile is the path of a file of lab 06 from the repository root.
func scenarioFile(t *testing.T, path string) string {
	t.Helper()
	root, err := expected.Root()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "labs", "06-steering", path)
}

// TestThePageStepsThroughTheEvents checks that the page's steps are the
// events the loop emitted, in their order, the lines -trace prints: for
// the demo, in both queue modes, for every scenario file, and for a
// recorded -chat session replayed.
func TestThePageStepsThroughTheEvents(t *testing.T) {
	runs := [][]string{nil, {"-queue-mode", "all"}, {"-scenario", scenarioFile(t, "testdata/recorded-chat.json")}}
	files, err := filepath.Glob(scenarioFile(t, "scenarios/*.json"))
	if !expected.NoError(t, err, "list the scenario files") {
		return
	}
	for _, f := range files {
		runs = append(runs, []string{"-scenario", f})
	}
	for _, args := range runs {
		var lines []string
		for _, s := range stepThrough(t, args...).Steps {
			lines = append(lines, s.TraceLine())
		}
		trace := strings.Split(strings.TrimSuffix(string(output(t, append([]string{"-trace"}, args...)...)), "\n"), "\n")
		if len(lines) == 0 {
			lines = []string{""}
		}
		expected.EqualLines(t, trace, lines, "%q: the page's steps, as trace lines", args)
	}
}

// TestThePageShowsTheQueues steps through the demo's part 1 and part 4: the
// steering messages wait in their queue from the moment the user types
// them, while the search runs, until a poll after turn_end takes one for
// each turn; the follow-up waits until the run would end. Part 4's stop
// leaves a steering message queued, and the Continue's first poll takes it.
func TestThePageShowsTheQueues(t *testing.T) {
	p := stepThrough(t)
	steer := []string{"Only direct flights.", "Under 900 €, please."}
	typed := p.At(stepIn(t, p, "part 1", "tool_execution_start call_1 search", 1))
	expected.Equal(t, steer, typed.Steering, "the steering queue while the search runs")
	expected.Equal(t, steer, typed.Typed, "both were typed at tool_execution_start")

	turn1 := p.At(stepIn(t, p, "part 1", "turn_end results=1", 1))
	expected.Equal(t, []string{"Book the cheapest one."}, turn1.FollowUp, "the follow-up, typed at turn_end")
	expected.Equal(t, steer, turn1.Steering, "at turn_end, both steering messages still wait")

	turn2 := p.At(stepIn(t, p, "part 1", "turn_start", 2))
	expected.Equal(t, []string{"Only direct flights."}, turn2.Taken, "the poll after turn 1 takes one message: one-at-a-time")
	expected.Equal(t, steer[1:], turn2.Steering, "the other one waits for the next turn")
	enters := p.At(stepIn(t, p, "part 1", "message_end user", 2))
	expected.Equal(t, []string{"user", "assistant", "toolResult", "user"}, enters.Roles(), "the steering message enters the history in turn 2")
	expected.Equal(t, "Only direct flights.", enters.History[3].Text, "the message that enters")

	turn4 := p.At(stepIn(t, p, "part 1", "turn_start", 4))
	expected.Equal(t, []string{"Book the cheapest one."}, turn4.Taken, "the follow-up poll takes the follow-up when the run would end")
	end1 := p.At(stepIn(t, p, "part 1", "agent_end messages=9", 1))
	expected.Equal(t, [2]int{4, 9}, [2]int{end1.Turn, end1.Messages}, "part 1 ends after 4 turns with 9 messages")

	stopped := p.At(stepIn(t, p, "part 4", "agent_end messages=3", 1))
	expected.Equal(t, []string{"Only direct flights."}, stopped.Steering, "the stop leaves the steering message queued")
	continued := p.At(stepIn(t, p, "part 4", "message_start user", 2))
	expected.Equal(t, []string{"Only direct flights."}, continued.Taken, "the Continue's first steering poll takes it, before the first request")
	last := p.At(len(p.Steps))
	expected.Equal(t, 5, last.Messages, "part 4's history at the end")

	all := stepThrough(t, "-queue-mode", "all")
	both := all.At(stepIn(t, all, "part 1", "turn_start", 2))
	expected.Equal(t, steer, both.Taken, "with -queue-mode all, one poll takes both")
}

// TestThePageShowsWhatTheModelIsSent steps through a scenario whose
// TransformContext hook shows the model only the last 2 of its messages:
// the request holds them, not the whole history.
func TestThePageShowsWhatTheModelIsSent(t *testing.T) {
	p := stepThrough(t, "-scenario", scenarioFile(t, "scenarios/pi-transform-context.json"))
	st := p.At(stepIn(t, p, "scenario", "message_start assistant", 1))
	expected.Equal(t, "2 of the history's 5 messages: assistant, user", st.Request, "the request of the turn")
	expected.Equal(t, 5, st.Messages, "the history holds the 4 old messages and the prompt")
}

// TestTheDemosPageIsSmall writes the demo's page in both languages: a page
// that opens at once, at most 512 KB.
func TestTheDemosPageIsSmall(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		page := output(t, "-html", "-", "-lang", lang)
		expected.True(t, len(page) <= 512<<10, "-lang %s: the page has %d bytes, more than 512 KB", lang, len(page))
		expected.Contains(t, string(page), map[string]string{"en": "Step through a run", "zh": "逐步查看一次运行"}[lang], "-lang %s: the page's title", lang)
	}
}
