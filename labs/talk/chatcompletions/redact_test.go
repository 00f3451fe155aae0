package chatcompletions

import (
	"fmt"
	"strings"
	"testing"
	"testing/quick"

	"github.com/stretchr/testify/assert"
)

// TestRedactFindsEveryPieceOfTheKey: the key, and every run of eight or
// more of its characters, is redacted, written as it is or escaped as JSON
// or a URL writes it; shorter runs, which give nothing away, stay.
func TestRedactFindsEveryPieceOfTheKey(t *testing.T) {
	key := sentinelKey() // sk-SENTINEL-must-never-show-4f1c9a
	for _, tt := range []struct{ in, want string }{
		{"denied: " + sentinel + ".", "denied: [redacted]."},
		{"Bearer " + sentinel[:20] + "…", "Bearer [redacted]…"},
		{"the end of it: " + sentinel[20:], "the end of it: [redacted]"},
		{"a piece from the middle: " + sentinel[5:13] + "!", "a piece from the middle: [redacted]!"},
		{"seven: " + sentinel[5:12] + "!", "seven: " + sentinel[5:12] + "!"},
		{`in JSON: "sk\u002dSENTINEL\u002dmust"`, `in JSON: "[redacted]"`},
		{`every character escaped: \u0073\u006b\u002d\u0053\u0045\u004e\u0054\u0049`, `every character escaped: [redacted]`},
		{`escaped twice: "sk\\u002dSENTINEL"`, `escaped twice: "[redacted]"`},
		{`in a URL: /v1?k=sk%2DSENTINEL%2Dmust&x=1`, `in a URL: /v1?k=[redacted]&x=1`},
		{"twice: " + sentinel + " " + sentinel, "twice: [redacted] [redacted]"},
		{"joined: " + sentinel[:12] + sentinel[20:], "joined: [redacted][redacted]"},
		{`a backslash before it stays: \\` + sentinel, `a backslash before it stays: \\[redacted]`},
		{"nothing of it", "nothing of it"},
		{"", ""},
	} {
		assert.Equal(t, tt.want, key.redact(tt.in), "%q", tt.in)
	}
	assert.Equal(t, "denied: "+sentinel, APIKey{}.redact("denied: "+sentinel), "no key, nothing to redact")
	short := newAPIKey("abc123")
	assert.Equal(t, "key [redacted], not abc12", short.redact("key abc123, not abc12"), "a key shorter than eight characters is redacted whole")
}

// TestRedactAPieceAtATime: the reply's text arrives in pieces, which may
// cut the key, or an escape in it, anywhere. Whatever the cut, the text
// that is passed on is the text redacted whole.
func TestRedactAPieceAtATime(t *testing.T) {
	key := sentinelKey()
	for _, text := range []string{
		"You sent Bearer " + sentinel + ". Again: " + sentinel[3:15] + ".",
		`escaped: sk\u002dSENTINEL\u002dmust, and "sk%2DSENTINEL"`,
		"no key here, only sk- and SENT",
		"ends with the start of the key: sk-SEN",
	} {
		want := key.redact(text)
		for cut := range len(text) + 1 {
			for step := 1; step <= 3; step++ {
				p := newPieceRedactor(key)
				var passed strings.Builder
				passed.WriteString(p.add(text[:cut]))
				for i := cut; i < len(text); i += step {
					passed.WriteString(p.add(text[i:min(i+step, len(text))]))
				}
				passed.WriteString(p.flush())
				assert.Equal(t, want, passed.String(), fmt.Sprintf("%q cut after %d bytes, then in pieces of %d", text, cut, step))
			}
		}
	}
	p := newPieceRedactor(key)
	assert.Equal(t, "a ", p.add("a sk-SEN"), "the start of what may be the key waits")
	assert.Equal(t, "sk-SEN b", p.add(" b")+p.flush(), "and passes once it is not")
}

// TestNoPieceOfTheKeySurvives: whatever pieces of the key a text holds, cut
// and joined anyhow, the redacted text holds no 8 characters in a row of
// the key.
func TestNoPieceOfTheKeySurvives(t *testing.T) {
	key := sentinelKey()
	check := func(cuts []uint8, noise []string) bool {
		var b strings.Builder
		for i, c := range cuts {
			start := int(c) % len(sentinel)
			end := min(len(sentinel), start+int(c)%13)
			b.WriteString(sentinel[start:end])
			if i < len(noise) {
				b.WriteString(noise[i])
			}
		}
		out := key.redact(b.String())
		for i := 0; i+minPiece <= len(sentinel); i++ {
			if strings.Contains(out, sentinel[i:i+minPiece]) {
				return false
			}
		}
		return true
	}
	assert.NoError(t, quick.Check(check, &quick.Config{MaxCount: 2000}))
}
