package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// A notebook is an in-memory store of notes, the "disk" behind the write,
// read and rm tools.
type notebook struct {
	mu    sync.Mutex
	notes map[string]string
}

// noteTools returns the write, read and rm tools of a new, empty notebook.
// write is sequential: a read in the same batch must see what it wrote.
func noteTools() []Tool {
	nb := &notebook{notes: map[string]string{}}
	write := newTool(writeSpec, nil, nb.write)
	write.Sequential = true
	return []Tool{
		write,
		newTool(readSpec, nil, nb.read),
		newTool(rmSpec, nil, nb.rm),
	}
}

type writeArgs struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

type pathArgs struct {
	Path string `json:"path"`
}

var writeSpec = fakemodel.ToolSpec{
	Name:        "write",
	Description: "Write text to a note, replacing what it held.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"path": {"type": "string"}, "text": {"type": "string"}},
		"required": ["path", "text"],
		"additionalProperties": false
	}`),
}

var readSpec = fakemodel.ToolSpec{
	Name:        "read",
	Description: "Read a note.",
	Parameters:  pathSchema,
}

var rmSpec = fakemodel.ToolSpec{
	Name:        "rm",
	Description: "Delete a note.",
	Parameters:  pathSchema,
}

var pathSchema = json.RawMessage(`{
	"type": "object",
	"properties": {"path": {"type": "string"}},
	"required": ["path"],
	"additionalProperties": false
}`)

func (nb *notebook) write(ctx context.Context, _ string, args writeArgs, report func(string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	nb.notes[args.Path] = args.Text
	return fmt.Sprintf("wrote %d bytes to %s", len(args.Text), args.Path), nil
}

func (nb *notebook) read(ctx context.Context, _ string, args pathArgs, report func(string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	text, ok := nb.notes[args.Path]
	if !ok {
		return "", fmt.Errorf("no note at %s", args.Path)
	}
	return text, nil
}

func (nb *notebook) rm(ctx context.Context, _ string, args pathArgs, report func(string)) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	if _, ok := nb.notes[args.Path]; !ok {
		return "", fmt.Errorf("no note at %s", args.Path)
	}
	delete(nb.notes, args.Path)
	return "deleted " + args.Path, nil
}
