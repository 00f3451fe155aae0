package expected

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUnifiedDiff(t *testing.T) {
	from := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	to := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n"
	assert.Equal(t, `--- old
+++ new
@@ -1,6 +1,6 @@
 a
 b
-c
+C
 d
 e
 f
@@ -8,3 +8,4 @@
 h
 i
 j
+k
`, UnifiedDiff("old", "new", from, to))
	assert.Empty(t, UnifiedDiff("old", "new", from, from), "equal texts have no diff")
}

func TestUnifiedDiffEdges(t *testing.T) {
	assert.Equal(t, "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n", UnifiedDiff("a", "b", "", "x\ny\n"), "from nothing")
	assert.Equal(t, "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n", UnifiedDiff("a", "b", "x\n", ""), "to nothing")
	assert.Equal(t, "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n", UnifiedDiff("a", "b", "x\n", "x"),
		"a missing final newline shows")
}

// TestLineDiffIsMinimal checks that the diff of texts with a known number
// of changes has exactly that many, and that applying it gives the second
// text.
func TestLineDiffIsMinimal(t *testing.T) {
	tests := []struct {
		a, b  string
		edits int
	}{
		{"abcabba", "cbabac", 5},
		{"", "", 0},
		{"abc", "abc", 0},
		{"abc", "", 3},
		{"xaxbxc", "abc", 3},
	}
	for _, tt := range tests {
		a, b := strings.Split(tt.a, ""), strings.Split(tt.b, "")
		edits := lineDiff(a, b)
		var changes int
		var fromA, toB []string
		for _, e := range edits {
			if e.op != ' ' {
				changes++
			}
			if e.op != '+' {
				fromA = append(fromA, e.line)
			}
			if e.op != '-' {
				toB = append(toB, e.line)
			}
		}
		assert.Equal(t, tt.edits, changes, "%q → %q", tt.a, tt.b)
		assert.Equal(t, strings.Join(a, ""), strings.Join(fromA, ""))
		assert.Equal(t, strings.Join(b, ""), strings.Join(toB, ""))
	}
}
