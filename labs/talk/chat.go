package talk

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/narrative"
	"github.com/agent-loop-lab/agent-loop-lab/labs/talk/chatcompletions"
)

// FollowUpPrefix starts a line that queues a follow-up instead of steering:
// ">> Book the cheapest one." The agent takes it when it would otherwise
// stop.
const FollowUpPrefix = ">>"

// The offline model takes its time, on purpose, so that a person can type
// while the agent works: it thinks before each reply, then writes it word
// by word.
const (
	offlineThink = 1500 * time.Millisecond
	offlineWord  = 100 * time.Millisecond
)

// MaxLine is the longest line -chat reads. A longer line is not sent.
const MaxLine = 64 << 10

// The turn limit of -chat: DefaultMaxTurns, unless -max-turns sets another
// from 1 to MaxMaxTurns.
const (
	// DefaultMaxTurns stops a model that asks for tools again and again,
	// and a paid service's bill with it, while leaving a real task all
	// the turns it needs.
	DefaultMaxTurns = 25
	// MaxMaxTurns is the largest limit -max-turns takes, as in lab 03.
	MaxMaxTurns = 1000
)

// Options are the settings of -chat, filled from the command line (Flags).
type Options struct {
	// Chat starts a session at the terminal.
	Chat bool
	// BaseURL and ModelName name a real model; without ModelName, the
	// session asks the offline model. An empty BaseURL is
	// chatcompletions.BaseURLFromEnv.
	BaseURL, ModelName string
	// Record names the file to write the session to, as a scenario.
	Record string
	// MaxTurns stops each run after this many turns: lab 03's turn limit,
	// which the lab makes a ShouldStopAfterTurn policy.
	MaxTurns int
	// IdleTimeout is the longest a real model's server may send no data
	// (chatcompletions.Config.IdleTimeout).
	IdleTimeout time.Duration
	// RequestTimeout is the longest one request to a real model may take
	// (chatcompletions.Config.RequestTimeout).
	RequestTimeout time.Duration
}

// Flags defines -chat and its flags on fs, filling opts.
func Flags(fs *cli.FlagSet, opts *Options) {
	fs.BoolVar(&opts.Chat, "chat", false, "talk to the agent at the terminal: a line typed while it is idle is a prompt, a line typed while it works steers it, a line that starts with "+FollowUpPrefix+" queues a follow-up; Ctrl-C stops a run, Ctrl-C when idle or the end of input ends the session")
	fs.StringVar(&opts.BaseURL, "base-url", "", "with -chat and -model-name, the `URL` of a server that speaks the Chat Completions API (default: $OPENAI_BASE_URL, else "+chatcompletions.DefaultBaseURL+")")
	fs.StringVar(&opts.ModelName, "model-name", "", "with -chat, ask the real model `NAME` (such as qwen3:8b) instead of the offline one; a key, if the server needs one, comes from $OPENAI_API_KEY, never from a flag")
	fs.FileVar(&opts.Record, "record", "with -chat, write the session to `FILE` as a scenario file, which -scenario replays offline; FILE must not exist")
	fs.IntVar(&opts.MaxTurns, "max-turns", DefaultMaxTurns, fmt.Sprintf("with -chat, stop each run after `N` turns (1 to %d), so that a model that asks for tools again and again stops", MaxMaxTurns))
	fs.DurationVar(&opts.IdleTimeout, "idle-timeout", chatcompletions.DefaultIdleTimeout, "with -chat and -model-name, how long the server may send no data (blank lines and comments such as \": ping\" are none), such as 5m for a model that loads slowly, before the request fails")
	fs.DurationVar(&opts.RequestTimeout, "request-timeout", chatcompletions.DefaultRequestTimeout, "with -chat and -model-name, how long one request may take as a whole, from connecting to the reply's end, such as 30m for a slow model and a long answer, before it fails")
}

