package track

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
)

// pollInterval is how often watch looks at the copy's files.
const pollInterval = 500 * time.Millisecond

// watch checks the copy once, then again whenever one of its files
// changes, until Ctrl-C. Ctrl-C is how it ends, so it ends without error.
func (s *session) watch(ctx context.Context, lab *Lab) error {
	if err := s.started(lab); err != nil {
		return err
	}
	dir := s.wb.copyDir(lab.Name)
	s.out.say(msgWatching, s.wb.rel(dir))
	// The reports leave out the advice to run watch, which runs.
	s.watching = true
	check := func() {
		err := s.check(ctx, lab)
		if err != nil && !errors.Is(err, errFailed) && ctx.Err() == nil {
			s.errOut.lines(fmt.Sprintf("error: %v", err))
		}
	}
	changed := func() { s.out.say(msgChanged, s.wb.rel(dir)) }
	watchLoop(ctx, pollInterval, func() string { return snapshot(dir) }, check, changed)
	return nil
}

// watchLoop calls check, then looks every interval, and after each change
// in what look returns calls changed and check again, until ctx ends.
func watchLoop(ctx context.Context, interval time.Duration, look func() string, check, changed func()) {
	last := look()
	check()
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		now := look()
		if now == last {
			continue
		}
		last = now
		changed()
		check()
	}
}

// snapshot describes the files under dir by name, size and time of last
// change: two snapshots differ when a file was saved, added or removed.
func snapshot(dir string) string {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || ignored(path) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", path, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return b.String()
}
