package track

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestYourCopies checks the copies of the labs in _mywork/, as go run ./labs
// does, so that go test ./..., the README's self-check, says how far they
// are, although it leaves their packages out. A copy that does not pass yet
// fails the test, with a few lines for each: the lab, the state of each
// exercise and its first broken rule, and the command that says more.
// Without copies, as in a fresh clone, there is nothing to check.
func TestYourCopies(t *testing.T) {
	wb := openedWorkbook(t)
	var targets []target
	for _, name := range wb.labs {
		if lab := wb.lab(name); lab != nil {
			if info, err := os.Stat(wb.copyDir(name)); err == nil && info.IsDir() {
				targets = append(targets, target{lab: lab, dir: wb.copyDir(name)})
			}
		}
	}
	if len(targets) == 0 {
		return
	}
	reports, err := wb.check(t.Context(), targets, checkOptions{})
	if err != nil {
		t.Fatalf("check your copies in %s: %v", wb.rel(wb.work), err)
	}
	lang := langFromEnv(os.Getenv)
	for _, r := range reports {
		wb.keptRace(r)
		if r.passes() {
			continue
		}
		var out bytes.Buffer
		s := &session{wb: wb, out: newPrinter(&out, lang, false)}
		s.out.say(msgYourCopy, r.rel, r.lab.Name)
		s.contentsOf(r)
		s.out.say(msgYourCopyNext, r.lab.Name)
		t.Error("\n" + strings.TrimSuffix(out.String(), "\n"))
	}
}
