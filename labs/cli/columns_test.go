package cli

import "testing"

func TestColumnsCountWideCharactersTwice(t *testing.T) {
	for text, want := range map[string]int{
		"":           0,
		"turn 1":     6,
		"插队消息":       8,
		"한국어":        6,
		"ｆｕｌｌ":       8,
		"…":          1, // ambiguous: one column, as terminals outside East Asia show it
		"〿":          1, // the ideographic half fill space is narrow
		"🚀 go":       5,
		"e\u0301tat": 5, // a combining accent is counted as a character of its own
	} {
		if got := Columns(text); got != want {
			t.Errorf("Columns(%q) = %d, want %d", text, got, want)
		}
	}
}

func TestShortenCutsToColumns(t *testing.T) {
	for _, tt := range []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a longer text", 8, "a longe…"},
		{"a long  text", 8, "a long…"}, // the spaces before the ellipsis go
		{"插队消息和后续消息", 7, "插队消…"},
		{"插队消息和后续消息", 8, "插队消…"}, // a wide character does not fit in the last free column
	} {
		got := Shorten(tt.text, tt.n)
		if got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
		if Columns(got) > tt.n {
			t.Errorf("Shorten(%q, %d) = %q, %d columns, want at most %d", tt.text, tt.n, got, Columns(got), tt.n)
		}
	}
}
