package chatcompletions

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// failedReply asks srv's model for a reply that must fail, with the
// sentinel key, and returns the error after checking what every failure
// must be: one line, no key in it, no reply, and the response closed.
func failedReply(t *testing.T, srv *fixtureServer, cfg Config) error {
	t.Helper()
	cfg.APIKey = sentinelKey()
	reply, err := srv.model(t, cfg).Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
	require.Error(t, err)
	assert.Zero(t, reply, "a failed request has no reply")
	assert.NotContains(t, err.Error(), "\n", "an error message is one line")
	requireNoKey(t, err)
	synctest.Wait()
	srv.requireHungUp(t)
	return err
}

func TestReplyReportsTheServersError(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        string
	}{
		{
			name:        "401 OpenAI",
			status:      http.StatusUnauthorized,
			contentType: "application/json",
			body:        `{"error":{"message":"Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			want:        "chat completions: the server answered 401 Unauthorized: Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.",
		},
		{
			name:        "429",
			status:      http.StatusTooManyRequests,
			contentType: "application/json; charset=utf-8",
			body:        `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			want:        "chat completions: the server answered 429 Too Many Requests: Rate limit reached for requests",
		},
		{
			name:        "500",
			status:      http.StatusInternalServerError,
			contentType: "application/json",
			body:        `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`,
			want:        "chat completions: the server answered 500 Internal Server Error: The server had an error while processing your request. Sorry about that!",
		},
		{
			name:        "404 Ollama, model not pulled",
			status:      http.StatusNotFound,
			contentType: "application/json",
			body:        `{"error":{"message":"model \"qwen3:8b\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`,
			want:        `chat completions: the server answered 404 Not Found: model "qwen3:8b" not found, try pulling it first`,
		},
		{
			name:        "error as a plain string",
			status:      http.StatusBadRequest,
			contentType: "application/json",
			body:        `{"error":"Unexpected endpoint or method. (POST /v1/chat/completion)"}`,
			want:        "chat completions: the server answered 400 Bad Request: Unexpected endpoint or method. (POST /v1/chat/completion)",
		},
		{
			name:        "message at the top level",
			status:      http.StatusBadRequest,
			contentType: "application/json",
			body:        `{"object":"error","message":"This model's maximum context length is 4096 tokens.\nPlease reduce the length of the messages.","type":"BadRequestError","param":null,"code":400}`,
			want:        "chat completions: the server answered 400 Bad Request: This model's maximum context length is 4096 tokens. Please reduce the length of the messages.",
		},
		{
			name:        "the name of an exception and its message",
			status:      http.StatusInternalServerError,
			contentType: "application/json",
			body:        `{"error":"TypeError","message":"Cannot read properties of undefined (reading 'map')"}`,
			want:        "chat completions: the server answered 500 Internal Server Error: TypeError: Cannot read properties of undefined (reading 'map')",
		},
		{
			name:        "detail",
			status:      http.StatusNotFound,
			contentType: "application/json",
			body:        `{"detail":"Not Found"}`,
			want:        "chat completions: the server answered 404 Not Found: Not Found",
		},
		{
			name:        "plain text",
			status:      http.StatusServiceUnavailable,
			contentType: "text/plain",
			body:        "upstream connect error\nor disconnect/reset before headers\n",
			want:        "chat completions: the server answered 503 Service Unavailable: upstream connect error or disconnect/reset before headers",
		},
		{
			name:        "HTML page",
			status:      http.StatusBadGateway,
			contentType: "text/html",
			body:        "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n",
			want:        "chat completions: the server answered 502 Bad Gateway",
		},
		{
			name:   "no body",
			status: http.StatusInternalServerError,
			want:   "chat completions: the server answered 500 Internal Server Error",
		},
		{
			name:        "a long message",
			status:      http.StatusBadRequest,
			contentType: "application/json",
			body:        `{"error":{"message":"` + strings.Repeat("ab ", 100) + `"}}`,
			want:        "chat completions: the server answered 400 Bad Request: " + strings.Repeat("ab ", 66) + "ab…",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, respondWith(tt.status, tt.contentType, tt.body))
				err := failedReply(t, srv, Config{})
				assert.Equal(t, tt.want, err.Error())
			})
		})
	}
}

