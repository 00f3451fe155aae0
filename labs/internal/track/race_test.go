//go:build race

package track

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// TestTheRaceDetectorSeesASharedSlice backs the line check prints once lab
// 05 passes: goroutines that append their outcomes to one shared slice,
// instead of each writing its own slot, fail go test -race, which names the
// line. It runs only under -race, as .ci/run's second go test does, when the
// race detector's packages are built already.
func TestTheRaceDetectorSeesASharedSlice(t *testing.T) {
	expected.Verification(t)
	if testing.Short() {
		t.Skip("-short: the test builds a copy of lab 05 with the race detector")
	}
	wb, err := openWorkbook()
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(wb.root, "_track-race-")
	if err != nil {
		t.Skipf("the checkout is read-only, so the test cannot write its copy of lab 05: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	lab := labOf(t, "05-parallel")
	if !lab.Race {
		t.Fatal("lab 05 does not ask for the race detector, want check to ask for go test -race once lab 05 passes")
	}

	f, err := wb.labFiles(lab.Name)
	if err != nil {
		t.Fatal(err)
	}
	src := string(f["batch.go"])
	for _, edit := range []struct{ old, new string }{
		{"\tvar wg sync.WaitGroup\n", "\tvar wg sync.WaitGroup\n\tvar done []outcome\n"},
		{"\t\t\toutcomes[p.slot] = o\n", "\t\t\tdone = append(done, o)\n"},
		{"\twg.Wait()\n\treturn stopped\n", "\twg.Wait()\n\tfor _, o := range done {\n\t\tfor _, p := range calls {\n\t\t\tif p.call.ID == o.call.ID {\n\t\t\t\toutcomes[p.slot] = o\n\t\t\t}\n\t\t}\n\t}\n\treturn stopped\n"},
	} {
		if n := strings.Count(src, edit.old); n != 1 {
			t.Fatalf("the edit's text occurs %d times in batch.go, want once: %q", n, edit.old)
		}
		src = strings.Replace(src, edit.old, edit.new, 1)
	}
	f["batch.go"] = []byte(src)
	dir := filepath.Join(tmp, lab.Name)
	if err := writeFiles(dir, f); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command("go", "test", "-race", "-count=1", "-run", anyOf(lab.ruleTests()), "./"+wb.rel(dir))
	cmd.Dir = wb.root
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go test -race passes, want it to fail:\n%s", out)
	}
	wantContains(t, string(out), "WARNING: DATA RACE", "go test -race")
	wantContains(t, string(out), filepath.Join(dir, "batch.go")+":", "the report names the line of the append")
}
