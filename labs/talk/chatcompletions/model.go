package chatcompletions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A Model is a [fakemodel.Model] that asks a real model, through a server
// that speaks the Chat Completions API. Make one with [New]. It is safe for
// concurrent use.
type Model struct {
	cfg      Config
	endpoint *url.URL
	client   *http.Client
}

// New returns a Model for cfg, with the defaults for its zero limits. It
// fails if cfg names no model or its base URL is not an http:// or
// https:// URL. It does not contact the server: the first Reply does.
func New(cfg Config) (*Model, error) {
	return newModel(cfg, (&net.Dialer{}).DialContext)
}

// A dialFunc opens a connection, as net.Dialer.DialContext does.
type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// newModel is New with its own dial. The tests pass one that serves their
// fixtures over an in-memory connection, where time can be faked.
func newModel(cfg Config, dial dialFunc) (*Model, error) {
	endpoint, err := cfg.endpoint()
	if err != nil {
		// The base URL is the user's own, but it may hold the key.
		return nil, errors.New("chat completions: " + cfg.APIKey.redact(err.Error()))
	}
	cfg = cfg.withDefaults()
	return &Model{cfg: cfg, endpoint: endpoint, client: newClient(cfg, dial)}, nil
}

// String describes the model: its name and the API's address, never the
// key. A name or an address with a character that does not print as
// itself, such as a terminal's escape, is quoted as in Go.
func (m *Model) String() string {
	return fmt.Sprintf("%s at %s", printable(m.cfg.ModelName), printable(m.baseURL()))
}

// printable returns s as it is if every character of it prints as itself,
// and quoted as in Go otherwise.
func printable(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// GoString is what %#v prints: the same as String, in the type's name.
func (m *Model) GoString() string { return fmt.Sprintf("chatcompletions.Model(%s)", m) }

// baseURL returns the base URL as it prints, with any password hidden.
func (m *Model) baseURL() string {
	u := *m.endpoint
	u.Path = m.basePath()
	return u.Redacted()
}

// basePath returns the path of the base URL.
func (m *Model) basePath() string {
	return strings.TrimSuffix(m.endpoint.Path, "/chat/completions")
}

// Reply sends the history and tools in req to the server, streams the reply's
// text to req.OnText as it arrives, and returns the reply once the stream
// has ended.
//
// It returns an error, with one line that says what happened, when the
// request fails: no connection, a status other than 2xx, a broken or
// malformed stream, an error the server reports mid-stream, one of the
// limits, or a reply that ends for a reason other than stop, tool_calls and
// length. When ctx is cancelled, the error wraps ctx.Err(). In every case
// the response is closed before Reply returns.
func (m *Model) Reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	reply, err := m.reply(ctx, req)
	if err != nil {
		return fakemodel.AssistantMessage{}, m.failure(ctx, err)
	}
	return reply, nil
}

func (m *Model) reply(ctx context.Context, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	if err := ctx.Err(); err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	body, err := requestBody(m.cfg.ModelName, req)
	if err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	// The request's own context, which its timeouts cancel, with their
	// error as the cause. ctx stays the caller's: only its cancellation is
	// a Ctrl-C.
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sendCtx, idle, stop := m.watch(reqCtx, cancel)
	defer stop()
	reply, err := m.exchange(ctx, sendCtx, idle, body, req)
	if err != nil && ctx.Err() == nil && reqCtx.Err() != nil {
		err = context.Cause(reqCtx) // a timeout, whatever the read that noticed it says
	}
	return reply, err
}

// exchange sends the request body on sendCtx and reads the reply, with the
// idle timeout idle running while it waits for the server.
func (m *Model) exchange(ctx, sendCtx context.Context, idle *idleTimer, body []byte, req fakemodel.Request) (fakemodel.AssistantMessage, error) {
	httpReq, err := http.NewRequestWithContext(sendCtx, http.MethodPost, m.endpoint.String(), bytes.NewReader(body))
	if err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	httpReq.Header.Set("Content-Type", "application/json")
	if m.cfg.APIKey.IsSet() {
		httpReq.Header.Set("Authorization", "Bearer "+*m.cfg.APIKey.key)
	}
	resp, err := m.client.Do(httpReq)
	if err != nil {
		return fakemodel.AssistantMessage{}, err
	}
	defer resp.Body.Close()
	limited := newLimitedReader(resp.Body, m.cfg.MaxResponseBytes)
	if resp.StatusCode/100 != 2 {
		return fakemodel.AssistantMessage{}, m.statusError(resp, m.bodyStart(limited))
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		// A server that ignored "stream": true, or one that reports an
		// error with status 200.
		return fakemodel.AssistantMessage{}, fmt.Errorf("the server sent one JSON document, not a stream of events: %s", serverMessage(m.bodyStart(limited)))
	}
	events := newEventReader(limited, int(min(m.cfg.MaxResponseBytes, 1<<30)))
	events.idle = idle
	return readReply(ctx, events, m.cfg.APIKey, req.OnText, req.Messages)
}

// maxErrorBody is how much of an error body bodyStart reads. The message
// is at the start; what follows is not worth waiting for.
const maxErrorBody = 64 << 10

// bodyStart reads the start of a body that holds an error message, with the
// key redacted. If the body breaks off, the status still says what
// happened. A body cut short, by this limit, the size limit or a broken
// connection, may end in the start of the key: redact leaves it only if it
// is shorter than minPiece.
func (m *Model) bodyStart(body io.Reader) []byte {
	start, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	return m.cfg.APIKey.redactBytes(start)
}

// failure turns an error of reply into the error Reply returns: one line,
// starting with "chat completions: ", with the key nowhere in it. The
// error of a cancelled request wraps ctx.Err() and nothing else.
func (m *Model) failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("chat completions: %w", ctx.Err())
	}
	var (
		connect  connectTimeoutError
		idle     idleTimeoutError
		whole    requestTimeoutError
		tooLarge tooLargeError
		dial     *net.OpError
		urlErr   *url.Error
	)
	switch {
	case errors.As(err, &connect):
		err = connect
	case errors.As(err, &idle):
		err = idle
	case errors.As(err, &whole):
		err = whole
	case errors.As(err, &tooLarge):
		err = tooLarge
	case errors.As(err, &dial) && dial.Op == "dial":
		err = fmt.Errorf("cannot reach %s: %w", m.baseURL(), dial)
	case errors.As(err, &urlErr):
		// Its own message would start with the method and the URL,
		// which may hold a password.
		err = fmt.Errorf("the request to %s failed: %w", m.baseURL(), urlErr.Err)
	}
	return errors.New("chat completions: " + m.cfg.APIKey.redact(flatten(err.Error())))
}
