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
func sentinelKey() APIKey {
	k := sentinel
	return APIKey{key: &k}
}

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
						assert.Contains(t, err.Error(), "Bearer [redacted]", "the server's message shows, with the key replaced")
					}
				})
			})
		}
	}
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

// TestAKeyCutShortIsDroppedToo: where a text the model reads goes on past
// what it keeps, the key may be cut in two; its first part is dropped.
func TestAKeyCutShortIsDroppedToo(t *testing.T) {
	key := sentinelKey()
	for _, tt := range []struct{ in, want string }{
		{"denied: " + sentinel, "denied: [redacted]"},
		{"denied: " + sentinel[:20], "denied: "},
		{"denied: s", "denied: "}, // one byte that may start the key
		{"denied: x", "denied: x"},
		{"denied", "denied"},
		{"", ""},
	} {
		assert.Equal(t, tt.want, string(key.redactStart([]byte(tt.in))), "%q", tt.in)
	}
	assert.Equal(t, "denied: sk-", string(APIKey{}.redactStart([]byte("denied: sk-"))), "no key, nothing to drop")

	var held, passed string
	for _, piece := range []string{"a ", sentinel[:5], sentinel[5:30], sentinel[30:] + " b", " s"} {
		passed += key.redactPiece(&held, piece)
	}
	assert.Equal(t, "a [redacted] b ", passed)
	assert.Equal(t, "s", held, "held back: it may start the key")
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