func TestReplyRejectsABrokenStream(t *testing.T) {
	tests := []struct {
		fixture string
		want    string
	}{
		{"cut-off.sse", "chat completions: the stream ended before the reply did: no finish_reason and no data: [DONE]"},
		{"malformed-line.sse", `chat completions: malformed server-sent event: line 3 is "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"finish_reason\":\"stop\"}]}", not a field such as data: {...}`},
		{"malformed-json.sse", `chat completions: malformed JSON in the chunk at line 3 (unexpected end of JSON input): "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"finish_reason\":\"stop\"}]"`},
		{"error-mid-stream.sse", "chat completions: the server reported an error mid-stream: The server had an error while processing your request."},
		{"error-event.sse", "chat completions: the server reported an error mid-stream: model runner stopped unexpectedly"},
		{"error-object-vllm.sse", "chat completions: the stream ended before the reply did: no finish_reason and no data: [DONE]; the server had reported an error: The model ran out of memory."},
		{"done-before-finish.sse", "chat completions: the stream sent data: [DONE] at line 3, before a finish_reason said how the reply ended"},
		{"content-filter.sse", "chat completions: the server's content filter stopped the reply (finish_reason content_filter)"},
		{"unknown-finish-reason.sse", `chat completions: the reply ended with finish_reason "abort", which is none of stop, end, tool_calls, function_call and length`},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.fixture, ".sse"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, sse(t, tt.fixture))
				err := failedReply(t, srv, Config{})
				assert.Equal(t, tt.want, err.Error())
			})
		})
	}
}

func TestReplyFailsWhenTheConnectionBreaksOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"The answer"}}]}`+"\n\n")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the server drops the connection
		})
		err := failedReplyAfterAbort(t, srv)
		// The cause is the network's: "unexpected EOF" on TCP, "read/write
		// on closed pipe" on the tests' in-memory network.
		assert.True(t, strings.HasPrefix(err.Error(), "chat completions: the stream broke off after line 2: "), err.Error())
	})
}

// failedReplyAfterAbort is failedReply for a handler that panics: it never
// reaches the wait for the hang-up.
func failedReplyAfterAbort(t *testing.T, srv *fixtureServer) error {
	t.Helper()
	_, err := srv.model(t, Config{APIKey: sentinelKey()}).Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
	require.Error(t, err)
	requireNoKey(t, err)
	return err
}

// stallAfter is a server that streams each of texts as a chunk of text, if
// any, then sends nothing more until the client hangs up.
func stallAfter(texts ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if len(texts) > 0 {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, text := range texts {
				chunk, _ := json.Marshal(text)
				_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":`+string(chunk)+`}}]}`+"\n\n")
			}
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}
}

func TestReplyGivesUpOnAServerThatStalls(t *testing.T) {
	tests := []struct {
		name      string
		firstWord bool // whether the server sends a first chunk before it stalls
	}{
		{name: "before the response", firstWord: false},
		{name: "mid-stream", firstWord: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var first []string
				if tt.firstWord {
					first = []string{"Thinking"}
				}
				srv := startServer(t, stallAfter(first...))
				start := time.Now()
				err := failedReply(t, srv, Config{IdleTimeout: 90 * time.Second})
				assert.Equal(t, "chat completions: the server sent no data for 1m30s (the idle timeout)", err.Error())
				assert.Equal(t, 90*time.Second, time.Since(start), "Reply gives up once the server has sent nothing for the idle timeout")
			})
		})
	}
}

// trickle is a server that streams each of texts as a chunk of text, then
// sends keep, which carries no data, once a second, a thousand times, then
// nothing until the client hangs up.
func trickle(keep string, texts ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, text := range texts {
			chunk, _ := json.Marshal(text)
			_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":`+string(chunk)+`}}]}`+"\n\n")
		}
		w.(http.Flusher).Flush()
		for range 1000 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
			if _, err := io.WriteString(w, keep); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}
}

