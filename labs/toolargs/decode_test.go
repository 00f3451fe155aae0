package toolargs

import (
	"encoding/json"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// note takes two strings, as a tool that writes a note does.
type note struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// numbers takes a number and a list of whole numbers.
type numbers struct {
	N     float64 `json:"n"`
	Count []int   `json:"count"`
}

// A decodeCase is arguments and the error Decode must give, "" for none.
type decodeCase struct {
	args, err string
}

// checkDecode decodes each case's arguments into an A.
func checkDecode[A any](t *testing.T, tests []decodeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			_, err := Decode[A](json.RawMessage(tt.args))
			if got := errText(err); got != tt.err {
				t.Errorf("Decode(%s): error %q, want %q", tt.args, got, tt.err)
			}
		})
	}
}

func TestDecodeRefusesWhatTheToolDoesNotTake(t *testing.T) {
	checkDecode[note](t, []decodeCase{
		{args: `{"path":"a","text":"b"}`},
		{args: `{"text":"b","path":"a"}`},
		{args: `{"path":"a"}`, err: `missing field "text"`},
		{args: `{"path":"a","text":"b","mode":"x"}`, err: `unknown field "mode"`},
		{args: `{"path":1,"text":"b"}`, err: `field "path" must be a string, not a number`},
		{args: `{"path":null,"text":"b"}`, err: `field "path" must be a string, not null`},
		{args: `{"Path":"a","Text":"b"}`, err: `unknown field "Path"`},
		{args: `{"path":"a","text":"b","Text":"c"}`, err: `unknown field "Text"`},
		{args: `{"path":"a","text":"b"} {}`, err: `arguments are not valid JSON: invalid character '{' after top-level value`},
		{args: ``, err: `arguments are not valid JSON: unexpected end of JSON input`},
		{args: `[]`, err: `arguments must be a JSON object, not an array`},
		{args: `"a"`, err: `arguments must be a JSON object, not a string`},
		{args: `true`, err: `arguments must be a JSON object, not a boolean`},
		{args: `null`, err: `arguments must be a JSON object, not null`},
		{args: `{"path":`, err: `arguments are not valid JSON: unexpected end of JSON input`},
		{args: `{"path":"a","text":{"x":1}}`, err: `field "text" must be a string, not an object`},
	})
}

// TestDecodeBoundsNesting: arguments nested more than MaxDepth levels deep,
// as a hostile or broken model may write them, get one line that says so,
// at once and with little memory; up to MaxDepth, they are read, and
// refused for what they hold.
func TestDecodeBoundsNesting(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tooDeep := "arguments nest more than 10000 levels deep"
	for _, tt := range []struct{ name, args, err string }{
		{"an array as deep as the limit", `{"path":"a","text":` + deep(MaxDepth-1) + `}`, `field "text" must be a string, not an array`},
		{"an array one level deeper", `{"path":"a","text":` + deep(MaxDepth) + `}`, tooDeep},
		{"arrays never closed", strings.Repeat("[", 1_200_000), tooDeep},
		{"objects never closed", strings.Repeat(`{"a":`, 400_000), tooDeep},
		{"brackets in a string", `{"path":"` + strings.Repeat("[", 2*MaxDepth) + `","text":"b"}`, ""},
		{"brackets after an escaped quote", `{"path":"\"` + strings.Repeat("[", 2*MaxDepth) + `","text":"b"}`, ""},
	} {
		raw := json.RawMessage(tt.args)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode[note](raw)
		runtime.ReadMemStats(&after)
		if got := errText(err); got != tt.err {
			t.Errorf("%s: error %q, want %q", tt.name, got, tt.err)
		}
		if allocated := after.TotalAlloc - before.TotalAlloc; len(raw) > 1<<20 && allocated > 1<<20 {
			t.Errorf("%s: Decode of %d bytes allocates %d bytes, want at most 1 MiB", tt.name, len(raw), allocated)
		}
	}
}

