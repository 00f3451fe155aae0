package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// doc is a small format with every kind of value the walk knows.
type doc struct {
	Name   string              `json:"name"`
	Count  int                 `json:"count,omitempty"`
	Items  []item              `json:"items"`
	ByName map[string]item     `json:"byName"`
	Args   json.RawMessage     `json:"args"`
	Label  label               `json:"label"`
	Words  words               `json:"words"`
	Bare   string              // no tag: encoding/json names it Bare
	Hidden string              `json:"-"`
	secret string              // unexported: never a key
	Ptr    *item               `json:"ptr"`
	Deep   [][][][][][][]int64 `json:"deep"`
}

type item struct {
	Text string `json:"text"`
}

// A label decodes itself, from the shape of labelJSON.
type label struct{ A, B string }

type labelJSON struct {
	A words `json:"a"`
	B words `json:"b"`
}

func (label) JSONShape() reflect.Type { return reflect.TypeFor[labelJSON]() }

func (l *label) UnmarshalJSON(data []byte) error {
	var j labelJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	l.A, l.B = string(j.A), string(j.B)
	return nil
}

// Words decode themselves, with no shape: a string of words, or the error
// "must be words".
type words string

func (w *words) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return errors.New("must be words")
	}
	*w = words(s)
	return nil
}

var docFormat = Format{Root: "the doc", MaxDepth: 6, TooDeep: "a doc never needs that many", Strings: func(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "must not hold a control character"
	}
	return ""
}}

// decodeError decodes data as a doc and returns its error's place and
// sentence, as "line L, column C: sentence", or "".
func decodeError(t *testing.T, data string) (string, *Error) {
	t.Helper()
	var d doc
	_, err := docFormat.Decode([]byte(data), &d)
	if err == nil {
		return "", nil
	}
	var bad *Error
	if !errors.As(err, &bad) {
		t.Fatalf("%s: error %v, want an *Error", data, err)
	}
	return Position([]byte(data), bad.Offset) + ": " + bad.Error(), bad
}

