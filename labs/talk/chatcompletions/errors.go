package chatcompletions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxQuote is how much of a server's text an error message quotes, in
// runes. An error message is one line that says what happened, not a dump.
const maxQuote = 200

// flatten returns s on one line: every run of spaces and control
// characters becomes one space.
func flatten(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
}

// oneLine returns a server's text for an error message: flattened, and cut
// if long.
func oneLine(s string) string { return cut(flatten(s)) }

// quote returns a piece of the stream for an error message: cut if long, and
// in quotes, so that where it starts and ends shows; the quotes escape line
// ends and other control characters.
func quote(b []byte) string { return strconv.Quote(cut(string(b))) }

// cut returns s as valid UTF-8, cut after maxQuote runes.
func cut(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) > maxQuote {
		s = string([]rune(s)[:maxQuote]) + "…"
	}
	return s
}

// serverMessage returns the message of an error body or error event. Servers
// differ: {"error": {"message": "..."}} is OpenAI's and most others',
// {"error": "..."} is Ollama's and LM Studio's, {"message": "..."} an older
// vLLM's, {"detail": ...} that of servers built on FastAPI. Some send two
// of these, such as {"error": "TypeError", "message": "..."}: then both
// show. A body that is none of these is its own message.
func serverMessage(body []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &e) == nil {
		errText, msg := errorText(e.Error), errorText(e.Message)
		if _, isString := jsonString(e.Error); isString && msg != "" && msg != errText {
			return errText + ": " + msg // a name, such as TypeError, and what happened
		}
		for _, text := range []string{errText, msg, errorText(e.Detail)} {
			if text != "" {
				return text
			}
		}
	}
	return oneLine(string(body))
}

// errorText returns the text of one error field: a string, or an object's
// message, or else the field's JSON.
func errorText(field json.RawMessage) string {
	field = bytes.TrimSpace(field)
	if len(field) == 0 || string(field) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(field, &s) == nil {
		return oneLine(s)
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(field, &obj) == nil && strings.TrimSpace(obj.Message) != "" {
		return oneLine(obj.Message)
	}
	return oneLine(string(field))
}

// midStreamError describes an error that the server reported in the
// stream, after its status said all was well.
func midStreamError(msg string) error {
	if msg == "" {
		return errors.New("the server reported an error mid-stream, without a message")
	}
	return fmt.Errorf("the server reported an error mid-stream: %s", msg)
}

// statusError describes a response whose status is not 2xx: the status,
// the server's message from the body, if there is one, and what to do,
// where a first-time mistake is the likely cause.
func (m *Model) statusError(resp *http.Response, body []byte) error {
	status := strconv.Itoa(resp.StatusCode)
	if text := http.StatusText(resp.StatusCode); text != "" {
		status += " " + text
	}
	var msg string
	if !strings.Contains(resp.Header.Get("Content-Type"), "html") {
		// An HTML page, such as a proxy's error page, is no message.
		msg = serverMessage(body)
	}
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 {
		// Redacted before it is cut: a long address may end in the key.
		msg = "it moved to " + oneLine(m.cfg.APIKey.redact(loc)) + "; point the base URL there"
	}
	if resp.StatusCode == http.StatusNotFound && strings.Trim(m.basePath(), "/") == "" {
		// Ollama, LM Studio, llama.cpp's server and vLLM all serve the
		// API under /v1, and a base URL without it is the usual mistake.
		hint := fmt.Sprintf("add /v1 to the base URL: %s/v1", strings.TrimRight(m.baseURL(), "/"))
		if msg == "" {
			msg = hint
		} else {
			msg += "; " + hint
		}
	}
	if msg == "" {
		return fmt.Errorf("the server answered %s", status)
	}
	return fmt.Errorf("the server answered %s: %s", status, msg)
}
