package track

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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

// check reports a text without both its languages, naming it by what.
func (t Text) check(what string) error {
	if strings.TrimSpace(t.EN) == "" || strings.TrimSpace(t.ZH) == "" {
		return fmt.Errorf("%s: needs an English text (en) and a Chinese one (zh)", what)
	}
	return nil
}

// textJSON is a Text as exercises.json writes it: each language's text as a
// string, or, for a text of many lines, a list of lines.
type textJSON struct {
	EN Lines `json:"en"`
	ZH Lines `json:"zh"`
}

// UnmarshalJSON reads {"en": …, "zh": …}, each a string or a list of lines.
func (t *Text) UnmarshalJSON(data []byte) error {
	var langs map[string]Lines
	if err := json.Unmarshal(data, &langs); err != nil {
		return err
	}
	for lang := range langs {
		if lang != "en" && lang != "zh" {
			return fmt.Errorf("a text has an English version (en) and a Chinese one (zh), and no %q", lang)
		}
	}
	t.EN, t.ZH = string(langs["en"]), string(langs["zh"])
	return nil
}

// MarshalJSON writes what UnmarshalJSON reads.
func (t Text) MarshalJSON() ([]byte, error) {
	return json.Marshal(textJSON{EN: Lines(t.EN), ZH: Lines(t.ZH)})
}

// Lines is a text of one or more lines. exercises.json writes it as a
// string, or as a list of lines, which reads better for code and long texts.
type Lines string

// UnmarshalJSON reads a string or a list of strings, joined with "\n".
func (l *Lines) UnmarshalJSON(data []byte) error {
	var list []string
	if err := json.Unmarshal(data, &list); err == nil {
		*l = Lines(strings.Join(list, "\n"))
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		// The decoder adds the field's path to a type error.
		return &json.UnmarshalTypeError{Value: "a text that is not a string or a list of lines", Type: reflect.TypeFor[Lines]()}
	}
	*l = Lines(s)
	return nil
}

// MarshalJSON writes a string, or a list of lines for a text of many.
func (l Lines) MarshalJSON() ([]byte, error) {
	if !strings.Contains(string(l), "\n") {
		return json.Marshal(string(l))
	}
	return json.Marshal(strings.Split(string(l), "\n"))
}
