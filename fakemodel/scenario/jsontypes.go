package scenario

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// The names of JSON types and values in error messages. They are the same
// words as labs/toolargs uses for a tool's arguments.

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
// format; numberProblem knows their range.
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
