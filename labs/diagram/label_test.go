package diagram

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
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
		assert.NotContains(t, label, "\n", "%q", text)
		assert.False(t, strings.ContainsAny(entity.ReplaceAllString(label, ""), "#;<>&ﬂ¶"), "%q gives %q", text, label)
		back := decode(label)
		assert.LessOrEqual(t, utf8.RuneCountInString(back), 40, "%q", text)
		assert.Equal(t, shorten(text, 40), back, "Mermaid reads %q back as the text", label)
		assert.True(t, utf8.ValidString(label), "%q", text)
	}
	assert.Equal(t, `He said "hi"#59; then 'bye'`, Label(`He said "hi"; then 'bye'`, 40))
	assert.Equal(t, "abcd…", Label("abcdefgh", 5), "a long text is cut, with …")
	assert.Equal(t, "line one line two", Label("line one\nline two", 40))
}

func TestANameCodesWhatWouldEndIt(t *testing.T) {
	assert.Equal(t, "a#58;b#44;c#64;d", name("a:b,c@d"))
	assert.Equal(t, "(no name)", name(" "))
	assert.Equal(t, "end", name("end"), "a keyword is fine as an alias")
	for _, text := range tricky {
		assert.False(t, strings.ContainsAny(entity.ReplaceAllString(name(text), ""), "#;<>&:,@\n"), "%q", text)
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
		assert.Equal(t, want, taskName(text), "%q", text)
	}
}