func TestDecodeRefusesWhatEncodingJSONLetsPass(t *testing.T) {
	for _, tt := range []struct{ name, json, want string }{
		{"a key in another case", `{"Name": "x"}`, `line 1, column 2: unknown field "Name" in the doc`},
		{"a key in another case, deep inside", `{"items": [{"text": "a"}, {"TEXT": "b"}]}`, `line 1, column 28: unknown field "TEXT" in items[1]`},
		{"a key twice", "{\"name\": \"a\",\n \"name\": \"b\"}", `line 2, column 2: field "name" appears twice in the doc`},
		{"a key twice in a map", `{"byName": {"x": {}, "x": {}}}`, `line 1, column 22: field "x" appears twice in byName`},
		{"a key twice in any JSON", `{"args": {"k": [{"j": 1, "j": 2}]}}`, `line 1, column 26: field "j" appears twice in args.k[0]`},
		{"a field tagged -", `{"Hidden": "x"}`, `line 1, column 2: unknown field "Hidden" in the doc`},
		{"a field tagged - by its tag", `{"-": "x"}`, `line 1, column 2: unknown field "-" in the doc`},
		{"an unexported field", `{"secret": "x"}`, `line 1, column 2: unknown field "secret" in the doc`},
		{"null for a string", `{"name": null}`, "line 1, column 10: field name must not be null"},
		{"null in a list", `{"items": [{}, null]}`, "line 1, column 16: field items[1] must not be null"},
		{"null for a pointer", `{"ptr": null}`, "line 1, column 9: field ptr must not be null"},
		{"null for the document", `null`, "line 1, column 1: the doc must not be null"},
		{"a wrong type", `{"items": [{"text": 5}]}`, "line 1, column 21: field items[0].text must be a string, not a number"},
		{"a wrong type at the top", `[]`, "line 1, column 1: the doc must be an object, not an array"},
		{"a fraction for a whole number", `{"count": 1.5}`, "line 1, column 11: field count must be a whole number, not 1.5"},
		{"a string the format refuses", `{"items": [{"text": "a\u001bb"}]}`, "line 1, column 21: field items[0].text must not hold a control character"},
		{"a string the format refuses, in any JSON", `{"args": ["ok", "a\u0007"]}`, "line 1, column 17: field args[1] must not hold a control character"},
		{"a type that decodes itself refuses", `{"words": 5}`, "line 1, column 11: field words must be words"},
		{"a mistake inside a shape", "{\"label\": {\"a\": \"x\",\n \"b\": 7}}", "line 2, column 7: field label.b must be words"},
		{"an unknown key inside a shape", `{"label": {"c": "x"}}`, `line 1, column 12: unknown field "c" in label`},
		{"a wrong type for a shape", `{"label": "x"}`, "line 1, column 11: field label must be an object, not a string"},
		{"too deep", `{"deep": [[[[[[1]]]]]]}`, "line 1, column 15: nested more than 6 levels deep: a doc never needs that many"},
		{"not JSON", "{\"name\": \"a\",\n \"items\": [}", "line 2, column 12: not valid JSON: invalid character '}' looking for beginning of value"},
		{"cut short", `{"items": [{"text": "a"`, "line 1, column 24: not valid JSON: unexpected end of JSON input"},
		{"a raw control character", "{\"count\": 1,\n \"name\": \"xx\x1by\"}", `line 2, column 10: not valid JSON: invalid character '\x1b' in string literal`},
		{"more after the value", `{} {}`, "line 1, column 4: not valid JSON: more data after the closing brace"},
		{"not UTF-8", "{\"name\": \"\xc3(\"}", "line 1, column 11: not valid UTF-8 (byte 0xC3); save the file as UTF-8"},
		{"a byte-order mark", "\xef\xbb\xbf{}", "line 1, column 1: starts with a byte-order mark; save it as UTF-8 without one"},
	} {
		got, _ := decodeError(t, tt.json)
		if got != tt.want {
			t.Errorf("%s: %s: error\n  %s\nwant\n  %s", tt.name, tt.json, got, tt.want)
		}
	}

	var d doc
	if _, err := docFormat.Decode([]byte(`{"name": "a", "Bare": "b", "args": {"k": null}, "label": {"a": "x", "b": "y"}, "words": "w"}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != "a" || d.Bare != "b" || string(d.Args) != `{"k": null}` || d.Label != (label{A: "x", B: "y"}) || d.Words != "w" {
		t.Errorf("decoded %+v, want name a, Bare b, args {\"k\": null}, label x and y, words w", d)
	}
}

// TestAMistakeSaysWhereItIs checks the parts of an error that a format
// writes in its own words: the value's path, and whether a key is at fault.
func TestAMistakeSaysWhereItIs(t *testing.T) {
	for _, tt := range []struct {
		json    string
		path    Path
		key     bool
		problem string
	}{
		{`{"items": [{"text": 5}]}`, Path{"items", 0, "text"}, false, "must be a string, not a number"},
		{`{"byName": {"x": {"Text": "a"}}}`, Path{"byName", "x"}, true, `unknown field "Text"`},
		{`{"Name": 1}`, nil, true, `unknown field "Name"`},
		{"{\"items\": [{\"text\": \"a\xff\"}]}", Path{"items", 0, "text"}, false, "not valid UTF-8 (byte 0xFF); save the file as UTF-8"},
		{`{"items": [{"text": "a"}, {"text": "b" "c"}]}`, Path{"items", 1}, false, `not valid JSON: invalid character '"' after object key:value pair`},
		{`{"items": [{"text": "a"}, {"text": "b"`, Path{"items", 1}, false, "not valid JSON: unexpected end of JSON input"},
		{"{\"items\": [{\"text\": \"a\x01\"}]}", Path{"items", 0, "text"}, false, `not valid JSON: invalid character '\x01' in string literal`},
		{`{"items": [{"text": }]}`, Path{"items", 0, "text"}, false, "not valid JSON: invalid character '}' looking for beginning of value"},
		{`{"deep": [[[[[[1]]]]]]}`, Path{"deep", 0, 0, 0, 0, 0}, false, "nested more than 6 levels deep: a doc never needs that many"},
	} {
		_, bad := decodeError(t, tt.json)
		if bad == nil {
			t.Errorf("%s: no error", tt.json)
			continue
		}
		if fmt.Sprint(bad.Path) != fmt.Sprint(tt.path) || bad.Key != tt.key || bad.Problem != tt.problem {
			t.Errorf("%s: error at %v (key: %t): %q, want at %v (key: %t): %q", tt.json, bad.Path, bad.Key, bad.Problem, tt.path, tt.key, tt.problem)
		}
	}
}

func TestFindPlacesALaterCheck(t *testing.T) {
	data := []byte("{\"items\": [{\"text\": \"a\"},\n  {}]}")
	var d doc
	root, err := docFormat.Decode(data, &d)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path Path
		want string
	}{
		{Path{"items", 0, "text"}, "line 1, column 21"},
		{Path{"items", 1, "text"}, "line 2, column 3"}, // missing: its object
		{Path{"name"}, "line 1, column 1"},
	} {
		if got := Position(data, root.Find(tt.path).Start); got != tt.want {
			t.Errorf("%v is at %s, want %s", tt.path, got, tt.want)
		}
	}
	if got, want := root.Find(Path{"items", 0, "text"}).Path().String(), "items[0].text"; got != want {
		t.Errorf("the path of items[0].text is %s", got)
	}
}

func TestAPathIsOneLine(t *testing.T) {
	if got, want := (Path{"tools", "a\nb", "updates", 2}).String(), `tools."a\nb".updates[2]`; got != want {
		t.Errorf("the path is %s, want %s", got, want)
	}
}

func TestPositionCountsCharacters(t *testing.T) {
	data := []byte("{\"a\": \"ÅÅ\",\n \"b\": 1}")
	if got, want := Position(data, int64(strings.Index(string(data), `"a"`))), "line 1, column 2"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := Position(data, int64(strings.Index(string(data), "1}"))), "line 2, column 7"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := Position(data, int64(strings.Index(string(data), `",`))), "line 1, column 10"; got != want {
		t.Errorf("after two Å: got %s, want %s", got, want)
	}
}

// TestTheWalkStopsAtTheBound checks that a document nested far too deep
// costs what one nested one level too deep does.
func TestTheWalkStopsAtTheBound(t *testing.T) {
	deep := []byte(`{"args": ` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`)
	got, _ := decodeError(t, string(deep))
	if want := "line 1, column 15: nested more than 6 levels deep: a doc never needs that many"; got != want {
		t.Errorf("error %s, want %s", got, want)
	}
	allocs := testing.AllocsPerRun(5, func() {
		var d doc
		_, _ = docFormat.Decode(deep, &d)
	})
	if allocs >= 200 {
		t.Errorf("Decode of 100,000 levels allocates %v times, want fewer than 200", allocs)
	}
}
