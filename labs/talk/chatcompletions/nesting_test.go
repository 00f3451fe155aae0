package chatcompletions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// callWithArguments is a stream whose reply says a few words, then calls
// the weather tool with args as the text of its arguments.
func callWithArguments(args string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"Let me see."}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_deep","type":"function","function":{"name":"weather","arguments":` + strconv.Quote(args) + `}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
		"data: [DONE]\n\n"
}

// TestArgumentsNestedTooDeeplyFailTheRequest: arguments nested more than
// maxNesting levels deep, as a hostile or broken server may send them, end
// the request with one line that names the call and the limit, fast: the
// 1.2 million [ of the report ended the program with a stack overflow. The
// text that streamed before stays.
func TestArgumentsNestedTooDeeplyFailTheRequest(t *testing.T) {
	tests := map[string]string{
		"1.2 million [":                 strings.Repeat("[", 1_200_000),
		"400,000 objects":               strings.Repeat(`{"a":`, 400_000),
		"whole JSON one level too deep": strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1),
		"cut off one level too deep":    strings.Repeat(`{"a":[`, maxNesting/2) + "{",
		"a string, then too deep":       `["a",` + strings.Repeat("[", maxNesting),
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := startServer(t, respondWith(200, "text/event-stream", callWithArguments(args)))
				var text strings.Builder
				_, err := srv.model(t, Config{}).Reply(context.Background(), fakemodel.Request{
					Messages: weatherQuestion,
					OnText:   func(s string) { text.WriteString(s) },
				})
				require.Error(t, err)
				assert.Equal(t, "chat completions: the arguments of tool call call_deep (weather) nest more than 10000 levels deep (the nesting limit)", err.Error())
				assert.Equal(t, "Let me see.", text.String(), "the text that streamed before stays")
				synctest.Wait()
				srv.requireHungUp(t)
			})
		})
	}
}

// TestArgumentsNestedToTheLimitAreRead: the limit is the depth to which
// encoding/json reads JSON, so that arguments cut off at the end read to
// the same depth as whole ones.
func TestArgumentsNestedToTheLimitAreRead(t *testing.T) {
	whole := strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting)
	require.True(t, json.Valid([]byte(whole)), "encoding/json reads JSON %d levels deep", maxNesting)
	require.False(t, json.Valid([]byte("["+whole+"]")), "encoding/json reads no deeper than %d levels: maxNesting follows it", maxNesting)
	for _, text := range []string{whole, strings.Repeat("[", maxNesting), strings.Repeat(`{"a":`, maxNesting)} {
		args, ok, err := readArguments(text)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, maxNesting, depthOf(t, args), "the arguments read, closed where the text was cut off")
	}
}

// depthOf returns how deeply the JSON text nests.
func depthOf(t *testing.T, text []byte) int {
	t.Helper()
	require.True(t, json.Valid(text), "%.40s... is JSON", text)
	depth, deepest := 0, 0
	for _, c := range text {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth--
		}
	}
	return deepest
}

// TestReadingDeepArgumentsTakesLittleMemory: reading the 1.2 million [ of
// the report allocates a few times its size, not the 470 MB that 400,000
// levels took.
func TestReadingDeepArgumentsTakesLittleMemory(t *testing.T) {
	text := strings.Repeat("[", 1_200_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := readArguments(text)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, errTooDeep)
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(16<<20), "reading %d bytes of arguments allocates %d bytes", len(text), allocated)
}

// FuzzReadArguments feeds readArguments any text: it never panics or
// overflows its stack, and keeps its promises: what it reads is JSON, what
// it cannot read stays as it is, and its only error is the nesting limit.
// parseScalar, its fast path for strings and numbers, reads what parseJSON
// reads.
func FuzzReadArguments(f *testing.F) {
	for _, tt := range readPiAi(f).Arguments {
		f.Add(tt.Text)
	}
	for _, seed := range []string{
		strings.Repeat("[", maxNesting+1), strings.Repeat(`{"a":`, maxNesting) + "[", `["a",` + strings.Repeat("[", maxNesting),
		"[1,2.,3e", `[[1.],[1.]`, `{"a":-`, `[" x ", 1 , -2.5e3 ]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		args, ok, err := readArguments(text)
		switch {
		case err != nil:
			if !errors.Is(err, errTooDeep) {
				t.Fatalf("error %v, want only %v", err, errTooDeep)
			}
		case ok && !json.Valid(args):
			t.Fatalf("%q reads as %q, which is not JSON", text, args)
		case !ok && string(args) != text:
			t.Fatalf("%q cannot be read, and comes back as %q", text, args)
		}
		scalar, scalarErr := parseScalar(text)
		value, valueErr := parseJSON(text)
		if (scalarErr == nil) != (valueErr == nil) || scalarErr == nil && !bytes.Equal(encodeJS(scalar), encodeJS(value)) {
			t.Fatalf("%q: parseScalar reads %v (%v), parseJSON %v (%v)", text, scalar, scalarErr, value, valueErr)
		}
	})
}
