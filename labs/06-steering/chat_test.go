package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
)

// A terminal is a person at -chat, in a test: it types lines into the
// program's standard input and presses Ctrl-C, inside a synctest bubble,
// where the offline model's pauses and the tools' waits take no real time.
type terminal struct {
	t          *testing.T
	in         *io.PipeWriter
	interrupts chan struct{}
	hangups    chan os.Signal
	stdout     bytes.Buffer
	stderr     bytes.Buffer
	done       chan error
}

// startChat starts the program with args, -chat among them, in the current
// bubble.
func startChat(t *testing.T, args ...string) *terminal {
	t.Helper()
	r, w := io.Pipe()
	term := &terminal{t: t, in: w, interrupts: make(chan struct{}, 1), hangups: make(chan os.Signal, 1), done: make(chan error, 1)}
	ctx := cli.WithInterrupts(cli.WithStdin(context.Background(), r), term.interrupts)
	ctx = cli.WithHangups(ctx, term.hangups)
	go func() {
		term.done <- run(ctx, args, &term.stdout, &term.stderr)
		r.Close()
	}()
	synctest.Wait()
	return term
}

// typeLine types a line and Enter, and waits until the program has done
// what it does with it.
func (term *terminal) typeLine(line string) {
	term.t.Helper()
	_, err := io.WriteString(term.in, line+"\n")
	if !expected.NoError(term.t, err, "type %q", line) {
		term.t.FailNow()
	}
	synctest.Wait()
}

// after lets d pass, and the program go on until it waits again.
func (term *terminal) after(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// ctrlC presses Ctrl-C.
func (term *terminal) ctrlC() {
	term.interrupts <- struct{}{}
	synctest.Wait()
}

// end closes the input, waits for the program to end, and returns its
// error.
func (term *terminal) end() error {
	term.in.Close()
	return term.wait()
}

// sessionEnd is how long, on the bubble's clock, wait lets a session go on:
// far longer than any session here needs once its last line is typed (the
// offline model takes about 2 s a turn), and no time at all on the
// machine's.
const sessionEnd = 5 * time.Minute

// wait waits for the program to end, and returns its error. A run that
// never ends would keep the session going for thousands of turns, or, once
// every goroutine waits, end the test in synctest's bare deadlock; after
// sessionEnd, wait presses Ctrl-C until the session ends, and fails the
// test with the likely cause.
func (term *terminal) wait() error {
	term.t.Helper()
	select {
	case err := <-term.done:
		return err
	case <-time.After(sessionEnd):
	}
	for ended := false; !ended; {
		select {
		case <-term.done:
			ended = true
		case term.interrupts <- struct{}{}:
			synctest.Wait()
		}
	}
	term.t.Fatalf("the session did not end within %.0f minutes of its last line, on the bubble's clock: %s", sessionEnd.Minutes(), endless)
	return nil
}

// The offline model thinks before each reply, then writes it word by
// word; these are its pauses, in the bubble's time.
const (
	think = 1500 * time.Millisecond
	word  = 100 * time.Millisecond
)

// sameLines checks that got is want, and names the first line that
// differs, instead of printing two long texts.
func sameLines(t *testing.T, want, got, msg string) {
	t.Helper()
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			t.Errorf("%s: line %d differs:\nwant %q\n got %q", msg, i+1, strings.Join(w[i:min(i+1, len(w))], ""), strings.Join(g[i:min(i+1, len(g))], ""))
			return
		}
	}
}

// inOrder checks that text holds each of lines, as whole lines, in this
// order.
func inOrder(t *testing.T, text string, lines ...string) {
	t.Helper()
	rest := text
	for _, line := range lines {
		i := strings.Index(rest, line+"\n")
		if i < 0 || (i > 0 && rest[i-1] != '\n') {
			lines := strings.SplitAfter(text, "\n")
			t.Fatalf("missing, or out of order: %q\nin (%d of %d lines):\n%s", line, min(25, len(lines)), len(lines), strings.Join(lines[:min(25, len(lines))], ""))
		}
		rest = rest[i+len(line):]
	}
}

