package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// These tests run -chat against a real model's protocol: an httptest server
// that speaks the Chat Completions API, from the fixtures of
// labs/talk/chatcompletions (its testdata, written after the API's public
// reference). The network is real, so the tests wait on what the program
// prints and on what the server receives, never on time.

// A response is one answer of the fixture server.
type response struct {
	// status, if not 0, is an error status, and body its JSON.
	status int
	body   string
	// fixture names a stream of testdata/NAME.sse, sent with status 200.
	fixture string
	// stream, if fixture is "", is a stream written out, sent with status
	// 200; respond, if set, writes the whole response instead.
	stream  string
	respond http.HandlerFunc
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
	case res.respond != nil:
		res.respond(w, r)
	case res.stream != "":
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, res.stream)
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
		stream, err := os.ReadFile(filepath.Join(root, "labs", "talk", "chatcompletions", "testdata", res.fixture+".sse"))
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
	if !expected.True(t, len(srv.bodies) > n, "request %d was sent: the server got %d", n+1, len(srv.bodies)) {
		t.FailNow()
	}
	var req struct {
		Messages []struct {
			Role       string  `json:"role"`
			Content    *string `json:"content"`
			ToolCallID string  `json:"tool_call_id"`
		} `json:"messages"`
	}
	if !expected.NoError(t, json.Unmarshal(srv.bodies[n], &req), "request %d is JSON with messages", n+1) {
		t.FailNow()
	}
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
	if !expected.NoError(t, err, "type %q", line) {
		t.FailNow()
	}
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
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}

	live := c.stdout.String()
	for _, line := range []string{"tool_execution_start call_Xy7 calculate", "tool_execution_end call_Xy7", "agent_end messages=7"} {
		expected.True(t, strings.Contains(live, line+"\n"), "the trace holds %q", line)
	}
	expected.Equal(t, []string{
		"user: What is 23 × 17?",
		"assistant: null",
		"tool: 391",
		"user: Show the product only.",
	}, srv.messages(t, 1), "the steering message enters before the next request, after the tool's result")
	if third := srv.messages(t, 2); expected.Equal(t, 6, len(third), "the third request holds the five messages before it and the follow-up: %q", third) {
		expected.Equal(t, "user: Thanks!", third[5], "the follow-up enters once the model has answered")
	}

	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec, "-trace"}, &stdout, &stderr), "the recording replays without an error") {
		return
	}
	sameLines(t, live, stdout.String(), "the offline replay's trace is the session's")
}

// TestArgumentsThatCannotBeReadReplayAsTheyFailed: a real model may send
// arguments that are not JSON, even after pi-ai's repair. The live tool
// refuses them, with an error that says what is wrong with them and quotes
// them; the recording holds {} and the error, and the replay's trace is the
// session's.
func TestArgumentsThatCannotBeReadReplayAsTheyFailed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := startFixtureServer(t, response{fixture: "arguments-unreadable"}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "Weather in Oslo?")
	c.stdout.await(t, "agent_end", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}

	live := c.stdout.String()
	expected.Contains(t, live, "tool_execution_end call_u error: Validation failed for tool \"weather\": arguments are not valid JSON: invalid character 'O' looking for beginning of value. Received arguments: {\"city\": Oslo}\n",
		"the live tool refuses the arguments, and says why")
	replay(t, rec, live)
}

// TestArgumentsNestedTooDeeplyEndTheRequest: a server whose tool call's
// arguments are 1.2 million [ ended the program with a stack overflow, and
// the recording was never written. Now the request fails with one line that
// names the limit, the session goes on, and the recording replays it.
func TestArgumentsNestedTooDeeplyEndTheRequest(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	deep := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_deep","function":{"name":"weather","arguments":"` +
		strings.Repeat("[", 1_200_000) + `"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	srv := startFixtureServer(t, response{stream: deep}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "Weather in Oslo?")
	c.stdout.await(t, "the agent's history holds", 1)
	c.typeLine(t, "What is 23 × 17?")
	c.stdout.await(t, "the agent's history holds", 2)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	inOrder(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the arguments of tool call call_deep (weather) nest more than 10000 levels deep (the nesting limit)",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model said: 23 × 17 = 391.",
	)
	expected.Contains(t, c.stderr.String(), "recorded the session in "+rec, "the recording is written")
	var replayed, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &replayed, &stderr), "the recording replays without an error (standard error: %s)", stderr.String()) {
		return
	}
	inOrder(t, replayed.String(),
		"turn 1 · model request failed: scripted model: chat completions: the arguments of tool call call_deep (weather) nest more than 10000 levels deep (the nesting limit)",
		"turn 1 · model said: 23 × 17 = 391.",
	)
}