// Check refuses a command line that gives a flag of -chat without -chat,
// -base-url, -idle-timeout or -request-timeout without -model-name, -chat
// with -scenario or -html, an empty -model-name, or a value out of range.
// Call it after Parse.
func (o Options) Check(fs *cli.FlagSet, stderr io.Writer) error {
	if err := fs.Requires(stderr, "chat", "they set up the session of -chat", "base-url", "model-name", "record", "max-turns", "idle-timeout", "request-timeout"); err != nil {
		return err
	}
	if err := fs.Requires(stderr, "model-name", "name the model the server should run", "base-url", "idle-timeout", "request-timeout"); err != nil {
		return err
	}
	if err := fs.Excludes(stderr, "chat", "a scenario file scripts a whole session, the user's part too", "scenario"); err != nil {
		return err
	}
	if err := fs.Excludes(stderr, "chat", "a page is made from a run that replays: record the session with -record FILE, "+
		"then write its page with -scenario FILE -html PAGE", "html"); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case given["model-name"] && strings.TrimSpace(o.ModelName) == "":
		// -model-name "$MODEL" with $MODEL unset would ask the offline
		// model, and the user would take its answers for the real one's.
		return fs.Refuse(stderr, "-model-name is empty: name the model the server should run, such as qwen3:8b (is the variable you gave it set?)")
	case o.MaxTurns < 1 || o.MaxTurns > MaxMaxTurns:
		return fs.Refuse(stderr, "invalid value %d for flag -max-turns: must be from 1 to %d", o.MaxTurns, MaxMaxTurns)
	case o.IdleTimeout <= 0:
		return fs.Refuse(stderr, "invalid value %v for flag -idle-timeout: must be more than 0, such as 5m", o.IdleTimeout)
	case o.RequestTimeout <= 0:
		return fs.Refuse(stderr, "invalid value %v for flag -request-timeout: must be more than 0, such as 30m", o.RequestTimeout)
	}
	return nil
}

// A Chat is a session with a person at a terminal, lab 06's -chat. A line
// typed while the agent is idle is a prompt, and starts a run; a line typed
// while it works steers it; a line that starts with FollowUpPrefix queues a
// follow-up, idle or not. Ctrl-C during a run stops the run, and the
// session goes on; a second Ctrl-C before the run has stopped ends the
// program at once. Ctrl-C while the agent is idle, or the end of input
// once the run has ended, ends the session.
//
// Ctrl-C acts at once, as Pi's Agent.abort() does: the calls that run and
// the request to the model see it the moment it comes (cut), and the calls
// end in the order they started, on the demo clock. The loop's own context
// is cancelled at the next event, so that a recording can name the event
// where the run stopped and replay it exactly: whatever the loop decides
// before that event, it decided before the Ctrl-C could reach it.
type Chat struct {
	model  *liveModel
	tools  []Tool
	clock  *democlock.Clock
	about  string // says which model answers
	record string
	rec    *scenario.Recorder

	// current is the run going on, or the last one. The session's
	// goroutine sets it before the run starts.
	current *liveRun
	show    Show
	agent   Agent

	mu sync.Mutex
	// steering and followUp are what the user queued and the agent has
	// not taken yet, as the session knows it (see entered).
	steering, followUp []string
	// asides are what the session says during a run, until the next
	// event prints them.
	asides []string
	// recorded is the recording up to the last run that kept it within
	// its limit; warned is set once the session has said it nears it.
	recorded []byte
	warned   bool
}

// A liveRun is one run of a chat.
type liveRun struct {
	// cut is the context of the run's tool calls and model requests: Ctrl-C
	// cancels it (cutOff), at once. All the calls share it, so that the
	// demo clock sees all of them cancelled at the same moment, and ends
	// them in the order they started.
	cut    context.Context
	cutOff context.CancelFunc
	// cancel cancels the run's own context, and cut with it.
	cancel context.CancelFunc
	nar    *narrative.Run
	// What follows is the loop goroutine's.
	cancelled bool     // the run's context is cancelled
	prompted  bool     // the prompt has not entered yet
	entering  []queued // taken at the last poll, not entered yet
}

// A queued message is one the user typed while the agent worked.
type queued struct {
	followUp bool
	text     string
}

// interrupted reports whether Ctrl-C came, or the run has ended.
func (r *liveRun) interrupted() bool { return r.cut.Err() != nil }

// interruptedNow reports whether Ctrl-C came, and has not cancelled the
// run's own context yet.
func (r *liveRun) interruptedNow() bool { return r.interrupted() && !r.cancelled }

