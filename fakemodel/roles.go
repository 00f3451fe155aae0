package fakemodel

import (
	"fmt"
	"slices"
	"strings"
)

// The most names a list of roles shows, and how many of its first and
// last names it keeps when it is longer: a run that a stubborn model drives
// to the context window adds thousands of messages.
const (
	maxRoles              = 12
	firstRoles, lastRoles = 6, 5
)

// RoleList names the role of each message, in order. Runs of three or more
// messages of one role are written "toolResult ×9". A list of more than
// maxRoles names keeps the first and last few and counts the messages
// between them: "… 4087 more …".
func RoleList(messages []Message) string {
	var roles []string
	var counts []int // counts[i] is how many messages roles[i] names
	for i := 0; i < len(messages); {
		n := 1
		for i+n < len(messages) && messages[i+n].Role() == messages[i].Role() {
			n++
		}
		role := string(messages[i].Role())
		if n >= 3 {
			roles, counts = append(roles, fmt.Sprintf("%s ×%d", role, n)), append(counts, n)
		} else {
			for range n {
				roles, counts = append(roles, role), append(counts, 1)
			}
		}
		i += n
	}
	if len(roles) > maxRoles {
		cut := len(roles) - lastRoles
		more := 0
		for _, n := range counts[firstRoles:cut] {
			more += n
		}
		roles = slices.Concat(roles[:firstRoles], []string{fmt.Sprintf("… %d more …", more)}, roles[cut:])
	}
	return strings.Join(roles, ", ")
}
