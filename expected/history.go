package expected

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/google/go-cmp/cmp"
)

// JSONAsText is a go-cmp option that compares and prints JSON, such as tool
// arguments and tool specs' parameters, as text instead of bytes:
//
//	cmp.Diff(want, got, expected.JSONAsText)
var JSONAsText = cmp.Transformer("JSON", func(raw json.RawMessage) string { return string(raw) })

// Transcript writes a history as text, one line per message, for a test's
// failure message: texts quoted, so that spaces show, and tool arguments as
// the JSON the model wrote, never as bytes. Two messages that differ in any
// field differ in their lines.
func Transcript(history []fakemodel.Message) []string {
	out := make([]string, len(history))
	for i, m := range history {
		out[i] = transcriptLine(m)
	}
	return out
}

// transcriptLine writes one message.
func transcriptLine(m fakemodel.Message) string {
	switch m := m.(type) {
	case fakemodel.UserMessage:
		return fmt.Sprintf("user %q", m.Text)
	case fakemodel.AssistantMessage:
		var b strings.Builder
		fmt.Fprintf(&b, "assistant %q", m.Text)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, ", calls %s(%s) %s", c.Name, c.ID, c.Arguments)
		}
		fmt.Fprintf(&b, ", stop reason %s", m.StopReason)
		if m.ErrorMessage != "" {
			fmt.Fprintf(&b, ", error %q", m.ErrorMessage)
		}
		return b.String()
	case fakemodel.ToolResultMessage:
		kind := "result"
		if m.IsError {
			kind = "error result"
		}
		return fmt.Sprintf("toolResult: %s of %s(%s) %q", kind, m.ToolName, m.ToolCallID, m.Content)
	}
	return fmt.Sprintf("%T %+v", m, m) // not reached: Message is a closed set
}

// AssertHistory checks that got is the history want, message by message. If
// it is not, it reports a [Finding]: msg, formatted with args, how many
// messages each history has, and a line diff of the two transcripts, one
// line per message, "-" for want and "+" for got. It reports whether the
// histories are equal.
func AssertHistory(t testing.TB, want, got []fakemodel.Message, msg string, args ...any) bool {
	t.Helper()
	f, differ := linesFinding(Transcript(want), Transcript(got), func(n int) string { return count(n, "message") })
	if !differ {
		return true
	}
	f.Message = sentence(msg, args)
	Report(t, f)
	return false
}
