package chatcompletions

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tests serve fixtures from an httptest server on an in-memory network
// (net.Pipe), inside a testing/synctest bubble. On a loopback connection a
// goroutine that waits for the network keeps the bubble's clock from moving;
// on a pipe it does not, so an idle timeout of two minutes passes at once and
// exactly. The bubble also proves that Reply leaves no goroutine behind:
// synctest.Test fails if one is still blocked when the test ends.

// A pipeNetwork is a net.Listener whose connections come from its dial.
type pipeNetwork struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeNetwork() *pipeNetwork {
	return &pipeNetwork{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (n *pipeNetwork) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.closed:
		return nil, net.ErrClosed
	}
}

func (n *pipeNetwork) Close() error {
	n.once.Do(func() { close(n.closed) })
	return nil
}

func (n *pipeNetwork) Addr() net.Addr { return pipeAddr{} }

func (n *pipeNetwork) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case n.conns <- server:
		return client, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-n.closed:
		return nil, net.ErrClosed
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "fixture.test:80" }

// A fixtureServer answers every request with its handler and records what
// it received.
type fixtureServer struct {
	*httptest.Server
	network *pipeNetwork

	mu      sync.Mutex
	headers []http.Header
	bodies  [][]byte
	hungUp  int // responses whose connection the client closed
}

// startServer starts a fixtureServer in the test's bubble. respond writes
// the response; afterwards the server waits until the client closes the
// connection, which is how it tells that the client closed the response.
func startServer(t *testing.T, respond http.HandlerFunc) *fixtureServer {
	t.Helper()
	s := &fixtureServer{network: newPipeNetwork()}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		s.mu.Lock()
		s.headers = append(s.headers, r.Header.Clone())
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		respond(w, r)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		<-r.Context().Done()
		s.mu.Lock()
		s.hungUp++
		s.mu.Unlock()
	}))
	s.Listener = s.network
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// model returns a Model that talks to s, with cfg's limits.
func (s *fixtureServer) model(t *testing.T, cfg Config) *Model {
	t.Helper()
	cfg.BaseURL = s.URL + "/v1"
	if cfg.ModelName == "" {
		cfg.ModelName = "test-model"
	}
	m, err := newModel(cfg, s.network.dial)
	require.NoError(t, err)
	return m
}

// requireHungUp fails the test unless the client closed every response it
// received. Call it after synctest.Wait, once Reply has returned.
func (s *fixtureServer) requireHungUp(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Equal(t, len(s.headers), s.hungUp, "Reply must close the response body before it returns")
}

// requestJSON returns the body of the only request s received, decoded.
func (s *fixtureServer) requestJSON(t *testing.T) map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Len(t, s.bodies, 1, "one Reply sends one request")
	var body map[string]any
	require.NoError(t, json.Unmarshal(s.bodies[0], &body), "the request body must be JSON")
	return body
}

// header returns a header of the only request s received.
func (s *fixtureServer) header(t *testing.T, name string) []string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Len(t, s.headers, 1, "one Reply sends one request")
	return s.headers[0].Values(name)
}

// sse responds with a fixture from testdata as a stream of events.
func sse(t *testing.T, name string) http.HandlerFunc {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return respondWith(http.StatusOK, "text/event-stream", string(body))
}

// respondWith responds with a status, a content type and a body. The body
// has a Content-Length, so that the client sees where it ends while the
// handler waits for it to hang up.
func respondWith(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}
