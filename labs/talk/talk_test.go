package talk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anAgent is an Agent that keeps what it is sent and holds no history.
type anAgent struct{ steering, followUp []fakemodel.Message }

func (a *anAgent) Steer(m fakemodel.UserMessage)    { a.steering = append(a.steering, m) }
func (a *anAgent) FollowUp(m fakemodel.UserMessage) { a.followUp = append(a.followUp, m) }
func (a *anAgent) Queued() (steering, followUp []fakemodel.Message) {
	return a.steering, a.followUp
}
func (a *anAgent) Messages() []fakemodel.Message { return nil }

// TestPlayRunsEachPromptAndContinue: a script's prompts run one after
// another, "" as a Continue; the simulated user's Ctrl-C cancels the run
// it comes in, and only that one; what the user does shows in the
// narrative, and what could not happen is said at the end.
func TestPlayRunsEachPromptAndContinue(t *testing.T) {
	var out bytes.Buffer
	var got []string
	run := func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
		for _, line := range []string{"agent_start", "turn_end results=0", "agent_end messages=1"} {
			see(line)
		}
		got = append(got, prompt+" cancelled="+map[bool]string{true: "yes", false: "no"}[ctx.Err() != nil])
		return nil
	}
	script := Script{
		Title:   "x",
		Prompts: []string{"one", "two", ""},
		Plan: []scenario.UserMessage{
			{At: "turn_end", Occurrence: 2, Interrupt: true},
			{At: "agent_end", Occurrence: 3, FollowUp: true, Text: "later"},
			{At: "tool_execution_start a", Text: "never"},
		},
	}
	agent := &anAgent{}
	require.NoError(t, Show{Printer: narrative.NewPrinter(&out)}.Play(context.Background(), 0, script, agent, run))
	assert.Equal(t, []string{"one cancelled=no", "two cancelled=yes", " cancelled=no"}, got)
	assert.Equal(t, `=== x ===
the agent's history holds 0 messages; nothing is queued
(the user presses Ctrl-C)
the agent's history holds 0 messages; nothing is queued
--- Continue: the agent runs again from its history, with no new prompt ---
(the user queues a follow-up: "later")
the agent's history holds 0 messages; still queued: follow-up "later"
never sent: "never", because no event matched "tool_execution_start a"
`, out.String())
}

func TestPlayTracesOnlyEvents(t *testing.T) {
	var out, errw bytes.Buffer
	run := func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
		assert.Nil(t, nar, "no narrative in a trace")
		see("agent_start")
		return nil
	}
	script := Script{Title: "x", Prompts: []string{"one"}, Plan: []scenario.UserMessage{{At: "turn_end", Text: "never"}}}
	require.NoError(t, Show{Printer: narrative.NewPrinter(&out), Errw: &errw, Trace: true}.Play(context.Background(), 1, script, &anAgent{}, run))
	assert.Equal(t, "agent_start\n", out.String())
	assert.Equal(t, "never sent: \"never\", because no event matched \"turn_end\"\n", errw.String())
}

// TestASecondCtrlCEndsTheSessionAtOnce: Ctrl-C stops a run; if the run
// does not stop, because something it waits on cannot see the
// cancellation, a second Ctrl-C ends the session at once, as
// cli.ErrInterrupted, which exits with status 130.
func TestASecondCtrlCEndsTheSessionAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		chat, err := NewChat(Options{Chat: true}, "", false)
		require.NoError(t, err)
		r, w := io.Pipe()
		defer w.Close()
		interrupts := make(chan struct{}, 1)
		ctx := cli.WithInterrupts(cli.WithStdin(context.Background(), r), interrupts)
		stuck, release := make(chan struct{}), make(chan struct{})
		run := func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
			close(stuck)
			<-release // cannot see ctx
			return nil
		}
		var out, errw bytes.Buffer
		done := make(chan error, 1)
		go func() {
			done <- chat.Run(ctx, Show{Printer: narrative.NewPrinter(&out), Errw: &errw, Trace: true}, &anAgent{}, run)
		}()
		io.WriteString(w, "hello\n")
		<-stuck
		interrupts <- struct{}{}
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("the session ended at the first Ctrl-C: %v", err)
		default:
		}
		interrupts <- struct{}{}
		assert.ErrorIs(t, <-done, cli.ErrInterrupted)
		close(release)
		assert.True(t, strings.Contains(errw.String(), "(Ctrl-C: the run stops; Ctrl-C again ends the program at once)\n"))
	})
}

