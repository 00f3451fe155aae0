package toolargs

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Decode decodes the arguments a model wrote into an A, a struct whose
// fields carry json tags, strictly (see the package documentation): one
// JSON object, with every field of A and no other, spelt exactly, no null,
// each value of its field's type. A key given twice keeps its last value, as
// encoding/json does. The error says what is wrong in words a model can act
// on.
func Decode[A any](raw json.RawMessage) (A, error) {
	var args A
	values, err := Object(raw)
	if err != nil {
		return args, err
	}
	fields := jsonFields[A]()
	// encoding/json matches names without regard to case, so "A" would
	// fill the field "a". Compare the names here, exactly, in sorted order
	// so that the same arguments always get the same error.
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.name == name }) {
			return args, fmt.Errorf("unknown field %q", name)
		}
	}
	for _, f := range fields {
		value, ok := values[f.name]
		if !ok {
			return args, fmt.Errorf("missing field %q", f.name)
		}
		// encoding/json leaves a field untouched when its value is null,
		// so a null would pass as 0 or "".
		var v any
		if err := json.Unmarshal(value, &v); err != nil {
			continue // a number too large for a float64: a type error below
		}
		if v == nil {
			return args, fmt.Errorf("field %q must be %s, not null", f.name, jsonType(f.typ))
		}
		if hasNull(v) {
			return args, fmt.Errorf("field %q must not contain null", f.name)
		}
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) {
			return args, fmt.Errorf("field %q %s", wrongType.Field, Mismatch(wrongType))
		}
		return args, err
	}
	return args, nil
}

// MaxDepth is how deeply arguments may nest: the depth to which
// encoding/json reads JSON. No tool of the workbook takes more than two
// levels; the bound keeps arguments a model wrote without end, such as a
// million [, from costing more than a glance.
const MaxDepth = 10000

// Object decodes arguments that must be a JSON object, of any keys, and
// keeps each value as the model wrote it: the first check of Decode, with
// its words. Tools that take any object, such as the fake tools of lab 06's
// scenario files, check their arguments with it.
func Object(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if Depth(raw) > MaxDepth {
		// encoding/json would say "invalid character '[' exceeded max
		// depth", which blames a character.
		return nil, fmt.Errorf("arguments nest more than %d levels deep", MaxDepth)
	}
	var values map[string]json.RawMessage
	if err := json.Unmarshal(raw, &values); err != nil {
		var notObject *json.UnmarshalTypeError
		if errors.As(err, &notObject) {
			return nil, fmt.Errorf("arguments must be a JSON object, not %s", jsonValue(notObject.Value))
		}
		return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if values == nil {
		return nil, errors.New("arguments must be a JSON object, not null")
	}
	return values, nil
}

// Depth returns how deeply the arrays and objects of the JSON text data
// nest, outside its strings: 0 for a number or a string, 1 for [1,2], 2 for
// {"a":[1]}. It reads data once, whether or not it is valid JSON.
func Depth(data []byte) int {
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

// Fields returns the JSON names of A's fields, in their order: the keys
// Decode requires, and the only ones it accepts. A tool's JSON Schema must
// name the same properties, all of them required (a test of each tool
// keeps the two in step).
func Fields[A any]() []string {
	var names []string
	for _, f := range jsonFields[A]() {
		names = append(names, f.name)
	}
	return names
}

// Mismatch says, in the words of Decode's errors, what is wrong with a JSON
// value that encoding/json could not decode into its Go type: "must be a
// string, not a number", "is out of range: 1e999", "must be a whole number
// without a fraction or exponent, not 2.5". The scenario files of lab 06
// use the same words.
func Mismatch(err *json.UnmarshalTypeError) string {
	if n, ok := strings.CutPrefix(err.Value, "number "); ok {
		return numberProblem(n, err.Type)
	}
	return fmt.Sprintf("must be %s, not %s", jsonType(err.Type), jsonValue(err.Value))
}

// A field is one field of an arguments struct: its JSON name and Go type.
type field struct {
	name string
	typ  reflect.Type
}

// jsonFields returns the fields of A, in their order.
func jsonFields[A any]() []field {
	t := reflect.TypeFor[A]()
	fields := make([]field, t.NumField())
	for i := range fields {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fields[i] = field{name: name, typ: t.Field(i).Type}
	}
	return fields
}

// hasNull reports whether a decoded JSON value holds a null anywhere.
func hasNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return slices.ContainsFunc(v, hasNull)
	case map[string]any:
		for _, e := range v {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
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

// numberProblem says why the JSON number n does not fit the Go type t: it
// is too large, or it is not written as a whole number (2.5, 1e3, 1.0).
func numberProblem(n string, t reflect.Type) string {
	x, err := strconv.ParseFloat(n, 64)
	whole := err == nil && x == math.Trunc(x)
	switch {
	case err != nil, whole && isInt(t) && math.Abs(x) >= 1<<63:
		return "is out of range: " + n
	case whole && isInt(t):
		return "must be a whole number without a fraction or exponent, not " + n
	}
	return fmt.Sprintf("must be %s, not %s", jsonType(t), n)
}

// isInt reports whether t is int or int64, the integer types of the
// workbook's arguments; numberProblem knows their range.
func isInt(t reflect.Type) bool {
	return t.Kind() == reflect.Int || t.Kind() == reflect.Int64
}

// jsonValue names the JSON value that encoding/json describes as v, a type
// such as "string".
func jsonValue(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "bool":
		return "a boolean"
	}
	return "a " + v
}
