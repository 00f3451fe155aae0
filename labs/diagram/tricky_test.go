package diagram

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.mmd from what the pictures draw")

// trickySequence draws every beat of a sequence diagram with each tricky
// text in every place a run can put one: a prompt, a reply, a tool's name,
// its arguments, its result, a progress note, what the user does.
func trickySequence() string {
	var b strings.Builder
	s := NewSequence(&b)
	s.Part(1, tricky[0], tricky[1:3])
	s.Run(nil)
	for i, text := range tricky {
		id := fmt.Sprintf("call_%d", i)
		s.Turn()
		s.User(text, i%2 == 1)
		s.Streaming()
		s.Reply(fakemodel.AssistantMessage{Text: text, ToolCalls: []fakemodel.ToolCall{{ID: id, Name: text}}})
		s.ToolStart(id, text, json.RawMessage(text))
		s.Aside(text)
		s.ToolUpdate(id, text)
		if i%3 == 2 {
			s.ToolRefused(id, text, text, []string{text})
		} else {
			s.ToolEnd(id, text, text, i%2 == 0, []string{text})
		}
		s.Result(fakemodel.ToolResultMessage{ToolCallID: id})
		s.Note(text)
		s.Line(text)
	}
	s.Turn()
	s.Reply(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonError, ErrorMessage: tricky[3]})
	s.Turn()
	s.Reply(fakemodel.AssistantMessage{StopReason: fakemodel.StopReasonAborted, ErrorMessage: tricky[6], Text: tricky[7]})
	s.ToolEnd(tricky[4], tricky[5], tricky[6], true, nil)
	s.Ended(tricky[1])
	s.Answer(tricky[2], true)
	s.Answer(tricky[2], false)
	var history []fakemodel.Message
	for i, text := range tricky {
		id := fmt.Sprintf("call_%d", i)
		history = append(history,
			fakemodel.UserMessage{Text: text},
			fakemodel.AssistantMessage{Text: text, ToolCalls: []fakemodel.ToolCall{{ID: id, Name: text, Arguments: json.RawMessage(text)}}},
			fakemodel.ToolResultMessage{ToolCallID: id, ToolName: text, Content: text, IsError: i%2 == 0})
	}
	requests := []fakemodel.Request{{Messages: history[:1], Tools: []fakemodel.ToolSpec{{Name: tricky[0]}, {Name: tricky[4]}}}}
	s.Finished(Finished{Part: 2, Title: tricky[5], History: history, Requests: requests, Turns: len(tricky), StopReason: tricky[1], Answer: tricky[6], Answered: true})
	s.Close()
	return b.String()
}

// trickyTimeline draws a timeline whose calls have each tricky text as
// their IDs, names, arguments and progress notes, and IDs that start like
// a Gantt chart's keywords; and a call that takes time on a clock, while
// the user does each tricky text, so that the chart is drawn. Its clock
// waits in a bubble of testing/synctest.
func trickyTimeline(t *testing.T) string {
	var out string
	synctest.Test(t, func(t *testing.T) { out = drawTrickyTimeline(t) })
	return out
}

// drawTrickyTimeline is trickyTimeline, in a bubble.
func drawTrickyTimeline(t *testing.T) string {
	var b strings.Builder
	tl := NewTimeline(&b)
	tl.Part(1, tricky[0], nil)
	tl.Run(nil)
	tl.Turn()
	ids := append([]string{"click", "call x", "title", "section", "2024-05-12", "%%", "todayMarker off", "accTitle: x"}, tricky...)
	for i, id := range ids {
		text := tricky[i%len(tricky)]
		tl.ToolStart(id, text, json.RawMessage(text))
		tl.ToolUpdate(id, text)
		tl.ToolEnd(id, text, text, i%2 == 0, []string{text})
	}
	tl.Part(2, tricky[6], nil)
	tl.Run(nil)
	tl.Turn()
	tl.ToolStart("a", "b", nil)
	tl.Ended("")
	tl.Part(3, tricky[7], nil)
	clock := democlock.New()
	tl.Run(clock)
	tl.Turn()
	clock.Start("timed")
	tl.ToolStart("timed", tricky[6], json.RawMessage(tricky[7]))
	for _, text := range tricky {
		tl.Aside(text)
	}
	if err := clock.Sleep(context.Background(), "timed", time.Second); err != nil {
		t.Fatal(err)
	}
	clock.End("timed")
	tl.ToolEnd("timed", tricky[5], tricky[6], false, tricky[5:8])
	tl.Ended("")
	tl.Close()
	return b.String()
}

// TestTrickyTextsDrawWellFormedDiagrams draws every tricky text in every
// place, checks that each line is a statement Mermaid reads as meant, and
// keeps the diagrams in testdata, which the node script .ci/mermaid has
// Mermaid itself parse. After a change to the drawing, rewrite them with
// go test ./labs/diagram -run TestTrickyTextsDrawWellFormedDiagrams -update
// and read the diff.
func TestTrickyTextsDrawWellFormedDiagrams(t *testing.T) {
	for name, got := range map[string]string{
		"tricky-sequence.mmd": trickySequence(),
		"tricky-timeline.mmd": trickyTimeline(t),
	} {
		t.Run(name, func(t *testing.T) {
			wantWellFormed(t, name, got)
			for _, text := range tricky {
				if len([]rune(text)) > 8 && !strings.ContainsAny(text, "#;<>&:%\n\r\t\x00\x1b\xff\u2028ﬂ¶") {
					if start := string([]rune(text)[:8]); !strings.Contains(got, start) {
						t.Errorf("%s lacks %q, the start of %q: a harmless text is drawn as it is", name, start, text)
					}
				}
			}
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s\nIf the change is intended, run go test ./labs/diagram -run TestTrickyTextsDrawWellFormedDiagrams -update", path, diff)
			}
		})
	}
}

// TestNoDirectiveComesFromData checks that no text of a run reaches a
// picture as a Mermaid comment or directive, %% or %%{init: …}%%, which
// would hide a line or configure the picture (its theme, its CSS): the
// only % of a picture are in the lines this package starts it with, and
// none is in a label, whatever the text, even a directive split over
// lines or over two labels.
func TestNoDirectiveComesFromData(t *testing.T) {
	starts := []string{sequenceConfig, compactConfig, "    axisFormat %S.%L s"}
	for name, picture := range map[string]string{
		"tricky-sequence.mmd": trickySequence(),
		"tricky-timeline.mmd": trickyTimeline(t),
	} {
		if !strings.Contains(picture, "#37;#37;{init") {
			t.Errorf("%s lacks the tricky directive, coded: the test draws no directive", name)
		}
		for i, line := range strings.Split(picture, "\n") {
			if strings.Contains(line, "%") && !slices.Contains(starts, line) {
				t.Errorf("%s, line %d %q: a %% that does not start the picture", name, i+1, line)
			}
		}
	}
}