// TestTheIdleTimeoutCountsOnlyData: a server that sends, once a second, a
// blank line or a comment such as ": ping", which carry no data, does not
// keep a request alive past the idle timeout. It kept it alive for as long
// as it trickled. The text that arrived before stays.
func TestTheIdleTimeoutCountsOnlyData(t *testing.T) {
	for name, keep := range map[string]string{"a blank line": "\n", "a comment": ": ping\n", "an event without data": "event: ping\n\n"} {
		for _, first := range [][]string{nil, {"Thinking", " hard"}} {
			t.Run(fmt.Sprintf("%s, after %d chunks", name, len(first)), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					srv := startServer(t, trickle(keep, first...))
					start := time.Now()
					var text strings.Builder
					_, err := srv.model(t, Config{IdleTimeout: 3 * time.Second, APIKey: sentinelKey()}).Reply(context.Background(), fakemodel.Request{
						Messages: weatherQuestion,
						OnText:   func(s string) { text.WriteString(s) },
					})
					require.Error(t, err)
					requireNoKey(t, err)
					assert.Equal(t, "chat completions: the server sent no data for 3s (the idle timeout)", err.Error())
					assert.Equal(t, 3*time.Second, time.Since(start), "Reply gives up once the server has sent no data for the idle timeout")
					assert.Equal(t, strings.Join(first, ""), text.String(), "the text that arrived stays")
					synctest.Wait()
					srv.requireHungUp(t)
				})
			})
		}
	}
}

// TestARequestHasAnOverallBound: a server that sends a chunk of data every
// second, for ever, ends the request at the request timeout, with one line
// that says so; without one, it ran for as long as the server sent.
func TestARequestHasAnOverallBound(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want time.Duration
	}{
		{Config{RequestTimeout: 90 * time.Second}, 90 * time.Second},
		{Config{}, DefaultRequestTimeout},
	} {
		synctest.Test(t, func(t *testing.T) {
			endless := `data: {"choices":[{"index":0,"delta":{"content":"."}}]}` + "\n\n"
			srv := startServer(t, trickle(endless))
			start := time.Now()
			tt.cfg.APIKey = sentinelKey()
			_, err := srv.model(t, tt.cfg).Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
			require.Error(t, err)
			requireNoKey(t, err)
			assert.Equal(t, fmt.Sprintf("chat completions: no whole reply within %v (the request timeout)", tt.want), err.Error())
			assert.Equal(t, tt.want, time.Since(start), "Reply gives up at the request timeout")
			synctest.Wait()
			srv.requireHungUp(t)
		})
	}
}

func TestReplyGivesUpWhenConnectingTakesTooLong(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A host that never completes the connection.
		m, err := newModel(Config{BaseURL: "http://fixture.test/v1", ModelName: "test-model", APIKey: sentinelKey()}, func(ctx context.Context, _, _ string) (net.Conn, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		require.NoError(t, err)
		start := time.Now()
		_, err = m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
		require.Error(t, err)
		requireNoKey(t, err)
		assert.Equal(t, "chat completions: no connection to fixture.test:80 within 10s (the connect timeout)", err.Error())
		assert.Equal(t, DefaultConnectTimeout, time.Since(start))
	})
}

func TestReplyFailsOnAnOversizedResponse(t *testing.T) {
	const limit = 4096
	var stream strings.Builder
	for stream.Len() <= limit {
		stream.WriteString(`data: {"choices":[{"index":0,"delta":{"content":"more "}}]}` + "\n\n")
	}
	tests := map[string]string{
		"many chunks": stream.String(),
		"one line":    "data: " + strings.Repeat("x", 2*limit) + "\n\n",
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, respondWith(http.StatusOK, "text/event-stream", body))
				err := failedReply(t, srv, Config{MaxResponseBytes: limit})
				assert.Equal(t, "chat completions: the response is larger than 4096 bytes (the response size limit)", err.Error())
			})
		})
	}
}

func TestReplyFailsOnAJSONDocumentInsteadOfAStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, respondWith(http.StatusOK, "application/json", `{"error":{"message":"streaming is not supported"}}`))
		err := failedReply(t, srv, Config{})
		assert.Equal(t, "chat completions: the server sent one JSON document, not a stream of events: streaming is not supported", err.Error())
	})
}

// TestAFirstTimeMistakeSaysWhatToDo: a base URL without /v1 is the usual
// mistake with a local server, and its 404 says to add it.
func TestAFirstTimeMistakeSaysWhatToDo(t *testing.T) {
	for _, base := range []string{"", "/"} {
		synctest.Test(t, func(t *testing.T) {
			srv := startServer(t, respondWith(http.StatusNotFound, "text/plain", "404 page not found\n"))
			m, err := newModel(Config{BaseURL: srv.URL + base, ModelName: "qwen3:8b", APIKey: sentinelKey()}, srv.network.dial)
			require.NoError(t, err)
			_, err = m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
			require.Error(t, err)
			assert.Equal(t, "chat completions: the server answered 404 Not Found: 404 page not found; add /v1 to the base URL: "+srv.URL+"/v1", err.Error())
			synctest.Wait()
			srv.requireHungUp(t)
		})
	}
}

