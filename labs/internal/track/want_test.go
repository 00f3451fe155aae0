package track

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The checks that many of the package's tests make. They use the standard
// library alone: testify's assert imports net/http and crypto/tls, which
// about double the time it takes to link the test binary.

// wantContains checks that text holds part. The format and its args say
// what text is, or why it must hold part.
func wantContains(t *testing.T, text, part, format string, args ...any) {
	t.Helper()
	if !strings.Contains(text, part) {
		t.Errorf("%s: %q is not in\n%s", fmt.Sprintf(format, args...), part, text)
	}
}

// wantNotContains checks that text does not hold part. The format and its
// args say what text is, or why it must not hold part.
func wantNotContains(t *testing.T, text, part, format string, args ...any) {
	t.Helper()
	if strings.Contains(text, part) {
		t.Errorf("%s: %q, which must not be there, is in\n%s", fmt.Sprintf(format, args...), part, text)
	}
}

// wantStatus checks the exit status of the command that res is the result
// of.
func wantStatus(t *testing.T, res result, want int) {
	t.Helper()
	if res.status != want {
		t.Errorf("%s: exit status %d, want %d; it printed\n%s%s", res, res.status, want, res.stdout, res.stderr)
	}
}

// startLab starts the lab in wb, as go run ./labs start does, and ends the
// test if it fails.
func startLab(t *testing.T, wb *workbook, lab string) {
	t.Helper()
	if res := runCommand(t, wb, "start", lab); res.status != 0 {
		t.Fatalf("%s: exit status %d, want 0; it printed\n%s%s", res, res.status, res.stdout, res.stderr)
	}
}

// writeFile writes data to the file at path, and ends the test if it
// cannot.
func writeFile(t *testing.T, path string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, data, perm); err != nil {
		t.Fatal(err)
	}
}

// readFile returns what the file at path holds, and ends the test if it
// cannot be read.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// wantErrorContaining checks that err is an error whose text holds part.
// The format and its args say what returned err.
func wantErrorContaining(t *testing.T, err error, part, format string, args ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), part) {
		t.Errorf("%s: error %v, want one that says %q", fmt.Sprintf(format, args...), err, part)
	}
}

// wantFile checks that a file, not a directory, is at path. The format and
// its args say when, or why.
func wantFile(t *testing.T, path, format string, args ...any) {
	t.Helper()
	switch info, err := os.Lstat(path); {
	case err != nil:
		t.Errorf("%s: want a file at %s: %v", fmt.Sprintf(format, args...), path, err)
	case info.IsDir():
		t.Errorf("%s: %s is a directory, want a file", fmt.Sprintf(format, args...), path)
	}
}

// wantNoFile checks that no file is at path; a directory may be. The format
// and its args say when, or why.
func wantNoFile(t *testing.T, path, format string, args ...any) {
	t.Helper()
	if info, err := os.Lstat(path); err == nil && !info.IsDir() {
		t.Errorf("%s: %s exists, want no file there", fmt.Sprintf(format, args...), path)
	}
}

// wantOnlyTheCopy checks that wb's work directory holds one entry, the copy
// that a command made: no temporary directory is left behind.
func wantOnlyTheCopy(t *testing.T, wb *workbook) {
	t.Helper()
	entries, err := os.ReadDir(wb.work)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %q, want one entry, the copy: no temporary directory is left behind", wb.work, names)
	}
}
