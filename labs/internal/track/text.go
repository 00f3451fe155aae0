package track

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/labs/strictjson"
)

// A Lang is a language the track speaks to the learner. The labs' own output
// stays English in every language.
type Lang string

// The languages of the track.
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// A Text is something a learner reads: a title, a TODO, a rule, a hint, a
// message of the front door. It carries each language's version.
type Text struct {
	// EN is the English text. Every Text has one.
	EN string
	// ZH is the Chinese text. Every Text of the track has one
	// (TestEveryTextHasAChineseVersion); In shows the English one for a
	// Text without it.
	ZH string
}

// In returns the text in lang, or in English if it has no such version.
func (t Text) In(lang Lang) string {
	if lang == Chinese && t.ZH != "" {
		return t.ZH
	}
	return t.EN
}

// parseLang reads the value of -lang, and reports whether it names a
// language of the track (msgBadLang says which).
func parseLang(s string) (Lang, bool) {
	switch Lang(s) {
	case English, Chinese:
		return Lang(s), true
	}
	return "", false
}

// langFromEnv picks the language of a learner who gave no -lang: Chinese
// when the locale is Chinese, as POSIX decides it (the first of LC_ALL,
// LC_MESSAGES and LANG that is set, such as zh_CN.UTF-8), and English
// otherwise.
func langFromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if strings.HasPrefix(v, "zh") {
				return Chinese
			}
			return English
		}
	}
	return English
}

// check reports a text without both its languages, at path.
func (t Text) check(path strictjson.Path) error {
	if strings.TrimSpace(t.EN) == "" || strings.TrimSpace(t.ZH) == "" {
		return failAt(path, "needs an English text (en) and a Chinese one (zh)")
	}
	return nil
}

// textJSON is a Text as exercises.json writes it: each language's text as a
// string, or, for a text of many lines, a list of lines.
type textJSON struct {
	EN Lines `json:"en"`
	ZH Lines `json:"zh"`
}

// JSONShape says that a Text is written as a textJSON, so that
// exercises.json is read key by key inside it (see package strictjson).
func (Text) JSONShape() reflect.Type { return reflect.TypeFor[textJSON]() }

// UnmarshalJSON reads {"en": …, "zh": …}, each a string or a list of lines.
// parseLab checks the keys first, exactly (see JSONShape).
func (t *Text) UnmarshalJSON(data []byte) error {
	var j textJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	t.EN, t.ZH = string(j.EN), string(j.ZH)
	return nil
}

// MarshalJSON writes what UnmarshalJSON reads.
func (t Text) MarshalJSON() ([]byte, error) {
	return json.Marshal(textJSON{EN: Lines(t.EN), ZH: Lines(t.ZH)})
}

// Lines is a text of one or more lines. exercises.json writes it as a
// string, or as a list of lines, which reads better for code and long texts.
type Lines string

// UnmarshalJSON reads a string or a list of strings, joined with "\n". Its
// error follows the value's name: "must be a string or a list of strings,
// not a number".
func (l *Lines) UnmarshalJSON(data []byte) error {
	switch kind := jsonKind(data); kind {
	case "a string":
		var s string
		err := json.Unmarshal(data, &s)
		*l = Lines(s)
		return err
	case "an array":
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return err
		}
		lines := make([]string, len(items))
		for i, item := range items {
			if kind := jsonKind(item); kind != "a string" {
				return fmt.Errorf("must be a string or a list of strings, and [%d] is %s", i, kind)
			}
			if err := json.Unmarshal(item, &lines[i]); err != nil {
				return err
			}
		}
		*l = Lines(strings.Join(lines, "\n"))
		return nil
	default:
		return fmt.Errorf("must be a string or a list of strings, not %s", kind)
	}
}

// jsonKind names the kind of the JSON value data, by its first character,
// as an error names it: "a string", "an array", "null".
func jsonKind(data []byte) string {
	switch s := strings.TrimLeft(string(data), " \t\r\n"); {
	case strings.HasPrefix(s, `"`):
		return "a string"
	case strings.HasPrefix(s, "["):
		return "an array"
	case strings.HasPrefix(s, "{"):
		return "an object"
	case strings.HasPrefix(s, "t"), strings.HasPrefix(s, "f"):
		return "a boolean"
	case strings.HasPrefix(s, "n"):
		return "null"
	}
	return "a number"
}

// MarshalJSON writes a string, or a list of lines for a text of many.
func (l Lines) MarshalJSON() ([]byte, error) {
	if !strings.Contains(string(l), "\n") {
		return json.Marshal(string(l))
	}
	return json.Marshal(strings.Split(string(l), "\n"))
}
