package chatcompletions

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// The tests in this file use a real loopback connection, as a learner's
// program does, and real time. They check what the in-memory network of
// the other tests cannot: that the errors of a real connection are told
// apart and named.

// loopbackModel starts an httptest server with handler on a real loopback
// connection, and returns a Model that talks to it.
func loopbackModel(t *testing.T, cfg Config, handler http.HandlerFunc) *Model {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	cfg.ModelName = "test-model"
	m, err := New(cfg)
	require.NoError(t, err)
	return m
}

func TestReplyOverARealConnection(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "parallel-tool-calls.sse"))
	require.NoError(t, err)
	var auth string
	m := loopbackModel(t, Config{APIKey: sentinelKey()}, func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body)
	})
	var chunks []string
	reply, err := m.Reply(context.Background(), fakemodel.Request{
		Messages: weatherQuestion,
		OnText:   func(c string) { chunks = append(chunks, c) },
	})
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+sentinel, auth)
	assert.Equal(t, fakemodel.StopReasonToolUse, reply.StopReason)
	assert.Len(t, reply.ToolCalls, 2)
	assert.Equal(t, []string{"Let me look both up."}, chunks)
}

func TestReplyOverARealConnectionNamesItsFailures(t *testing.T) {
	// stall waits until the client hangs up. The server notices that only
	// once it has read the request.
	stall := func(first string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if first != "" {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, first)
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
		}
	}
	// A short idle timeout, in real time: the server waits until the
	// client gives up, so the test waits for the timeout and for nothing
	// else. A server that is slow to send its first chunk gets the same
	// error, so a busy machine cannot make the test fail.
	const idle = 50 * time.Millisecond
	tests := []struct {
		name    string
		idle    time.Duration
		handler http.HandlerFunc
		want    string
	}{
		{
			name:    "a server that stalls before the response",
			idle:    idle,
			handler: stall(""),
			want:    "chat completions: the server sent no data for 50ms (the idle timeout)",
		},
		{
			name:    "a server that stalls mid-stream",
			idle:    idle,
			handler: stall(`data: {"choices":[{"index":0,"delta":{"content":"Hmm"}}]}` + "\n\n"),
			want:    "chat completions: the server sent no data for 50ms (the idle timeout)",
		},
		{
			name: "a server that drops the connection",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"Hmm"}}]}`+"\n\n")
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			},
			want: "chat completions: the stream broke off after line 2: unexpected EOF",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := loopbackModel(t, Config{IdleTimeout: tt.idle, APIKey: sentinelKey()}, tt.handler)
			_, err := m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
			require.Error(t, err)
			requireNoKey(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestReplyOverARealConnectionToNoServer(t *testing.T) {
	// A port that was free a moment ago: nothing listens on it now.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())

	m, err := New(Config{BaseURL: "http://" + addr + "/v1", ModelName: "test-model", APIKey: sentinelKey()})
	require.NoError(t, err)
	_, err = m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
	require.Error(t, err)
	requireNoKey(t, err)
	// The rest of the message is the operating system's.
	want := "chat completions: cannot reach http://" + addr + "/v1: dial tcp " + addr + ": "
	assert.True(t, strings.HasPrefix(err.Error(), want), "%q should start with %q", err, want)
}