// TestChatRunsOnePromptFromAPipe: printf 'What is 2 plus 3?\n' | go run
// ./labs/06-steering -chat runs one prompt and exits with status 0, once
// the run has ended.
func TestChatRunsOnePromptFromAPipe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := cli.WithStdin(context.Background(), strings.NewReader("What is 2 plus 3?\n"))
		var stdout, stderr bytes.Buffer
		expected.Equal(t, 0, cli.Run(ctx, run, []string{"-chat"}, &stdout, &stderr), "the exit status (standard error: %s)", stderr.String())
		inOrder(t, stdout.String(),
			"turn 1 · user: What is 2 plus 3?",
			"turn 1 · model said: I will work out 2 plus 3.",
			`turn 1 · start call_1 calculate {"a":2,"b":3,"op":"add"}`,
			"turn 1 · done call_1 calculate ⇒ 5",
			"turn 2 · model said: 2 plus 3 is 5.",
			"loop ended: 2 turns, stop reason completed",
			"answer: 2 plus 3 is 5.",
			"the agent's history holds 4 messages; nothing is queued",
		)
		expected.Contains(t, stderr.String(), "the model is the offline model", "standard error names the model")
	})
}

// TestChatSteeringAndAFollowUp: a line typed while the agent works steers
// it, before the model's next request; a line that starts with >> queues a
// follow-up, which enters once the model has answered.
func TestChatSteeringAndAFollowUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat")
		term.typeLine("What is the weather in Oslo?")
		term.after(time.Second) // the model still thinks
		term.typeLine("And in Lima.")
		term.typeLine(">> Remember that.")
		term.after(time.Minute)
		if !expected.NoError(t, term.end(), "the session ends without an error") {
			return
		}
		want := `turn 1 · user: What is the weather in Oslo?
turn 1 · model said: I will look up the weather in Oslo.
(steering message queued: "And in Lima."; it enters before the model's next request)
(follow-up queued: "Remember that."; it enters when the agent would otherwise stop)
turn 1 · start call_1 weather {"city":"Oslo"}
turn 1 · done call_1 weather ⇒ Oslo 4 °C, light rain
turn 1 · history ← result of call_1
turn 2 · user: And in Lima.
turn 2 · model said: Noted: "And in Lima.". I will look up the weather in Lima.
turn 2 · start call_2 weather {"city":"Lima"}
turn 2 · done call_2 weather ⇒ Lima 19 °C, overcast
turn 2 · history ← result of call_2
turn 3 · model said: Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast.
turn 4 · user: Remember that.
turn 4 · model said: I will save my last answer as note-1.txt.
turn 4 · start call_3 write {"path":"note-1.txt","text":"Weather: Oslo 4 °C, light rain. Weather: Lima 19 °C, overcast."}
turn 4 · done call_3 write ⇒ wrote 64 bytes to note-1.txt
turn 4 · history ← result of call_3
turn 5 · model said: I saved note-1.txt.
loop ended: 5 turns, stop reason completed
the run added 11 messages: user, assistant, toolResult, user, assistant, toolResult, assistant, user, assistant, toolResult, assistant
answer: I saved note-1.txt.
the agent's history holds 11 messages; nothing is queued
`
		expected.EqualLines(t, strings.Split(want, "\n"), strings.Split(term.stdout.String(), "\n"), "the session that labs/06-steering/README.md shows")
	})
}

// TestChatCtrlC: Ctrl-C during a run stops the run, whether a tool runs
// or the model writes, and the session goes on; Ctrl-C while the agent is
// idle ends the session, with status 0.
func TestChatCtrlC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat")
		term.typeLine("What is the weather in Cairo?")
		term.after(think + 8*word + 200*time.Millisecond) // Cairo takes 400 ms
		term.ctrlC()
		term.typeLine("What is 2 plus 3?")
		term.after(think + 2*word) // the model writes its first words
		term.ctrlC()
		term.typeLine("What is 2 plus 3?")
		term.after(time.Minute)
		term.ctrlC()
		if !expected.NoError(t, term.wait(), "Ctrl-C while the agent is idle ends the session") {
			return
		}
		term.in.Close()
		inOrder(t, term.stdout.String(),
			"turn 1 · call_1 reports: the Cairo station is slow, still waiting",
			"turn 1 · done call_1 weather ⇒ error: weather in Cairo: context canceled",
			"(Ctrl-C: the run stops; Ctrl-C again ends the program at once)",
			"turn 2 · model request aborted: assistant model: context canceled",
			"loop ended: 2 turns, stop reason aborted",
			"turn 1 · user: What is 2 plus 3?",
			"turn 1 · model said: I will ",
			"turn 1 · model request aborted: assistant model: context canceled",
			"loop ended: 1 turn, stop reason aborted",
			"turn 2 · model said: 2 plus 3 is 5.",
			"loop ended: 2 turns, stop reason completed",
		)
	})
}

