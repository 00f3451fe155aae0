package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Format is a JSON file format, as Decode reads it.
type Format struct {
	// Root names the top-level value in errors: "the scenario", as in "the
	// scenario must not be null" and `unknown field "x" in the scenario`.
	Root string
	// MaxDepth bounds how deeply arrays and objects nest. A file of the
	// format never needs more; without a bound, a file of a million [
	// would take the walk a million levels down.
	MaxDepth int
	// TooDeep ends the error of a file nested deeper, after "nested more
	// than N levels deep: ": why the bound is enough, as in "a scenario
	// never needs that many".
	TooDeep string
	// Strings, if set, checks every string value of the document, wherever
	// it is (keys are not values): it returns what is wrong with s, worded
	// to follow the value's name ("must not hold …"), or "".
	Strings func(s string) string
}

// An Error is a mistake in a document, at an offset of it.
type Error struct {
	// Offset is where the mistake is, in bytes from the start of the
	// document; -1 for a mistake that has no place.
	Offset int64
	// Path is the value the mistake is about; for a mistake of a key, the
	// object that holds the key; for a mistake in the text, such as
	// invalid JSON, the value it is in, as far as the walk got.
	Path Path
	// Key is set for a mistake of a key: unknown, or there twice.
	Key bool
	// Problem says what is wrong, without naming the value: "must not be
	// null", `unknown field "Prompt"`, "not valid JSON: …".
	Problem string
	// sentence is the whole error, in the format's words.
	sentence string
}

// Error returns the mistake in one sentence that names the value, if the
// mistake is about one: "field tools.x must not be null", `unknown field
// "x" in replies[0]`. The caller adds where it is (Position).
func (e *Error) Error() string { return e.sentence }

// valueError returns the mistake of the value at n.
func (f Format) valueError(n *Node, problem string) *Error {
	p := n.Path()
	return &Error{Offset: n.Start, Path: p, Problem: problem, sentence: p.what(f.Root) + " " + problem}
}

// keyError returns the mistake of a key of the object at n, at offset.
func (f Format) keyError(n *Node, offset int64, problem string) *Error {
	p := n.Path()
	return &Error{Offset: offset, Path: p, Key: true, Problem: problem, sentence: problem + " in " + p.inside(f.Root)}
}

// textError returns a mistake in the text, at offset, inside the value at
// path.
func textError(offset int64, path Path, problem string) *Error {
	return &Error{Offset: offset, Path: path, Problem: problem, sentence: problem}
}

// byteOrderMark is what some editors put at the start of a UTF-8 file.
var byteOrderMark = []byte{0xEF, 0xBB, 0xBF}

// Decode reads the document data into v, a pointer, strictly (see the
// package documentation), and returns the document's root node, with
// which a later check finds where a value is (Node.Find). A mistake is an
// *Error; one with no place, which the walk should have found first, has
// the Offset -1. With a mistake, the root holds the values as far as the
// walk got, which may name the value the mistake is about (an exercise's
// ID, say); it is nil only for a file that starts with a byte-order mark.
func (f Format) Decode(data []byte, v any) (*Node, error) {
	if bytes.HasPrefix(data, byteOrderMark) {
		return nil, textError(0, nil, "starts with a byte-order mark; save it as UTF-8 without one")
	}
	t := reflect.TypeOf(v)
	if bad := invalidUTF8(data); bad >= 0 {
		// The walk, which reads past such bytes, finds the value they
		// are in.
		w := f.newWalk(data)
		_ = w.value(t, w.root, 1)
		return w.root, textError(int64(bad), w.root.at(int64(bad)).Path(), fmt.Sprintf("not valid UTF-8 (byte 0x%02X); save the file as UTF-8", data[bad]))
	}
	w := f.newWalk(data)
	if err := w.document(t); err != nil {
		return w.root, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		var wrongType *json.UnmarshalTypeError
		if !errors.As(err, &wrongType) {
			return w.root, &Error{Offset: -1, Problem: err.Error(), sentence: err.Error()}
		}
		problem := toolargs.Mismatch(wrongType)
		if n, ok := w.byOffset[wrongType.Offset]; ok {
			return w.root, f.valueError(n, problem)
		}
		return w.root, &Error{Offset: wrongType.Offset, Problem: problem, sentence: "field " + wrongType.Field + " " + problem}
	}
	return w.root, nil
}

// invalidUTF8 returns the offset of the first byte of data that is not
// valid UTF-8, or -1.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// Position turns a byte offset in data into "line L, column C". Columns
// count characters, not bytes, as editors do.
func Position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	column := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("line %d, column %d", line, column)
}
