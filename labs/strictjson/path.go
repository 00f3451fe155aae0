package strictjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Path names a value of a document, step by step: a string is an
// object's key, an int an array's index.
type Path []any

// String writes p the way a person reads it: tools.x.durationMs,
// replies[0].text. A key that is not a plain word is quoted, so that a key
// such as "a\nb" cannot break an error onto two lines.
func (p Path) String() string {
	var b strings.Builder
	for _, step := range p {
		switch step := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", step)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			if plainKey(step) {
				b.WriteString(step)
			} else {
				b.WriteString(strconv.Quote(step))
			}
		}
	}
	return b.String()
}

// plainKey reports whether key can stand in a path unquoted.
func plainKey(key string) bool {
	return key != "" && strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") == ""
}

// what names a value for an error: "field tools.x", or root for the
// top-level value.
func (p Path) what(root string) string {
	if len(p) == 0 {
		return root
	}
	return "field " + p.String()
}

// inside names an object for an error about one of its keys.
func (p Path) inside(root string) string {
	if len(p) == 0 {
		return root
	}
	return p.String()
}

// A Node is one value of a document, where the format's types give it a
// meaning: where it is, and how to get to it. The values inside a value of
// no type (json.RawMessage, or a type that decodes itself and has no
// shape) have nodes only while the walk is in them.
type Node struct {
	parent *Node
	// key is the key that holds the value in its object; index is the
	// value's index in its array. A value has a key or an index (index >=
	// 0), or is the root.
	key   string
	index int
	// KeyAt is the offset where the value's key starts, in an object.
	KeyAt int64
	// Start is the offset where the value starts, and End the offset just
	// past it; each is -1 until the walk has read that far.
	Start, End int64
	// members are an object's values by key, elems an array's.
	members map[string]*Node
	elems   []*Node
}

// newNode returns the node of a value that the walk has yet to read.
func newNode(parent *Node, key string, keyAt int64, index int) *Node {
	return &Node{parent: parent, key: key, KeyAt: keyAt, index: index, Start: -1, End: -1}
}

// Path returns n's path from the root.
func (n *Node) Path() Path {
	var p Path
	for ; n != nil && n.parent != nil; n = n.parent {
		if n.index >= 0 {
			p = append(p, n.index)
		} else {
			p = append(p, n.key)
		}
	}
	slices.Reverse(p)
	return p
}

// Find returns the value at p, or, if there is none, the deepest value on
// the way: for a missing field, the object that lacks it.
func (n *Node) Find(p Path) *Node {
	for _, step := range p {
		var next *Node
		switch step := step.(type) {
		case string:
			next = n.members[step]
		case int:
			if step >= 0 && step < len(n.elems) {
				next = n.elems[step]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

// at returns the deepest value that holds the byte at offset, counting a
// value the walk did not finish as reaching to the end: for a mistake in
// the text, the value it is in.
func (n *Node) at(offset int64) *Node {
	holds := func(c *Node) bool {
		return c.Start >= 0 && c.Start <= offset && (c.End < 0 || offset < c.End)
	}
	for {
		var next *Node
		for _, c := range n.elems {
			if holds(c) {
				next = c
			}
		}
		for _, c := range n.members {
			if holds(c) {
				next = c
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