// TestChatCtrlCStopsEveryCallAtOnce: Ctrl-C while three lookups run in
// parallel ends all three at once, as Pi's Agent.abort() does, without
// waiting for Cairo's 400 ms; they end in the order they started, on every
// run, and the next request is aborted.
func TestChatCtrlCStopsEveryCallAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat")
		term.typeLine("What is the weather in Oslo, Lima and Cairo?")
		term.after(think + 21*word + 100*time.Millisecond) // every lookup takes 200 ms or more
		start := time.Now()
		term.ctrlC()
		expected.Equal(t, 0, time.Since(start), "the calls end at once")
		if !expected.NoError(t, term.end(), "the session ends without an error") {
			return
		}
		inOrder(t, term.stdout.String(),
			"turn 1 · start call_3 weather {\"city\":\"Cairo\"}",
			"turn 1 · done call_1 weather ⇒ error: weather in Oslo: context canceled",
			"(Ctrl-C: the run stops; Ctrl-C again ends the program at once)",
			"turn 1 · done call_2 weather ⇒ error: weather in Lima: context canceled",
			"turn 1 · done call_3 weather ⇒ error: weather in Cairo: context canceled",
			"turn 2 · model request aborted: assistant model: context canceled",
			"loop ended: 2 turns, stop reason aborted",
		)
	})
}

// TestAClosedTerminalKeepsTheRecording: SIGHUP, as when the terminal
// closes, or SIGTERM ends the session as a Ctrl-C and the end of input
// would together: the run in progress stops, and the recording is written.
func TestAClosedTerminalKeepsTheRecording(t *testing.T) {
	for _, busy := range []bool{false, true} {
		t.Run(map[bool]string{false: "idle", true: "during a run"}[busy], func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "session.json")
			synctest.Test(t, func(t *testing.T) {
				term := startChat(t, "-chat", "-record", rec)
				term.typeLine("What is the weather in Cairo?")
				if !busy {
					term.after(time.Minute)
				} else {
					term.after(think + 8*word + 200*time.Millisecond) // Cairo takes 400 ms
				}
				term.hangups <- syscall.SIGHUP
				if !expected.NoError(t, term.wait(), "the session ends, with status 0") {
					return
				}
				term.in.Close()
				if busy {
					inOrder(t, term.stdout.String(),
						"turn 1 · done call_1 weather ⇒ error: weather in Cairo: context canceled",
						"(hangup: the run stops, and the session ends)",
						"loop ended: 2 turns, stop reason aborted")
				} else {
					expected.Contains(t, term.stdout.String(), "loop ended: 2 turns, stop reason completed", "the run ended before the hangup")
				}
				expected.Contains(t, term.stderr.String(), "recorded the session in "+rec, "the recording is written")
			})
			var stdout, stderr bytes.Buffer
			synctest.Test(t, func(t *testing.T) {
				expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &stdout, &stderr), "the recording replays without an error (standard error: %s)", stderr.String())
			})
			expected.Contains(t, stdout.String(), "What is the weather in Cairo?", "the recording replays")
		})
	}
}

// TestAClosedOutputKeepsTheRecording: standard output that can no longer be
// written, as when its reader, head -1 for instance, has gone, ends the
// session as SIGHUP does: the run stops, and the recording is written. The
// status is 1, for the output that was lost.
func TestAClosedOutputKeepsTheRecording(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "session.json")
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		defer w.Close()
		var stderr bytes.Buffer
		status := make(chan int, 1)
		go func() {
			status <- cli.Run(cli.WithStdin(context.Background(), r), run, []string{"-chat", "-record", rec}, closedPipe{}, &stderr)
		}()
		_, err := io.WriteString(w, "What is the weather in Cairo?\n")
		if !expected.NoError(t, err, "type a prompt") {
			return
		}
		expected.Equal(t, 1, <-status, "the exit status, for the output that was lost")
		expected.Contains(t, stderr.String(), "recorded the session in "+rec, "the recording is written")
		expected.True(t, strings.HasSuffix(stderr.String(), "error: write output: broken pipe\n"), "standard error ends with the lost output's error: %q", stderr.String())
	})
	var stdout, stderr bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &stdout, &stderr), "the recording replays without an error (standard error: %s)", stderr.String())
	})
	expected.Contains(t, stdout.String(), "What is the weather in Cairo?", "the recording replays")
}

// closedPipe is standard output whose reader has gone.
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestChatEndOfInputWaitsForTheRun: the end of input while the agent works
// ends the session once the run has ended.
func TestChatEndOfInputWaitsForTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat")
		term.typeLine("What is 23 times 17?")
		if !expected.NoError(t, term.end(), "the session ends without an error") {
			return
		}
		inOrder(t, term.stdout.String(), "answer: 23 times 17 is 391.", "the agent's history holds 4 messages; nothing is queued")
	})
}

