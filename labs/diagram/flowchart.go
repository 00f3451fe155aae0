package diagram

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A chart is a flowchart: the steps of a loop, the decisions between them,
// and the ways it ends.
type chart struct {
	nodes []node
	edges []edge
}

// A node is one box of a flowchart.
type node struct {
	id, label string
	shape     shape
	// code are names the lab's Go code must hold for the box to be true
	// of it, such as "BeforeToolCall" or "max_turns" (TestEachLoopNamesItsLabsCode).
	code []string
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
	from, to, label string
}

// box returns a step.
func box(id, label string, code ...string) node { return node{id, label, step, code} }

// ask returns a decision.
func ask(id, label string, code ...string) node { return node{id, label, decision, code} }

// end returns a terminal.
func end(id, label string, code ...string) node { return node{id, label, terminal, code} }

// beside returns an aside.
func beside(id, label string, code ...string) node { return node{id, label, aside, code} }

// to returns an edge without a label.
func to(from, to string) edge { return edge{from, to, ""} }

// on returns an edge with a label, one answer of a decision.
func on(from, label, to string) edge { return edge{from, to, label} }

// mermaid writes the chart as a Mermaid flowchart, from top to bottom. The
// boxes and arrows that before does not have, the same, are marked as new:
// drawn with a thick orange line.
func (c chart) mermaid(before chart) string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	var newNodes []string
	for _, n := range c.nodes {
		brackets := shapes[n.shape]
		fmt.Fprintf(&b, "    %s%s\"%s\"%s\n", n.id, brackets[0], escape(n.label, `"`), brackets[1])
		if !slices.ContainsFunc(before.nodes, func(o node) bool { return o.id == n.id && o.label == n.label && o.shape == n.shape }) {
			newNodes = append(newNodes, n.id)
		}
	}
	var newEdges []string
	for i, e := range c.edges {
		if e.label == "" {
			fmt.Fprintf(&b, "    %s --> %s\n", e.from, e.to)
		} else {
			fmt.Fprintf(&b, "    %s -->|\"%s\"| %s\n", e.from, escape(e.label, `"`), e.to)
		}
		if !slices.Contains(before.edges, e) {
			newEdges = append(newEdges, strconv.Itoa(i))
		}
	}
	if len(newNodes) > 0 {
		b.WriteString("    classDef new fill:#fff4e6,stroke:#e8590c,stroke-width:3px,color:#000\n")
		fmt.Fprintf(&b, "    class %s new\n", strings.Join(newNodes, ","))
	}
	if len(newEdges) > 0 {
		fmt.Fprintf(&b, "    linkStyle %s stroke:#e8590c,stroke-width:3px\n", strings.Join(newEdges, ","))
	}
	return b.String()
}
