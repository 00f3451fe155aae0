package chatcompletions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// piAi is testdata/pi-ai.json, which testdata/pi-ai.mjs writes: what pi-ai
// 0.83.0 made of each stream of testdata, and of each text of
// testdata/arguments.json as a tool call's arguments.
type piAi struct {
	Version   string               `json:"version"`
	Streams   map[string]piAiReply `json:"streams"`
	Arguments []struct {
		Text      string          `json:"text"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"arguments"`
}

// readPiAi reads testdata/pi-ai.json.
func readPiAi(t testing.TB) piAi {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "pi-ai.json"))
	require.NoError(t, err)
	var p piAi
	require.NoError(t, json.Unmarshal(data, &p))
	require.Equal(t, "0.83.0", p.Version, "the workbook follows pi-ai 0.83.0")
	return p
}

// A piAiReply is what pi-ai made of one stream.
type piAiReply struct {
	Text      string `json:"text"`
	Thinking  string `json:"thinking"`
	ToolCalls []struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
	StopReason string `json:"stopReason"`
}

// ownArguments are the streams whose tool call arguments this package reads
// otherwise than pi-ai, on purpose (see the package documentation).
var ownArguments = map[string]string{
	"arguments-as-object.sse":  `arguments sent as a JSON object are that object; pi-ai makes [] of "[object Object]"`,
	"arguments-unreadable.sse": "arguments that cannot be read stay the text the model wrote, which the loop refuses; pi-ai runs the tool with {}",
	"calls-without-index.sse":  `"Lima"} cannot be read: the partial parser leaves out the brace; pi-ai takes "Lima"`,
}

// TestFixturesReadAsPiAiReadsThem: every stream of testdata gives the reply
// that pi-ai 0.83.0 gives, as testdata/pi-ai.json records it: the same
// text, all of it even when the stream fails; the same reasoning; the same
// tool calls, in the same order, with the same names and arguments; and a
// failure where pi-ai's reply ends with stop reason error. The differences
// are the package's own rules: a call without an ID gets one, and the
// arguments of ownArguments. The messages of the failures are this
// package's own, and other tests check them.
func TestFixturesReadAsPiAiReadsThem(t *testing.T) {
	piAi := readPiAi(t).Streams
	fixtures, err := filepath.Glob(filepath.Join("testdata", "*.sse"))
	require.NoError(t, err)
	require.Len(t, piAi, len(fixtures), "testdata/pi-ai.json holds what pi-ai made of every stream: run testdata/pi-ai.mjs after adding one")
	for _, path := range fixtures {
		name := filepath.Base(path)
		want, ok := piAi[name]
		require.True(t, ok, "testdata/pi-ai.json lacks %s: run testdata/pi-ai.mjs", name)
		t.Run(strings.TrimSuffix(name, ".sse"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, sse(t, name))
				var text, thinking strings.Builder
				ctx := fakemodel.WithOnThinking(context.Background(), func(s string) { thinking.WriteString(s) })
				// With a key, so that the text that may start it is held
				// back, and must still all come out.
				reply, err := srv.model(t, Config{APIKey: sentinelKey()}).Reply(ctx, fakemodel.Request{
					Messages: weatherQuestion,
					OnText:   func(s string) { text.WriteString(s) },
				})
				assert.Equal(t, want.Text, text.String(), "the text, as it streamed")
				assert.Equal(t, want.Thinking, thinking.String(), "the reasoning, as it streamed")
				if want.StopReason == "error" {
					assert.Error(t, err, "pi-ai's reply ends with stop reason error")
					return
				}
				require.NoError(t, err)
				assert.Equal(t, want.StopReason, string(reply.StopReason))
				require.Len(t, reply.ToolCalls, len(want.ToolCalls), "the tool calls")
				differs := false
				for i, c := range reply.ToolCalls {
					w := want.ToolCalls[i]
					assert.Equal(t, w.Name, c.Name, "call %d's name", i+1)
					if w.ID == "" {
						assert.Equal(t, fmt.Sprintf("call_%d", i+1), c.ID, "a call without an ID gets one, where pi-ai leaves it empty")
					} else {
						assert.Equal(t, w.ID, c.ID, "call %d's ID", i+1)
					}
					if !json.Valid(c.Arguments) || !jsonEqual(t, w.Arguments, c.Arguments) {
						differs = true
						if _, own := ownArguments[name]; !own {
							t.Errorf("call %d's arguments: pi-ai reads %s, this package %s", i+1, w.Arguments, c.Arguments)
						}
					}
				}
				if why, own := ownArguments[name]; own {
					assert.True(t, differs, "the arguments are read as pi-ai reads them now: drop the entry %q", why)
				}
			})
		})
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var va, vb any
	require.NoError(t, json.Unmarshal(a, &va))
	require.NoError(t, json.Unmarshal(b, &vb))
	return fmt.Sprintf("%#v", va) == fmt.Sprintf("%#v", vb)
}

// unreadable are the texts of testdata/arguments.json that cannot be read
// as arguments: they are not JSON, not even after pi-ai's repair, nor JSON
// cut off at the end, and pi-ai's partial parser leaves out part of them.
var unreadable = []string{
	"{\"a\":1 \"b\":2}",
	"{\"city\": Oslo}",
	"{'city':'Oslo'}",
	"{city:\"Oslo\"}",
	"{\"city\":\"Oslo\"}}",
	"{\"city\":\"Oslo\"}{\"city\":\"Lima\"}",
	"{\"city\":\"Oslo\"} thanks",
	"{\"a\":NaN}",
	"{\"a\":True}",
	"[object Object]",
	"not json at all",
	"{\"path\":\"a.txt\",\"text\":\"line1\nline2\"",
	"{\"path\":\"C:\\Users",
}

// TestArgumentsReadAsPiAiReadsThem: each text of testdata/arguments.json
// gives the arguments that pi-ai 0.83.0's parseStreamingJson gives, as
// testdata/pi-ai.json records them, or, if it is one of unreadable, stays as
// it is, to be refused by the loop.
func TestArgumentsReadAsPiAiReadsThem(t *testing.T) {
	for _, tt := range readPiAi(t).Arguments {
		args, ok, _ := readArguments(tt.Text)
		if slices.Contains(unreadable, tt.Text) {
			assert.False(t, ok, "%q cannot be read; pi-ai reads %s", tt.Text, tt.Arguments)
			assert.Equal(t, tt.Text, string(args), "arguments that cannot be read stay as they are")
			continue
		}
		if assert.True(t, ok, "%q can be read, as %s", tt.Text, tt.Arguments) {
			assert.True(t, jsonEqual(t, tt.Arguments, args), "%q: pi-ai reads %s, this package %s", tt.Text, tt.Arguments, args)
		}
	}
}
