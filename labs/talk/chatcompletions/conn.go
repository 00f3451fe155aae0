package chatcompletions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// newClient returns the HTTP client of one Model. It enforces the connect
// timeout on the connection itself: connecting must succeed within
// ConnectTimeout. The idle and request timeouts are the Model's (watch).
//
// It keeps no connection open between requests: the connection closes with
// the response, and the client's goroutines end with it, so that none is left
// behind once Reply has returned. A local server does not notice the
// difference; a remote one costs a new handshake per request.
func newClient(cfg Config, dial dialFunc) *http.Client {
	transport := &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			dialCtx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
			defer cancel()
			conn, err := dial(dialCtx, network, address)
			if err != nil && ctx.Err() == nil && errors.Is(dialCtx.Err(), context.DeadlineExceeded) {
				return nil, connectTimeoutError{address: address, timeout: cfg.ConnectTimeout}
			}
			return conn, err
		},
		TLSHandshakeTimeout: cfg.ConnectTimeout,
		DisableKeepAlives:   true,
	}
	return &http.Client{
		Transport: transport,
		// A redirect would take the key along to another address; the
		// status error names the new address instead.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// A connectTimeoutError reports a connection that took too long.
type connectTimeoutError struct {
	address string
	timeout time.Duration
}

func (e connectTimeoutError) Error() string {
	return fmt.Sprintf("no connection to %s within %v (the connect timeout)", e.address, e.timeout)
}

// watch starts the two timeouts of one request, which cancel its context
// with their error as the cause (context.Cause): the request timeout, which
// runs from now to the reply's end, and the idle timeout, which runs while
// the client waits for data, from the moment the request is sent. It
// returns the context to send the request with, which starts the idle
// timeout, and stop, which stops both. The idle timeout counts only data:
// blank lines and comments, which a server may send to keep a connection
// open, or to keep a client waiting, do not restart it; only an event with
// data does (eventReader).
func (m *Model) watch(ctx context.Context, cancel context.CancelCauseFunc) (sendCtx context.Context, idle *idleTimer, stop func()) {
	whole := time.AfterFunc(m.cfg.RequestTimeout, func() { cancel(requestTimeoutError{timeout: m.cfg.RequestTimeout}) })
	idle = &idleTimer{timeout: m.cfg.IdleTimeout, paused: true}
	idle.timer = time.AfterFunc(idle.timeout, func() { cancel(idleTimeoutError{timeout: idle.timeout}) })
	idle.timer.Stop()
	sendCtx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { idle.resume() },
	})
	return sendCtx, idle, func() {
		whole.Stop()
		idle.timer.Stop()
	}
}

// An idleTimer is the idle timeout of one request. It runs while the client
// waits: for the response, once the request is sent, and for each event with
// data. The eventReader pauses it while the client works on an event, and
// resumes it, from zero, when it waits for the next. A nil idleTimer does
// nothing. It is safe for concurrent use: the transport's goroutine starts
// it.
type idleTimer struct {
	timer   *time.Timer
	timeout time.Duration
	mu      sync.Mutex
	paused  bool
}

// pause stops the clock: an event with data has arrived.
func (t *idleTimer) pause() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer.Stop()
	t.paused = true
}

// resume starts the clock again from zero, after a pause: the client waits
// for the response, or for the next event.
func (t *idleTimer) resume() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paused {
		t.timer.Reset(t.timeout)
		t.paused = false
	}
}

// An idleTimeoutError reports a server that sent no data for too long.
type idleTimeoutError struct{ timeout time.Duration }

func (e idleTimeoutError) Error() string {
	return fmt.Sprintf("the server sent no data for %v (the idle timeout)", e.timeout)
}

// A requestTimeoutError reports a request that took too long as a whole.
type requestTimeoutError struct{ timeout time.Duration }

func (e requestTimeoutError) Error() string {
	return fmt.Sprintf("no whole reply within %v (the request timeout)", e.timeout)
}

// A limitedReader fails with a tooLargeError once more than limit bytes
// have been read through it. Unlike io.LimitReader, it does not pass a
// cut-off response off as a whole one.
type limitedReader struct {
	r     io.Reader
	limit int64
	left  int64 // bytes that may still be read; below 0 once over
}

func newLimitedReader(r io.Reader, limit int64) *limitedReader {
	return &limitedReader{r: r, limit: limit, left: limit}
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, tooLargeError{limit: l.limit}
	}
	// Read one byte more than is left, to tell "exactly the limit" from
	// "over it".
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, tooLargeError{limit: l.limit}
	}
	return n, err
}

// A tooLargeError reports a response larger than MaxResponseBytes.
type tooLargeError struct{ limit int64 }

func (e tooLargeError) Error() string {
	return fmt.Sprintf("the response is larger than %d bytes (the response size limit)", e.limit)
}
