package services

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// WriteSpec describes the notebook's write to the model.
var WriteSpec = fakemodel.ToolSpec{
	Name:        "write",
	Description: "Write text to a note, replacing what it held.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"path": {"type": "string"}, "text": {"type": "string"}},
		"required": ["path", "text"],
		"additionalProperties": false
	}`),
}

// ReadSpec describes the notebook's read to the model.
var ReadSpec = fakemodel.ToolSpec{
	Name:        "read",
	Description: "Read a note.",
	Parameters:  pathSchema,
}

// RmSpec describes the notebook's rm to the model.
var RmSpec = fakemodel.ToolSpec{
	Name:        "rm",
	Description: "Delete a note.",
	Parameters:  pathSchema,
}

// pathSchema is the schema of PathArgs.
var pathSchema = json.RawMessage(`{
	"type": "object",
	"properties": {"path": {"type": "string"}},
	"required": ["path"],
	"additionalProperties": false
}`)

// WriteArgs are the arguments of write.
type WriteArgs struct {
	// Path names the note.
	Path string `json:"path"`
	// Text is what the note holds from now on.
	Text string `json:"text"`
}

// PathArgs are the arguments of read and rm.
type PathArgs struct {
	// Path names the note.
	Path string `json:"path"`
}

// A Notebook is an in-memory store of notes, the "disk" behind the write,
// read and rm tools. It is safe for concurrent use, but a read in the same
// parallel batch as a write may run before it: a lab that offers write
// makes it a sequential tool.
type Notebook struct {
	mu    sync.Mutex
	notes map[string]string
}

// NewNotebook returns an empty notebook.
func NewNotebook() *Notebook {
	return &Notebook{notes: map[string]string{}}
}

// Write writes args.Text to the note args.Path, replacing what it held.
func (nb *Notebook) Write(ctx context.Context, _ string, args WriteArgs, report func(partial string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	nb.notes[args.Path] = args.Text
	if len(args.Text) == 1 {
		return "wrote 1 byte to " + args.Path, nil
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(args.Text), args.Path), nil
}

// Read returns the text of the note args.Path, or an error if there is no
// such note.
func (nb *Notebook) Read(ctx context.Context, _ string, args PathArgs, report func(partial string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	text, ok := nb.notes[args.Path]
	if !ok {
		return "", fmt.Errorf("no note at %s", args.Path)
	}
	return text, nil
}

// Rm deletes the note args.Path, or returns an error if there is no such
// note.
func (nb *Notebook) Rm(ctx context.Context, _ string, args PathArgs, report func(partial string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	if _, ok := nb.notes[args.Path]; !ok {
		return "", fmt.Errorf("no note at %s", args.Path)
	}
	delete(nb.notes, args.Path)
	return "deleted " + args.Path, nil
}
