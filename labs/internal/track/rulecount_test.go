package track

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ruleCounts find where a README counts an exercise's rules, as lab 05's
// does: "Exercise 2, the sequential path, has 4".
var ruleCounts = map[string]*regexp.Regexp{
	"README.md":       regexp.MustCompile(`Exercise (\d+),[^.:]*?, has (\d+)`),
	"README.zh-CN.md": regexp.MustCompile(`练习 (\d+)，[^。：]*?，有 (\d+) 条`),
}

// TestREADMEsCountTheRulesAsCheckDoes checks that where a lab's README
// says how many rules an exercise has, it is as many as check counts.
func TestREADMEsCountTheRulesAsCheckDoes(t *testing.T) {
	wb := openedWorkbook(t)
	found := 0
	for _, name := range wb.labs {
		lab := wb.lab(name)
		if lab == nil {
			continue
		}
		for readme, count := range ruleCounts {
			data, err := os.ReadFile(filepath.Join(wb.labDir(name), readme))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range count.FindAllStringSubmatch(string(data), -1) {
				found++
				i, _ := strconv.Atoi(m[1])
				n, _ := strconv.Atoi(m[2])
				if assert.True(t, 1 <= i && i <= len(lab.Exercises), "labs/%s/%s: %q names no exercise", name, readme, m[0]) {
					assert.Equal(t, len(lab.Exercises[i-1].Rules), n, "labs/%s/%s: %q", name, readme, m[0])
				}
			}
		}
	}
	assert.NotZero(t, found, "a README counts the rules somewhere")
}
