package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// A nameError is a key of a JSON object that names no field of the struct
// the object decodes into, or that the object holds twice.
type nameError struct {
	name, path string
	offset     int64
	twice      bool
}

// Error names the key and the object it is in.
func (e *nameError) Error() string {
	if e.twice {
		return fmt.Sprintf("field %q appears twice in %s", e.name, e.path)
	}
	return fmt.Sprintf("unknown field %q in %s", e.name, e.path)
}

// A jsonWalk walks a JSON document alongside a Go type. It records where
// each scalar value is, keyed by the offset just past it, which is the
// offset json.Unmarshal reports a type error at.
type jsonWalk struct {
	data    []byte
	dec     *json.Decoder
	scalars map[int64]scalar
}

// A scalar is where a scalar value is: its path, such as tools.x.durationMs,
// and the offset where it starts.
type scalar struct {
	path  string
	start int64
}

// checkNames walks data alongside t and checks every object key against the
// JSON names of the struct it fills, exactly. encoding/json would let
// "Prompt" fill "prompt", and DisallowUnknownFields does not object to it;
// it would also let a second "prompt" silently replace the first. Types are
// left to json.Unmarshal.
func checkNames(data []byte, t reflect.Type) (map[int64]scalar, error) {
	w := &jsonWalk{data: data, dec: json.NewDecoder(bytes.NewReader(data)), scalars: map[int64]scalar{}}
	w.dec.UseNumber()
	if err := w.value(t, ""); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	end := w.dec.InputOffset()
	if _, err := w.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &trailingDataError{offset: w.skipSpace(end)}
	}
	return w.scalars, nil
}

// skipSpace returns the offset of the first byte from offset on that is not
// white space or a separator.
func (w *jsonWalk) skipSpace(offset int64) int64 {
	for offset < int64(len(w.data)) && strings.IndexByte(" \t\r\n:,", w.data[offset]) >= 0 {
		offset++
	}
	return offset
}

// A trailingDataError is data after the end of the document's value.
type trailingDataError struct{ offset int64 }

// Error says what is wrong; the offset says where.
func (e *trailingDataError) Error() string { return "more data after the closing brace" }

var rawMessage = reflect.TypeFor[json.RawMessage]()

// value walks one JSON value that decodes into t; a nil t checks nothing
// inside the value.
func (w *jsonWalk) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage {
		t = nil
	}
	start := w.dec.InputOffset()
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		w.scalars[w.dec.InputOffset()] = scalar{path: path, start: w.skipSpace(start)}
		return nil
	}
	switch delim {
	case '[':
		var elem reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
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
			if seen[key] {
				return &nameError{name: key, path: cmp.Or(path, "the scenario"), offset: w.keyStart(), twice: true}
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
					return &nameError{name: key, path: cmp.Or(path, "the scenario"), offset: w.keyStart()}
				}
				inner = t.Field(i).Type
			}
			if err := w.value(inner, strings.TrimPrefix(path+"."+key, ".")); err != nil {
				return err
			}
		}
	}
	_, err = w.dec.Token() // the closing ] or }
	return err
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
