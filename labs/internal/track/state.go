package track

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A state is what the track remembers between commands: how many hints
// each mistake, and each exercise's code, has given, and what hint needs of
// check's last report on each copy. It lives in _mywork/.track.json, beside
// the learner's copies and not in them.
type state struct {
	// Hints counts the hints given, by lab, then by the key of what they
	// are about (hintChoice.Key).
	Hints map[string]map[string]int `json:"hints"`
	// Last is, by lab, what hint needs of the last check of the learner's
	// copy, while the copy stays as it was.
	Last map[string]lastCheck `json:"last,omitempty"`
}

// A lastCheck is what hint needs of a check of a copy: what the hint is
// about, and the digest of the files that check saw.
type lastCheck struct {
	Digest string     `json:"digest"`
	Hint   hintChoice `json:"hint"`
}

// stateVersion changes whenever what the state keeps of a check changes
// its meaning: a lastCheck of another version is never used.
const stateVersion = "1"

// digest sums up what a check of the copy in dir depends on: its files, but
// the golden tests' output and editors' files (see ignored), and the lab's
// exercises, which say what its findings mean. It is "" when the copy
// cannot be read.
func (wb *workbook) digest(lab *Lab, dir string) string {
	f, err := readFiles(dir)
	if err != nil {
		return ""
	}
	exercises, err := os.ReadFile(filepath.Join(wb.labDir(lab.Name), exercisesFile))
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d\n%s", stateVersion, len(exercises), exercises)
	for _, name := range f.names() {
		fmt.Fprintf(h, "%s\n%d\n%s", name, len(f[name]), f[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// remember keeps what hint needs of a check of the lab's copy, whose files
// had the digest as the check began: a file saved during the check makes
// the copy differ, and hint then asks go test again.
func (wb *workbook) remember(lab *Lab, digest string, c hintChoice) error {
	if digest == "" {
		return nil
	}
	s := wb.loadState()
	s.Last[lab.Name] = lastCheck{Digest: digest, Hint: c}
	return wb.saveState(s)
}

// lastChoice returns what check last found in the lab's copy in dir, if the
// copy is as it was then.
func (wb *workbook) lastChoice(lab *Lab, dir string) (hintChoice, bool) {
	last, ok := wb.loadState().Last[lab.Name]
	if !ok || last.Digest == "" || last.Digest != wb.digest(lab, dir) {
		return hintChoice{}, false
	}
	return last.Hint, true
}

// statePath is where the state is kept.
func (wb *workbook) statePath() string { return filepath.Join(wb.work, ".track.json") }

// loadState reads the state. A missing file is an empty state; so is a file
// that is not the track's JSON any more, which the next save replaces.
func (wb *workbook) loadState() state {
	empty := state{Hints: map[string]map[string]int{}, Last: map[string]lastCheck{}}
	var s state
	data, err := os.ReadFile(wb.statePath())
	if err != nil || json.Unmarshal(data, &s) != nil || s.Hints == nil {
		return empty
	}
	if s.Last == nil {
		s.Last = empty.Last
	}
	return s
}

// saveState writes the state, through a temporary file so that a crash
// never leaves half of it.
func (wb *workbook) saveState(s state) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(wb.work, ".track-*.json")
	if err != nil {
		return fmt.Errorf("remember the hints: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("remember the hints: %w", err)
	}
	if err := os.Rename(tmp.Name(), wb.statePath()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("remember the hints: %w", err)
	}
	return nil
}

// forgetPassed resets the hint counters of every rule that passes, of the
// code of every copy that compiles, of the tests outside the exercises once
// they pass, and of the race detector's check once it finds no race, so
// that the hints start again if one breaks later. A rule's counters are
// those of its mistakes too (hintChoice.Key). It saves only a change.
func (wb *workbook) forgetPassed(reports []*report) error {
	s := wb.loadState()
	changed := false
	forget := func(lab, test string) {
		for key := range s.Hints[lab] {
			if key == test || strings.HasPrefix(key, test+"|") {
				delete(s.Hints[lab], key)
				changed = true
			}
		}
	}
	for _, r := range reports {
		if len(r.build) == 0 {
			for _, e := range r.lab.Exercises {
				for _, reg := range e.Regions {
					forget(r.lab.Name, codeKey(reg))
				}
			}
		}
		for _, e := range r.exercises {
			passed := e.exercise.Rules
			if e.broken >= 0 {
				passed = passed[:e.broken]
			}
			for _, rule := range passed {
				forget(r.lab.Name, rule.Test)
			}
		}
		if r.checkedAll && r.other == nil && r.golden == nil {
			forget(r.lab.Name, otherKey)
		}
		if r.raceChecked && r.race == nil {
			forget(r.lab.Name, raceKey)
		}
	}
	if !changed {
		return nil
	}
	return wb.saveState(s)
}

// forgetLab resets every hint counter of a lab, and forgets its last
// check, as start and reset do.
func (wb *workbook) forgetLab(lab string) error {
	s := wb.loadState()
	_, hints := s.Hints[lab]
	_, last := s.Last[lab]
	if !hints && !last {
		return nil
	}
	delete(s.Hints, lab)
	delete(s.Last, lab)
	return wb.saveState(s)
}