// NewChat returns a chat as opts say: with the offline model, or a real
// one, and the tools of the fake world, waiting on a demo clock. queueMode
// and sequential are the agent's settings, for the recording. A bad base
// URL, or a recording that could not be written, is a bad command line.
func NewChat(opts Options, queueMode string, sequential bool) (*Chat, error) {
	c := &Chat{clock: democlock.New(), record: opts.Record}
	c.model = &liveModel{chat: c, ids: map[string]bool{}}
	if opts.ModelName == "" {
		c.model.model, c.model.think, c.model.word = fakemodel.Assistant(), offlineThink, offlineWord
		c.about = "the offline model, fakemodel.Assistant (arithmetic, the weather in Oslo, Lima or Cairo, notes)"
	} else {
		provider, err := chatcompletions.New(chatcompletions.Config{
			BaseURL:        cmp.Or(opts.BaseURL, chatcompletions.BaseURLFromEnv()),
			ModelName:      opts.ModelName,
			APIKey:         chatcompletions.APIKeyFromEnv(),
			IdleTimeout:    opts.IdleTimeout,
			RequestTimeout: opts.RequestTimeout,
		})
		if err != nil {
			return nil, cli.BadInput(err)
		}
		// Its String names the model, quoted if need be, and the server,
		// never the key.
		c.model.model, c.about = provider, provider.String()
	}
	sequentialTools := map[string]bool{}
	for _, t := range serviceTools(c.clock) {
		c.tools = append(c.tools, c.liveTool(t))
		sequentialTools[t.Spec.Name] = t.Sequential
	}
	if opts.Record != "" {
		if err := scenario.CanWriteNew(opts.Record); err != nil {
			return nil, cli.BadInput(fmt.Errorf("-record %s: %w", cli.Quote(opts.Record), err))
		}
		c.rec = scenario.NewRecorder(sequentialTools, queueMode, sequential)
		c.rec.StopAfterTurn(cmp.Or(opts.MaxTurns, DefaultMaxTurns))
	}
	return c, nil
}

// Model returns the model the agent must ask.
func (c *Chat) Model() fakemodel.Model { return c.model }

// Tools returns the tools the agent must have.
func (c *Chat) Tools() []Tool { return c.tools }

// Clock returns the demo clock the tools wait on, which the lab's event
// handler tells which calls start and end.
func (c *Chat) Clock() *democlock.Clock { return c.clock }

// A line is one line of standard input, or the error that ended it.
// tooLong marks a line longer than MaxLine, which is not sent.
type line struct {
	text    string
	tooLong bool
	err     error
}