// TestDeepArgumentsReplayAsTheyFailed: arguments nested 100 levels deep are
// read, and refused by the tool; a scenario file cannot nest so deep, so the
// recording holds {} and the error, and replays to the session's trace. It
// held the arguments, and the session ended with "nothing written".
func TestDeepArgumentsReplayAsTheyFailed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	deep := `{"city":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	stream := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_deep","function":{"name":"weather","arguments":` + strconv.Quote(deep) + `}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	srv := startFixtureServer(t, response{stream: stream}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "Weather in Oslo?")
	c.stdout.await(t, "agent_end", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	live := c.stdout.String()
	expected.Contains(t, live, `tool_execution_end call_deep error: Validation failed for tool "weather": field "city" must be a string, not an array.`, "the tool refuses the arguments")
	replay(t, rec, live)
}

// replay replays the recording rec with -trace, and checks that its trace
// is live's.
func replay(t *testing.T, rec, live string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec, "-trace"}, &stdout, &stderr), "the recording replays without an error (standard error: %s)", stderr.String()) {
		t.FailNow()
	}
	sameLines(t, live, stdout.String(), "the offline replay's trace is the session's")
}

// TestBrokenArgumentsRunAsInPi: arguments that pi-ai repairs or completes
// run the tool with what the model meant: a raw line break inside a string,
// and an object that the model did not close.
func TestBrokenArgumentsRunAsInPi(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := startFixtureServer(t,
		response{fixture: "arguments-raw-line-break"}, response{fixture: "text"},
		response{fixture: "arguments-unclosed"}, response{fixture: "text"},
	)
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "Note it.")
	c.stdout.await(t, "the agent's history holds", 1)
	c.typeLine(t, "Weather in Oslo?")
	c.stdout.await(t, "the agent's history holds", 2)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	inOrder(t, c.stdout.String(),
		`turn 1 · start call_w write {"path":"a.txt","text":"line1\nline2"}`,
		"turn 1 · done call_w write ⇒ wrote 11 bytes to a.txt",
		`turn 1 · start call_o weather {"city":"Oslo"}`,
		"turn 1 · done call_o weather ⇒ Oslo 4 °C, light rain",
	)
}

// TestThinkingShowsWhileTheModelThinks: a model's reasoning prints while it
// streams, on a line of its own, before its reply, and not in a trace; the
// recording keeps it, and the replay prints it again.
func TestThinkingShowsWhileTheModelThinks(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := startFixtureServer(t, response{fixture: "thinking-reasoning-content"}, response{fixture: "thinking-reasoning-content"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "What is 23 × 17?")
	c.stdout.await(t, "the agent's history holds", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	live := c.stdout.String()
	inOrder(t, live,
		"turn 1 · model thinks: The user wants a sum.",
		"turn 1 · model said: 23 × 17 = 391.",
		"answer: 23 × 17 = 391.",
	)
	recording, err := os.ReadFile(rec)
	if !expected.NoError(t, err, "read the recording") {
		return
	}
	expected.Contains(t, string(recording), `"thinking": "The user wants a sum."`, "the recording keeps the model's reasoning")

	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &stdout, &stderr), "the recording replays without an error") {
		return
	}
	inOrder(t, stdout.String(), "turn 1 · model thinks: The user wants a sum.", "turn 1 · model said: 23 × 17 = 391.")

	trace := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL)
	trace.typeLine(t, "What is 23 × 17?")
	trace.stdout.await(t, "agent_end", 1)
	if !expected.Equal(t, 0, trace.end(), "the session with -trace ends with status 0 (standard error: %s)", trace.stderr) {
		return
	}
	expected.NotContains(t, trace.stdout.String()+trace.stderr.String(), "The user wants", "a trace holds events only")
}

// TestTheTurnLimitStopsARunawayModel: a model that asks for a tool again
// and again is stopped after -max-turns turns, or 25 without it, by lab
// 03's turn limit as a ShouldStopAfterTurn policy; the session goes on, and
// the recording replays to the same trace.
func TestTheTurnLimitStopsARunawayModel(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	runaway := make([]response, 30)
	for i := range runaway {
		runaway[i] = response{fixture: "tool-call-in-pieces"}
	}
	srv := startFixtureServer(t, runaway...)
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-trace", "-model-name", "test-model", "-base-url", srv.URL, "-max-turns", "3", "-record", rec)
	c.typeLine(t, "What is 23 × 17?")
	c.stdout.await(t, "agent_end", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	live := c.stdout.String()
	expected.Equal(t, 3, strings.Count(live, "turn_end"), "three turns, then the policy stops the run")
	replay(t, rec, live)

	srv = startFixtureServer(t, runaway...)
	c = startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL)
	c.typeLine(t, "What is 23 × 17?")
	c.stdout.await(t, "the agent's history holds", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	expected.Contains(t, c.stdout.String(), "loop ended: 25 turns, stop reason stopped (ShouldStopAfterTurn returned true)\n", "the default limit")
}

// TestTheRecordingStaysWithinItsLimit: a session whose recording grows
// toward the 1 MiB of a scenario file hears of it once the recording holds
// three quarters of that; the run that passes the limit, and the runs
// after it, are not recorded, and the session goes on. The recording holds
// the runs before, and replays.
func TestTheRecordingStaysWithinItsLimit(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	long := `data: {"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 300_000) + `"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	srv := startFixtureServer(t, response{stream: long}, response{stream: long}, response{stream: long}, response{stream: long}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	for i := range 5 {
		c.typeLine(t, fmt.Sprintf("Run %d.", i+1))
		c.stdout.await(t, "the agent's history holds", i+1)
	}
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	stdout := c.stdout.String()
	inOrder(t, stdout,
		"the agent's history holds 6 messages; nothing is queued",
		"(the recording holds 879 KiB of the 1024 KiB a scenario file may hold; a run that passes the limit is not recorded, nor any after it)",
		"the agent's history holds 8 messages; nothing is queued",
		"(the recording is full: a scenario file holds at most 1024 KiB; "+rec+" will hold the session up to the run before this one, and records no more)",
		"answer: 23 × 17 = 391.",
	)
	expected.Equal(t, 1, strings.Count(stdout, "(the recording holds"), "one warning")
	expected.Contains(t, c.stderr.String(), "recorded the session in "+rec, "the recording is written")

	var replayed, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &replayed, &stderr), "the recording replays without an error (standard error: %s)", stderr.String()) {
		return
	}
	expected.Equal(t, 3, strings.Count(replayed.String(), "loop ended:"), "the recording holds the three runs before the limit")
}