// TestChatRefusesWhatItCannotPrint: a line that holds a character that does
// not print as itself, such as an arrow key's escape sequence or a
// bidirectional override, is not sent, and says why; a blank line is
// ignored.
func TestChatRefusesWhatItCannotPrint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat", "-trace")
		for _, line := range []string{"\x1b[A", "pay \u202emoc.knab", "caf\xe9", "  ", ">>", ">>  "} {
			term.typeLine(line)
		}
		if !expected.NoError(t, term.end(), "the session ends without an error") {
			return
		}
		expected.Equal(t, "", term.stdout.String(), "nothing runs")
		_, notes, _ := strings.Cut(term.stderr.String(), "the end of input, ends the session.\n")
		expected.Equal(t, `(not sent: the line holds U+001B, a character that does not print as itself; type it again without it)
(not sent: the line holds U+202E, a character that does not print as itself; type it again without it)
(not sent: the line is not valid UTF-8)
(not sent: a follow-up needs a text after >>)
(not sent: a follow-up needs a text after >>)
`, notes, "each line that is not sent says why; the blank lines are ignored")
	})
}

// aSession is a session that uses everything -record must write down: a
// parallel batch whose calls end in another order than they started, with
// a progress note between; a steering message and a follow-up typed while
// the model thinks; a Ctrl-C while a tool runs, with a steering message
// queued, which the next run takes; a Ctrl-C while the model writes; a run
// that completes; a follow-up queued while the agent is idle, which never
// enters; and Ctrl-C, which ends the session.
func aSession(term *terminal) {
	term.typeLine("What is the weather in Oslo, Lima and Cairo?")
	term.after(time.Second)
	term.typeLine("And 2 plus 3.")
	term.typeLine(">> Remember that.")
	term.after(time.Minute)
	term.typeLine("What is the weather in Cairo?")
	term.after(think + 8*word + 200*time.Millisecond)
	term.typeLine("Also Oslo.")
	term.ctrlC()
	term.typeLine("What is 23 times 17?")
	term.after(think + 3*word)
	term.ctrlC()
	term.typeLine("What is 2 plus 3?")
	term.after(time.Minute)
	term.typeLine(">> Thanks.")
	term.ctrlC()
}

// TestARecordedChatReplaysToTheSameTrace: -record writes a session as a
// scenario file, and -scenario replays it, offline, to the same trace,
// event for event, in each queue mode and with sequential batches.
func TestARecordedChatReplaysToTheSameTrace(t *testing.T) {
	for _, flags := range [][]string{nil, {"-queue-mode", "all"}, {"-sequential"}} {
		t.Run(strings.Join(append([]string{"flags"}, flags...), " "), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "session.json")
			var live string
			synctest.Test(t, func(t *testing.T) {
				term := startChat(t, append([]string{"-chat", "-trace", "-record", rec}, flags...)...)
				aSession(term)
				if !expected.NoError(t, term.wait(), "the session ends without an error") {
					return
				}
				term.in.Close()
				live = term.stdout.String()
				expected.Contains(t, term.stderr.String(), "recorded the session in "+rec, "the recording is written")
			})
			for _, what := range []string{"tool_execution_update call_3", "tool_execution_end call_6 error: weather in Cairo: context canceled"} {
				expected.True(t, strings.Contains(live, what+"\n"), "the session does what it should: %q", what)
			}
			expected.Equal(t, 4, strings.Count(live, "agent_start\n"), "four runs")

			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec, "-trace"}, &stdout, &stderr), "the recording replays without an error") {
					return
				}
				sameLines(t, live, stdout.String(), "the replay's trace is the session's")
				expected.Equal(t, "", stderr.String(), "every message of the recording is sent")
			})
			synctest.Test(t, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if !expected.NoError(t, run(context.Background(), []string{"-scenario", rec}, &stdout, &stderr), "the recording replays without an error") {
					return
				}
				last := strings.TrimSuffix(stdout.String(), "\n")
				last = last[strings.LastIndex(last, "\n")+1:]
				expected.Equal(t, `the agent's history holds 24 messages; still queued: follow-up "Thanks."`, last,
					"a follow-up never taken is still queued at the end")
			})
		})
	}
}

