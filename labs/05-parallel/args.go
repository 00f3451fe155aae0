package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// decodeArgs decodes the arguments a model wrote into an A, strictly. They
// must be one JSON object; it must have every field of A (in this workbook
// every argument is required) and no other; and each value must have the
// type of its field. A model writes arguments the way it writes text, so
// none of this can be taken for granted.
//
// Pi checks arguments against the tool's JSON Schema instead, and converts
// what it can ("2" to 2). The lab rejects instead of converting, so that
// every kind of mistake shows.
func decodeArgs[A any](raw json.RawMessage) (A, error) {
	var args A
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		var notObject *json.UnmarshalTypeError
		if errors.As(err, &notObject) {
			return args, fmt.Errorf("arguments must be a JSON object, not %s", jsonValue(notObject.Value))
		}
		return args, fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if fields == nil {
		return args, errors.New("arguments must be a JSON object, not null")
	}
	for _, name := range fieldNames[A]() {
		if _, ok := fields[name]; !ok {
			return args, fmt.Errorf("missing field %q", name)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) {
			return args, fmt.Errorf("field %q must be %s, not %s", wrongType.Field, jsonType(wrongType.Type), jsonValue(wrongType.Value))
		}
		// The only other error left is json's "unknown field".
		return args, errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return args, nil
}

// fieldNames returns the JSON names of A's fields, in their order.
func fieldNames[A any]() []string {
	t := reflect.TypeFor[A]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return names
}

// jsonType names the JSON type that decodes into a Go type.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return "a whole number"
	}
}

// jsonValue names the JSON value that encoding/json describes as v: a type
// ("string"), or a number that does not fit ("number 2.5").
func jsonValue(v string) string {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	switch v {
	case "array", "object":
		return "an " + v
	case "bool":
		return "a boolean"
	}
	return "a " + v
}
