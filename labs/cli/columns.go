package cli

import "strings"

// Columns is how many columns text takes on a terminal: two for each wide
// character (RuneColumns), one for the others.
func Columns(text string) int {
	n := 0
	for _, r := range text {
		n += RuneColumns(r)
	}
	return n
}

// RuneColumns is how many columns r takes on a terminal: two for the East
// Asian wide and full-width characters of Unicode's annex 11, in their main
// blocks, as Chinese, Japanese and Korean ones are, and for emoji; one for
// the others.
func RuneColumns(r rune) int {
	switch {
	case r < 0x1100:
		return 1
	case r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// Shorten cuts text to at most n columns (Columns), the last an ellipsis,
// if it is longer: for a table's cell or a picture's label that must fit.
func Shorten(text string, n int) string {
	if Columns(text) <= n {
		return text
	}
	used := 0
	for i, r := range text {
		if used+RuneColumns(r) > n-1 {
			return strings.TrimRight(text[:i], " ") + "…"
		}
		used += RuneColumns(r)
	}
	return text
}
