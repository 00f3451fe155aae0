package expected

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	from := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	to := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n"
	wantDiff(t, "of the two texts", UnifiedDiff("old", "new", from, to), `--- old
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
`)
	if got := UnifiedDiff("old", "new", from, from); got != "" {
		t.Errorf("the diff of equal texts is\n%s\nwant none", got)
	}
}

// wantDiff checks a diff that UnifiedDiff wrote; what says of which texts.
func wantDiff(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("the diff %s is\n%s\nwant\n%s", what, got, want)
	}
}

func TestUnifiedDiffEdges(t *testing.T) {
	wantDiff(t, "from nothing", UnifiedDiff("a", "b", "", "x\ny\n"), "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n")
	wantDiff(t, "to nothing", UnifiedDiff("a", "b", "x\n", ""), "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n")
	wantDiff(t, "where a final newline is missing (it shows)", UnifiedDiff("a", "b", "x\n", "x"),
		"--- a\n+++ b\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n")
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
		if changes != tt.edits {
			t.Errorf("%q → %q: %d changes, want %d", tt.a, tt.b, changes, tt.edits)
		}
		if got := strings.Join(fromA, ""); got != tt.a {
			t.Errorf("%q → %q: the diff's lines from the first are %q, want %q", tt.a, tt.b, got, tt.a)
		}
		if got := strings.Join(toB, ""); got != tt.b {
			t.Errorf("%q → %q: the diff applied gives %q, want %q", tt.a, tt.b, got, tt.b)
		}
	}
}
