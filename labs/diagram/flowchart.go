package diagram

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A chart is a flowchart: the steps of a loop, the decisions between them,
// the ways it ends, and the loops it holds, drawn as labelled groups.
type chart struct {
	nodes  []node
	edges  []edge
	groups []group
	// compact draws the chart with less room around the boxes than
	// Mermaid's default (compactConfig), for a chart that would be too
	// tall for a page.
	compact bool
}

// A text is a label in each language a chart is drawn in.
type text struct {
	en, zh string
}

// in returns the text in lang.
func (t text) in(lang string) string {
	if lang == Chinese {
		return t.zh
	}
	return t.en
}

// The languages a chart is drawn in: the labs' READMEs, README.md and
// README.zh-CN.md.
const (
	English = "en"
	Chinese = "zh"
)

// A node is one box of a flowchart.
type node struct {
	id    string
	label text
	shape shape
	// code are names the lab's Go code must hold for the box to be true
	// of it, such as "BeforeToolCall" or "max_turns" (TestEachLoopNamesItsLabsCode).
	code []string
	// recap marks a box that sums up, in fewer words, boxes of the lab
	// before: it is not new, and neither is an arrow between it and a box
	// that is not new.
	recap bool
}

// A group is a labelled frame around boxes, such as one of a loop's
// loops. Its boxes are listed by ID; parent is the ID of the group it lies
// in, or "".
type group struct {
	id     string
	label  text
	parent string
	nodes  []string
}

// A shape is how a box is drawn: what kind of thing it is.
type shape int

const (
	// step is something the loop does.
	step shape = iota
	// decision is a question whose answers lead on.
	decision
	// terminal is where a run starts or ends.
	terminal
	// aside is something that goes on beside the steps, such as the
	// events a loop emits.
	aside
)

// shapes are the brackets that draw each shape in Mermaid.
var shapes = map[shape][2]string{
	step:     {"[", "]"},
	decision: {"{", "}"},
	terminal: {"([", "])"},
	aside:    {"[[", "]]"},
}

// An edge is an arrow from one box to another, with a label if the arrow
// is one answer of a decision.
type edge struct {
	from, to string
	label    text
	// recap marks an arrow that sums up arrows of the lab before: it is
	// not new.
	recap bool
}

// box returns a step. A line break in its label breaks its line.
func box(id string, label text, code ...string) node {
	return node{id: id, label: label, shape: step, code: code}
}

// ask returns a decision.
func ask(id string, label text, code ...string) node {
	return node{id: id, label: label, shape: decision, code: code}
}

// end returns a terminal.
func end(id string, label text, code ...string) node {
	return node{id: id, label: label, shape: terminal, code: code}
}

// beside returns an aside.
func beside(id string, label text, code ...string) node {
	return node{id: id, label: label, shape: aside, code: code}
}

// recap returns n marked as a recap.
func recap(n node) node {
	n.recap = true
	return n
}

// to returns an edge without a label.
func to(from, to string) edge { return edge{from: from, to: to} }

// on returns an edge with a label, one answer of a decision.
func on(from string, label text, to string) edge { return edge{from: from, to: to, label: label} }

// recapEdge returns e marked as a recap.
func recapEdge(e edge) edge {
	e.recap = true
	return e
}

// compactConfig is the first line of a compact chart: less room between
// the boxes (20 and 30 pixels) and inside them (10) than Mermaid's default
// (50, 50 and 15), and lines of text up to 240 pixels wide in a box (200),
// so that the loop of lab 06 fits a page.
const compactConfig = `%%{init: {"flowchart": {"rankSpacing": 20, "nodeSpacing": 30, "wrappingWidth": 240, "padding": 10}}}%%`

