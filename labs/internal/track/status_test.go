package track

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
)

// blanked is what a statusLine writes to show text, then blank it.
func blanked(text string) string { return text + "\r" + strings.Repeat(" ", columns(text)) + "\r" }

func TestAStatusLineIsBlankedAfterItsStep(t *testing.T) {
	var w bytes.Buffer
	s := &statusLine{w: &w, lang: Chinese}
	s.show(msgChecking, "mywork/02-loop")
	text := "正在用 go test 检查 mywork/02-loop……"
	if w.String() != text {
		t.Errorf("the status line writes %q, want %q: no newline, the line is blanked afterwards", w.String(), text)
	}
	s.clear()
	if want := blanked(text); w.String() != want {
		t.Errorf("after clear, the status line has written %q, want %q", w.String(), want)
	}
	if got, want := columns(text), 2*7+24; got != want {
		t.Errorf("%q takes %d columns, want %d: 7 characters outside ASCII (the Chinese ones and the ellipses) take two columns each, the 24 others one", text, got, want)
	}
	s.clear()
	if want := blanked(text); w.String() != want {
		t.Errorf("after a second clear, the status line has written %q, want %q: a blank line is not blanked twice", w.String(), want)
	}

	var none *statusLine
	none.show(msgChecking, "mywork/02-loop") // a nil statusLine says nothing, and does not panic
	none.clear()
}

func TestAStatusLineOnlyOnATerminal(t *testing.T) {
	if newStatusLine(&bytes.Buffer{}, English) != nil {
		t.Error("a buffer gets a status line, want none")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if newStatusLine(f, English) != nil {
		t.Error("a file gets a status line, want none: a file is not a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if newStatusLine(tty, English) == nil {
			t.Error("the terminal gets no status line")
		}
	}
}

// TestCheckSaysWhatItDoesWhileItRuns checks that check and the table of
// contents say, on the terminal, that go test runs, and blank the line
// before the report.
func TestCheckSaysWhatItDoesWhileItRuns(t *testing.T) {
	expected.Verification(t)
	wb := testWorkbook(t, true)
	for _, lab := range []string{"01", "02"} {
		startLab(t, wb, lab)
	}
	var status bytes.Buffer
	s := &session{
		wb:     wb,
		out:    newPrinter(io.Discard, English, false),
		errOut: newPrinter(io.Discard, English, false),
		status: &statusLine{w: &status, lang: English},
		getenv: english,
	}
	if _, err := s.checkOne(context.Background(), labOf(t, "01-no-loop"), checkOptions{fresh: true, race: true}); err != nil {
		t.Fatal(err)
	}
	if want := blanked("checking " + wb.rel(wb.copyDir("01-no-loop")) + " with go test…"); status.String() != want {
		t.Errorf("check writes the status line %q, want %q", status.String(), want)
	}

	status.Reset()
	if err := s.contents(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := blanked("checking your copies in " + wb.rel(wb.work) + " with go test…"); status.String() != want {
		t.Errorf("the table of contents writes the status line %q, want %q", status.String(), want)
	}
}
