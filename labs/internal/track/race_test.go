//go:build race

package track

import (
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
	tmp, err := os.MkdirTemp(wb.root, "_track-race-")
	if err != nil {
		t.Skipf("the checkout is read-only, so the test cannot write its copy of lab 05: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	lab := labOf(t, "05-parallel")
	require.True(t, lab.Race, "check asks for go test -race once lab 05 passes")

	f, err := wb.labFiles(lab.Name)
	require.NoError(t, err)
	src := string(f["batch.go"])
	for _, edit := range []struct{ old, new string }{
		{"\tvar wg sync.WaitGroup\n", "\tvar wg sync.WaitGroup\n\tvar done []outcome\n"},
		{"\t\t\toutcomes[p.slot] = o\n", "\t\t\tdone = append(done, o)\n"},
		{"\twg.Wait()\n\treturn stopped\n", "\twg.Wait()\n\tfor _, o := range done {\n\t\tfor _, p := range calls {\n\t\t\tif p.call.ID == o.call.ID {\n\t\t\t\toutcomes[p.slot] = o\n\t\t\t}\n\t\t}\n\t}\n\treturn stopped\n"},
	} {
		require.Equal(t, 1, strings.Count(src, edit.old), "the edit's text occurs once in batch.go: %q", edit.old)
		src = strings.Replace(src, edit.old, edit.new, 1)
	}
	f["batch.go"] = []byte(src)
	dir := filepath.Join(tmp, lab.Name)
	require.NoError(t, writeFiles(dir, f))

	cmd := exec.Command("go", "test", "-race", "-count=1", "-run", anyOf(lab.ruleTests()), "./"+wb.rel(dir))
	cmd.Dir = wb.root
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "go test -race fails:\n%s", out)
	assert.Contains(t, string(out), "WARNING: DATA RACE")
	assert.Contains(t, string(out), filepath.Join(dir, "batch.go")+":", "the report names the line of the append")
}
