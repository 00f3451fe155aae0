package chatcompletions

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// An eventReader reads server-sent events, the format of a streamed
// response: lines of "field: value", one event per group of lines, a blank
// line after each. A chat completions stream uses one field, data, and sends
// one chunk of JSON per event:
//
//	data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}
//
//	data: [DONE]
//
// It follows the WHATWG rules for the format, with one exception: a line
// whose field is none of data, event, id and retry is an error here, where
// the rules ignore it. In a chat completions stream such a line is a sign of
// a broken server, and it is better named than skipped.
type eventReader struct {
	lines   *bufio.Scanner
	split   lineSplitter
	maxLine int
	line    int // the number of the last line read, from 1
	// idle, if not nil, is the request's idle timeout: it runs while next
	// waits for an event with data, and not while its caller works on one.
	idle *idleTimer
}

// An event is one server-sent event.
type event struct {
	name string // the event field; empty for the default, "message"
	data []byte // the data lines, joined by "\n"
	line int    // the line the event started on
}

// newEventReader returns an eventReader that reads r, with lines of at most
// maxLine bytes.
func newEventReader(r io.Reader, maxLine int) *eventReader {
	er := &eventReader{lines: bufio.NewScanner(r), maxLine: maxLine}
	// One more byte than the longest line, so that a reader with a size
	// limit reports it first.
	er.lines.Buffer(make([]byte, 0, 4096), maxLine+1)
	er.lines.Split(er.split.scanLines)
	return er
}

// next returns the next event: it reads on past comments, blank lines and
// events without data, which do not stop the idle timeout. At the end of the
// stream it returns io.EOF;
// an event that the end cuts off, without its blank line, is dropped, as
// the rules say. Any other error is a read error or a malformed line.
func (r *eventReader) next() (event, error) {
	r.idle.resume()
	defer r.idle.pause()
	var ev event
	var data [][]byte
	for r.lines.Scan() {
		r.line++
		line := r.lines.Bytes()
		if r.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if len(line) == 0 {
			if data == nil {
				ev = event{} // the rules drop an event without data
				continue
			}
			ev.data = bytes.Join(data, []byte("\n"))
			return ev, nil
		}
		if line[0] == ':' {
			continue // a comment: servers send them to keep a connection open
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		if ev.line == 0 {
			ev.line = r.line
		}
		switch string(field) {
		case "data":
			data = append(data, bytes.Clone(value))
		case "event":
			ev.name = string(value)
		case "id", "retry":
			// Only a browser reconnecting uses these.
		default:
			return event{}, fmt.Errorf("malformed server-sent event: line %d is %s, not a field such as data: {...}", r.line, quote(line))
		}
	}
	if err := r.lines.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return event{}, tooLargeError{limit: int64(r.maxLine)}
		}
		return event{}, fmt.Errorf("the stream broke off after line %d: %w", r.line, err)
	}
	return event{}, io.EOF
}

// A lineSplitter cuts the stream into lines. A long line arrives in many
// pieces, and bufio.Scanner hands the split function the whole line so far
// with each one; the splitter remembers how far it has looked, so that it
// looks at each byte once, not once per piece: a line of 16 MiB in pieces
// of 4 KiB would cost 32 GB of looking.
type lineSplitter struct {
	seen   int // bytes of the current line looked at, with no line end in them
	looked int // bytes looked at in all, for the tests
}

// scanLines is a bufio.SplitFunc for the line ends of server-sent events:
// "\r\n", "\n" or "\r". It drops a last line without its line end: the
// event it belongs to has no blank line after it, so it is cut off anyway.
func (s *lineSplitter) scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	s.looked += len(data) - s.seen
	i := bytes.IndexAny(data[s.seen:], "\r\n")
	if i >= 0 {
		i += s.seen
	}
	switch {
	case i < 0 && atEOF && len(data) > 0:
		s.seen = 0
		return len(data), nil, bufio.ErrFinalToken
	case i < 0:
		s.seen = len(data)
		return 0, nil, nil
	case data[i] == '\n':
		s.seen = 0
		return i + 1, data[:i], nil
	case i+1 < len(data):
		s.seen = 0
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		s.seen = 0
		return i + 1, data[:i], nil
	}
	s.seen = i // a '\r' at the end: wait to see if '\n' follows
	return 0, nil, nil
}
