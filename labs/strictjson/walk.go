package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Shaper is a type that decodes itself (json.Unmarshaler) from JSON of
// the shape of another type, which JSONShape returns: the walk checks its
// value as a value of that type, so that a mistake inside it is placed
// exactly, and then lets the type decode it.
type Shaper interface {
	JSONShape() reflect.Type
}

var (
	rawMessage  = reflect.TypeFor[json.RawMessage]()
	shaper      = reflect.TypeFor[Shaper]()
	unmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// A walk walks a JSON document alongside a Go type.
type walk struct {
	f    Format
	data []byte
	dec  *json.Decoder
	root *Node
	// byOffset finds a value by the offset json.Unmarshal reports a type
	// error at: just past a scalar, or just past an array's or object's
	// opening delimiter.
	byOffset map[int64]*Node
}

// newWalk returns a walk of data that has not begun.
func (f Format) newWalk(data []byte) *walk {
	w := &walk{f: f, data: data, dec: json.NewDecoder(bytes.NewReader(data)), root: newNode(nil, "", -1, -1), byOffset: map[int64]*Node{}}
	w.dec.UseNumber()
	return w
}

// document walks the whole document alongside t, and returns its first
// mistake as an *Error.
func (w *walk) document(t reflect.Type) error {
	if err := w.value(t, w.root, 1); err != nil {
		var bad *Error
		if errors.As(err, &bad) {
			return bad
		}
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			at := syntax.Offset
			// A json.Decoder may place a mistake inside a string, such as
			// a raw control character, before the string; json.Unmarshal's
			// scan finds it, just past it. Such a mistake is placed at its
			// string, as the mistake of a value is.
			var raw json.RawMessage
			if err := json.Unmarshal(w.data, &raw); errors.As(err, &syntax) {
				if start, ok := stringStart(w.data, syntax.Offset-1); ok {
					at = start
				}
			}
			return textError(at, w.root.at(at).Path(), fmt.Sprintf("not valid JSON: %v", syntax))
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			end := int64(len(w.data))
			return textError(end, w.root.at(end).Path(), "not valid JSON: unexpected end of JSON input")
		}
		end := int64(len(w.data))
		return textError(end, w.root.at(end).Path(), fmt.Sprintf("not valid JSON: %v", err))
	}
	end := w.dec.InputOffset()
	if _, err := w.dec.Token(); !errors.Is(err, io.EOF) {
		return textError(w.skipSpace(end), nil, "not valid JSON: more data after the closing brace")
	}
	return nil
}

// stringStart returns the offset of the opening quote of the string that
// holds the byte at offset, if a string holds it.
func stringStart(data []byte, offset int64) (int64, bool) {
	start, inString, escaped := int64(-1), false, false
	for i := int64(0); i < offset && i < int64(len(data)); i++ {
		switch c := data[i]; {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString, start = !inString, i
		}
	}
	return start, inString
}

// skipSpace returns the offset of the first byte from offset on that is not
// white space or a separator.
func (w *walk) skipSpace(offset int64) int64 {
	for offset < int64(len(w.data)) && strings.IndexByte(" \t\r\n:,", w.data[offset]) >= 0 {
		offset++
	}
	return offset
}

// value walks one JSON value, at depth levels of nesting, that decodes into
// t, and records it in n. A nil t checks nothing inside the value but the
// repetition of keys, its nesting and its strings, and records nothing in
// byOffset, members or elems: n then serves only to name the value in an
// error.
func (w *walk) value(t reflect.Type, n *Node, depth int) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		t = nil // any JSON value, null included
	}
	// shape is what the JSON looks like: t's, or, for a type that decodes
	// itself, its JSONShape, or nothing known.
	shape := t
	switch {
	case t == nil:
	case t.Implements(shaper):
		shape = reflect.Zero(t).Interface().(Shaper).JSONShape()
	case reflect.PointerTo(t).Implements(shaper):
		shape = reflect.New(t).Interface().(Shaper).JSONShape()
	case reflect.PointerTo(t).Implements(unmarshaler):
		shape = nil
	}
	// The value starts here even if it turns out not to be JSON, so that
	// such a mistake is placed in it.
	n.Start = w.skipSpace(w.dec.InputOffset())
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if t != nil {
		w.byOffset[w.dec.InputOffset()] = n
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		s, isString := tok.(string)
		switch {
		case tok == nil && t != nil:
			return w.f.valueError(n, "must not be null")
		case isString && w.f.Strings != nil:
			if problem := w.f.Strings(s); problem != "" {
				return w.f.valueError(n, problem)
			}
		}
		n.End = w.dec.InputOffset()
		return w.decodeItself(t, n)
	}
	if depth > w.f.MaxDepth {
		return textError(n.Start, n.Path(), fmt.Sprintf("nested more than %d levels deep: %s", w.f.MaxDepth, w.f.TooDeep))
	}
	switch delim {
	case '[':
		var elem reflect.Type
		if shape != nil && (shape.Kind() == reflect.Slice || shape.Kind() == reflect.Array) {
			elem = shape.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			child := newNode(n, "", -1, i)
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
				return w.f.keyError(n, keyAt, fmt.Sprintf("field %q appears twice", key))
			}
			seen[key] = true
			var inner reflect.Type
			switch {
			case shape == nil:
			case shape.Kind() == reflect.Map:
				inner = shape.Elem()
			case shape.Kind() == reflect.Struct:
				f, ok := fieldNamed(shape, key)
				if !ok {
					return w.f.keyError(n, keyAt, fmt.Sprintf("unknown field %q", key))
				}
				inner = f.Type
			}
			child := newNode(n, key, keyAt, -1)
			if inner != nil {
				if n.members == nil {
					n.members = map[string]*Node{}
				}
				n.members[key] = child
			}
			if err := w.value(inner, child, depth+1); err != nil {
				return err
			}
		}
	}
	if _, err := w.dec.Token(); err != nil { // the closing ] or }
		return err
	}
	n.End = w.dec.InputOffset()
	return w.decodeItself(t, n)
}

// decodeItself lets a value of a type that decodes itself do so, once the
// walk has checked it, so that its mistake is placed at the value.
// json.Unmarshal would stop at the mistake and say neither where it is nor
// whose it is.
func (w *walk) decodeItself(t reflect.Type, n *Node) error {
	if t == nil || !reflect.PointerTo(t).Implements(unmarshaler) {
		return nil
	}
	err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(w.data[n.Start:n.End])
	if err == nil {
		return nil
	}
	var wrongType *json.UnmarshalTypeError
	if errors.As(err, &wrongType) {
		return w.f.valueError(n, toolargs.Mismatch(wrongType))
	}
	return w.f.valueError(n, err.Error())
}

// keyStart returns the offset of the key just read: the opening quote
// before its closing one.
func (w *walk) keyStart() int64 {
	end := w.dec.InputOffset() - 1
	for i := end - 1; i >= 0; i-- {
		if w.data[i] == '"' && (i == 0 || w.data[i-1] != '\\') {
			return i
		}
	}
	return end
}

// fieldNamed returns the field of the struct type t whose JSON name is key,
// exactly, as encoding/json names it: by its tag, or, without one, by its
// Go name. Unexported fields and fields tagged "-" have none.
func fieldNamed(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-" && !strings.HasPrefix(f.Tag.Get("json"), "-,"):
			continue
		case name == "":
			name = f.Name
		}
		if name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
