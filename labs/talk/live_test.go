package talk

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/quick"
	"unicode"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWordsStreamAsTheFakeModelsStreamThem: however a server cuts a reply
// into pieces, the loop gets the words fakemodel.Chunks cuts the whole text
// into, so that a recording replays in as many message_update events.
func TestWordsStreamAsTheFakeModelsStreamThem(t *testing.T) {
	check := func(text string, cuts []uint8) bool {
		// A server's pieces of text are JSON strings: whole characters.
		var w wordBuffer
		var got []string
		rest := []rune(text)
		for _, c := range cuts {
			n := min(int(c)%8, len(rest))
			got = append(got, w.add(string(rest[:n]))...)
			rest = rest[n:]
		}
		got = append(got, w.add(string(rest))...)
		if last := w.rest(); last != "" {
			got = append(got, last)
		}
		return strings.Join(got, "|") == strings.Join(fakemodel.Chunks(text), "|")
	}
	for _, text := range []string{
		"The answer  is\n23 × 17 = 391.\t Done ",
		"答案是 391。奥斯陆在下雨，12 度 ",
	} {
		require.NoError(t, quick.Check(func(cuts []uint8) bool { return check(text, cuts) }, nil), "%q", text)
	}
	require.NoError(t, quick.Check(func(words []string, cuts []uint8) bool {
		return check(strings.ToValidUTF8(strings.Join(words, " "), "?"), cuts)
	}, nil))
}

// TestArgumentsPrintAsTheyAre: a character of the arguments that does not
// print as itself, such as a bidirectional override, is written as a \u
// escape: the same JSON value, which a trace and a scenario file can hold.
func TestArgumentsPrintAsTheyAre(t *testing.T) {
	for _, raw := range []string{
		`{"to":"\u202egnp.exe"}`, // written escaped: already fine
		"{\"to\":\"\u202egnp.exe\"}",
		"{\"a\":\"line\u2028separator\",\"b\":\"\U000E0041 tag\"}",
		`"{\"op\":\"add\","`,
		`{"city":"Oslo"}`,
	} {
		got := printableJSON(json.RawMessage(raw))
		assert.False(t, strings.ContainsFunc(string(got), notPrintable), "%q prints as it is: %s", raw, got)
		var want, have any
		require.NoError(t, json.Unmarshal([]byte(raw), &want))
		require.NoError(t, json.Unmarshal(got, &have), "%s", got)
		assert.Equal(t, want, have, "%q is the same value", raw)
	}
}

func TestToolCallsGetIDsAndNamesAScenarioAccepts(t *testing.T) {
	m := &liveModel{ids: map[string]bool{"call_1": true}}
	got := m.normalize([]fakemodel.ToolCall{
		{ID: "call_1", Name: "weather"},                              // an ID an earlier call has
		{ID: "", Name: "functions.weather"},                          // no ID, a dot
		{ID: "call abc", Name: "läs fil"},                            // a space
		{ID: strings.Repeat("x", 65), Name: strings.Repeat("n", 70)}, // too long
		{ID: "toolu_01A", Name: "calculate"},
	})
	var ids, names []string
	for _, c := range got {
		ids, names = append(ids, c.ID), append(names, c.Name)
	}
	assert.Equal(t, []string{"call_2", "call_3", "call_4", "call_5", "toolu_01A"}, ids)
	assert.Equal(t, []string{"weather", "functions_weather", "l_s_fil", strings.Repeat("n", 64), "calculate"}, names)
	assert.Equal(t, "unnamed", toolName(""))
}

func TestScreenKeepsLineBreaksAndTabs(t *testing.T) {
	assert.Equal(t, "a\n\tb \\x1b[2J c\\u202ed\\r", screen("a\n\tb \x1b[2J c\u202ed\r"))
	assert.False(t, strings.ContainsFunc(screen("\x00\x7f\u0085\u2029"), func(r rune) bool { return !unicode.IsPrint(r) }))
}

// TestCtrlCStopsTheModelAtOnce: Ctrl-C ends a request the model still
// thinks about, without waiting for it; what streamed before counts.
func TestCtrlCStopsTheModelAtOnce(t *testing.T) {
	c := &Chat{current: &liveRun{cancel: func() {}}}
	c.current.cut, c.current.cutOff = context.WithCancel(context.Background())
	// Ctrl-C comes while the model waits, after its first word and a half.
	c.model = &liveModel{chat: c, ids: map[string]bool{}, model: stalls{then: c.current.cutOff}}
	var chunks []string
	_, err := c.model.Reply(context.Background(), fakemodel.Request{OnText: func(s string) { chunks = append(chunks, s) }})
	assert.EqualError(t, err, "stalled: context canceled")
	assert.Equal(t, []string{"Thinking "}, chunks, "the words that came whole")
	assert.True(t, c.current.cancelled, "the run is cancelled where the loop waits for the reply")
}

// TestCtrlCAfterTheLastWordStopsTheReply: the offline model has written
// its whole reply, and Ctrl-C comes while its last word is shown. The
// reply is not returned: the request counts as stopped, as Model's
// contract says, with every word that was shown.
func TestCtrlCAfterTheLastWordStopsTheReply(t *testing.T) {
	c := &Chat{current: &liveRun{cancel: func() {}}}
	c.current.cut, c.current.cutOff = context.WithCancel(context.Background())
	c.model = &liveModel{chat: c, ids: map[string]bool{}, model: fakemodel.Scripted(fakemodel.AssistantMessage{Text: "All done now."})}
	var chunks []string
	_, err := c.model.Reply(context.Background(), fakemodel.Request{OnText: func(s string) {
		chunks = append(chunks, s)
		if s == "now." {
			c.current.cutOff()
		}
	}})
	assert.EqualError(t, err, "the reply stopped streaming: context canceled")
	assert.Equal(t, []string{"All ", "done ", "now."}, chunks)
	assert.True(t, c.current.cancelled)
}

// stalls is a model that says a word and a half, calls then, and waits
// until its request is cancelled.
type stalls struct{ then func() }

func (s stalls) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	req.OnText("Thinking ha")
	s.then()
	<-ctx.Done()
	return fakemodel.AssistantMessage{}, fmt.Errorf("stalled: %w", ctx.Err())
}
