package expected

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The assertions of the labs' rule tests. Each checks one thing, reports a
// [Finding] when it does not hold (the test goes on), and returns whether it
// held, so that a test that cannot go on writes
//
//	if !expected.NoError(t, err, "step 3: a reply without tool calls ends the loop") {
//		return
//	}
//
// msg says what the test checks, in a sentence that names the rule; args,
// if any, format it as fmt.Sprintf does.

// compareOptions compare values field by field, unexported fields too, and
// JSON as text.
var compareOptions = []cmp.Option{JSONAsText, cmp.Exporter(func(reflect.Type) bool { return true })}

// diffLines is how many lines of a diff a Finding keeps.
const diffLines = 20

// Equal checks that got is want, field by field.
func Equal[T any](t testing.TB, want, got T, msg string, args ...any) bool {
	t.Helper()
	if cmp.Equal(want, got, compareOptions...) {
		return true
	}
	f := Finding{Message: sentence(msg, args)}
	w, wok := show(reflect.ValueOf(&want).Elem())
	g, gok := show(reflect.ValueOf(&got).Elem())
	if wok && gok {
		f.Want, f.Got = w, g
	} else {
		f.Diff = diff(cmp.Diff(want, got, compareOptions...))
	}
	Report(t, f)
	return false
}

// True checks a condition the message states.
func True(t testing.TB, ok bool, msg string, args ...any) bool {
	t.Helper()
	if !ok {
		Report(t, Finding{Message: sentence(msg, args)})
	}
	return ok
}

// Fail reports that the test found what msg says.
func Fail(t testing.TB, msg string, args ...any) {
	t.Helper()
	Report(t, Finding{Message: sentence(msg, args)})
}

// NoError checks that err is nil.
func NoError(t testing.TB, err error, msg string, args ...any) bool {
	t.Helper()
	if err == nil {
		return true
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "no error", Got: "error " + quote(err.Error())})
	return false
}

// EqualError checks that err is an error whose text is want.
func EqualError(t testing.TB, err error, want, msg string, args ...any) bool {
	t.Helper()
	got := "no error"
	if err != nil {
		if err.Error() == want {
			return true
		}
		got = "error " + quote(err.Error())
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "error " + quote(want), Got: got})
	return false
}

// ErrorIs checks that err is, or wraps, target.
func ErrorIs(t testing.TB, err, target error, msg string, args ...any) bool {
	t.Helper()
	if errors.Is(err, target) {
		return true
	}
	got := "no error"
	if err != nil {
		got = "error " + quote(err.Error())
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "an error that wraps " + quote(target.Error()), Got: got})
	return false
}

// Contains checks that text holds part.
func Contains(t testing.TB, text, part, msg string, args ...any) bool {
	t.Helper()
	if strings.Contains(text, part) {
		return true
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "a text that holds " + quote(part), Got: quote(text)})
	return false
}

// NotContains checks that text does not hold part: a line that must not
// print, such as the next part of a program that was interrupted.
func NotContains(t testing.TB, text, part, msg string, args ...any) bool {
	t.Helper()
	if !strings.Contains(text, part) {
		return true
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "a text without " + quote(part), Got: quote(text)})
	return false
}

// Empty checks that got holds nothing: a list of what must not happen, such
// as the events that reached the consumer on another goroutine.
func Empty[E any](t testing.TB, got []E, msg string, args ...any) bool {
	t.Helper()
	if len(got) == 0 {
		return true
	}
	f := Finding{Message: sentence(msg, args), Want: "none"}
	if g, ok := show(reflect.ValueOf(got)); ok {
		f.Got = g
	} else {
		f.Got = count(len(got), "item")
		f.Diff = diff(cmp.Diff([]E(nil), got, compareOptions...))
	}
	Report(t, f)
	return false
}

