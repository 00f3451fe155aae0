package track

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A state is what the track remembers between commands: how many hints
// each rule, and each exercise's code, has given. It lives in
// _mywork/.track.json, beside the learner's copies and not in them.
type state struct {
	// Hints counts the hints given, by lab, then by the rule's test or the
	// code's key (codeKey).
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

// forgetPassed resets the hint counter of every rule that passes, and of
// the code of every copy that compiles, so that the hints start again if
// it breaks later. It saves only a change.
func (wb *workbook) forgetPassed(reports []*report) error {
	s := wb.loadState()
	changed := false
	forget := func(lab, key string) {
		if _, ok := s.Hints[lab][key]; ok {
			delete(s.Hints[lab], key)
			changed = true
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
