package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds how deeply a scenario's arrays and objects nest. A
// scenario never needs more; without a bound, a file of a million [ would
// take the walk a million levels down.
const maxDepth = 64

// nesting returns how deeply the arrays and objects of the JSON text data
// nest: 0 for a number or a string, 1 for [1,2], 2 for {"a":[1]}.
func nesting(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// A jsonNode is one value of a scenario's JSON, where the scenario's types
// give it a meaning: where it is, and how to get to it. Values inside args,
// which may be any JSON, have no nodes.
type jsonNode struct {
	parent *jsonNode
	// key is the key that holds the value in its object, and keyAt the
	// offset where that key starts; index is the value's index in its
	// array. A value has a key or an index (index >= 0), or is the root.
	key   string
	keyAt int64
	index int
	// start is the offset where the value starts.
	start int64
	// members are an object's values by key, elems an array's.
	members map[string]*jsonNode
	elems   []*jsonNode
}

// A jsonPath names a value of the scenario, step by step: a string is an
// object's key, an int an array's index.
type jsonPath []any

// path returns n's path from the root.
func (n *jsonNode) path() jsonPath {
	var p jsonPath
	for ; n != nil && n.parent != nil; n = n.parent {
		if n.index >= 0 {
			p = append(p, n.index)
		} else {
			p = append(p, n.key)
		}
	}
	slices.Reverse(p)
	return p
}

// find returns the value at p, or, if there is none, the deepest value on
// the way: for a missing field, the object that lacks it.
func (n *jsonNode) find(p jsonPath) *jsonNode {
	for _, step := range p {
		var next *jsonNode
		switch step := step.(type) {
		case string:
			next = n.members[step]
		case int:
			if step >= 0 && step < len(n.elems) {
				next = n.elems[step]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

// String writes p the way a learner reads it: tools.x.durationMs,
// replies[0].text. A key that is not a plain word is quoted, so that a key
// such as "a\nb" cannot break an error onto two lines.
func (p jsonPath) String() string {
	var b strings.Builder
	for _, step := range p {
		switch step := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", step)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			if plainKey(step) {
				b.WriteString(step)
			} else {
				b.WriteString(strconv.Quote(step))
			}
		}
	}
	return b.String()
}

// plainKey reports whether key can stand in a path unquoted.
func plainKey(key string) bool {
	return key != "" && strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == ""
}

// what names a value for an error: "field tools.x", or "the scenario".
func (p jsonPath) what() string {
	if len(p) == 0 {
		return "the scenario"
	}
	return "field " + p.String()
}

// A jsonError is a mistake the walk finds, at an offset of the file.
type jsonError struct {
	offset  int64
	problem string
}

// Error returns the problem; Parse adds the line and column.
func (e *jsonError) Error() string { return e.problem }

// A jsonWalk walks a JSON document alongside a Go type.
type jsonWalk struct {
	data []byte
	dec  *json.Decoder
	// byOffset finds a value by the offset json.Unmarshal reports a type
	// error at: just past a scalar, or just past an array's or object's
	// opening delimiter.
	byOffset map[int64]*jsonNode
}

// checkJSON walks data alongside t, down to maxDepth levels, and returns
// its values' nodes. It checks every object key against the JSON names of
// the struct it fills, exactly: encoding/json would let "Prompt" fill
// "prompt", and DisallowUnknownFields does not object to it; it would also
// let a second "prompt" silently replace the first. It rejects null where
// t gives the value a meaning, because encoding/json would read it as "not
// set". Other types are left to json.Unmarshal.
func checkJSON(data []byte, t reflect.Type) (root *jsonNode, byOffset map[int64]*jsonNode, err error) {
	w := &jsonWalk{data: data, dec: json.NewDecoder(bytes.NewReader(data)), byOffset: map[int64]*jsonNode{}}
	w.dec.UseNumber()
	root = &jsonNode{index: -1}
	if err := w.value(t, root, 1); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, nil, err
	}
	end := w.dec.InputOffset()
	if _, err := w.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, &jsonError{offset: w.skipSpace(end), problem: "not valid JSON: more data after the closing brace"}
	}
	return root, w.byOffset, nil
}

// skipSpace returns the offset of the first byte from offset on that is not
// white space or a separator.
func (w *jsonWalk) skipSpace(offset int64) int64 {
	for offset < int64(len(w.data)) && strings.IndexByte(" \t\r\n:,", w.data[offset]) >= 0 {
		offset++
	}
	return offset
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// value walks one JSON value, at depth levels of nesting, that decodes into
// t, and records it in n. A nil t checks nothing inside the value and
// records nothing in byOffset, members or elems: n then serves only to name
// the value in an error.
func (w *jsonWalk) value(t reflect.Type, n *jsonNode, depth int) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		t = nil // args: any JSON value, null included
	}
	start := w.dec.InputOffset()
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	n.start = w.skipSpace(start)
	if t != nil {
		w.byOffset[w.dec.InputOffset()] = n
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		if tok == nil && t != nil {
			return &jsonError{offset: n.start, problem: n.path().what() + " must not be null"}
		}
		return nil
	}
	if depth > maxDepth {
		return &jsonError{offset: n.start, problem: fmt.Sprintf("nested more than %d levels deep: a scenario never needs that many", maxDepth)}
	}
	switch delim {
	case '[':
		var elem reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			child := &jsonNode{parent: n, index: i}
			if elem != nil {
				n.elems = append(n.elems, child)
			}
			if err := w.value(elem, child, depth+1); err != nil {
				return err
			}
		}
	case '{':
		seen := map[string]bool{}
		for w.dec.More() {
			tok, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			keyAt := w.keyStart()
			if seen[key] {
				return &jsonError{offset: keyAt, problem: fmt.Sprintf("field %q appears twice in %s", key, n.path().inside())}
			}
			seen[key] = true
			var inner reflect.Type
			switch {
			case t == nil:
			case t.Kind() == reflect.Map:
				inner = t.Elem()
			case t.Kind() == reflect.Struct:
				i := slices.IndexFunc(fieldsOf(t), func(f field) bool { return f.name == key })
				if i < 0 {
					return &jsonError{offset: keyAt, problem: fmt.Sprintf("unknown field %q in %s", key, n.path().inside())}
				}
				inner = t.Field(i).Type
			}
			child := &jsonNode{parent: n, key: key, keyAt: keyAt, index: -1}
			if inner != nil {
				if n.members == nil {
					n.members = map[string]*jsonNode{}
				}
				n.members[key] = child
			}
			if err := w.value(inner, child, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = w.dec.Token() // the closing ] or }
	return err
}

// inside names an object for an error about one of its keys.
func (p jsonPath) inside() string {
	if len(p) == 0 {
		return "the scenario"
	}
	return p.String()
}

// keyStart returns the offset of the key just read: the opening quote
// before its closing one.
func (w *jsonWalk) keyStart() int64 {
	end := w.dec.InputOffset() - 1
	for i := end - 1; i >= 0; i-- {
		if w.data[i] == '"' && (i == 0 || w.data[i-1] != '\\') {
			return i
		}
	}
	return end
}

// A field is one field of a struct of the format: its JSON name and Go type.
type field struct {
	name string
	typ  reflect.Type
}

// fieldsOf returns the fields of the struct type t, in their order.
func fieldsOf(t reflect.Type) []field {
	fields := make([]field, t.NumField())
	for i := range fields {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fields[i] = field{name: name, typ: t.Field(i).Type}
	}
	return fields
}