// TestALineTooLongIsNotSent: a line longer than MaxLine, as a paste may
// make, is not sent, and the session goes on with the next line.
func TestALineTooLongIsNotSent(t *testing.T) {
	chat, err := NewChat(Options{Chat: true}, "", false)
	require.NoError(t, err)
	ctx := cli.WithStdin(context.Background(), strings.NewReader(strings.Repeat("x", MaxLine+1)+"\nhello\n"))
	var prompts []string
	run := func(_ context.Context, prompt string, _ *narrative.Run, _ func(string)) error {
		prompts = append(prompts, prompt)
		return nil
	}
	var out, errw bytes.Buffer
	require.NoError(t, chat.Run(ctx, Show{Printer: narrative.NewPrinter(&out), Errw: &errw}, &anAgent{}, run))
	assert.Equal(t, []string{"hello"}, prompts)
	assert.True(t, strings.HasPrefix(out.String(), "(not sent: the line is longer than 64 KiB)\n"), out.String())
}

// TestLinesAreReadAsAScannerReadsThem: a line ends at "\n" or "\r\n", the
// last one may have no end, and a line of MaxLine bytes is still a line.
func TestLinesAreReadAsAScannerReadsThem(t *testing.T) {
	long := strings.Repeat("y", MaxLine)
	stop := make(chan struct{})
	defer close(stop)
	var got []line
	for l := range readLines(strings.NewReader("one\r\n\ntwo\n"+long+"\n"+long+"z\nlast"), stop) {
		got = append(got, l)
	}
	assert.Equal(t, []line{{text: "one"}, {text: ""}, {text: "two"}, {text: long}, {tooLong: true}, {text: "last"}}, got)
}

// TestPlayGoesOnAfterARefusedRun: a run the agent refuses before any event,
// such as a Continue with nothing to continue from, is said in the
// narrative, and nowhere in a trace; the session goes on with its next run.
// A run that fails after its first event ends the session with its error.
func TestPlayGoesOnAfterARefusedRun(t *testing.T) {
	refusing := func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
		if prompt == "" {
			return errors.New("cannot continue")
		}
		see("agent_start")
		see("agent_end messages=1")
		return nil
	}
	script := Script{Title: "x", Prompts: []string{"", "hi"}}
	var out, errw bytes.Buffer
	require.NoError(t, Show{Printer: narrative.NewPrinter(&out), Errw: &errw}.Play(context.Background(), 0, script, &anAgent{}, refusing))
	assert.Equal(t, `=== x ===
--- Continue: the agent runs from the history it holds, with no new prompt ---
the agent refuses: cannot continue
the agent's history holds 0 messages; nothing is queued
the agent's history holds 0 messages; nothing is queued
`, out.String())
	out.Reset()
	require.NoError(t, Show{Printer: narrative.NewPrinter(&out), Errw: &errw, Trace: true}.Play(context.Background(), 0, script, &anAgent{}, refusing))
	assert.Equal(t, "agent_start\nagent_end messages=1\n", out.String())
	assert.Empty(t, errw.String())

	failing := func(ctx context.Context, prompt string, nar *narrative.Run, see func(string)) error {
		see("agent_start")
		return errors.New("output lost")
	}
	assert.EqualError(t, Show{Printer: narrative.NewPrinter(&out), Trace: true}.Play(context.Background(), 0, script, &anAgent{}, failing), "output lost")
}

// TestPlayWithNoRun: a script with no prompt runs nothing: the user does
// what it does before a run, and the agent's state is said.
func TestPlayWithNoRun(t *testing.T) {
	var out bytes.Buffer
	agent := &anAgent{}
	script := Script{Title: "x", Plan: []scenario.UserMessage{{Text: "queued"}}}
	run := func(context.Context, string, *narrative.Run, func(string)) error { t.Error("nothing runs"); return nil }
	require.NoError(t, Show{Printer: narrative.NewPrinter(&out)}.Play(context.Background(), 0, script, agent, run))
	assert.Equal(t, "=== x ===\n(the user types a steering message: \"queued\")\nthe agent's history holds 0 messages; still queued: steering message \"queued\"\n", out.String())
}

// TestChatRefusesWhatAScenarioRefuses: a line typed at -chat is refused
// for the same characters as a text of a scenario file, so that what a
// person types always fits a recording: each character is sent by both or
// by neither. It tries every character up to U+2FFF, where the controls,
// the spaces, the zero-width and the bidirectional characters are, and the
// format characters beyond: U+FEFF, the interlinear annotations, the tags.
func TestChatRefusesWhatAScenarioRefuses(t *testing.T) {
	var runes []rune
	for r := rune(0); r <= 0x2FFF; r++ {
		runes = append(runes, r)
	}
	runes = append(runes, 0xFEFF, 0xFFF9, 0xFFFA, 0xFFFB, 0x1D173, 0xE0001, 0xE0020, 0xE0041, 0xE007F, 0xF0000)
	for _, r := range runes {
		if strings.ContainsRune("\n\r\u2028\u2029\"\\", r) {
			continue // a line holds no line break; JSON escapes " and \
		}
		text := "a" + string(r)
		_, err := scenario.Parse("x.json", []byte(`{"prompt": "`+text+`"}`))
		if refused := check(text) != ""; refused != (err != nil) {
			t.Fatalf("%U: -chat refuses it: %v; the scenario format: %v", r, refused, err)
		}
	}
}
