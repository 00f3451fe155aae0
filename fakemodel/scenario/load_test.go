package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestScenarioFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, path, want string }{
		{"a missing file", filepath.Join(dir, "missing.json"), "file: no such file or directory"},
		{"a directory", dir, "file: is a directory, not a scenario file"},
	} {
		_, err := Load(context.Background(), tt.path)
		wantError(t, "Load of "+tt.name, err, "scenario "+tt.path+": "+tt.want)
	}

	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(context.Background(), empty)
	wantError(t, "Load of an empty file", err, "scenario "+empty+`: file: empty: a scenario is a JSON object with at least "prompt" or "runs"`)

	// Spaces after the object make it one byte too large.
	large := filepath.Join(dir, "large.json")
	data := []byte(`{"prompt": "hi"}`)
	if err := os.WriteFile(large, append(data, bytes.Repeat([]byte(" "), MaxBytes+1-len(data))...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(context.Background(), large)
	wantError(t, "Load of a file of 1 MiB and 1 byte", err, "scenario "+large+": file: larger than 1 MiB: a scenario never needs that much")
	if err := os.Truncate(large, MaxBytes); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), large); err != nil {
		t.Errorf("Load of a file of 1 MiB exactly: %v", err)
	}
}

// TestAFileNameIsQuotedOnlyWhenItMust: a name that a terminal would not
// print as it is, such as one with an escape sequence or a line break, is
// quoted, so the message stays one line; an ordinary name is left alone.
func TestAFileNameIsQuotedOnlyWhenItMust(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, want string }{
		{"missing\x1b[2J\nsecond.json", `"` + dir + `/missing\x1b[2J\nsecond.json"`},
		{"a\u202eb.json", `"` + dir + `/a\u202eb.json"`},
		{"plain name.json", dir + "/plain name.json"},
	}
	for _, tt := range tests {
		_, err := Load(context.Background(), filepath.Join(dir, tt.name))
		wantError(t, fmt.Sprintf("Load of %q", tt.name), err, "scenario "+tt.want+": file: no such file or directory")
	}
}

func TestLoadOfACancelledRunReadsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Load(ctx, filepath.Join(t.TempDir(), "missing.json"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Load on a cancelled context: error %v, want context.Canceled", err)
	}
}

// wantError checks that err's text is want; what says what returned it.
func wantError(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: no error, want %q", what, want)
	case err.Error() != want:
		t.Errorf("%s: error %q, want %q", what, err, want)
	}
}
