package expected

import (
	"fmt"
	"strings"
)

// An edit is one line of a line diff: a line both texts hold (op ' '), a
// line only the first holds ('-'), or a line only the second holds ('+').
type edit struct {
	op   byte
	line string
}

// lineDiff returns a shortest edit script from a to b, by Myers' algorithm:
// for each number of differences d, it follows every diagonal as far as
// equal lines go, and keeps each round's furthest reach to walk back from
// the end.
func lineDiff(a, b []string) []edit {
	n, m := len(a), len(b)
	offset := n + m
	v := make([]int, 2*offset+2) // v[k+offset]: the furthest x on diagonal k
	var trace [][]int
	for d := 0; d <= n+m; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[k-1+offset] < v[k+1+offset]) {
				x = v[k+1+offset] // a line of b
			} else {
				x = v[k-1+offset] + 1 // a line of a
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+offset] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, d)
			}
		}
	}
	return nil // not reached: d = n+m always reaches the end
}

// backtrack walks the rounds of lineDiff back from the end of both texts
// and returns the edits in order.
func backtrack(a, b []string, trace [][]int, d int) []edit {
	offset := len(a) + len(b)
	x, y := len(a), len(b)
	var edits []edit
	for ; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[k-1+offset] < v[k+1+offset]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[prevK+offset]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			edits = append(edits, edit{' ', a[x]})
		}
		if d > 0 {
			if x == prevX {
				y--
				edits = append(edits, edit{'+', b[y]})
			} else {
				x--
				edits = append(edits, edit{'-', a[x]})
			}
		}
	}
	for i, j := 0, len(edits)-1; i < j; i, j = i+1, j-1 {
		edits[i], edits[j] = edits[j], edits[i]
	}
	return edits
}

// splitLines splits text into lines without their "\n". A text that does not
// end with a newline gets a last line marked the way diff marks it.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n\\ No newline at end of file"
	return lines
}

// UnifiedDiff returns a unified diff of two texts, as diff -u prints it,
// with three lines of context: "--- fromName" and "+++ toName", then a
// hunk for each group of changes. It returns "" when the texts are equal.
func UnifiedDiff(fromName, toName, from, to string) string {
	hunks := unified(lineDiff(splitLines(from), splitLines(to)), 3)
	if len(hunks) == 0 {
		return ""
	}
	return fmt.Sprintf("--- %s\n+++ %s\n%s", fromName, toName, strings.Join(hunks, ""))
}

// unified groups edits into hunks, each with context equal lines around its
// changes and an "@@ -l,s +l,s @@" header.
func unified(edits []edit, context int) []string {
	var hunks []string
	for i := 0; i < len(edits); {
		if edits[i].op == ' ' {
			i++
			continue
		}
		// A change at i: the hunk starts context lines earlier and ends
		// where more than 2*context equal lines follow a change.
		start := max(0, i-context)
		end := i
		for end < len(edits) {
			if edits[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(edits) && edits[run].op == ' ' {
				run++
			}
			if run == len(edits) || run-end > 2*context {
				end = min(run, end+context)
				break
			}
			end = run
		}
		hunks = append(hunks, hunk(edits, start, end))
		i = end
	}
	return hunks
}

// hunk formats edits[start:end] with its header.
func hunk(edits []edit, start, end int) string {
	fromLine, toLine := 1, 1
	for _, e := range edits[:start] {
		if e.op != '+' {
			fromLine++
		}
		if e.op != '-' {
			toLine++
		}
	}
	var body strings.Builder
	fromCount, toCount := 0, 0
	for _, e := range edits[start:end] {
		if e.op != '+' {
			fromCount++
		}
		if e.op != '-' {
			toCount++
		}
		fmt.Fprintf(&body, "%c%s\n", e.op, e.line)
	}
	return fmt.Sprintf("@@ -%s +%s @@\n%s", span(fromLine, fromCount), span(toLine, toCount), body.String())
}

// span writes a hunk's range as diff -u does: an empty range names the line
// before it.
func span(line, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", line-1)
	case 1:
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, count)
}
