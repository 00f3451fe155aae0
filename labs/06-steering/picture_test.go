package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// draw runs the program with args in a synctest bubble, and returns what it
// printed.
func draw(t *testing.T, args ...string) string {
	t.Helper()
	var out string
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), args, &stdout, &stderr), "the program runs without an error") {
			return
		}
		expected.Equal(t, "", stderr.String(), "standard error stays empty")
		out = flat(stdout.String())
	})
	return out
}

// flat reads a picture's labels each as one line: the picture wraps them.
func flat(picture string) string {
	return strings.ReplaceAll(picture, "<br/>", " ")
}

// TestTheDiagramDrawsWhenMessagesEnter checks -diagram on part 1 of the
// demo: the steering messages are typed while the search runs, before its
// end, and enter the history in turns 2 and 3; the follow-up, typed after
// turn 1, enters in turn 4; part 2's result asks to terminate.
func TestTheDiagramDrawsWhenMessagesEnter(t *testing.T) {
	out := draw(t, "-diagram")
	inOrder(t, out,
		`    L->>+T1: call_1 search {"query":"Find flights from Oslo to Lima."}`,
		`    Note over U: the user types a steering message: "Only direct flights."`,
		`    Note over U: the user types a steering message: "Under 900 €, please."`,
		"    T1-->>-L: call_1 ⇒ 3 flights, 1 direct: 480 € on 12 May",
		`    Note over U: the user queues a follow-up: "Book the cheapest one."`,
		"    U->>L: turn 2 · Only direct flights.",
		"    L->>M: turn 2 · request",
		"    U->>L: turn 3 · Under 900 €, please.",
		"    U->>L: turn 4 · Book the cheapest one.",
		"    Note over L: loop ended: 4 turns, stop reason completed",
		"    T1-->>-L: call_1 ⇒ 3 flights, 1 direct: 480 € on 12 May (terminate)",
		"    Note over L: loop ended: 1 turn, stop reason terminated (every result of the last batch asked to terminate)",
		"    Note over U,L: Continue: the agent runs again from its history, with no new prompt",
	)
}

// TestTheDiagramDrawsARecordedChat checks -diagram on a recorded -chat
// session: its runs, one after another, and the Ctrl-C that stops one, whose
// request is aborted.
func TestTheDiagramDrawsARecordedChat(t *testing.T) {
	out := draw(t, "-scenario", filepath.Join("testdata", "recorded-chat.json"), "-diagram")
	inOrder(t, out,
		"    U->>L: turn 1 · What is the weather in Oslo, Lima and Cairo?",
		"    T1--x-L: call_6 ⇒ error: weather in Cairo: context canceled",
		"    Note over U: the user presses Ctrl-C",
		"    M--xL: request aborted: scripted model: context canceled",
		"    Note over L: loop ended: 2 turns, stop reason aborted",
		"    U->>L: turn 1 · What is 2 plus 3?",
	)
}

// TestChatDraws: -chat with -diagram draws the session, a run after the
// run, as it happens, and with -timeline its tool calls on the chat's demo
// clock.
func TestChatDraws(t *testing.T) {
	for _, tt := range []struct {
		picture string
		want    []string
	}{
		{"-diagram", []string{"sequenceDiagram", "    U->>L: turn 1 · What is the weather in Oslo, Lima and Cairo?", `    L->>+T1: call_1 weather {"city":"Oslo"}`, "    T2-->>-L: call_2 ⇒ Lima 19 °C, overcast", "    L-->>U: Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast. Weather:…"}},
		{"-timeline", []string{"gantt", "    section turn 1", `    call_1 weather {"city"#58;"Oslo"} :0, 300`, `    call_3 weather {"city"#58;"Cairo"} :0, 400`, "    if one after another#58; 0.9 s :done, 0, 900"}},
	} {
		synctest.Test(t, func(t *testing.T) {
			ctx := cli.WithStdin(context.Background(), strings.NewReader("What is the weather in Oslo, Lima and Cairo?\n"))
			var stdout, stderr bytes.Buffer
			expected.Equal(t, 0, cli.Run(ctx, run, []string{"-chat", tt.picture}, &stdout, &stderr), "-chat %s: the exit status (standard error: %s)", tt.picture, stderr.String())
			inOrder(t, flat(stdout.String()), tt.want...)
			expected.NotContains(t, stdout.String(), "model said", "-chat %s: a picture instead of the narrative", tt.picture)
		})
	}
}

// TestTheDiagramGoesWithEveryFlag draws the demo in queue mode all, one
// call at a time: part 1's two steering messages enter together, in turn 2.
func TestTheDiagramGoesWithEveryFlag(t *testing.T) {
	out := draw(t, "-diagram", "-queue-mode", "all", "-sequential")
	inOrder(t, out,
		"    U->>L: turn 2 · Only direct flights.",
		"    U->>L: turn 2 · Under 900 €, please.",
		"    L->>M: turn 2 · request",
		"    U->>L: turn 3 · Book the cheapest one.",
		"    Note over L: loop ended: 3 turns, stop reason completed",
	)
}

// TestTheTimelineMarksWhatTheUserDoes checks -timeline on the scenario
// ctrl-c.json: the Ctrl-C is a milestone at the moment it stops the run,
// 200 ms in, when the two calls it cuts short end, in red; and the demo,
// whose tools wait on no clock, draws no empty chart, but one line says so.
func TestTheTimelineMarksWhatTheUserDoes(t *testing.T) {
	out := draw(t, "-scenario", filepath.Join("scenarios", "ctrl-c.json"), "-timeline")
	inOrder(t, out,
		`    o weather {"city"#58;"Oslo"} (error) :crit, 0, 200`,
		`    l weather {"city"#58;"Lima"} :0, 100`,
		`    c weather {"city"#58;"Cairo"} (error) :crit, 0, 200`,
		`    the user presses Ctrl-C :crit, active, milestone, 200, 200`,
	)
	expected.Equal(t, "no timeline: no tool call waited on the demo clock (-diagram draws the run)\n", draw(t, "-timeline"),
		"the demo's tools wait on no clock: one line instead of an empty chart")
}
