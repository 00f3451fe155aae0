package track

import "strings"

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
