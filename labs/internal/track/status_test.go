package track

import (
	"bytes"
	"context"
	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blanked is what a statusLine writes to show text, then blank it.
func blanked(text string) string { return text + "\r" + strings.Repeat(" ", columns(text)) + "\r" }

func TestAStatusLineIsBlankedAfterItsStep(t *testing.T) {
	var w bytes.Buffer
	s := &statusLine{w: &w, lang: Chinese}
	s.show(msgChecking, "mywork/02-loop")
	text := "正在用 go test 检查 mywork/02-loop……"
	assert.Equal(t, text, w.String(), "no newline: the line is blanked afterwards")
	s.clear()
	assert.Equal(t, blanked(text), w.String())
	assert.Equal(t, 2*7+24, columns(text), "7 characters outside ASCII (the Chinese ones and the ellipses) take two columns each, the 24 others one")
	s.clear()
	assert.Equal(t, blanked(text), w.String(), "a blank line is not blanked twice")

	var none *statusLine
	none.show(msgChecking, "mywork/02-loop") // a nil statusLine says nothing, and does not panic
	none.clear()
}

func TestAStatusLineOnlyOnATerminal(t *testing.T) {
	assert.Nil(t, newStatusLine(&bytes.Buffer{}, English))
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	assert.Nil(t, newStatusLine(f, English), "a file is not a terminal")
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		assert.NotNil(t, newStatusLine(tty, English))
	}
}

// TestCheckSaysWhatItDoesWhileItRuns checks that check and the table of
// contents say, on the terminal, that go test runs, and blank the line
// before the report.
func TestCheckSaysWhatItDoesWhileItRuns(t *testing.T) {
	expected.Verification(t)
	wb := testWorkbook(t, true)
	for _, lab := range []string{"01", "02"} {
		require.Equal(t, 0, runCommand(t, wb, "start", lab).status)
	}
	var status bytes.Buffer
	s := &session{
		wb:     wb,
		out:    newPrinter(io.Discard, English, false),
		errOut: newPrinter(io.Discard, English, false),
		status: &statusLine{w: &status, lang: English},
		getenv: english,
	}
	_, err := s.checkOne(context.Background(), labOf(t, "01-no-loop"), true)
	require.NoError(t, err)
	assert.Equal(t, blanked("checking "+wb.rel(wb.copyDir("01-no-loop"))+" with go test…"), status.String())

	status.Reset()
	require.NoError(t, s.contents(context.Background()))
	assert.Equal(t, blanked("checking your copies in "+wb.rel(wb.work)+" with go test…"), status.String())
}