func TestDecodeNumbersAndLists(t *testing.T) {
	checkDecode[numbers](t, []decodeCase{
		{args: `{"n":1,"count":[1,2]}`},
		{args: `{"n":"1","count":[1]}`, err: `field "n" must be a number, not a string`},
		{args: `{"n":1e400,"count":[1]}`, err: `field "n" is out of range: 1e400`},
		{args: `{"n":1,"count":[-1e30]}`, err: `field "count" is out of range: -1e30`},
		{args: `{"n":1,"count":[1e3]}`, err: `field "count" must be a whole number without a fraction or exponent, not 1e3`},
		{args: `{"n":1,"count":[1.5]}`, err: `field "count" must be a whole number, not 1.5`},
		{args: `{"n":1,"count":[true]}`, err: `field "count" must be a whole number, not a boolean`},
		{args: `{"n":1,"count":[1,null]}`, err: `field "count" must not contain null`},
		{args: `{"n":1,"count":null}`, err: `field "count" must be an array, not null`},
		{args: `{"n":1,"count":"1,2"}`, err: `field "count" must be an array, not a string`},
	})
}

func TestDecodeNamesTheFirstUnknownFieldInSortedOrder(t *testing.T) {
	// A Go map has no order: without sorting, the error would name either
	// field, and differ from run to run.
	for range 20 {
		_, err := Decode[note](json.RawMessage(`{"z":1,"path":"a","text":"b","y":2}`))
		if got := errText(err); got != `unknown field "y"` {
			t.Fatalf("error %q, want %q", got, `unknown field "y"`)
		}
	}
}

func TestDecodeFillsTheArguments(t *testing.T) {
	got, err := Decode[numbers](json.RawMessage(`{"count":[1,2],"n":2.5}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (numbers{N: 2.5, Count: []int{1, 2}}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestFieldsAreTheJSONNamesInOrder(t *testing.T) {
	if got, want := Fields[note](), []string{"path", "text"}; !slices.Equal(got, want) {
		t.Errorf("Fields[note]() = %q, want %q", got, want)
	}
	if got, want := Fields[numbers](), []string{"n", "count"}; !slices.Equal(got, want) {
		t.Errorf("Fields[numbers]() = %q, want %q", got, want)
	}
}

// FuzzDecode feeds Decode any bytes. Nothing may panic, an input it
// accepts must be a JSON object with exactly the keys path and text, neither
// of them null, and no JSON that encoding/json reads is too deep.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{`{"path":"a","text":"b"}`, `{"path":"a"}`, `{"path":1}`, `null`, `[]`, `{"path":"a","text":"b","x":1}`, `{"path":null,"text":"b"}`, `{"Path":"a","text":"b"}`} {
		f.Add([]byte(seed))
	}
	f.Add([]byte(`{"path":"[\"{","text":"]"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if Depth(raw) > MaxDepth && json.Valid(raw) {
			t.Fatalf("Depth refuses JSON that encoding/json reads: %.80s", raw)
		}
		if _, err := Decode[note](raw); err != nil {
			return
		}
		var object map[string]any
		if err := json.Unmarshal(raw, &object); err != nil {
			t.Fatalf("accepted arguments are a JSON object: %v", err)
		}
		if keys := slices.Sorted(maps.Keys(object)); !slices.Equal(keys, []string{"path", "text"}) {
			t.Errorf("the object's fields are %q, want path and text", keys)
		}
		for key, value := range object {
			if value == nil {
				t.Errorf("accepted %q is null", key)
			}
		}
	})
}

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestDepth(t *testing.T) {
	for data, want := range map[string]int{`1`: 0, `"[{"`: 0, `[1,2]`: 1, `{"a":[1]}`: 2, `[[],[[]]]`: 3, `["\"[", {}]`: 2} {
		if got := Depth([]byte(data)); got != want {
			t.Errorf("Depth(%s) = %d, want %d", data, got, want)
		}
	}
}
