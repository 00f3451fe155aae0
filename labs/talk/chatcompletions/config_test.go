package chatcompletions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBaseURLFromEnv(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	assert.Equal(t, "http://localhost:11434/v1", BaseURLFromEnv(), "without OPENAI_BASE_URL, Ollama on this machine")
	t.Setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
	assert.Equal(t, "https://api.openai.com/v1", BaseURLFromEnv())
}

func TestAPIKeyFromEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	assert.False(t, APIKeyFromEnv().IsSet(), "an empty OPENAI_API_KEY is no key: local servers need none")
	t.Setenv("OPENAI_API_KEY", " sk-test\n")
	key := APIKeyFromEnv()
	require.True(t, key.IsSet())
	assert.Equal(t, "sk-test", *key.key, "spaces around the key are not part of it")
}

func TestNewFillsInTheDefaultLimits(t *testing.T) {
	m, err := New(Config{BaseURL: "http://localhost:11434/v1/", ModelName: "qwen3:8b"})
	require.NoError(t, err)
	assert.Equal(t, DefaultConnectTimeout, m.cfg.ConnectTimeout)
	assert.Equal(t, DefaultIdleTimeout, m.cfg.IdleTimeout)
	assert.Equal(t, DefaultRequestTimeout, m.cfg.RequestTimeout)
	assert.Equal(t, int64(DefaultMaxResponseBytes), m.cfg.MaxResponseBytes)
	assert.Equal(t, "http://localhost:11434/v1/chat/completions", m.endpoint.String(), "a trailing slash on the base URL makes no difference")

	m, err = New(Config{BaseURL: "http://localhost:8080", ModelName: "any", ConnectTimeout: time.Second, IdleTimeout: time.Minute, RequestTimeout: time.Hour, MaxResponseBytes: 1000})
	require.NoError(t, err)
	assert.Equal(t, time.Second, m.cfg.ConnectTimeout)
	assert.Equal(t, time.Minute, m.cfg.IdleTimeout)
	assert.Equal(t, time.Hour, m.cfg.RequestTimeout)
	assert.Equal(t, int64(1000), m.cfg.MaxResponseBytes)
	assert.Equal(t, "http://localhost:8080/chat/completions", m.endpoint.String())
}

func TestNewRejectsABadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{
			name: "no model name",
			cfg:  Config{BaseURL: DefaultBaseURL},
			want: "chat completions: no model name: name the model the server should run, such as one that `ollama list` shows",
		},
		{
			name: "no scheme",
			cfg:  Config{BaseURL: "localhost:11434/v1", ModelName: "m"},
			want: `chat completions: base URL "localhost:11434/v1" has no scheme: add http://, as in http://localhost:11434/v1`,
		},
		{
			name: "no scheme, an IP address",
			cfg:  Config{BaseURL: "127.0.0.1:11434/v1", ModelName: "m"},
			want: `chat completions: base URL "127.0.0.1:11434/v1" has no scheme: add http://, as in http://127.0.0.1:11434/v1`,
		},
		{
			name: "another scheme",
			cfg:  Config{BaseURL: "ftp://localhost:11434/v1", ModelName: "m"},
			want: `chat completions: base URL "ftp://localhost:11434/v1": want http:// or https:// and a host, such as http://localhost:11434/v1`,
		},
		{
			name: "not a URL",
			cfg:  Config{BaseURL: "http://local host/v1", ModelName: "m"},
			want: `chat completions: base URL "http://local host/v1": invalid character " " in host name`,
		},
		{
			name: "the whole endpoint",
			cfg:  Config{BaseURL: "http://localhost:11434/v1/chat/completions", ModelName: "m"},
			want: `chat completions: base URL "http://localhost:11434/v1/chat/completions": leave out /chat/completions, which the request adds`,
		},
		{
			name: "a query",
			cfg:  Config{BaseURL: "http://localhost:11434/v1?key=x", ModelName: "m"},
			want: `chat completions: base URL "http://localhost:11434/v1?key=x": a base URL has no query or fragment`,
		},
		{
			name: "a negative limit",
			cfg:  Config{BaseURL: DefaultBaseURL, ModelName: "m", IdleTimeout: -time.Second},
			want: "chat completions: negative limit: connect timeout 0s, idle timeout -1s, request timeout 0s, max response bytes 0; use 0 for the default",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestAPasswordInTheBaseURLDoesNotPrint(t *testing.T) {
	m, err := New(Config{BaseURL: "https://user:hunter2@proxy.example/v1", ModelName: "m"})
	require.NoError(t, err)
	assert.Equal(t, "m at https://user:xxxxx@proxy.example/v1", m.String())
}

// TestANameThatDoesNotPrintIsQuoted: a model's name comes from the command
// line, and may hold a terminal's escape sequence; the banner that names
// the model must not send it to the terminal.
func TestANameThatDoesNotPrintIsQuoted(t *testing.T) {
	m, err := New(Config{BaseURL: DefaultBaseURL, ModelName: "qwen3\x1b]0;owned\a\x1b[2J"})
	require.NoError(t, err)
	assert.Equal(t, `"qwen3\x1b]0;owned\a\x1b[2J" at http://localhost:11434/v1`, m.String())
}
