package diagram

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxText is how many columns of a text from a run, such as a reply, a
// tool's arguments or its result, a label keeps. A longer one is cut and
// ends with "…", so that one long reply does not make the whole diagram as
// tall or as wide as itself; the text output holds it whole.
const maxText = 72

// lineWidth is how many columns a line of a sequence diagram's label
// holds: a longer label is wrapped onto more lines. Mermaid makes the gap
// between two lanes as wide as the widest label between them, so the
// width of a line sets the width of the picture (see sequence.go).
const lineWidth = 30

// Label returns text ready to stand in a message or a note of a sequence
// diagram on one line: Lines(text, n, n).
func Label(text string, n int) string {
	return Lines(text, n, n)
}

// Lines returns text ready to stand in a message or a note of a sequence
// diagram: shortened to at most n columns, wrapped at spaces onto lines of
// at most width columns, joined by Mermaid's line break <br/>, and with
// every character that Mermaid would read as syntax written as an entity
// code. Text of any origin goes through it: a reply, a tool's arguments or
// result, what the user typed.
//
// A column is what a character takes in a monospaced font: two for a
// Chinese character, one for a Latin letter. Each control character, a
// line break or a tab for instance, becomes a space, so that a label keeps
// the lines this function gives it. A text longer than n columns keeps
// what fits in n-1 and ends with "…". Then each of # (which ends a
// message), ; (which ends a statement), % (which starts a comment or a
// directive, %%{init: …}%%, that would configure the picture), <, > and &
// (which Mermaid would read as HTML), and ﬂ and ¶ (which Mermaid uses for
// its own codes) becomes the code #NN;, which Mermaid reads back as the
// character. A label that would start with wrap: or nowrap:, which Mermaid
// reads as an instruction, has its first letter coded too.
func Lines(text string, n, width int) string {
	lines := wrap(shorten(text, n), width)
	for i, line := range lines {
		lines[i] = escape(line, "")
	}
	if len(lines) == 0 {
		return ""
	}
	if wrapKeyword.MatchString(lines[0]) {
		r, size := utf8.DecodeRuneInString(lines[0])
		lines[0] = code(r) + lines[0][size:]
	}
	return strings.Join(lines, "<br/>")
}

// wrapKeyword matches the start of a label that Mermaid's sequence diagram
// reads as an instruction to wrap it, or not to.
var wrapKeyword = regexp.MustCompile(`(?i)^(no)?wrap:`)

// taskName returns a label for a task of a Gantt chart: Label's, with :
// coded too, which would end the name, with its first character coded if
// the name would otherwise start like a keyword, such as "click" or a
// date, and "(no name)" for a name that would be empty.
func taskName(text string, n int) string {
	text = shorten(text, n)
	if text == "" {
		text = "(no name)"
	}
	label := escape(text, ":")
	if !ganttKeyword.MatchString(label) {
		return label
	}
	r, size := utf8.DecodeRuneInString(label)
	return code(r) + label[size:]
}

// ganttKeyword matches the start of a text that a Gantt chart would read as
// a keyword, not as a task's name: "click x", "title x", a date.
var ganttKeyword = regexp.MustCompile(`(?i)^((acc\w*|href|call|click|gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|section|vert)\b|[0-9]{4}-)`)

// shorten puts text on one line, its spaces trimmed, and cuts it to at
// most n columns.
func shorten(text string, n int) string {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(text, "\uFFFD")))
	return cli.Shorten(text, n)
}

// wrap cuts text into lines of at most width columns, at spaces where it
// can, and inside a word longer than a line where it must: after a comma
// if there is one in the line's second half, as in JSON, and otherwise at
// the line's end. A character that escape codes counts as wide as Mermaid
// measures it when it lays a diagram out: as its code, which it reads back
// as the character only when it draws the text.
func wrap(text string, width int) []string {
	var lines []string
	line, used := "", 0
	for _, word := range strings.Fields(text) {
		w := laidOut(word)
		switch {
		case used > 0 && used+1+w <= width:
			line, used = line+" "+word, used+1+w
			continue
		case used > 0:
			lines = append(lines, line)
			line, used = "", 0
		}
		for w > width {
			head := cut(word, width)
			lines = append(lines, head)
			word = word[len(head):]
			w = laidOut(word)
		}
		line, used = word, w
	}
	if used > 0 {
		lines = append(lines, line)
	}
	return lines
}

// cut returns the start of word that fills a line of width columns: up to
// its last comma in the line's second half, or all that fits.
func cut(word string, width int) string {
	end, comma, used := 0, 0, 0
	for i, r := range word {
		if used+laidOutRune(r) > width {
			break
		}
		used += laidOutRune(r)
		end = i + utf8.RuneLen(r)
		if r == ',' && used > width/2 {
			comma = end
		}
	}
	switch {
	case comma > 0:
		return word[:comma]
	case end == 0:
		// A character wider than the line still takes a line.
		_, size := utf8.DecodeRuneInString(word)
		return word[:size]
	}
	return word[:end]
}

// laidOut is how many columns text takes when Mermaid lays it out.
func laidOut(text string) int {
	n := 0
	for _, r := range text {
		n += laidOutRune(r)
	}
	return n
}

// laidOutRune is how many columns r takes when Mermaid lays a label out: a
// character that escape codes as #NN; is laid out as Mermaid's own code
// for it, ﬂ°°NN¶ß.
func laidOutRune(r rune) int {
	if strings.ContainsRune(always, r) {
		return len(strconv.Itoa(int(r))) + 5
	}
	return cli.RuneColumns(r)
}

// always are the characters every label writes as codes.
const always = "#;%<>&ﬂ¶"

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
