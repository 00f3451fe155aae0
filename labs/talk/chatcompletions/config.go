package chatcompletions

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultBaseURL is the address of Ollama's OpenAI-compatible API on the
// machine it runs on. [BaseURLFromEnv] falls back to it.
const DefaultBaseURL = "http://localhost:11434/v1"

// The limits a zero field of [Config] stands for.
const (
	// DefaultConnectTimeout bounds connecting to the server.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultIdleTimeout is long, because a model on a laptop may think
	// for a minute before its first word: it reads the whole history
	// first, and the first request may wait for the model to load.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultRequestTimeout is the time OpenAI's SDK, which pi-ai uses,
	// gives a request by default. There it bounds only the wait for the
	// response's headers, and a stream may go on for ever; here it bounds
	// the whole request, from the connection to the reply's end, which a
	// reply of a few thousand words from a slow model still fits in.
	DefaultRequestTimeout = 10 * time.Minute
	// DefaultMaxResponseBytes is far more than a reply needs: each word of
	// a streamed reply costs about 200 bytes of JSON.
	DefaultMaxResponseBytes = 16 << 20
)

// A Config says which server and model to talk to, and the limits that keep
// a request from hanging or growing without end.
type Config struct {
	// BaseURL is the API's address without the path /chat/completions,
	// such as http://localhost:11434/v1 for Ollama or
	// https://api.openai.com/v1 for OpenAI. [BaseURLFromEnv] gives the
	// usual default.
	BaseURL string
	// ModelName is the model the server should run, such as "qwen3:8b"
	// for Ollama (one that `ollama list` shows) or "gpt-4.1-mini" for
	// OpenAI. Local servers that run one model may accept any name.
	ModelName string
	// APIKey, if set, is sent as "Authorization: Bearer". Local servers
	// need none. The only way to set it is [APIKeyFromEnv].
	APIKey APIKey
	// ConnectTimeout bounds connecting to the server, TLS handshake
	// included. Zero means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// IdleTimeout is the longest the server may send no data, once the
	// request is sent: while the model reads the history before its first
	// word, and between two chunks of its reply. Blank lines and comments such as ": ping",
	// which servers send to keep a connection open, are no data. Zero
	// means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// RequestTimeout is the longest a whole request may take, from
	// connecting to the reply's end, however steadily the server sends.
	// Zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxResponseBytes caps the size of one response, as it arrives
	// before decoding. Zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// BaseURLFromEnv returns the OPENAI_BASE_URL environment variable, the
// variable OpenAI's own SDKs read, or [DefaultBaseURL] if it is not set.
func BaseURLFromEnv() string {
	if u := strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")); u != "" {
		return u
	}
	return DefaultBaseURL
}

// An APIKey is the secret that authorizes requests to a hosted API. It
// never prints: every fmt verb shows "[redacted]", or "[none]" for the zero
// APIKey, and it encodes to JSON as {}. The key itself sits behind a
// pointer, so that even a struct that holds an APIKey in an unexported
// field, which fmt prints without calling String, shows an address and not
// the key.
type APIKey struct {
	key *string
}

// APIKeyFromEnv reads the key from the OPENAI_API_KEY environment variable.
// An unset or empty variable gives the zero APIKey: no key is sent. The key
// is read from the environment, never from a flag, because a flag shows in
// the shell's history and in the list of running processes.
func APIKeyFromEnv() APIKey {
	return newAPIKey(strings.TrimSpace(os.Getenv("OPENAI_API_KEY")))
}

// newAPIKey returns key as an APIKey: the zero APIKey if key is empty.
func newAPIKey(key string) APIKey {
	if key == "" {
		return APIKey{}
	}
	return APIKey{key: &key}
}

// IsSet reports whether there is a key to send.
func (k APIKey) IsSet() bool { return k.key != nil }

// String returns "[redacted]" if a key is set and "[none]" otherwise.
func (k APIKey) String() string {
	if k.IsSet() {
		return "[redacted]"
	}
	return "[none]"
}

// GoString is what %#v prints: the same as String.
func (k APIKey) GoString() string { return k.String() }

// redact replaces the key in s, and every run of minPiece or more of its
// characters in a row, written as they are or escaped (see unit), with
// "[redacted]". A server may quote the header it rejected in its error
// message, cut short, and that message ends up in the history.
func (k APIKey) redact(s string) string {
	if !k.IsSet() {
		return s
	}
	return newSecret(*k.key).redact(s)
}

// redactBytes is redact for what the server sent, such as the start of an
// error body, before anything decodes or quotes it.
func (k APIKey) redactBytes(b []byte) []byte {
	if !k.IsSet() {
		return b
	}
	if s := k.redact(string(b)); s != string(b) {
		return []byte(s)
	}
	return b
}

// withDefaults returns c with its zero limits replaced by the defaults.
func (c Config) withDefaults() Config {
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return c
}

// endpoint checks c and returns the URL that requests go to.
func (c Config) endpoint() (*url.URL, error) {
	if strings.TrimSpace(c.ModelName) == "" {
		return nil, errors.New("no model name: name the model the server should run, such as one that `ollama list` shows")
	}
	if c.ConnectTimeout < 0 || c.IdleTimeout < 0 || c.RequestTimeout < 0 || c.MaxResponseBytes < 0 {
		return nil, fmt.Errorf("negative limit: connect timeout %v, idle timeout %v, request timeout %v, max response bytes %d; use 0 for the default", c.ConnectTimeout, c.IdleTimeout, c.RequestTimeout, c.MaxResponseBytes)
	}
	raw := strings.TrimSpace(c.BaseURL)
	if !strings.Contains(raw, "://") {
		// "localhost:11434/v1" and "127.0.0.1:11434/v1" look right, and
		// fail: a URL starts with its scheme.
		if u, err := url.Parse("http://" + raw); err == nil && u.Host != "" {
			return nil, fmt.Errorf("base URL %q has no scheme: add http://, as in %s", u.Redacted()[len("http://"):], u.Redacted())
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %v", c.BaseURL, errors.Unwrap(err))
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q: want http:// or https:// and a host, such as %s", u.Redacted(), DefaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q: a base URL has no query or fragment", u.Redacted())
	}
	base := strings.TrimRight(u.Path, "/")
	if strings.HasSuffix(base, "/chat/completions") {
		return nil, fmt.Errorf("base URL %q: leave out /chat/completions, which the request adds", u.Redacted())
	}
	u.Path = base + "/chat/completions"
	u.RawPath = ""
	return u, nil
}
