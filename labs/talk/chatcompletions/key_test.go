package chatcompletions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// sentinel is a key that must never show: every failure test sends it, and
// checks that the error does not hold it.
const sentinel = "sk-SENTINEL-must-never-show-4f1c9a"

// sentinelKey returns the sentinel as an APIKey, as APIKeyFromEnv would.
func sentinelKey() APIKey { return newAPIKey(sentinel) }

// requireNoKey fails the test if err shows the sentinel key, or a piece of
// it long enough to matter, in any of the ways a program may print it.
func requireNoKey(t *testing.T, err error) {
	t.Helper()
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		requireNoPieceOfKey(t, fmt.Sprintf(verb, err), "the key must not show in an error printed with "+verb)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		requireNoPieceOfKey(t, e.Error(), "the key must not show in an error that the error wraps")
	}
}

// keyPiece is the length of the shortest piece of the sentinel that
// requireNoPieceOfKey looks for: "sk-SENTI" and every later 8 bytes. A key
// cut short by an error message's length limit still gives most of it away.
const keyPiece = 8

// requireNoPieceOfKey fails the test if text holds keyPiece bytes in a row
// of the sentinel key.
func requireNoPieceOfKey(t *testing.T, text, msg string) {
	t.Helper()
	for i := 0; i+keyPiece <= len(sentinel); i++ {
		require.NotContains(t, text, sentinel[i:i+keyPiece], msg)
	}
}

func TestTheKeyNeverPrints(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", sentinel)
	cfg := Config{BaseURL: "http://localhost:11434/v1", ModelName: "qwen3:8b", APIKey: APIKeyFromEnv()}
	require.True(t, cfg.APIKey.IsSet())
	m, err := New(cfg)
	require.NoError(t, err)
	// A program's own options, holding the config where fmt cannot call
	// its methods: in an unexported field.
	type options struct {
		cfg   Config
		model *Model
	}
	values := map[string]any{
		"the key":               cfg.APIKey,
		"the config":            cfg,
		"a pointer to it":       &cfg,
		"the model":             m,
		"an unexported field":   options{cfg: cfg, model: m},
		"a pointer to a struct": &options{cfg: cfg, model: m},
	}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			assert.NotContains(t, fmt.Sprintf(verb, v), sentinel, "%s printed with %s", name, verb)
		}
		encoded, err := json.Marshal(v)
		require.NoError(t, err)
		assert.NotContains(t, string(encoded), sentinel, "%s encoded as JSON", name)
	}
	assert.Equal(t, "[redacted]", fmt.Sprint(cfg.APIKey))
	assert.Equal(t, "[none]", fmt.Sprint(APIKey{}))
	assert.Equal(t, "qwen3:8b at http://localhost:11434/v1", fmt.Sprint(m))
	assert.Equal(t, "chatcompletions.Model(qwen3:8b at http://localhost:11434/v1)", fmt.Sprintf("%#v", m))
}

// TestTheKeyNeverPrintsWhenTheServerQuotesIt covers a server that puts the
// header it received into its error message.
func TestTheKeyNeverPrintsWhenTheServerQuotesIt(t *testing.T) {
	tests := map[string]func(auth string) (status int, contentType, body string){
		"in a JSON error body": func(auth string) (int, string, string) {
			return http.StatusUnauthorized, "application/json", fmt.Sprintf(`{"error":{"message":%q}}`, "invalid header "+auth)
		},
		"in a text body": func(auth string) (int, string, string) {
			return http.StatusForbidden, "text/plain", fmt.Sprintf("denied: %s\n", auth)
		},
		"in an error mid-stream": func(auth string) (int, string, string) {
			return http.StatusOK, "text/event-stream", fmt.Sprintf("data: {\"error\":%q}\n\n", auth)
		},
		"in a malformed line": func(auth string) (int, string, string) {
			return http.StatusOK, "text/event-stream", fmt.Sprintf("%s\n\n", auth)
		},
		"in a malformed chunk": func(auth string) (int, string, string) {
			return http.StatusOK, "text/event-stream", fmt.Sprintf("data: {%s\n\n", auth)
		},
		"in a finish reason": func(auth string) (int, string, string) {
			return http.StatusOK, "text/event-stream", fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}]}\n\ndata: [DONE]\n\n", auth)
		},
		"JSON-escaped in an error body": func(auth string) (int, string, string) {
			return http.StatusUnauthorized, "application/json", fmt.Sprintf(`{"error":{"message":"invalid header %s"}}`, jsonEscapeAll(auth))
		},
		"JSON-escaped in a malformed chunk": func(auth string) (int, string, string) {
			return http.StatusOK, "text/event-stream", fmt.Sprintf("data: {\"x\":\"%s\"\n\n", jsonEscapeAll(auth))
		},
	}
	// An error message quotes the start of what the server sent, up to a
	// limit: the key must not show whole, nor cut at that limit.
	padding := map[string]string{
		"":                       "",
		", cut at the key":       strings.Repeat("x", maxQuote-25) + " ",
		", after 64 KiB of text": strings.Repeat(" ", 64<<10-25),
	}
	for name, respond := range tests {
		for where, pad := range padding {
			t.Run(name+where, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
						status, contentType, body := respond(pad + r.Header.Get("Authorization"))
						respondWith(status, contentType, body)(w, r)
					})
					err := failedReply(t, srv, Config{})
					if pad == "" {
						assert.Contains(t, err.Error(), "[redacted]", "the server's message shows, with the key replaced")
					}
				})
			})
		}
	}
}