// mermaid writes the chart as a Mermaid flowchart in lang, from top to
// bottom. The boxes, arrows and groups that before does not have, the
// same, are marked as new: drawn with a thick orange line. A line break
// in a label breaks its line in the box.
func (c chart) mermaid(before chart, lang string) string {
	var b strings.Builder
	if c.compact {
		b.WriteString(compactConfig + "\n")
	}
	b.WriteString("flowchart TD\n")
	grouped := map[string]string{} // the group of each box in one
	for _, g := range c.groups {
		for _, id := range g.nodes {
			grouped[id] = g.id
		}
	}
	written := map[string]bool{}
	var writeGroup func(g group, depth int)
	writeNode := func(n node, depth int) {
		brackets := shapes[n.shape]
		fmt.Fprintf(&b, "%s%s%s\"%s\"%s\n", indent(depth), n.id, brackets[0], flowLabel(n.label.in(lang)), brackets[1])
	}
	writeGroup = func(g group, depth int) {
		written[g.id] = true
		// Mermaid draws a group's title over the box at its top, so the
		// title is a box of plain text inside the group, which the
		// layout puts where there is room.
		fmt.Fprintf(&b, "%ssubgraph %s[\" \"]\n", indent(depth), g.id)
		fmt.Fprintf(&b, "%s%sTitle[\"%s\"]\n", indent(depth+1), g.id, flowLabel(g.label.in(lang)))
		for _, inner := range c.groups {
			if inner.parent == g.id {
				writeGroup(inner, depth+1)
			}
		}
		for _, n := range c.nodes {
			if grouped[n.id] == g.id {
				writeNode(n, depth+1)
			}
		}
		fmt.Fprintf(&b, "%send\n", indent(depth))
	}
	for _, n := range c.nodes {
		g, ok := grouped[n.id]
		if !ok {
			writeNode(n, 1)
			continue
		}
		for top := c.group(g); !written[top.id]; top = c.group(top.parent) {
			if top.parent == "" {
				writeGroup(top, 1)
				break
			}
		}
	}
	for _, e := range c.edges {
		if e.label.en == "" {
			fmt.Fprintf(&b, "    %s --> %s\n", e.from, e.to)
		} else {
			fmt.Fprintf(&b, "    %s -->|\"%s\"| %s\n", e.from, flowLabel(e.label.in(lang)), e.to)
		}
	}
	old := func(id string) bool {
		n := c.node(id)
		return n.recap || slices.ContainsFunc(before.nodes, func(o node) bool { return o.id == n.id && o.label == n.label && o.shape == n.shape })
	}
	var newNodes, newGroups, newEdges []string
	for _, n := range c.nodes {
		if !old(n.id) {
			newNodes = append(newNodes, n.id)
		}
	}
	for _, g := range c.groups {
		if !slices.ContainsFunc(before.groups, func(o group) bool { return o.id == g.id && o.label == g.label }) {
			newGroups = append(newGroups, g.id)
		}
	}
	for i, e := range c.edges {
		if !e.recap && !slices.Contains(before.edges, e) && !(old(e.from) && old(e.to) && (c.node(e.from).recap || c.node(e.to).recap)) {
			newEdges = append(newEdges, strconv.Itoa(i))
		}
	}
	if len(newNodes) > 0 {
		b.WriteString("    classDef new fill:#fff4e6,stroke:#e8590c,stroke-width:3px,color:#000\n")
		fmt.Fprintf(&b, "    class %s new\n", strings.Join(newNodes, ","))
	}
	if len(c.groups) > 0 {
		var titles []string
		for _, g := range c.groups {
			titles = append(titles, g.id+"Title")
		}
		b.WriteString("    classDef groupTitle fill:none,stroke:none,color:#c2410c,font-weight:bold\n")
		fmt.Fprintf(&b, "    class %s groupTitle\n", strings.Join(titles, ","))
	}
	if len(newGroups) > 0 {
		b.WriteString("    classDef newGroup fill:#fffbf5,stroke:#e8590c,stroke-width:3px,color:#000\n")
		fmt.Fprintf(&b, "    class %s newGroup\n", strings.Join(newGroups, ","))
	}
	if len(newEdges) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s stroke:#e8590c,stroke-width:3px\n", strings.Join(newEdges, ","))
	}
	return b.String()
}

// node returns the box with this ID.
func (c chart) node(id string) node {
	for _, n := range c.nodes {
		if n.id == id {
			return n
		}
	}
	return node{}
}

// flowLabel writes a label of a flowchart: in quotes, each of its lines
// escaped, joined by Mermaid's line break.
func flowLabel(label string) string {
	lines := strings.Split(label, "\n")
	for i, line := range lines {
		lines[i] = escape(line, `"`)
	}
	return strings.Join(lines, "<br/>")
}

// group returns the group with this ID.
func (c chart) group(id string) group {
	for _, g := range c.groups {
		if g.id == id {
			return g
		}
	}
	return group{}
}

// indent is the indentation of a line depth levels deep: four spaces a
// level.
func indent(depth int) string {
	return strings.Repeat("    ", depth)
}
