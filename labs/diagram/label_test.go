package diagram

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
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
	`%%{init: {"theme": "dark", "themeCSS": "svg {display: none}"}}%%`,
	"%\n%{init: {\"theme\": \"forest\"}}%\n%",
	"a text that ends with % and the next one starts with %",
	"你好；世界：“引号”《书名》——中文的标点，还有 Emoji 🙂",
	strings.Repeat("长", 200),
	strings.Repeat("a long reply ", 40),
	`{"path":"todo.txt","text":"renew the API key sk-live-4242","more":"and more and more"}`,
	"line one\nline two\r\nline three\ttabbed\u2028separated\x00null\x1b[31mred",
	"wrap: a message that starts like a directive",
	"nowrap: another",
	"a:b,c@d:e",
	"",
	"   ",
	"invalid \xff UTF-8",
}

// entity matches one of Mermaid's entity codes.
var entity = regexp.MustCompile(`#([0-9]+);`)

// decode reads a label as Mermaid does: each entity code becomes its
// character, and each line break a new line.
func decode(label string) string {
	label = strings.ReplaceAll(label, "<br/>", "\n")
	return entity.ReplaceAllStringFunc(label, func(code string) string {
		n, _ := strconv.Atoi(entity.FindStringSubmatch(code)[1])
		return string(rune(n))
	})
}

// syntax are the characters a label never holds as they are, only as
// codes.
const syntax = "#;%<>&ﬂ¶"

// TestLinesWrapEveryTextSafely checks that a label holds no character
// Mermaid reads as syntax, only codes for them and the line breaks it
// puts in; that Mermaid reads it back as the text, shortened, on lines no
// wider than asked; and that it never starts like an instruction.
func TestLinesWrapEveryTextSafely(t *testing.T) {
	for _, text := range tricky {
		for _, width := range []int{1, 12, 30, 200} {
			label := Lines(text, 60, width)
			bare := entity.ReplaceAllString(strings.ReplaceAll(label, "<br/>", ""), "")
			if strings.ContainsAny(bare, syntax+"\n\r") {
				t.Errorf("Lines(%q, 60, %d) = %q, which holds a character Mermaid reads as syntax, want only its code", text, width, label)
			}
			back := decode(label)
			for _, line := range strings.Split(back, "\n") {
				if n := cli.Columns(line); n > max(width, 2) {
					t.Errorf("Lines(%q, 60, %d) has the line %q, %d columns wide, want at most %d", text, width, line, n, width)
				}
			}
			if got, want := strings.Join(strings.Fields(back), ""), strings.Join(strings.Fields(shorten(text, 60)), ""); got != want {
				t.Errorf("Mermaid reads Lines(%q, 60, %d) = %q back as %q, want the text, shortened: %q", text, width, label, got, want)
			}
			if wrapKeyword.MatchString(label) {
				t.Errorf("Lines(%q, 60, %d) = %q starts with an instruction to Mermaid", text, width, label)
			}
			if !utf8.ValidString(label) {
				t.Errorf("Lines(%q, 60, %d) = %q, want valid UTF-8", text, width, label)
			}
		}
	}
	for _, tt := range []struct {
		text  string
		width int
		want  string
	}{
		{`He said "hi"; then 'bye'`, 40, `He said "hi"#59; then 'bye'`},
		{"line one\nline two", 40, "line one line two"},
		{"the batch took 0.4 s, as long as its slowest call", 20, "the batch took 0.4<br/>s, as long as its<br/>slowest call"},
		{`call_1 {"path":"todo.txt","text":"renew"}`, 20, `call_1<br/>{"path":"todo.txt",<br/>"text":"renew"}`},
		{"50%% done", 40, "50#37;#37; done"},
		{"wrap: me", 40, "#119;rap: me"},
		{"你好世界", 5, "你好<br/>世界"},
	} {
		if got := Lines(tt.text, 72, tt.width); got != tt.want {
			t.Errorf("Lines(%q, 72, %d) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
	}
	if got, want := Label("abcdefgh", 5), "abcd…"; got != want {
		t.Errorf("Label(%q, 5) = %q, want %q: a long text is cut, with …", "abcdefgh", got, want)
	}
	if got, want := shorten("长长长长长", 6), "长长…"; got != want {
		t.Errorf("shorten(%q, 6) = %q, want %q: a Chinese character takes two columns", "长长长长长", got, want)
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
		"vert line":            "#118;ert line",
		`c reports: a "b"; #1`: `c reports#58; a "b"#59; #35;1`,
	} {
		if got := taskName(text, maxText); got != want {
			t.Errorf("taskName(%q) = %q, want %q", text, got, want)
		}
	}
}