// TestAFirstRunTooLargeToRecordIsNotRecorded: a first reply longer than a
// scenario file may be leaves nothing to record. The session says so, when
// the run ends and when the session does, and writes no file; it said it had
// recorded the session, in a file of 0 bytes that -scenario refused.
func TestAFirstRunTooLargeToRecordIsNotRecorded(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	long := `data: {"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 1_100_000) + `"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	srv := startFixtureServer(t, response{stream: long}, response{fixture: "text"})
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	c.typeLine(t, "Run 1.")
	c.stdout.await(t, "the agent's history holds", 1)
	c.typeLine(t, "Run 2.")
	c.stdout.await(t, "the agent's history holds", 2)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	expected.Contains(t, c.stdout.String(), "(the recording is full: this run alone is longer than the 1024 KiB a scenario file may hold; nothing is recorded, and "+rec+" will not be written)\n",
		"the session says, when the run ends, that nothing is recorded")
	expected.Contains(t, c.stderr.String(), "nothing recorded: the first run alone was longer than the 1024 KiB a scenario file may hold; "+rec+" is not written\n",
		"the session says, when it ends, that nothing is recorded")
	expected.NotContains(t, c.stderr.String(), "recorded the session in", "no recording is claimed")
	_, err := os.Stat(rec)
	expected.True(t, os.IsNotExist(err), "no file is written: %v", err)
}