// jsonEscapeAll writes every character of s as a JSON \u escape, as a
// server may write a key's "-" as "\u002d".
func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// TestTheKeyNeverShowsInARedirect: a redirect's Location is quoted in the
// error, cut to its first 200 characters; an address that ends in the key
// must not give away the part of the key before the cut.
func TestTheKeyNeverShowsInARedirect(t *testing.T) {
	for _, pad := range []int{0, maxQuote - 40, maxQuote - 25, maxQuote - 10} {
		t.Run(fmt.Sprintf("the key after %d characters", pad), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
					key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
					w.Header().Set("Location", "https://fixture.test/"+strings.Repeat("p", pad)+"?k="+key)
					w.Header().Set("Content-Length", "0")
					w.WriteHeader(http.StatusFound)
				})
				err := failedReply(t, srv, Config{})
				assert.Contains(t, err.Error(), "302 Found: it moved to https://fixture.test/")
			})
		})
	}
}

// TestTheKeyNeverShowsEscaped: a server may write the key's characters as
// JSON escapes, in a piece of text, in a call's arguments, ID or name, or in
// the model's reasoning. Decoded, they are the key, and are redacted.
func TestTheKeyNeverShowsEscaped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
			escaped := jsonEscapeAll(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			chunk := func(delta string) string {
				return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
			}
			body := chunk(`{"reasoning_content":"The key is `+escaped+`."}`) +
				chunk(`{"content":"Your key: `+escaped+`."}`) +
				// In the arguments, escaped once in the string that holds
				// them, and once more inside: a string in a string.
				chunk(`{"tool_calls":[{"index":0,"id":"`+escaped+`","function":{"name":"`+escaped+`","arguments":"{\"q\":\"`+strings.ReplaceAll(escaped, `\`, `\\`)+`\"}"}}]}`) +
				chunk(`{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"notes","arguments":"{\"q\": `+strings.ReplaceAll(escaped, `\`, `\\`)+`}"}}]}`) +
				"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
			respondWith(http.StatusOK, "text/event-stream", body)(w, r)
		})
		var thinking strings.Builder
		ctx := fakemodel.WithOnThinking(context.Background(), func(s string) { thinking.WriteString(s) })
		reply, err := srv.model(t, Config{APIKey: sentinelKey()}).Reply(ctx, fakemodel.Request{Messages: weatherQuestion})
		require.NoError(t, err)
		assert.Equal(t, "The key is [redacted].", thinking.String())
		assert.Equal(t, "Your key: [redacted].", reply.Text)
		require.Len(t, reply.ToolCalls, 2)
		assert.Equal(t, fakemodel.ToolCall{ID: "[redacted]", Name: "[redacted]", Arguments: json.RawMessage(`{"q":"[redacted]"}`)}, reply.ToolCalls[0])
		assert.Equal(t, `{"q": [redacted]}`, string(reply.ToolCalls[1].Arguments), "arguments that cannot be read stay as they are, without the key")
		requireNoPieceOfKey(t, fmt.Sprint(reply), "the reply")
	})
}

var _ fakemodel.Model = (*Model)(nil)

// TestTheKeyNeverReachesTheHistory covers a server whose reply quotes the
// header it received: the reply's text goes to the history, the screen and
// a recording, so the key is redacted there too, even when the server
// splits it over two pieces of text or of a call's arguments.
func TestTheKeyNeverReachesTheHistory(t *testing.T) {
	for cut := range len(sentinel) + 1 {
		t.Run(fmt.Sprintf("cut after %d bytes of the key", cut), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
					auth := r.Header.Get("Authorization")
					at := len("Bearer ") + cut
					chunk := func(delta string) string {
						return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
					}
					text := func(s string) string { return chunk(fmt.Sprintf(`{"content":%q}`, s)) }
					args := func(s string) string {
						return chunk(fmt.Sprintf(`{"tool_calls":[{"index":0,"id":"call_k","function":{"name":"notes","arguments":%q}}]}`, s))
					}
					body := text("You sent "+auth[:at]) + text(auth[at:]+".") +
						args(`{"text":"`+auth[:at]) + args(auth[at:]+`"}`) +
						"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
					respondWith(http.StatusOK, "text/event-stream", body)(w, r)
				})
				var streamed strings.Builder
				reply, err := srv.model(t, Config{APIKey: sentinelKey()}).Reply(context.Background(), fakemodel.Request{
					Messages: weatherQuestion,
					OnText:   func(s string) { streamed.WriteString(s) },
				})
				require.NoError(t, err)
				assert.Equal(t, "You sent Bearer [redacted].", reply.Text)
				assert.Equal(t, reply.Text, streamed.String(), "the streamed text is the reply's")
				require.Len(t, reply.ToolCalls, 1)
				assert.JSONEq(t, `{"text":"Bearer [redacted]"}`, string(reply.ToolCalls[0].Arguments))
			})
		})
	}
}

// TestAnErrorBodyCutByTheSizeLimitShowsNoKey: the response size limit may
// cut an error body inside the key.
func TestAnErrorBodyCutByTheSizeLimitShowsNoKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
			respondWith(http.StatusForbidden, "text/plain", "denied: "+r.Header.Get("Authorization")+"\n")(w, r)
		})
		err := failedReply(t, srv, Config{MaxResponseBytes: 40})
		assert.Contains(t, err.Error(), "403 Forbidden: denied: Bearer")
	})
}
