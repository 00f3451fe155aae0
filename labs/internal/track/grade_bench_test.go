package track

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// benchClassSize is the class the benchmark grades: 30 learners, each with
// a copy of every lab.
const benchClassSize = 30

// BenchmarkGradeAClass grades a class of 30 learners, each with a copy of
// every lab that has exercises (classOf: the labs' own code, their
// starters and their typical mistakes), as go run ./labs grade does, and
// reports the time per class in s/class. Beside it, check-one-by-one
// checks the same copies one at a time, as each learner's go run ./labs
// check does, with warm caches, and reports that time divided by the
// cores, the time of those checks side by side, in s/class/core. Both log
// the machine's load before and after. It is part of the workbook's
// proof: each takes minutes.
func BenchmarkGradeAClass(b *testing.B) {
	expected.Verification(b)
	if raceEnabled {
		b.Skip("grade runs go test on copies of the labs; the race detector adds nothing to it")
	}
	wb, err := opened()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	dirs := classOf(b, wb, filepath.Join(dir, "class"), benchClassSize)
	tmp := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		b.Fatal(err)
	}
	getenv := func(name string) string {
		return map[string]string{"LANG": "en_US.UTF-8", "NO_COLOR": "1", "TMPDIR": tmp}[name]
	}

	b.Run("grade", func(b *testing.B) {
		b.Logf("load average before: %s; %d cores", loadAverage(), runtime.NumCPU())
		for b.Loop() {
			var out, errOut bytes.Buffer
			err := run(context.Background(), wb, getenv, append([]string{"grade", "-json"}, dirs...), &out, &errOut)
			if err != nil {
				b.Fatalf("grade: %v\n%s", err, errOut.String())
			}
			var entries []gradeEntry
			if err := json.Unmarshal(out.Bytes(), &entries); err != nil || len(entries) != benchClassSize {
				b.Fatalf("grade -json: %d entries (%v), want %d", len(entries), err, benchClassSize)
			}
			score, max := 0, 0
			for _, e := range entries {
				score, max = score+e.Score, max+e.MaxScore
			}
			b.Logf("the class scored %d of %d points", score, max)
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/class")
		b.Logf("load average after: %s", loadAverage())
	})

	b.Run("check-one-by-one", func(b *testing.B) {
		// The same copies, in the tree grade makes, each checked alone
		// as check checks it. A first learner, whose copies are the labs'
		// solutions, warms the caches: the workbook's packages compile
		// once there, as in a learner's checkout after their first check.
		warm := filepath.Join(dir, "warm")
		for _, name := range wb.labs {
			if lab := wb.lab(name); lab != nil {
				writeCopy(b, warm, name, copiesOf(b, wb, lab)[0].files)
			}
		}
		s := &session{wb: wb, out: newPrinter(io.Discard, English, false), errOut: newPrinter(io.Discard, English, false), getenv: getenv}
		labs, err := s.gradedLabs("")
		if err != nil {
			b.Fatal(err)
		}
		class := s.readClass(append([]string{warm}, dirs...), labs, false)
		tree, err := newClassTree(tmp, wb.root, class, labs)
		if tree != nil {
			defer tree.remove()
		}
		if err != nil {
			b.Fatal(err)
		}
		checker := &workbook{root: tree.root, work: filepath.Join(tree.root, classDir), labs: wb.labs, tracks: wb.tracks}
		checkAll := func(learners []*learner) {
			for _, l := range learners {
				for _, ll := range l.labs {
					if _, err := checker.check(context.Background(), []target{{lab: ll.lab, dir: tree.copyDir(l, ll.lab)}}, checkOptions{fresh: true, race: true}); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		checkAll(class[len(class)-1:]) // "warm" sorts after "learner-NN"
		b.Logf("load average before: %s; %d cores", loadAverage(), runtime.NumCPU())
		var took time.Duration
		for b.Loop() {
			began := time.Now()
			checkAll(class[:len(class)-1])
			took += time.Since(began)
		}
		b.ReportMetric(took.Seconds()/float64(b.N), "s/class")
		b.ReportMetric(took.Seconds()/float64(b.N)/float64(runtime.NumCPU()), "s/class/core")
		b.Logf("load average after: %s", loadAverage())
	})
}
