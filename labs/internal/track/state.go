package track

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A state is what the track remembers between commands: how many hints each
// exercise has given. It lives in mywork/.track.json, beside the learner's
// copies and not in them.
type state struct {
	// Hints counts the hints given, by lab and exercise ID.
	Hints map[string]map[string]int `json:"hints"`
}

// statePath is where the state is kept.
func (wb *workbook) statePath() string { return filepath.Join(wb.work, ".track.json") }

// loadState reads the state. A missing file is an empty state; so is a file
// that is not the track's JSON any more, which the next save replaces.
func (wb *workbook) loadState() state {
	s := state{Hints: map[string]map[string]int{}}
	data, err := os.ReadFile(wb.statePath())
	if err != nil || json.Unmarshal(data, &s) != nil || s.Hints == nil {
		return state{Hints: map[string]map[string]int{}}
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

// forgetPassed resets the hint counter of every exercise that passes, so
// that the hints start again if it breaks later. It saves only a change.
func (wb *workbook) forgetPassed(reports []*report) error {
	s := wb.loadState()
	changed := false
	for _, r := range reports {
		for _, e := range r.exercises {
			if _, ok := s.Hints[r.lab.Name][e.exercise.ID]; ok && e.broken < 0 {
				delete(s.Hints[r.lab.Name], e.exercise.ID)
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	return wb.saveState(s)
}

// forgetLab resets every hint counter of a lab, as start and reset do.
func (wb *workbook) forgetLab(lab string) error {
	s := wb.loadState()
	if _, ok := s.Hints[lab]; !ok {
		return nil
	}
	delete(s.Hints, lab)
	return wb.saveState(s)
}
