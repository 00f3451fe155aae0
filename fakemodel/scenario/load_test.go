package scenario

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScenarioFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "missing.json"), "file: no such file or directory"},
		{"directory", dir, "file: is a directory, not a scenario file"},
	} {
		_, err := Load(context.Background(), tt.path)
		assert.EqualError(t, err, "scenario "+tt.path+": "+tt.want, tt.name)
	}

	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, err := Load(context.Background(), empty)
	assert.EqualError(t, err, "scenario "+empty+`: file: empty: a scenario is a JSON object with at least "prompt" or "runs"`)

	// Spaces after the object make it one byte too large.
	large := filepath.Join(dir, "large.json")
	data := []byte(`{"prompt": "hi"}`)
	require.NoError(t, os.WriteFile(large, append(data, bytes.Repeat([]byte(" "), MaxBytes+1-len(data))...), 0o644))
	_, err = Load(context.Background(), large)
	assert.EqualError(t, err, "scenario "+large+": file: larger than 1 MiB: a scenario never needs that much")
	require.NoError(t, os.Truncate(large, MaxBytes))
	_, err = Load(context.Background(), large)
	assert.NoError(t, err, "1 MiB exactly")
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
		assert.EqualError(t, err, "scenario "+tt.want+": file: no such file or directory")
	}
}

func TestLoadOfACancelledRunReadsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Load(ctx, filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, context.Canceled)
}