func TestReplyDoesNotFollowARedirect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "https://fixture.test/v1/chat/completions")
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusMovedPermanently)
		})
		err := failedReply(t, srv, Config{})
		assert.Equal(t, "chat completions: the server answered 301 Moved Permanently: it moved to https://fixture.test/v1/chat/completions; point the base URL there", err.Error())
	})
}

// TestReplyStopsWhenCancelled is Ctrl-C: the user cancels while the reply
// streams in, or while the model still thinks.
func TestReplyStopsWhenCancelled(t *testing.T) {
	tests := []struct {
		name      string
		firstWord bool
	}{
		{name: "mid-stream", firstWord: true},
		{name: "before the response", firstWord: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var first []string
				if tt.firstWord {
					first = []string{"one", " two"}
				}
				srv := startServer(t, stallAfter(first...))
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var chunks []string
				onText := func(chunk string) {
					chunks = append(chunks, chunk)
					cancel() // Ctrl-C while the first words show
				}
				if !tt.firstWord {
					go func() {
						synctest.Wait() // the request is out; the server thinks
						cancel()
					}()
				}
				start := time.Now()
				reply, err := srv.model(t, Config{APIKey: sentinelKey()}).Reply(ctx, fakemodel.Request{Messages: weatherQuestion, OnText: onText})
				require.ErrorIs(t, err, context.Canceled, "a cancelled request's error wraps ctx.Err(), so the loop can tell it from a failure")
				requireNoKey(t, err)
				assert.Equal(t, "chat completions: context canceled", err.Error())
				assert.Zero(t, reply)
				assert.Zero(t, time.Since(start), "a cancelled request ends at once, not at a timeout")
				if tt.firstWord {
					// The key's characters at the end of a piece wait for
					// the next one: "o" passes, "ne" may start the key.
					assert.Equal(t, []string{"o"}, chunks, "no text may reach OnText after the cancellation")
				}
				synctest.Wait()
				srv.requireHungUp(t)
			})
		})
	}
}

func TestReplySendsNothingWhenAlreadyCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, sse(t, "text.sse"))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := srv.model(t, Config{}).Reply(ctx, fakemodel.Request{Messages: weatherQuestion})
		require.ErrorIs(t, err, context.Canceled)
		synctest.Wait()
		srv.mu.Lock()
		defer srv.mu.Unlock()
		assert.Empty(t, srv.bodies, "a cancelled context sends no request")
	})
}

func TestReplyCannotReachAServerThatIsNotRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, err := newModel(Config{BaseURL: "http://fixture.test/v1", ModelName: "test-model", APIKey: sentinelKey()}, func(context.Context, string, string) (net.Conn, error) {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
		})
		require.NoError(t, err)
		_, err = m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
		require.Error(t, err)
		requireNoKey(t, err)
		assert.Equal(t, "chat completions: cannot reach http://fixture.test/v1: dial tcp: connect: connection refused", err.Error())
	})
}

func TestReplyFailsOnAServerThatDoesNotSpeakHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A base URL that points at the wrong port: an SSH server.
		sshServer := func(context.Context, string, string) (net.Conn, error) {
			server, client := net.Pipe()
			go func() {
				defer server.Close()
				// It reads the request, then says who it is.
				req, err := http.ReadRequest(bufio.NewReader(server))
				if err == nil {
					_, _ = io.Copy(io.Discard, req.Body)
				}
				_, _ = io.WriteString(server, "SSH-2.0-OpenSSH_9.6\r\n")
			}()
			return client, nil
		}
		m, err := newModel(Config{BaseURL: "http://fixture.test:22/v1", ModelName: "test-model", APIKey: sentinelKey()}, sshServer)
		require.NoError(t, err)
		_, err = m.Reply(context.Background(), fakemodel.Request{Messages: weatherQuestion})
		require.Error(t, err)
		requireNoKey(t, err)
		// How net/http words the cause depends on which of its
		// goroutines notices first.
		assert.True(t, strings.HasPrefix(err.Error(), "chat completions: the request to http://fixture.test:22/v1 failed: "), err.Error())
		assert.Contains(t, err.Error(), `malformed HTTP response "SSH-2.0-OpenSSH_9.6"`)
	})
}