// TestFirstTimeMistakesSayWhatToDo: a base URL without its scheme, one
// without /v1, an empty model name (an unset variable) and a server that
// loads slowly each get one line that says what to do.
func TestFirstTimeMistakesSayWhatToDo(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var stdout, stderr bytes.Buffer
	expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-chat", "-model-name", "qwen3:8b", "-base-url", "127.0.0.1:11434/v1"}, &stdout, &stderr), "a base URL without its scheme: the exit status")
	expected.Equal(t, "error: chat completions: base URL \"127.0.0.1:11434/v1\" has no scheme: add http://, as in http://127.0.0.1:11434/v1\n", stderr.String(),
		"a base URL without its scheme: one line that says what to do")

	stderr.Reset()
	expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-chat", "-model-name", ""}, &stdout, &stderr), "an empty model name: the exit status")
	expected.True(t, strings.HasPrefix(stderr.String(), "-model-name is empty: name the model the server should run, such as qwen3:8b (is the variable you gave it set?)\n"),
		"an empty model name: a line that says what to do, first: %q", stderr.String())

	// Each session has one request: a short idle timeout bounds only the
	// one that stalls, so that a busy machine cannot make an answer late.
	srv := startFixtureServer(t, response{status: http.StatusNotFound, body: "404 page not found"})
	c := startLiveChat("-chat", "-model-name", "qwen3:8b", "-base-url", srv.URL)
	c.typeLine(t, "Hi.")
	c.stdout.await(t, "the agent's history holds", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	expected.Contains(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the server answered 404 Not Found: 404 page not found; add /v1 to the base URL: "+srv.URL+"/v1\n",
		"a server without /v1 in its URL: the line says to add it")

	srv = startFixtureServer(t, response{stall: true})
	c = startLiveChat("-chat", "-model-name", "qwen3:8b", "-base-url", srv.URL, "-idle-timeout", "50ms")
	c.typeLine(t, "Hi again.")
	c.stdout.await(t, "the agent's history holds", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	expected.Contains(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the server sent no data for 50ms (the idle timeout)\n",
		"a server that sends nothing: the line names the idle timeout")
}

// TestARequestHasAnOverallBound: -request-timeout bounds a whole request,
// however steadily the server sends; it goes with -model-name, and must be
// more than 0.
func TestARequestHasAnOverallBound(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var stdout, stderr bytes.Buffer
	expected.Equal(t, 0, cli.Run(context.Background(), run, []string{"-h"}, &stdout, &stderr), "-h: the exit status")
	expected.Contains(t, stdout.String(), "-request-timeout", "-h names the flag")
	stdout.Reset()
	expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-chat", "-request-timeout", "1m"}, &stdout, &stderr), "-request-timeout without -model-name: the exit status")
	expected.Contains(t, stderr.String(), "-request-timeout needs -model-name", "-request-timeout without -model-name is refused")
	stderr.Reset()
	expected.Equal(t, 2, cli.Run(context.Background(), run, []string{"-chat", "-model-name", "m", "-request-timeout", "0s"}, &stdout, &stderr), "-request-timeout 0s: the exit status")
	expected.Contains(t, stderr.String(), "invalid value 0s for flag -request-timeout: must be more than 0, such as 30m", "-request-timeout 0s is refused")

	// One request, which stalls: a request that the server answers could
	// be late on a busy machine. That the session goes on after a failed
	// request, the provider's own tests show (labs/talk/chatcompletions).
	srv := startFixtureServer(t, response{stall: true})
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-request-timeout", "50ms")
	c.typeLine(t, "Hi.")
	c.stdout.await(t, "the agent's history holds", 1)
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	expected.Contains(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: no whole reply within 50ms (the request timeout)\n",
		"a server that never finishes its reply: the line names the request timeout")
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
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}
	inOrder(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the server answered 401 Unauthorized: Incorrect API key provided.",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model request failed: chat completions: the server answered 429 Too Many Requests: Rate limit reached for requests",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model request failed: chat completions: the server answered 500 Internal Server Error: The server had an error while processing your request.",
		"loop ended: 1 turn, stop reason error",
		"turn 1 · model said: The answer is", // all the text that arrived, up to the chunk cut off
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
// whole or in any piece of 8 characters, even when the server quotes it
// back: in its error, at the end of a long redirect's address, which the
// message cuts, and JSON-escaped in a call's arguments, which the tool's
// error quotes.
func TestTheKeyNeverShows(t *testing.T) {
	const key = "sk-sentinel-7Hq2Zx9Lw4aB3cD5eF"
	t.Setenv("OPENAI_API_KEY", key)
	escaped := ""
	for _, r := range key {
		escaped += fmt.Sprintf(`\\u%04x`, r) // escaped in the arguments, which are a string
	}
	args := func(text string) string {
		return `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_k","function":{"name":"weather","arguments":` + strconv.Quote(text) + `}}]}}]}` + "\n\n" +
			`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	}
	srv := startFixtureServer(t,
		response{status: http.StatusUnauthorized, body: `{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error"}}`},
		response{respond: func(w http.ResponseWriter, _ *http.Request) {
			// The key starts at character 181; the message keeps 200.
			w.Header().Set("Location", "https://proxy.example/"+strings.Repeat("v1/", 52)+"?k="+key)
			w.WriteHeader(http.StatusFound)
		}},
		response{stream: args(`{"city":"` + escaped + `"}`)},
		response{fixture: "text"},
		response{stream: args(`{"city": "` + escaped + `", oops}`)},
		response{fixture: "text"},
		response{fixture: "tool-call-in-pieces"},
		response{fixture: "text"},
	)
	rec := filepath.Join(t.TempDir(), "session.json")
	c := startLiveChat("-chat", "-model-name", "test-model", "-base-url", srv.URL, "-record", rec)
	for i, prompt := range []string{"What is 23 × 17?", "And now?", "Weather there?", "And there?", "Try again: what is 23 × 17?"} {
		c.typeLine(t, prompt)
		c.stdout.await(t, "the agent's history holds", i+1)
	}
	if !expected.Equal(t, 0, c.end(), "the session ends with status 0 (standard error: %s)", c.stderr) {
		return
	}

	recording, err := os.ReadFile(rec)
	if !expected.NoError(t, err, "read the recording") {
		return
	}
	inOrder(t, c.stdout.String(),
		"turn 1 · model request failed: chat completions: the server answered 401 Unauthorized: Incorrect API key provided: [redacted].",
		"turn 1 · done call_k weather ⇒ error: no weather station in [redacted]",
		`turn 1 · done call_2 weather ⇒ error: Validation failed for tool "weather": arguments are not valid JSON: invalid character 'o' looking for beginning of object key string. Received arguments: {"city": "[redacted]", oops}`,
	)
	expected.Contains(t, c.stdout.String(), "v1/?k=[redacted]; point the base URL there", "the key is redacted before the message cuts the address")
	for name, text := range map[string]string{"standard output": c.stdout.String(), "standard error": c.stderr.String(), "the recording": string(recording)} {
		for i := 0; i+8 <= len(key); i++ {
			expected.NotContains(t, text, key[i:i+8], "no %d characters of the key in a row show in %s", 8, name)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for i, h := range srv.headers {
		expected.Equal(t, "Bearer "+key, h.Get("Authorization"), "request %d carries the key", i+1)
	}
}
