package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// What a program that talks with a person at a terminal needs beyond its
// arguments and outputs: its standard input, each Ctrl-C for itself, and
// the signals that end a session, when the terminal closes for instance.
// They come through the program's context, so that a Program keeps one
// signature, and a test hands in a pipe and channels instead.

// A ctxKey keys a value that Main or a test puts in a program's context.
type ctxKey int

const (
	interruptsKey ctxKey = iota
	stdinKey
	hangupsKey
	outputLostKey
)

// Hangups hands the signals that ask a program to end, SIGTERM and SIGHUP
// (the terminal closed), to the caller, one value on the returned channel
// each, instead of ending the process at once: for a program with
// something to save first, such as -chat's recording. The program must
// then end itself, soon. A program that never calls it ends at once on
// them, as programs do. From Main, it also keeps a closed pipe on standard
// output from ending the process (see OutputLost).
//
// In a context that Main did not make, it returns the channel that
// WithHangups put there, or nil, which never delivers.
func Hangups(ctx context.Context) <-chan os.Signal {
	switch v := ctx.Value(hangupsKey).(type) {
	case fromMain:
		ch := make(chan os.Signal, 2)
		signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP)
		// A pipe whose reader is gone, as after "| head -1", would end
		// the process at its next write (SIGPIPE). Instead the write
		// fails, and OutputLost says so.
		signal.Ignore(syscall.SIGPIPE)
		return ch
	case <-chan os.Signal:
		return v
	}
	return nil
}

// OutputLost returns a channel that is closed once a write to the program's
// standard output has failed, as when the reader of a pipe has gone: for a
// program with something to save first, which calls Hangups, so that such a
// write fails instead of ending the process. In a context that Run did not
// make, it returns nil, which never delivers.
func OutputLost(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(outputLostKey).(<-chan struct{})
	return ch
}

// WithHangups returns a copy of ctx whose Hangups is ch: for a test that
// closes the terminal by sending on ch.
func WithHangups(ctx context.Context, ch <-chan os.Signal) context.Context {
	return context.WithValue(ctx, hangupsKey, ch)
}

// fromMain marks a context that Main made, whose Hangups come from the
// process's signals.
type fromMain struct{}

// Stdin returns the program's standard input: os.Stdin, or the reader
// WithStdin put in ctx.
func Stdin(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey).(io.Reader); ok {
		return r
	}
	return os.Stdin
}

// WithStdin returns a copy of ctx whose Stdin is r: for a test that types
// into a program.
func WithStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey, r)
}

// Interrupts hands every later Ctrl-C of the program to the caller, one
// value on the returned channel per Ctrl-C, instead of cancelling the
// program's context: for a program that gives Ctrl-C a meaning of its own,
// such as lab 06's -chat, where Ctrl-C stops a run and the session goes
// on. From then on Main neither cancels the context nor ends the process on
// a second Ctrl-C: the program must end itself. A Ctrl-C that comes while
// the channel holds eight already is dropped.
//
// In a context that Main did not make, it returns the channel that
// WithInterrupts put there, or nil, which never delivers.
func Interrupts(ctx context.Context) <-chan struct{} {
	switch v := ctx.Value(interruptsKey).(type) {
	case *interruptRouter:
		return v.take()
	case <-chan struct{}:
		return v
	}
	return nil
}

// WithInterrupts returns a copy of ctx whose Interrupts is ch: for a test
// that presses Ctrl-C by sending on ch.
func WithInterrupts(ctx context.Context, ch <-chan struct{}) context.Context {
	return context.WithValue(ctx, interruptsKey, ch)
}

// An interruptRouter decides where Main sends each Ctrl-C: to the program's
// context, until the program takes them with Interrupts, and to a channel
// from then on.
type interruptRouter struct {
	mu sync.Mutex
	ch chan struct{}
}

// take makes the router send every later Ctrl-C to its channel, and
// returns it.
func (r *interruptRouter) take() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ch == nil {
		r.ch = make(chan struct{}, 8)
	}
	return r.ch
}

// forward sends one Ctrl-C to the channel, if the program took them, and
// reports whether it did.
func (r *interruptRouter) forward() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ch == nil {
		return false
	}
	select {
	case r.ch <- struct{}{}:
	default:
	}
	return true
}
