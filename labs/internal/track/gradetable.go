package track

import (
	"fmt"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"strings"
	"unicode/utf8"
)

// tableWidth is the width of a terminal that grade's table fits.
const tableWidth = 100

// maxNameColumns is the widest a learner's name shows in the table.
const maxNameColumns = 24

// Cells of the table other than points.
const (
	cellNotStarted = "–"
	cellNotGraded  = "?"
	cellOutside    = "!"
)

// writeTable writes the class's grades for a terminal 100 columns wide: one
// row a learner, one column a lab, by its number, and the total; then a
// legend, and for each started lab that loses points the first test that
// fails, with its reason.
func writeTable(p *printer, class []*learner, entries []gradeEntry, labs []*Lab) {
	header := []string{msgGradeLearner.In(p.lang)}
	for _, lab := range labs {
		number, _, _ := strings.Cut(lab.Name, "-")
		header = append(header, number)
	}
	header = append(header, msgGradeTotal.In(p.lang))
	rows := [][]string{header}
	full := [][]bool{make([]bool, len(header))}
	for i, l := range class {
		row := []string{cli.Shorten(printable(l.name), maxNameColumns)}
		rowFull := []bool{false}
		for _, ll := range l.labs {
			score, max := 0, 0
			for _, t := range entries[i].Tests {
				if strings.HasPrefix(t.Name, ll.lab.Name+"/") {
					score += t.Score
					max += t.MaxScore
				}
			}
			cell := fmt.Sprintf("%d/%d", score, max)
			switch {
			case l.outside != "":
				cell = cellOutside
			case !ll.started:
				cell = cellNotStarted
			case !ll.graded() || l.failed != "":
				cell = cellNotGraded
			}
			row = append(row, printable(cell))
			rowFull = append(rowFull, score == max)
		}
		row = append(row, fmt.Sprintf("%d/%d", entries[i].Score, entries[i].MaxScore))
		rowFull = append(rowFull, entries[i].Score == entries[i].MaxScore)
		rows = append(rows, row)
		full = append(full, rowFull)
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for j, cell := range row {
			widths[j] = max(widths[j], cli.Columns(cell))
		}
	}
	for i, row := range rows {
		var b strings.Builder
		for j, cell := range row {
			pad := strings.Repeat(" ", widths[j]-cli.Columns(cell))
			if j == 0 {
				cell += pad // names to the left, numbers to the right
			} else {
				b.WriteString("  ")
				cell = pad + cell
			}
			if i > 0 && j > 0 && full[i][j] {
				cell = p.good.Sprint(cell)
			}
			b.WriteString(cell)
		}
		p.lines(strings.TrimRight(b.String(), " "))
	}
	p.lines("")
	var names []string
	for _, lab := range labs {
		number, _, _ := strings.Cut(lab.Name, "-")
		names = append(names, number+" "+lab.Name)
	}
	p.lines(wrap(msgGradeLegend.In(p.lang), tableWidth)...)
	p.lines(wrap(p.sprint(msgGradeLabsLine, strings.Join(names, msgListComma.In(p.lang))), tableWidth)...)

	var why []string
	for i, l := range class {
		name := cli.Shorten(printable(l.name), maxNameColumns)
		if l.outside != "" || l.failed != "" {
			why = append(why, "  "+name+" · "+entries[i].Tests[0].Output)
			continue
		}
		for _, ll := range l.labs {
			if !ll.started {
				continue
			}
			for _, t := range entries[i].Tests {
				if strings.HasPrefix(t.Name, ll.lab.Name+"/") && t.Status != testPassed {
					why = append(why, "  "+name+" · "+t.Name+": "+t.Output)
					break
				}
			}
		}
	}
	if len(why) > 0 {
		p.lines("")
		p.say(msgGradeWhyHeader)
		for _, line := range why {
			// A long reason goes on, indented, on the next lines.
			first, rest := cutLine(line, tableWidth)
			p.lines(first)
			if rest != "" {
				for _, l := range wrap(rest, tableWidth-4) {
					p.lines("    " + l)
				}
			}
		}
	}
}

// wrap breaks text into lines of at most n columns, at a space where
// there is one, anywhere in a text without spaces, such as Chinese.
func wrap(text string, n int) []string {
	var lines []string
	for text != "" {
		var line string
		line, text = cutLine(text, n)
		lines = append(lines, line)
	}
	return lines
}

// cutLine returns the first line of text that wrap makes, and the rest.
func cutLine(text string, n int) (line, rest string) {
	if cli.Columns(text) <= n {
		return text, ""
	}
	cut, space, w := 0, -1, 0
	for i, r := range text {
		rw := cli.RuneColumns(r)
		if w+rw > n {
			break
		}
		w += rw
		cut = i + utf8.RuneLen(r)
		if r == ' ' {
			space = i
		}
	}
	if space > 0 {
		return text[:space], text[space+1:]
	}
	return text[:cut], text[cut:]
}
