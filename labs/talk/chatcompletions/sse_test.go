package chatcompletions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// readEvents returns the data of every event in stream.
func readEvents(t *testing.T, stream string) ([]string, error) {
	t.Helper()
	r := newEventReader(strings.NewReader(stream), 1<<20)
	var data []string
	for {
		ev, err := r.next()
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		data = append(data, string(ev.data))
	}
}

func TestEventReaderFollowsTheServerSentEventsFormat(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   []string
	}{
		{"line ends \\n", "data: a\n\ndata: b\n\n", []string{"a", "b"}},
		{"line ends \\r\\n", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"line ends \\r", "data: a\r\rdata: b\r\r", []string{"a", "b"}},
		{"one space after the colon is not data", "data:a\n\ndata:  b\n\n", []string{"a", " b"}},
		{"data lines join with \\n", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"comments, id and retry are skipped", ": hello\nid: 7\nretry: 10\ndata: a\n\n:\n\n", []string{"a"}},
		{"an event without data is dropped", "event: ping\n\ndata: a\n\n", []string{"a"}},
		{"a byte order mark is skipped", "\uFEFFdata: a\n\n", []string{"a"}},
		{"an event cut off by the end is dropped", "data: a\n\ndata: b\n", []string{"a"}},
		{"a line cut off by the end is dropped", "data: a\n\ndata: b", []string{"a"}},
		{"blank lines between events", "\n\n\ndata: a\n\n\n\n", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(t, tt.stream)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestALongLineIsLookedAtOnce: a long line that arrives in many small
// pieces, as a long tool call does over a network, is looked through once.
// It was looked through again from its start with each piece, so that the
// work grew with the square of its length: a line of 16 MiB in pieces of 4
// KiB took 32 GB of looking, and here, a byte at a time, 500 GB.
func TestALongLineIsLookedAtOnce(t *testing.T) {
	stream := "data: " + strings.Repeat("x", 1<<20) + "\r\n\r\n"
	r := newEventReader(iotest.OneByteReader(strings.NewReader(stream)), 2<<20)
	ev, err := r.next()
	require.NoError(t, err)
	assert.Len(t, ev.data, 1<<20)
	assert.LessOrEqual(t, r.split.looked, 2*len(stream), "the bytes the reader looked at to find the line ends: each once, the few after a line end twice")
}

func TestEventReaderRejectsALineThatIsNoField(t *testing.T) {
	_, err := readEvents(t, "data: a\n\nHTTP/1.1 200 OK\n\n")
	require.Error(t, err)
	assert.Equal(t, `malformed server-sent event: line 3 is "HTTP/1.1 200 OK", not a field such as data: {...}`, err.Error())
}

// FuzzReadReply feeds the stream parser arbitrary bytes. Whatever it reads,
// it must not panic, and a reply it accepts must keep the promises the loop
// relies on: the text OnText received is the reply's text, the stop reason
// is one the loop knows, every call has an ID, and its arguments are JSON
// or a text that cannot be read as JSON.
func FuzzReadReply(f *testing.F) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "*.sse"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range fixtures {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\\r\\nb\"}}]}\r\rdata: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":{\"x\":1}}}]},\"finish_reason\":\"length\"}]}\r\r"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		var chunks []string
		history := []fakemodel.Message{fakemodel.UserMessage{Text: "hi"}}
		reply, err := readReply(context.Background(), newEventReader(bytes.NewReader(stream), 1<<16), APIKey{}, func(c string) { chunks = append(chunks, c) }, history)
		if err != nil {
			if reply.Text != "" || reply.ToolCalls != nil || reply.StopReason != "" {
				t.Fatalf("a failed read returned a reply: %+v", reply)
			}
			return
		}
		if joined := strings.Join(chunks, ""); joined != reply.Text {
			t.Fatalf("OnText received %q, the reply's text is %q", joined, reply.Text)
		}
		known := []fakemodel.StopReason{fakemodel.StopReasonStop, fakemodel.StopReasonToolUse, fakemodel.StopReasonLength}
		if !slices.Contains(known, reply.StopReason) {
			t.Fatalf("stop reason %q", reply.StopReason)
		}
		for _, c := range reply.ToolCalls {
			if c.ID == "" {
				t.Fatalf("a tool call without an ID: %+v", c)
			}
			if _, readable, _ := readArguments(string(c.Arguments)); !json.Valid(c.Arguments) && readable {
				t.Fatalf("arguments that are not JSON, but could be read: %s", c.Arguments)
			}
		}
	})
}
