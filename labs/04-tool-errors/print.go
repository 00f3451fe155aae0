package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/fatih/color"
)

// A printer writes the lab's narrative.
type printer struct {
	w                            io.Writer
	label, turn, good, warn, bad *color.Color
}

// newPrinter returns a printer for w. It colours its output only when w is a
// terminal and NO_COLOR is not set (cli.Painter), so that piped output, and
// the golden files made from it, hold plain text.
func newPrinter(w io.Writer) *printer {
	paint := cli.Painter(w)
	return &printer{
		w:     w,
		label: paint(color.Bold),
		turn:  paint(color.FgCyan),
		good:  paint(color.FgGreen),
		warn:  paint(color.FgYellow),
		bad:   paint(color.FgRed),
	}
}

// transcript prints the history: the user's prompt, then for each turn what
// the model said and what each tool call it made returned.
func (p *printer) transcript(history []fakemodel.Message, requests []fakemodel.Request) {
	turn := 0
	for _, m := range history {
		switch m := m.(type) {
		case fakemodel.UserMessage:
			fmt.Fprintf(p.w, "%s %s\n", p.label.Sprint("user:"), m.Text)
		case fakemodel.AssistantMessage:
			turn++
			prefix := p.turn.Sprintf("turn %d ·", turn)
			if turn <= len(requests) {
				p.request(prefix, requests[turn-1])
			}
			if m.StopReason == fakemodel.StopReasonError {
				fmt.Fprintf(p.w, "%s %s %s\n", prefix, p.bad.Sprint("model request failed:"), m.ErrorMessage)
				continue
			}
			fmt.Fprintf(p.w, "%s model said: %s\n", prefix, m.Text)
			for _, call := range m.ToolCalls {
				if r, ok := resultFor(history, call.ID); ok {
					fmt.Fprintf(p.w, "%s run %s %s ⇒ %s\n", prefix, call.Name, call.Arguments, p.result(r))
				}
			}
		}
	}
}

// result formats what a tool call returned, marking an error as one.
func (p *printer) result(r fakemodel.ToolResultMessage) string {
	if r.IsError {
		return p.bad.Sprint("error: ") + r.Content
	}
	return r.Content
}

// part prints the title of one part of the lab's output.
func (p *printer) part(n int, title string) {
	if n > 1 {
		fmt.Fprintln(p.w)
	}
	fmt.Fprintln(p.w, p.label.Sprintf("=== part %d: %s ===", n, title))
}

// ended prints how the loop ended.
func (p *printer) ended(res Result) {
	reason := p.good.Sprint(res.StopReason)
	if res.StopReason != Completed {
		reason = p.warn.Sprint(res.StopReason)
	}
	fmt.Fprintf(p.w, "%s %s, stop reason %s\n", p.label.Sprint("loop ended:"), count(res.Turns, "turn"), reason)
}

// answer prints what the user finally reads.
func (p *printer) answer(res Result) {
	text, ok := res.Answer()
	if !ok {
		text = p.warn.Sprint("none: the loop stopped before the model answered")
	}
	fmt.Fprintf(p.w, "%s %s\n", p.label.Sprint("answer:"), text)
}

// resultFor finds the tool result that answers the call with this ID.
func resultFor(history []fakemodel.Message, id string) (fakemodel.ToolResultMessage, bool) {
	for _, m := range history {
		if r, ok := m.(fakemodel.ToolResultMessage); ok && r.ToolCallID == id {
			return r, true
		}
	}
	return fakemodel.ToolResultMessage{}, false
}

func (p *printer) historySize(history []fakemodel.Message) {
	fmt.Fprintf(p.w, "history holds %s: %s\n", count(len(history), "message"), roleList(history))
}

// request prints what one request sent the model.
func (p *printer) request(prefix string, req fakemodel.Request) {
	tools := "no tools"
	if len(req.Tools) > 0 {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = t.Name
		}
		tools = fmt.Sprintf("%s (%s)", count(len(names), "tool"), strings.Join(names, ", "))
	}
	fmt.Fprintf(p.w, "%s request: %s (%s), %s\n", prefix, count(len(req.Messages), "message"), roleList(req.Messages), tools)
}

// roleList names the role of each message, in order. Runs of three or more
// messages of one role are written "toolResult ×9".
func roleList(messages []fakemodel.Message) string {
	var roles []string
	for i := 0; i < len(messages); {
		n := 1
		for i+n < len(messages) && messages[i+n].Role() == messages[i].Role() {
			n++
		}
		role := string(messages[i].Role())
		if n >= 3 {
			roles = append(roles, fmt.Sprintf("%s ×%d", role, n))
		} else {
			for range n {
				roles = append(roles, role)
			}
		}
		i += n
	}
	return strings.Join(roles, ", ")
}

// count writes n and a noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
