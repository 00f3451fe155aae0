package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run -chat against a real model's protocol: an httptest server
// that speaks the Chat Completions API, from the fixtures of
// fakemodel/chatcompletions (its testdata, written after the API's public
// reference). The network is real, so the tests wait on what the program
// prints and on what the server receives, never on time.

// A response is one answer of the fixture server.
type response struct {
	// status, if not 0, is an error status, and body its JSON.
	status int
	body   string
	// fixture names a stream of testdata/NAME.sse, sent with status 200.
	fixture string
	// hold, if not nil, keeps the response back until it is closed.
	hold chan struct{}
	// stall sends nothing until the client hangs up.
	stall bool
}

// A fixtureServer answers the requests of one test with its responses, in
// order, and keeps what each request carried.
type fixtureServer struct {
	*httptest.Server
	responses []response
	arrived   chan int // the index of each request, as it arrives

	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
}

func startFixtureServer(t *testing.T, responses ...response) *fixtureServer {
	t.Helper()
	srv := &fixtureServer{responses: responses, arrived: make(chan int, len(responses)+1)}
	srv.Server = httptest.NewServer(http.HandlerFunc(srv.serve))
	t.Cleanup(srv.Close)
	return srv
}

func (srv *fixtureServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	srv.mu.Lock()
	n := len(srv.bodies)
	srv.bodies = append(srv.bodies, body)
	srv.headers = append(srv.headers, r.Header.Clone())
	srv.mu.Unlock()
	srv.arrived <- n
	if n >= len(srv.responses) {
		http.Error(w, `{"error": "no response left in the test"}`, http.StatusTeapot)
		return
	}
	res := srv.responses[n]
	if res.hold != nil {
		select {
		case <-res.hold:
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case res.stall:
		<-r.Context().Done()
	case res.status != 0:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(res.status)
		io.WriteString(w, res.body)
	default:
		root, err := expected.Root()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		stream, err := os.ReadFile(filepath.Join(root, "fakemodel", "chatcompletions", "testdata", res.fixture+".sse"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(stream)
	}
}

// messages returns the messages request n carried, each as role: content.
func (srv *fixtureServer) messages(t *testing.T, n int) []string {
	t.Helper()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Greater(t, len(srv.bodies), n, "request %d was sent", n+1)
	var req struct {
		Messages []struct {
			Role       string  `json:"role"`
			Content    *string `json:"content"`
			ToolCallID string  `json:"tool_call_id"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(srv.bodies[n], &req))
	var out []string
	for _, m := range req.Messages {
		content := "null"
		if m.Content != nil {
			content = *m.Content
		}
		out = append(out, m.Role+": "+content)
	}
	return out
}

// A watched writer keeps what the program writes, and lets a test wait
// until a text appears.
type watched struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func newWatched() *watched { return &watched{wrote: make(chan struct{}, 1)} }

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.b.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// await waits until the program has written text n times. A program that
// never does fails the test after a minute, instead of hanging it.
func (w *watched) await(t *testing.T, text string, n int) {
	t.Helper()
	guard := time.After(time.Minute)
	for strings.Count(w.String(), text) < n {
		select {
		case <-w.wrote:
		case <-guard:
			t.Fatalf("still waiting for %d × %q after a minute", n, text)
		}
	}
}

// A live chat is -chat as a process of its own would run it, in a test.
type liveChat struct {
	in             *io.PipeWriter
	interrupts     chan struct{}
	stdout, stderr *watched
	status         chan int
}

// startLiveChat runs the program with args through cli.Run.
func startLiveChat(args ...string) *liveChat {
	r, w := io.Pipe()
	c := &liveChat{in: w, interrupts: make(chan struct{}, 1), stdout: newWatched(), stderr: newWatched(), status: make(chan int, 1)}
	ctx := cli.WithInterrupts(cli.WithStdin(context.Background(), r), c.interrupts)
	go func() {
		c.status <- cli.Run(ctx, run, args, c.stdout, c.stderr)
		r.Close()
	}()
	return c
}

func (c *liveChat) typeLine(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(c.in, line+"\n")
	require.NoError(t, err)
}

// end closes the input and returns the exit status.
func (c *liveChat) end() int {
	c.in.Close()
	return <-c.status
}

// TestChatWithARealModelsProtocol: through -chat, a tool call whose
// arguments arrive in pieces runs; a steering message and a follow-up
// typed while the model thinks reach the next requests, in their places;
// and the recording of the session replays offline to the same trace.
func TestChatWithARealModelsProtocol(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	hold := make(chan struct{})
	srv := startFixtureServer(t,
		response{fixture: "tool-call-in-pieces", hold: hold},
		response{fixture: "text"},
		response{fixture: "text"},
	)
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "What is 23 × 17?")
	<-srv.arrived // the model thinks
	c.typeLine(t, "Show the product only.")
	c.stderr.await(t, "(steering message queued", 1)
	c.typeLine(t, ">> Thanks!")
	c.stderr.await(t, "(follow-up queued", 1)
	close(hold)
	c.stdout.await(t, "agent_end", 1)
	require.Equal(t, 0, c.end(), "stderr: %s", c.stderr)

	live := c.stdout.String()
	for _, line := range []string{"tool_execution_start call_Xy7 calculate", "tool_execution_end call_Xy7", "agent_end messages=7"} {
		assert.True(t, strings.Contains(live, line+"\n"), "the trace holds %q", line)
	}
	assert.Equal(t, []string{
		"user: What is 23 × 17?",
		"assistant: null",
		"tool: 391",
		"user: Show the product only.",
	}, srv.messages(t, 1), "the steering message enters before the next request, after the tool's result")
	if third := srv.messages(t, 2); assert.Len(t, third, 6, "the third request holds the five messages before it and the follow-up: %q", third) {
		assert.Equal(t, "user: Thanks!", third[5], "the follow-up enters once the model has answered")
	}

	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-scenario", rec, "-trace"}, &stdout, &stderr))
	sameLines(t, live, stdout.String(), "the offline replay's trace is the session's")
}

// TestArgumentsThatAreNotAnObjectReplayAsTheyFailed: a real model may send
// arguments that are not even JSON. The live tool refuses them, and so does
// the replayed one, in the same words, so the replay's trace is the
// session's.
func TestArgumentsThatAreNotAnObjectReplayAsTheyFailed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := startFixtureServer(t, response{fixture: "invalid-arguments"}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "What is 1 plus?")
	c.stdout.await(t, "agent_end", 1)
	require.Equal(t, 0, c.end(), "stderr: %s", c.stderr)

	live := c.stdout.String()
	assert.True(t, strings.Contains(live, "tool_execution_end call_bad error: Validation failed for tool \"calculate\": arguments must be a JSON object, not a string."),
		"the live tool refuses the arguments:\n%s", live)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-scenario", rec, "-trace"}, &stdout, &stderr))
	sameLines(t, live, stdout.String(), "the offline replay's trace is the session's")
}

// TestChatGoesOnAfterAFailedRequest: each failure of the server, or of the
// stream, ends its run with stop reason error and a line that says what
// happened; a stalled request ends at Ctrl-C, with stop reason aborted; and
// the session goes on.
func TestChatGoesOnAfterAFailedRequest(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := startFixtureServer(t,
		response{status: http.StatusUnauthorized, body: `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`},
		response{status: http.StatusTooManyRequests, body: `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`},
		response{status: http.StatusInternalServerError, body: `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`},
		response{fixture: "cut-off"},
		response{stall: true},
		response{fixture: "text"},
	)
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL)
	for i := range 6 {
		c.typeLine(t, "What is 23 × 17?")
		if <-srv.arrived == 4 {
			c.interrupts <- struct{}{} // Ctrl-C: the server stalls
		}
		c.stdout.await(t, "the agent's history holds", i+1)
	}
	require.Equal(t, 0, c.end(), "stderr: %s", c.stderr)
	inOrder(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the server answered 401 Unauthorized: Incorrect API key provided.",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model request failed: chat completions: the server answered 429 Too Many Requests: Rate limit reached for requests",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model request failed: chat completions: the server answered 500 Internal Server Error: The server had an error while processing your request.",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model said: The answer ", // the word cut off never shows
		"turn 1 · model request failed: chat completions: the stream ended before the reply did: no finish_reason and no data: [DONE]",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model request aborted: chat completions: context canceled",
		"loop ended: 1 turn, stop reason aborted",
		"turn 1 · model said: 23 × 17 = 391.",
		"loop ended: 1 turn, stop reason completed",
	)
}

// TestTheKeyNeverShows: the key from OPENAI_API_KEY goes to the server, and
// nowhere else: not to standard output or error, not into the recording,
// not even when the server quotes it back in its error.
func TestTheKeyNeverShows(t *testing.T) {
	const key = "sk-sentinel-7Hq2Zx9Lw4"
	t.Setenv("OPENAI_API_KEY", key)
	srv := startFixtureServer(t,
		response{status: http.StatusUnauthorized, body: `{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error"}}`},
		response{fixture: "tool-call-in-pieces"},
		response{fixture: "text"},
	)
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "What is 23 × 17?")
	c.stdout.await(t, "the agent's history holds", 1)
	c.typeLine(t, "Try again: what is 23 × 17?")
	c.stdout.await(t, "the agent's history holds", 2)
	require.Equal(t, 0, c.end(), "stderr: %s", c.stderr)

	recording, err := os.ReadFile(rec)
	require.NoError(t, err)
	assert.Contains(t, c.stdout.String(), "Incorrect API key provided: [redacted].", "the server's message, without the key")
	for name, text := range map[string]string{"standard output": c.stdout.String(), "standard error": c.stderr.String(), "the recording": string(recording)} {
		assert.False(t, strings.Contains(text, key), "the key shows in %s", name)
		assert.False(t, strings.Contains(text, "7Hq2Zx9Lw4"), "part of the key shows in %s", name)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for i, h := range srv.headers {
		assert.Equal(t, "Bearer "+key, h.Get("Authorization"), "request %d carries the key", i+1)
	}
}