// NotEmpty checks that got holds something: the requests a function must
// send, the calls that must run.
func NotEmpty[E any](t testing.TB, got []E, msg string, args ...any) bool {
	t.Helper()
	if len(got) > 0 {
		return true
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "at least one", Got: "none"})
	return false
}

// Includes checks that list holds item, such as a line of a trace.
func Includes[E comparable](t testing.TB, list []E, item E, msg string, args ...any) bool {
	t.Helper()
	if slices.Contains(list, item) {
		return true
	}
	want, _ := show(reflect.ValueOf(item))
	got, ok := show(reflect.ValueOf(list))
	if !ok {
		got = fmt.Sprintf("%+v", list)
	}
	if want == "" {
		want = fmt.Sprintf("%+v", item)
	}
	Report(t, Finding{Message: sentence(msg, args), Want: "a list that includes " + want, Got: got})
	return false
}

// EqualLines checks that got holds the lines of want, in order, such as the
// lines of a trace. If it does not, its Finding counts the lines of each and
// holds a line diff of the two, "-" for want and "+" for got, with two lines
// of context: unlike [Equal]'s lists on one line, it shows where the lines
// part.
func EqualLines(t testing.TB, want, got []string, msg string, args ...any) bool {
	t.Helper()
	f, differ := linesFinding(want, got, func(n int) string { return count(n, "line") })
	if !differ {
		return true
	}
	f.Message = sentence(msg, args)
	Report(t, f)
	return false
}

// linesFinding compares two lists of lines and, if they differ, returns a
// Finding without its message: how many lines each holds, written by
// counted, and the diff's hunks. Lines of got far beyond want's cannot show
// in diffLines lines of diff, and the diff's work grows with them: a loop
// that never ends may send thousands. The diff leaves them out.
func linesFinding(want, got []string, counted func(int) string) (Finding, bool) {
	shown := got[:min(len(got), len(want)+diffLines)]
	hunks := unified(lineDiff(want, shown), 2)
	if len(hunks) == 0 {
		return Finding{}, false
	}
	f := Finding{Want: counted(len(want)), Got: counted(len(got)), Diff: diff(strings.Join(hunks, ""))}
	if len(got) == len(want) {
		f.Got += ", not the same ones"
	}
	return f, true
}

// count writes n things in words: "1 line", "2 lines".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// sentence formats a message and its arguments.
func sentence(msg string, args []any) string {
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

// quote writes a text as Go writes a string, so that spaces and line breaks
// show.
func quote(s string) string { return fmt.Sprintf("%q", s) }

// show writes a value on one line, if it fits there: a number, a bool, a
// text, or a list of those. It reports false for anything else, which a
// diff shows better.
func show(v reflect.Value) (string, bool) {
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Interface()), true
	case reflect.String:
		return quote(v.String()), true
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 { // bytes, such as JSON: as text
			return quote(string(v.Bytes())), v.Kind() == reflect.Slice
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			return "nil", true
		}
		items := make([]string, v.Len())
		for i := range items {
			s, ok := show(v.Index(i))
			if !ok {
				return "", false
			}
			items[i] = s
		}
		return "[" + strings.Join(items, ", ") + "]", true
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return "nil", true
		}
		if err, ok := v.Interface().(error); ok {
			return "error " + quote(err.Error()), true
		}
		if v.Kind() == reflect.Interface {
			return show(v.Elem())
		}
	}
	return "", false
}

// diff splits go-cmp's diff into lines, at most diffLines of them. go-cmp
// starts some lines with a non-breaking space, at random, so that no test
// depends on its exact output; a Finding is read by people and compared by
// the workbook's own tests, and takes a plain space.
func diff(text string) []string {
	text = strings.ReplaceAll(strings.TrimRight(text, "\n"), "\u00a0", " ")
	lines := strings.Split(text, "\n")
	if len(lines) > diffLines {
		lines = append(lines[:diffLines:diffLines], fmt.Sprintf("… %d more lines of diff", len(lines)-diffLines))
	}
	return lines
}
