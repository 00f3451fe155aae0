package chatcompletions

import (
	"strings"
	"unicode/utf8"
)

// minPiece is the length, in characters, of the shortest piece of the key
// that is redacted. A server may quote the key cut short, by its own limit
// or by this package's, and a model may repeat half of it; eight characters
// in a row of a random key are still a secret, and fewer are no longer
// worth hiding.
const minPiece = 8

// A secret is the key, with what the redaction needs to find it fast. An
// APIKey holds only the key's text, so that fmt never prints the rest.
type secret struct {
	runes []rune
	// at lists, for each character of the key, where it occurs in it.
	at map[rune][]int
}

func newSecret(key string) *secret {
	s := &secret{runes: []rune(key), at: map[rune][]int{}}
	for i, r := range s.runes {
		s.at[r] = append(s.at[r], i)
	}
	return s
}

// shortest is the length of the shortest run of the key's characters that
// is redacted: minPiece, or the whole key if it is shorter.
func (s *secret) shortest() int { return min(minPiece, len(s.runes)) }

// A unit is one character of a text as the redaction reads it: the
// character as it is, or an escape that stands for it. A server or a model
// may write the key's characters escaped: "\u002d" for "-" in JSON, "%2D"
// in a URL, or "\\u002d" in JSON inside a JSON string. unit returns the
// character at text[i:], how many bytes stand for it, and whether the
// escape is whole: at the end of a text that goes on, "\u00" may be the
// start of one.
func unit(text string, i int) (r rune, size int, whole bool) {
	switch text[i] {
	case '\\':
		j := i
		for j < len(text) && text[j] == '\\' {
			j++
		}
		switch {
		case j == len(text):
			return '\\', 1, false
		case text[j] == 'u':
			digits := text[j+1 : min(j+5, len(text))]
			if !isHex(digits) {
				return '\\', 1, true
			}
			if len(digits) < 4 {
				return '\\', 1, false
			}
			return hexValue(digits), j + 5 - i, true
		case j > i+1:
			return '\\', 2, true // "\\": a backslash, escaped
		case strings.IndexByte(`"/bfnrt`, text[j]) >= 0:
			return rune(map[byte]byte{'"': '"', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[text[j]]), 2, true
		}
		return '\\', 1, true
	case '%':
		digits := text[i+1 : min(i+3, len(text))]
		switch {
		case !isHex(digits):
			return '%', 1, true
		case len(digits) < 2:
			return '%', 1, false
		case hexValue(digits) < utf8.RuneSelf:
			return hexValue(digits), 3, true
		}
		return '%', 1, true
	}
	r, size = utf8.DecodeRuneInString(text[i:])
	return r, size, true
}

func isHex(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
	}) < 0
}

func hexValue(s string) rune {
	var v rune
	for _, r := range s {
		v <<= 4
		switch {
		case r <= '9':
			v |= r - '0'
		case r <= 'F':
			v |= r - 'A' + 10
		default:
			v |= r - 'a' + 10
		}
	}
	return v
}

// run returns the longest run of units at text[i:] whose characters are
// characters of the key in a row: how many bytes and characters it holds,
// and whether it reaches the end of text, where more of the key may follow.
func (s *secret) run(text string, i int) (size, length int, open bool) {
	var starts, next []int // where the run may start in the key
	for j := i; ; {
		if j == len(text) {
			return j - i, length, true
		}
		r, n, whole := unit(text, j)
		if !whole {
			return j - i, length, true
		}
		next = next[:0]
		if length == 0 {
			next = append(next, s.at[r]...)
		} else {
			for _, p := range starts {
				if p+length < len(s.runes) && s.runes[p+length] == r {
					next = append(next, p)
				}
			}
		}
		if len(next) == 0 {
			return j - i, length, false
		}
		starts, next = next, starts
		length++
		j += n
	}
}

// redact returns text with every run of at least minPiece characters of
// the key in a row, escaped or not, replaced by "[redacted]".
func (s *secret) redact(text string) string {
	out, _ := s.redactUpTo(text, false)
	return out
}

// redactUpTo redacts text, as redact does. With more set, text goes on: it
// stops where a run of the key's characters reaches the end of text, and
// returns the rest, which more text may make a piece of the key.
func (s *secret) redactUpTo(text string, more bool) (out, rest string) {
	var b strings.Builder
	last := 0 // text[last:i] is passed on as it is
	for i := 0; i < len(text); {
		size, length, open := s.run(text, i)
		if open && more {
			b.WriteString(text[last:i])
			return b.String(), text[i:]
		}
		if length >= s.shortest() {
			b.WriteString(text[last:i])
			b.WriteString("[redacted]")
			i += size
			last = i
			continue
		}
		_, n, _ := unit(text, i)
		i += n
	}
	if last == 0 {
		return text, ""
	}
	b.WriteString(text[last:])
	return b.String(), ""
}

// A pieceRedactor redacts the key from a text that arrives in pieces, such
// as the reply's text: a piece may end inside the key, and the next one go
// on with it. It holds back the end of the text that may be the start of a
// piece of the key until it knows. The zero pieceRedactor redacts nothing.
type pieceRedactor struct {
	key  *secret
	held string
}

func newPieceRedactor(key APIKey) pieceRedactor {
	if !key.IsSet() {
		return pieceRedactor{}
	}
	return pieceRedactor{key: newSecret(*key.key)}
}

// add takes the next piece and returns what can be passed on now.
func (p *pieceRedactor) add(piece string) string {
	if p.key == nil {
		return piece
	}
	out, rest := p.key.redactUpTo(p.held+piece, true)
	p.held = rest
	return out
}

// flush returns what is still held, redacted, at the end of the text.
func (p *pieceRedactor) flush() string {
	held := p.held
	p.held = ""
	if p.key == nil {
		return held
	}
	return p.key.redact(held)
}
