package main

import (
	"fmt"
	"slices"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// QueueMode says how many queued messages one poll takes.
type QueueMode string

// The queue modes, with Pi's names.
const (
	// OneAtATime takes one message per poll, so each gets a turn of its
	// own. It is the default.
	OneAtATime QueueMode = "one-at-a-time"
	// All takes every queued message at once: they share one turn.
	All QueueMode = "all"
)

// Set parses a queue mode, so that a QueueMode can be a flag.
func (m *QueueMode) Set(s string) error {
	switch QueueMode(s) {
	case OneAtATime, All:
		*m = QueueMode(s)
		return nil
	}
	return fmt.Errorf("must be %s or %s", OneAtATime, All)
}

// String formats the mode for the help text.
func (m *QueueMode) String() string { return string(*m) }

// A queue holds messages that wait for the loop to poll for them. Any
// goroutine may add to it at any time; it never drops a message.
type queue struct {
	mu       sync.Mutex
	mode     QueueMode
	messages []fakemodel.Message
}

func (q *queue) add(m fakemodel.Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.messages = append(q.messages, m)
}

// drain takes the messages of one poll out of the queue, oldest first.
func (q *queue) drain() []fakemodel.Message {
	// exercise: drain
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.messages)
	if q.mode != All {
		n = min(n, 1)
	}
	taken := slices.Clone(q.messages[:n])
	q.messages = slices.Delete(q.messages, 0, n)
	return taken
	// end of exercise: drain
}

// waiting returns a copy of what is still queued.
func (q *queue) waiting() []fakemodel.Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.messages)
}