// Run runs the session: it reads standard input (cli.Stdin) line by line,
// takes each Ctrl-C for itself (cli.Interrupts), runs each prompt with run
// on agent, which must have the chat's model and tools, and prints the runs
// as s says. At the end it writes the recording, if any. SIGTERM and SIGHUP
// (cli.Hangups), and standard output that can no longer be written
// (cli.OutputLost), end the session as a Ctrl-C and the end of input would
// together, so that a closed terminal, or a pipe whose reader has gone,
// still leaves the recording; so does an error reading standard input.
func (c *Chat) Run(ctx context.Context, s Show, agent Agent, run Run) error {
	c.show, c.agent = s, agent
	interrupts := cli.Interrupts(ctx)
	hangups := cli.Hangups(ctx)
	lost := cli.OutputLost(ctx)
	stop := make(chan struct{})
	defer close(stop)
	lines := readLines(cli.Stdin(ctx), stop)
	fmt.Fprintf(s.Errw, "Chat with lab 06's agent; the model is %s.\n"+
		"Type a prompt. While the agent works, a line steers it, and a line that starts with %s queues a follow-up.\n"+
		"Ctrl-C stops a run; Ctrl-C when the agent is idle, or the end of input, ends the session.\n", c.about, FollowUpPrefix)

	var done chan error // not nil while a run goes on
	eof := false
	// hangUp ends the session as a Ctrl-C and the end of input would
	// together: the run stops, and the recording is written.
	hangUp := func(why string) {
		eof, lines = true, nil
		switch {
		case done == nil:
		case c.current.interrupted():
			c.current.cancel()
		default:
			c.say(fmt.Sprintf("(%s: the run stops, and the session ends)", why)) // first, as at Ctrl-C
			c.current.cutOff()
		}
	}
	for {
		if eof && done == nil {
			return c.finish()
		}
		select {
		case l, ok := <-lines:
			switch {
			case !ok:
				eof, lines = true, nil
			case l.err != nil:
				if done != nil {
					c.current.cancel()
					<-done
				}
				if err := c.finish(); err != nil {
					return err
				}
				return cli.BadInput(l.err)
			case l.tooLong:
				c.say(fmt.Sprintf("(not sent: the line is longer than %d KiB)", MaxLine>>10))
			default:
				if prompt, ok := c.typed(l.text, done != nil); ok {
					done = c.start(ctx, prompt, run)
				}
			}
		case <-interrupts:
			switch {
			case done == nil:
				return c.finish()
			case c.current.interrupted():
				c.current.cancel()
				return cli.ErrInterrupted
			default:
				// The note first: the run prints it after its next
				// event, and only cutOff lets the run react, so the note
				// comes right after the first line the Ctrl-C causes,
				// never later, on every run.
				c.say("(Ctrl-C: the run stops; Ctrl-C again ends the program at once)")
				c.current.cutOff()
			}
		case sig := <-hangups:
			hangUp(sig.String())
		case <-lost:
			lost = nil
			hangUp("standard output is closed")
		case err := <-done:
			done = nil
			if err != nil {
				return errors.Join(err, c.finish())
			}
			c.ended()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// readLines reads r line by line on a goroutine of its own, until the end
// of input, an error, or stop. A line longer than MaxLine, which a paste may
// make, comes with tooLong set and without its text; the session goes on.
func readLines(r io.Reader, stop <-chan struct{}) <-chan line {
	lines := make(chan line)
	go func() {
		defer close(lines)
		in := bufio.NewReaderSize(r, 4096)
		send := func(l line) bool {
			select {
			case lines <- l:
				return true
			case <-stop:
				return false
			}
		}
		for {
			l, err := readLine(in)
			if err == nil || (errors.Is(err, io.EOF) && (l.text != "" || l.tooLong)) {
				if !send(l) {
					return
				}
			}
			switch {
			case errors.Is(err, io.EOF):
				return
			case err != nil:
				send(line{err: fmt.Errorf("standard input: %w", err)})
				return
			}
		}
	}()
	return lines
}

// readLine reads one line, without its line end, as bufio.Scanner would:
// the last line may have none. Of a line longer than MaxLine it keeps
// nothing, and reads on to its end.
func readLine(in *bufio.Reader) (line, error) {
	var l line
	var text []byte
	for {
		part, err := in.ReadSlice('\n')
		if !l.tooLong {
			text = append(text, part...)
			if len(bytes.TrimRight(text, "\r\n")) > MaxLine {
				l.tooLong, text = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !l.tooLong {
			l.text = string(bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r")))
		}
		return l, err
	}
}

// typed handles a line the user typed, while the agent works or not, and
// returns the prompt to run, if the line is one.
func (c *Chat) typed(text string, working bool) (prompt string, ok bool) {
	followUp := false
	if rest, cut := strings.CutPrefix(strings.TrimLeft(text, " "), FollowUpPrefix); cut {
		followUp, text = true, strings.TrimLeft(rest, " ")
	}
	switch problem := check(text); {
	case problem != "":
		c.say(fmt.Sprintf("(not sent: %s)", problem))
	case strings.TrimSpace(text) == "":
		if followUp {
			c.say("(not sent: a follow-up needs a text after " + FollowUpPrefix + ")")
		}
	case followUp:
		// The note first, as at Ctrl-C: the run may take the message as
		// soon as it is queued, and the note then comes with the
		// message's entry at the latest.
		c.say(fmt.Sprintf("(follow-up queued: %q; it enters when the agent would otherwise stop)", text))
		c.queue(queued{followUp: true, text: text})
	case working:
		c.say(fmt.Sprintf("(steering message queued: %q; it enters before the model's next request)", text))
		c.queue(queued{text: text})
	default:
		return text, true
	}
	return "", false
}

// check returns what makes a typed line unfit to send, or "": it must be
// valid UTF-8 and print as it is, because the narrative prints it, and a
// scenario file holds it, as it is. The rule is the scenario format's own
// (scenario.Unprintable), so that a recording replays.
func check(text string) string {
	if !utf8.ValidString(text) {
		return "the line is not valid UTF-8"
	}
	if r, found := scenario.Unprintable(text); found {
		return fmt.Sprintf("the line holds %U, a character that does not print as itself; type it again without it", r)
	}
	return ""
}

// queue sends a message to the agent's steering or follow-up queue.
func (c *Chat) queue(m queued) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.followUp {
		c.agent.FollowUp(fakemodel.UserMessage{Text: m.text})
		c.followUp = append(c.followUp, m.text)
	} else {
		c.agent.Steer(fakemodel.UserMessage{Text: m.text})
		c.steering = append(c.steering, m.text)
	}
}

// say prints what the session has to tell the user: in a trace, to Errw at
// once; in the narrative, at once while the agent is idle, and during a run
// at its next event, so that the line does not cut the model's reply in
// two.
func (c *Chat) say(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.show.Trace:
		fmt.Fprintln(c.show.Errw, text)
	case c.current != nil && c.current.nar != nil:
		c.asides = append(c.asides, text)
	default:
		c.show.Printer.Line(text)
	}
}

// start starts a run of prompt on a goroutine of its own, and returns the
// channel that receives its end.
func (c *Chat) start(ctx context.Context, prompt string, run Run) chan error {
	c.rec.Prompt(prompt)
	ctx, cancel := context.WithCancel(ctx)
	r := &liveRun{cancel: cancel, prompted: true, nar: c.show.begin(false, false, c.clock)}
	if r.nar != nil {
		ctx = fakemodel.WithOnThinking(ctx, r.nar.Thinking)
	}
	r.cut, r.cutOff = context.WithCancel(ctx)
	c.mu.Lock()
	c.current = r
	c.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		defer cancel()
		done <- run(ctx, prompt, r.nar, c.see)
	}()
	return done
}

// see takes each event of the run, by its trace line, on the loop's
// goroutine.
func (c *Chat) see(traceLine string) {
	r := c.current
	c.show.line(traceLine)
	c.rec.See(traceLine)
	if traceLine == "message_start user" {
		c.entered(r)
	}
	c.mu.Lock()
	for _, text := range c.asides {
		r.nar.Aside(text)
	}
	c.asides = nil
	c.mu.Unlock()
	// A Ctrl-C cancels the run's own context at the first event after it:
	// the calls and the model saw it already (cut).
	if r.interruptedNow() {
		c.cancelRun(r)
	}
}

// cancelRun cancels the run r at Ctrl-C, and records where.
func (c *Chat) cancelRun(r *liveRun) {
	r.cancelled = true
	c.rec.Interrupt()
	r.cancel()
}

// entered records which message the user queued has entered the history:
// the first message_start user of a run is its prompt's; each later one is
// a queued message, which the last poll took. The session knows what it
// queued; what the agent still holds says what the poll took.
func (c *Chat) entered(r *liveRun) {
	if r.prompted {
		r.prompted = false
		return
	}
	if len(r.entering) == 0 {
		c.mu.Lock()
		steering, followUp := c.agent.Queued()
		n := len(c.steering) - len(steering)
		for _, text := range c.steering[:n] {
			r.entering = append(r.entering, queued{text: text})
		}
		c.steering = c.steering[n:]
		n = len(c.followUp) - len(followUp)
		for _, text := range c.followUp[:n] {
			r.entering = append(r.entering, queued{followUp: true, text: text})
		}
		c.followUp = c.followUp[n:]
		c.mu.Unlock()
	}
	if len(r.entering) > 0 {
		c.rec.Entered(r.entering[0].followUp, r.entering[0].text)
		r.entering = r.entering[1:]
	}
}

// ended prints what the session still has to say about the run that ended,
// and what the agent holds, and keeps the recording within its limit.
func (c *Chat) ended() {
	c.mu.Lock()
	asides := c.asides
	c.asides = nil
	c.current = nil
	c.mu.Unlock()
	for _, text := range asides {
		c.show.Printer.Line(text)
	}
	c.show.state(c.agent)
	c.keepRecording()
}

// keepRecording encodes the recording after a run, to keep it within the
// size of a scenario file (scenario.MaxBytes): it warns once the recording
// holds three quarters of that, and stops recording at the run that passes
// it, keeping the runs before, which finish writes.
func (c *Chat) keepRecording() {
	if c.rec == nil {
		return
	}
	data, err := c.rec.Encode(c.agent.Messages())
	switch {
	case errors.Is(err, scenario.ErrTooLarge) && c.recorded == nil:
		c.rec = nil // no run goes on: no goroutine records now
		c.note(fmt.Sprintf("(the recording is full: this run alone is longer than the %d KiB a scenario file may hold; nothing is recorded, and %s will not be written)", scenario.MaxBytes>>10, cli.Quote(c.record)))
	case errors.Is(err, scenario.ErrTooLarge):
		c.rec = nil
		c.note(fmt.Sprintf("(the recording is full: a scenario file holds at most %d KiB; %s will hold the session up to the run before this one, and records no more)", scenario.MaxBytes>>10, cli.Quote(c.record)))
	case err != nil:
		// finish reports it
	default:
		c.recorded = data
		if !c.warned && len(data) > scenario.MaxBytes/4*3 {
			c.warned = true
			c.note(fmt.Sprintf("(the recording holds %d KiB of the %d KiB a scenario file may hold; a run that passes the limit is not recorded, nor any after it)", len(data)>>10, scenario.MaxBytes>>10))
		}
	}
}

// note prints what the session has to say while no run goes on.
func (c *Chat) note(text string) {
	if c.show.Trace {
		fmt.Fprintln(c.show.Errw, text)
	} else {
		c.show.Printer.Line(text)
	}
}

// finish ends the session: it writes the recording, if any, whole or up to
// the last run that kept it within its limit, to the file -record names or,
// if a file of that name appeared during the session, beside it, under the
// first free name: session-2.json, session-3.json, ... If even the first run
// passed the limit, it writes nothing, and says so.
func (c *Chat) finish() error {
	if c.record == "" {
		return nil
	}
	data := c.recorded // the runs that fit, once the recording is full
	if c.rec != nil {
		c.mu.Lock()
		for _, text := range c.steering {
			c.rec.Left(false, text)
		}
		for _, text := range c.followUp {
			c.rec.Left(true, text)
		}
		c.mu.Unlock()
		all, err := c.rec.Encode(c.agent.Messages())
		switch {
		case errors.Is(err, scenario.ErrNoPrompt):
			fmt.Fprintf(c.show.Errw, "nothing recorded: %v\n", err)
			return nil
		case errors.Is(err, scenario.ErrTooLarge) && data != nil:
			fmt.Fprintf(c.show.Errw, "the last run would make the recording longer than a scenario file may be (%d KiB): it holds the runs before\n", scenario.MaxBytes>>10)
		case errors.Is(err, scenario.ErrTooLarge):
			// The first run alone is too long: nothing to write (below).
		case err != nil:
			return fmt.Errorf("-record %s: nothing written: %w", cli.Quote(c.record), err)
		default:
			data = all
		}
	}
	if data == nil {
		fmt.Fprintf(c.show.Errw, "nothing recorded: the first run alone was longer than the %d KiB a scenario file may hold; %s is not written\n", scenario.MaxBytes>>10, cli.Quote(c.record))
		return nil
	}
	name, err := writeFree(c.record, data)
	if err != nil {
		return fmt.Errorf("-record %s: nothing written: %w", cli.Quote(c.record), err)
	}
	if name != c.record {
		fmt.Fprintf(c.show.Errw, "%s appeared during the session, and a recording never replaces a file: ", cli.Quote(c.record))
	}
	fmt.Fprintf(c.show.Errw, "recorded the session in %s; replay it offline with -scenario %s\n", cli.Quote(name), cli.Quote(name))
	return nil
}

// writeFree writes data to a new file at path, or, if a file is there,
// at the first free name beside it (scenario.WriteNew), and returns the
// name it wrote.
func writeFree(path string, data []byte) (string, error) {
	ext := filepath.Ext(path)
	for n := 1; ; n++ {
		name := path
		if n > 1 {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), n, ext)
		}
		err := scenario.WriteNew(name, data)
		if _, statErr := os.Lstat(name); err == nil || statErr != nil || n == 99 {
			return name, err
		}
	}
}
