// Package steppertest reads back the page that package stepper writes, as
// a test sees it: its steps in order, and what the page shows at a step
// (the history, the reply that streams in, the request, the queues, the
// tool calls and the counts). It reads the ranges of steps the page's
// elements carry, data-from and data-to, as the page's script does, so a
// test of a lab can check its page without a browser.
package steppertest

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// A Page is a page that package stepper wrote.
type Page struct {
	// Title is the page's title, and Lang its language (en or zh-CN).
	Title, Lang string
	// Steps are its steps, in order: Steps[n-1] is step n.
	Steps []Step
	parts []*node
	root  *node
}

// A Step is one step of the page.
type Step struct {
	N int
	// Event is its event's type (data-event), for labs 05 and 06; Loop
	// its place among the six steps of the loop (data-loop-step), for
	// labs 02 to 04.
	Event, Loop string
	// Label is what identifies it: with Event, the trace line of the
	// event is Event+" "+Label, or Event alone if Label is empty.
	Label string
	// About and Detail are what the page says about it.
	About, Detail string
	// Part is the heading of its part.
	Part string
	// The counts after the step.
	Turn, Requests, Execs, Messages int
}

// TraceLine is the step's event as -trace prints it.
func (s Step) TraceLine() string {
	return strings.TrimSpace(s.Event + " " + s.Label)
}

// A State is what the page shows at a step.
type State struct {
	// Part is the heading of the part shown.
	Part string
	// History is the history, oldest first.
	History []Message
	// Streaming is the text of the reply that streams in, and Replying
	// says that one does.
	Streaming string
	Replying  bool
	// Request says what the request of the current turn holds, if one
	// was sent.
	Request string
	// Steering and FollowUp are the messages waiting in the queues;
	// Typed are those typed at this step, and Taken those a poll took.
	Steering, FollowUp, Typed, Taken []string
	// Calls are the tool calls of the current run.
	Calls []Call
	// Notes are the lines the run printed after this step.
	Notes []string
	// The counts at this step.
	Turn, Requests, Execs, Messages int
}

// A Message is a message of the history.
type Message struct {
	Role, Text string
	// New says that this step added it.
	New bool
}

// A Call is the lane of a tool call.
type Call struct {
	ID, Name string
	// State is "future" before it starts, "now" while it runs, "past"
	// once it ended.
	State string
	// Result is its result, once it ended.
	Result string
}

// Roles are the roles of the history's messages.
func (s State) Roles() []string {
	var roles []string
	for _, m := range s.History {
		roles = append(roles, m.Role)
	}
	return roles
}

// Read reads a page.
func Read(page []byte) (*Page, error) {
	root, err := parse(string(page))
	if err != nil {
		return nil, err
	}
	p := &Page{root: root, parts: root.all(func(n *node) bool { return n.tag == "section" && n.has("part") })}
	if t := root.first(func(n *node) bool { return n.tag == "title" }); t != nil {
		p.Title = t.text()
	}
	if h := root.first(func(n *node) bool { return n.tag == "html" }); h != nil {
		p.Lang = h.attrs["lang"]
	}
	for _, part := range p.parts {
		heading := part.first(func(n *node) bool { return n.tag == "h2" }).text()
		for _, li := range part.all(func(n *node) bool { return n.tag == "li" && n.has("step") }) {
			s := Step{Event: li.attrs["data-event"], Loop: li.attrs["data-loop-step"], Part: heading}
			s.N, _ = strconv.Atoi(li.attrs["data-n"])
			s.Label = li.child("label").text()
			s.About = li.child("about").text()
			s.Detail = li.child("detail").text()
			s.Turn, s.Requests, s.Execs, s.Messages = li.counts()
			if s.N != len(p.Steps)+1 {
				return nil, fmt.Errorf("step %d comes after step %d", s.N, len(p.Steps))
			}
			p.Steps = append(p.Steps, s)
		}
	}
	if len(p.parts) == 0 {
		return nil, fmt.Errorf("the page has no part")
	}
	return p, nil
}

// At returns what the page shows at step n, from 0 to len(Steps).
func (p *Page) At(n int) State {
	var st State
	part := p.parts[0]
	for _, s := range p.parts {
		if s.state(n) == "now" {
			part = s
		}
	}
	st.Part = part.first(func(n *node) bool { return n.tag == "h2" }).text()
	if n >= 1 && n <= len(p.Steps) {
		s := p.Steps[n-1]
		st.Turn, st.Requests, st.Execs, st.Messages = s.Turn, s.Requests, s.Execs, s.Messages
	} else {
		st.Turn, st.Requests, st.Execs, st.Messages = part.counts()
	}
	for _, m := range part.all(func(x *node) bool { return x.attrs["data-message"] != "" }) {
		if m.state(n) != "future" {
			st.History = append(st.History, Message{Role: m.attrs["data-message"], Text: m.child("text").text(), New: m.from() == n})
		}
	}
	for _, d := range part.all(func(x *node) bool { return x.has("draft") }) {
		if d.state(n) == "now" {
			st.Replying = true
			for _, c := range d.all(func(x *node) bool { return x.tag == "span" && x.attrs["data-from"] != "" }) {
				if c.state(n) != "future" {
					st.Streaming += c.text()
				}
			}
		}
	}
	for _, r := range part.all(func(x *node) bool { return x.has("req") }) {
		if r.state(n) == "now" {
			st.Request = r.first(func(x *node) bool { return x.tag == "p" }).text()
		}
	}
	for _, q := range part.all(func(x *node) bool { return x.attrs["data-queue"] != "" }) {
		for _, li := range q.all(func(x *node) bool { return x.tag == "li" && x.attrs["data-from"] != "" }) {
			text := li.child("text").text()
			switch {
			case li.state(n) == "now" && q.attrs["data-queue"] == "steering":
				st.Steering = append(st.Steering, text)
			case li.state(n) == "now":
				st.FollowUp = append(st.FollowUp, text)
			}
			if li.from() == n {
				st.Typed = append(st.Typed, text)
			}
			if li.to() == n {
				st.Taken = append(st.Taken, text)
			}
		}
	}
	for _, r := range part.all(func(x *node) bool { return x.has("run") }) {
		if r.state(n) != "now" {
			continue
		}
		for _, l := range r.all(func(x *node) bool { return x.has("lane") }) {
			c := Call{ID: l.first(func(x *node) bool { return x.tag == "code" }).text(), Name: l.child("tool").text(), State: l.state(n)}
			if c.State == "past" {
				c.Result = strings.TrimSpace(strings.TrimLeft(l.child("st-past").text(), "✓✗"))
			}
			st.Calls = append(st.Calls, c)
		}
	}
	for _, note := range part.all(func(x *node) bool { return x.has("note") }) {
		if note.from() == n {
			st.Notes = append(st.Notes, note.text())
		}
	}
	return st
}