// TestRecordNamesItsFileOnOneLine: a -record path in a directory that does
// not exist is refused before the session starts, in one line that quotes
// the name the user gave and nothing else: no escape sequence reaches the
// terminal, and no temporary file's random name makes the message differ
// from run to run.
func TestRecordNamesItsFileOnOneLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing\x1b[2J\ndir", "x.json")
	for range 2 {
		var stdout, stderr bytes.Buffer
		ctx := cli.WithStdin(context.Background(), strings.NewReader("What is 2 plus 3?\n"))
		expected.Equal(t, 2, cli.Run(ctx, run, []string{"-chat", "-record", path}, &stdout, &stderr), "the exit status")
		expected.Equal(t, "error: -record "+strconv.Quote(path)+": cannot write there: no such file or directory\n", stderr.String(),
			"one line that quotes the name the user gave, the same on every run")
		expected.Equal(t, "", stdout.String(), "nothing runs")
	}
}

// TestRecordNeverReplacesAFile: -record refuses a file that exists, before
// the session starts; a file that appears during the session stays, and
// the recording goes beside it, under a name the session gives; neither
// file is changed.
func TestRecordNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "there.json")
	if !expected.NoError(t, os.WriteFile(there, []byte("mine"), 0o644), "write a file that exists before the session") {
		return
	}
	var stdout, stderr bytes.Buffer
	ctx := cli.WithStdin(context.Background(), strings.NewReader("What is 2 plus 3?\n"))
	expected.Equal(t, 2, cli.Run(ctx, run, []string{"-chat", "-record", there}, &stdout, &stderr), "the exit status")
	expected.Equal(t, "error: -record "+there+": the file exists, and a recording never replaces a file: name another, or remove it\n", stderr.String(),
		"-record refuses a file that exists, before the session starts")
	expected.Equal(t, "", stdout.String(), "nothing runs")

	// A file that appears during the session, as another session's
	// recording may, stays; the recording goes beside it.
	later, beside := filepath.Join(dir, "later.json"), filepath.Join(dir, "later-2.json")
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat", "-record", later)
		term.typeLine("What is 2 plus 3?")
		term.after(time.Minute)
		if !expected.NoError(t, os.WriteFile(later, []byte("mine"), 0o644), "write a file during the session") {
			return
		}
		if !expected.NoError(t, term.end(), "the session ends without an error") {
			return
		}
		expected.True(t, strings.HasSuffix(term.stderr.String(), later+" appeared during the session, and a recording never replaces a file: recorded the session in "+beside+"; replay it offline with -scenario "+beside+"\n"),
			"the recording goes beside the file that appeared, and standard error says so: %q", term.stderr.String())
	})
	for _, path := range []string{there, later} {
		data, err := os.ReadFile(path)
		if !expected.NoError(t, err, "read %s", path) {
			return
		}
		expected.Equal(t, "mine", string(data), "%s: unchanged", path)
	}
	var stdout2, stderr2 bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-scenario", beside}, &stdout2, &stderr2), "the recording beside it replays: %s", stderr2.String()) {
		return
	}
	expected.Contains(t, stdout2.String(), "What is 2 plus 3?", "the replay runs the recorded prompt")
	left, err := filepath.Glob(filepath.Join(dir, ".*"))
	if !expected.NoError(t, err, "list the directory's hidden files") {
		return
	}
	expected.Empty(t, left, "no temporary file is left behind")
}

// TestRecordWritesNothingWithoutAPrompt: a session with no prompt has
// nothing to replay, and writes no file.
func TestRecordWritesNothingWithoutAPrompt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.json")
	var stdout, stderr bytes.Buffer
	ctx := cli.WithStdin(context.Background(), strings.NewReader(""))
	expected.Equal(t, 0, cli.Run(ctx, run, []string{"-chat", "-record", path}, &stdout, &stderr), "the exit status (standard error: %s)", stderr.String())
	expected.Contains(t, stderr.String(), "nothing recorded: the session had no prompt\n", "standard error says why nothing is recorded")
	_, err := os.Stat(path)
	expected.ErrorIs(t, err, fs.ErrNotExist, "no file is written")
}

// TestTheRecordingInTestdataReplaysTheSession: testdata/recorded-chat.json,
// the example recording that fakemodel/scenario/README.md points to, is
// what -record wrote for aSession, and still replays to the trace that
// the session prints today.
func TestTheRecordingInTestdataReplaysTheSession(t *testing.T) {
	var live string
	synctest.Test(t, func(t *testing.T) {
		term := startChat(t, "-chat", "-trace")
		aSession(term)
		if !expected.NoError(t, term.wait(), "the session ends without an error") {
			return
		}
		term.in.Close()
		live = term.stdout.String()
	})
	synctest.Test(t, func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if !expected.NoError(t, run(context.Background(), []string{"-scenario", filepath.Join("testdata", "recorded-chat.json"), "-trace"}, &stdout, &stderr), "the recording replays without an error") {
			return
		}
		sameLines(t, live, stdout.String(), "the recording replays the session")
	})
}
