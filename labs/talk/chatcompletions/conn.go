package chatcompletions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// newClient returns the HTTP client of one Model. It enforces two of the
// limits on the connection itself: connecting must succeed within
// ConnectTimeout, and every read must bring a byte within IdleTimeout.
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
			if err != nil {
				if ctx.Err() == nil && errors.Is(dialCtx.Err(), context.DeadlineExceeded) {
					return nil, connectTimeoutError{address: address, timeout: cfg.ConnectTimeout}
				}
				return nil, err
			}
			return &idleConn{Conn: conn, timeout: cfg.IdleTimeout}, nil
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

// An idleConn is a connection on which each read fails if no byte arrives
// within timeout. It is the idle timeout: it covers the wait for the
// response's first byte and each pause between two chunks.
type idleConn struct {
	net.Conn
	timeout time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = idleTimeoutError{timeout: c.timeout, cause: err}
	}
	return n, err
}

// An idleTimeoutError reports a server that sent nothing for too long.
type idleTimeoutError struct {
	timeout time.Duration
	cause   error
}

func (e idleTimeoutError) Error() string {
	return fmt.Sprintf("the server sent nothing for %v (the idle timeout)", e.timeout)
}

func (e idleTimeoutError) Unwrap() error { return e.cause }

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
