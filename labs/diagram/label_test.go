package diagram

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// tricky are texts a run may hand a label: what a model writes, what a
// tool returns, what a user types. Each would break a diagram, or change
// what it shows, if it went in as it is.
var tricky = []string{
	`He said "hi"; then 'bye'`,
	"# a heading; and #35; an entity code, and ﬂ°°35¶ß Mermaid's own",
	"<b>bold</b> <br/> <script>alert(1)</script> &amp; &lt;",
	"brackets [x] (y) {z} |pipe| `code`",
	"arrows ->> -->> --x -) <<->> --> and end, loop, alt, Note over L: x",
	"%% a comment, %%{init: {}}%% a directive, 50% done",
	"你好；世界：“引号”《书名》——中文的标点，还有 Emoji 🙂",
	strings.Repeat("长", 200),
	strings.Repeat("a long reply ", 40),
	"line one\nline two\r\nline three\ttabbed\u2028separated\x00null\x1b[31mred",
	"wrap: a message that starts like a directive",
	"a:b,c@d:e",
	"",
	"   ",
	"invalid \xff UTF-8",
}

// entity matches one of Mermaid's entity codes.
var entity = regexp.MustCompile(`#([0-9]+);`)

// decode reads a label as Mermaid does: each entity code becomes its
// character.
func decode(label string) string {
	return entity.ReplaceAllStringFunc(label, func(code string) string {
		n, _ := strconv.Atoi(entity.FindStringSubmatch(code)[1])
		return string(rune(n))
	})
}

// TestLabelKeepsEveryTextOnOneSafeLine checks that a label holds no
// character Mermaid reads as syntax, only codes for them, and that Mermaid
// reads it back as the text, on one line and shortened.
func TestLabelKeepsEveryTextOnOneSafeLine(t *testing.T) {
	for _, text := range tricky {
		label := Label(text, 40)
		if strings.Contains(label, "\n") {
			t.Errorf("Label(%q, 40) = %q, want one line", text, label)
		}
		if strings.ContainsAny(entity.ReplaceAllString(label, ""), "#;<>&ﬂ¶") {
			t.Errorf("Label(%q, 40) = %q, which holds a character Mermaid reads as syntax, want only its code", text, label)
		}
		back := decode(label)
		if n := utf8.RuneCountInString(back); n > 40 {
			t.Errorf("Label(%q, 40) reads back as %d characters, want at most 40", text, n)
		}
		if want := shorten(text, 40); back != want {
			t.Errorf("Mermaid reads Label(%q, 40) = %q back as %q, want the text, %q", text, label, back, want)
		}
		if !utf8.ValidString(label) {
			t.Errorf("Label(%q, 40) = %q, want valid UTF-8", text, label)
		}
	}
	if got, want := Label(`He said "hi"; then 'bye'`, 40), `He said "hi"#59; then 'bye'`; got != want {
		t.Errorf("Label(%q, 40) = %q, want %q", `He said "hi"; then 'bye'`, got, want)
	}
	if got, want := Label("abcdefgh", 5), "abcd…"; got != want {
		t.Errorf("Label(%q, 5) = %q, want %q: a long text is cut, with …", "abcdefgh", got, want)
	}
	if got, want := Label("line one\nline two", 40), "line one line two"; got != want {
		t.Errorf("Label(%q, 40) = %q, want %q", "line one\nline two", got, want)
	}
}

func TestANameCodesWhatWouldEndIt(t *testing.T) {
	if got, want := name("a:b,c@d"), "a#58;b#44;c#64;d"; got != want {
		t.Errorf("name(%q) = %q, want %q", "a:b,c@d", got, want)
	}
	if got, want := name(" "), "(no name)"; got != want {
		t.Errorf("name(%q) = %q, want %q", " ", got, want)
	}
	if got, want := name("end"), "end"; got != want {
		t.Errorf("name(%q) = %q, want %q: a keyword is fine as an alias", "end", got, want)
	}
	for _, text := range tricky {
		if got := name(text); strings.ContainsAny(entity.ReplaceAllString(got, ""), "#;<>&:,@\n") {
			t.Errorf("name(%q) = %q, which holds a character that would end it, want only its code", text, got)
		}
	}
}

func TestATaskNameNeverStartsLikeAKeyword(t *testing.T) {
	for text, want := range map[string]string{
		"click here":           "#99;lick here",
		"title of it":          "#116;itle of it",
		"Section 2":            "#83;ection 2",
		"2024-05-12 a date":    "#50;024-05-12 a date",
		"call_1 weather":       "call_1 weather",
		"% done":               "#37; done",
		`c reports: a "b"; #1`: `c reports#58; a "b"#59; #35;1`,
	} {
		if got := taskName(text); got != want {
			t.Errorf("taskName(%q) = %q, want %q", text, got, want)
		}
	}
}