// A node is an element of the page, or, with no tag, a text.
type node struct {
	tag      string
	attrs    map[string]string
	children []*node
	data     string
}

// has reports whether the element has the class c.
func (n *node) has(c string) bool {
	return n.tag != "" && strings.Contains(" "+n.attrs["class"]+" ", " "+c+" ")
}

// text is the text inside the node.
func (n *node) text() string {
	if n == nil {
		return ""
	}
	if n.tag == "" {
		return n.data
	}
	var b strings.Builder
	for _, c := range n.children {
		b.WriteString(c.text())
	}
	return b.String()
}

// all returns the elements inside n that keep accepts, in order.
func (n *node) all(keep func(*node) bool) []*node {
	var out []*node
	for _, c := range n.children {
		if c.tag == "" {
			continue
		}
		if keep(c) {
			out = append(out, c)
		}
		out = append(out, c.all(keep)...)
	}
	return out
}

// first returns the first element inside n that keep accepts, or nil.
func (n *node) first(keep func(*node) bool) *node {
	if all := n.all(keep); len(all) > 0 {
		return all[0]
	}
	return nil
}

// child returns the first element inside n with the class c, or nil.
func (n *node) child(c string) *node {
	return n.first(func(x *node) bool { return x.has(c) })
}

// from and to are the element's range of steps; to is -1 without one.
func (n *node) from() int {
	v, _ := strconv.Atoi(n.attrs["data-from"])
	return v
}

func (n *node) to() int {
	v, ok := n.attrs["data-to"]
	if !ok {
		return -1
	}
	i, _ := strconv.Atoi(v)
	return i
}

// state is the element's state at step n, as the page's script sets it.
func (n *node) state(step int) string {
	switch to := n.to(); {
	case step < n.from():
		return "future"
	case to >= 0 && step >= to:
		return "past"
	}
	return "now"
}

// counts reads the counts an element carries.
func (n *node) counts() (turn, requests, execs, messages int) {
	get := func(name string) int {
		v, _ := strconv.Atoi(n.attrs["data-"+name])
		return v
	}
	return get("turn"), get("requests"), get("execs"), get("messages")
}

// The page's syntax, as package stepper writes it.
var (
	tagRE  = regexp.MustCompile(`^<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>` + "`" + `]+))?)*)\s*(/?)>`)
	attrRE = regexp.MustCompile(`([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>` + "`" + `]+)))?`)
	// void are the elements without an end.
	void = map[string]bool{"meta": true, "input": true, "br": true, "img": true, "link": true, "hr": true}
)

// parse reads the elements of an HTML page, as strictly as a test needs:
// every element that is not void ends, in order.
func parse(src string) (*node, error) {
	root := &node{tag: "#root"}
	stack := []*node{root}
	top := func() *node { return stack[len(stack)-1] }
	for i := 0; i < len(src); {
		lt := strings.IndexByte(src[i:], '<')
		if lt < 0 {
			lt = len(src) - i
		}
		if lt > 0 {
			top().children = append(top().children, &node{data: html.UnescapeString(src[i : i+lt])})
			i += lt
			continue
		}
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest, "-->")
			if end < 0 {
				return nil, fmt.Errorf("a comment does not end")
			}
			i += end + 3
			continue
		case strings.HasPrefix(rest, "<!"):
			i += strings.IndexByte(rest, '>') + 1
			continue
		}
		m := tagRE.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("a tag that does not parse: %.40q", rest)
		}
		i += len(m[0])
		name := strings.ToLower(m[2])
		if m[1] == "/" {
			if top().tag != name {
				return nil, fmt.Errorf("</%s> ends <%s>", name, top().tag)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		n := &node{tag: name, attrs: map[string]string{}}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			n.attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3] + a[4])
		}
		top().children = append(top().children, n)
		if void[name] || m[4] == "/" {
			continue
		}
		if name == "script" || name == "style" {
			end := strings.Index(src[i:], "</"+name)
			if end < 0 {
				return nil, fmt.Errorf("<%s> does not end", name)
			}
			n.children = append(n.children, &node{data: src[i : i+end]})
			i += end + len("</"+name+">")
			continue
		}
		stack = append(stack, n)
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("<%s> does not end", top().tag)
	}
	return root, nil
}
