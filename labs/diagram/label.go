package diagram

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxText is how many characters of a text from a run, such as a reply, a
// tool's arguments or its result, a label keeps. A longer one is cut and
// ends with "…", so that one long reply does not make the whole diagram as
// wide as itself.
const maxText = 72

// maxName is how many characters of a tool's name a label keeps.
const maxName = 32

// Label returns text ready to stand in a message or a note of a sequence
// diagram: on one line, at most n characters long, and with every
// character that Mermaid would read as syntax written as an entity code.
// Text of any origin goes through it: a reply, a tool's arguments or
// result, what the user typed.
//
// Each control character, a line break or a tab for instance, becomes a
// space, so that a label stays on its line. A text longer than n
// characters keeps its first n-1 and ends with "…". Then each of # (which
// ends a message), ; (which ends a statement), <, > and & (which Mermaid
// would read as HTML), and ﬂ and ¶ (which Mermaid uses for its own codes)
// becomes the code #NN;, which Mermaid reads back as the character.
func Label(text string, n int) string {
	return escape(shorten(text, n), "")
}

// name returns a label for a participant of a sequence diagram: Label's,
// with : , and @ coded too, which would end the name, and "(no name)" for
// an empty name.
func name(text string) string {
	if strings.TrimSpace(text) == "" {
		text = "(no name)"
	}
	return escape(shorten(text, maxName), ":,@")
}

// taskName returns a label for a task of a Gantt chart: Label's, with : and
// % coded too, which would end the name or start a comment, and with its
// first character coded if the name would otherwise start like a keyword,
// such as "click" or a date.
func taskName(text string) string {
	label := escape(shorten(text, maxText), ":%")
	if !ganttKeyword.MatchString(label) {
		return label
	}
	r, size := utf8.DecodeRuneInString(label)
	return code(r) + label[size:]
}

// ganttKeyword matches the start of a text that a Gantt chart would read as
// a keyword, not as a task's name: "click x", "title x", a date, a comment.
var ganttKeyword = regexp.MustCompile(`(?i)^((acc\w*|href|call|click|gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|section|vert)\b|[0-9]{4}-|%)`)

// shorten puts text on one line, its spaces trimmed, and cuts it to at
// most n characters.
func shorten(text string, n int) string {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(text, "\uFFFD")))
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	runes := []rune(text)
	return strings.TrimRight(string(runes[:n-1]), " ") + "…"
}

// always are the characters every label writes as codes.
const always = "#;<>&ﬂ¶"

// escape writes each character of text that is in always or in extra as
// Mermaid's entity code for it.
func escape(text, extra string) string {
	special := always + extra
	if !strings.ContainsAny(text, special) {
		return text
	}
	var b strings.Builder
	for _, r := range text {
		if strings.ContainsRune(special, r) {
			b.WriteString(code(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// code is Mermaid's entity code for r: #35; for #.
func code(r rune) string {
	return "#" + strconv.Itoa(int(r)) + ";"
}
