package track

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
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
				if i < 1 || len(lab.Exercises) < i {
					t.Errorf("labs/%s/%s: %q names no exercise", name, readme, m[0])
					continue
				}
				if want := len(lab.Exercises[i-1].Rules); n != want {
					t.Errorf("labs/%s/%s: %q, want %d rules, as check counts", name, readme, m[0], want)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no README counts an exercise's rules, want one somewhere")
	}
}
