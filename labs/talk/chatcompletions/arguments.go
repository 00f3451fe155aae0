package chatcompletions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// This file reads a tool call's arguments as pi-ai 0.83.0 reads them
// (parseStreamingJson in src/utils/json-parse.ts, and the package
// partial-json 0.1.7 that it calls), so that the same text gives the same
// arguments, and the same calls run, as in Pi. A model writes the arguments
// as text, and local models often write text that is not quite JSON:
//
//  1. Text that is JSON is read as JSON.
//  2. Otherwise pi-ai repairs it (repairJSON): a control character inside a
//     string, such as a raw line break, is escaped, and a backslash before a
//     character that no JSON escape starts with, as in "C:\Users", is
//     doubled. Text that is JSON after the repair is read as JSON.
//  3. Otherwise pi-ai reads it with a partial parser (partialParser), made
//     for a call cut off mid-stream: it closes whatever is open at the end,
//     and leaves out what it cannot read. It reads the text as sent first,
//     then as repaired.
//  4. If even that fails, pi-ai takes {}.
//
// The workbook follows steps 1 to 3, with two differences, on purpose.
// Where the partial parser had to leave out something it could not read, or
// text after the value, in text that is not JSON cut off at the end, pi-ai
// runs the tool with what was left, or with {} (step 4). The workbook does
// not run a tool with arguments the model did not write: such arguments
// cannot be read, and the loop's check of the arguments answers the call
// with an error result that says what is wrong with them.
//
// And arguments nest at most maxNesting levels deep. pi-ai states no bound:
// JSON.parse reads any depth, and partial-json calls itself once per level
// until JavaScript's stack runs out, a few thousand levels down, a number
// that depends on the machine; it keeps the arrays it had read by then, and
// JSON.stringify fails on them when the next request sends them back. 1.2
// million [ took it 11 seconds. Here deeper arguments fail the request, at
// once, with one line that names the call and the limit (errTooDeep).

// maxNesting is how deeply a tool call's arguments may nest: the depth to
// which encoding/json reads JSON, so that arguments cut off at the end, which
// the partial parser reads, read to the same depth as whole ones.
const maxNesting = 10000

// errTooDeep is the error of arguments nested more than maxNesting levels
// deep.
var errTooDeep = fmt.Errorf("nest more than %d levels deep (the nesting limit)", maxNesting)

// A jsValue is a JSON value as JavaScript holds it after JSON.parse: nil,
// a bool, a json.Number, a string, a []jsValue, a *jsObject, or a
// jsSpecial, a number that JSON cannot write.
type jsValue any

// A jsObject is a JavaScript object: its keys in the order they were
// first set, a key set again keeping its place and taking the new value.
type jsObject struct {
	keys   []string
	values map[string]jsValue
}

func newJSObject() *jsObject { return &jsObject{values: map[string]jsValue{}} }

func (o *jsObject) set(key string, v jsValue) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = v
}

// A jsSpecial is NaN, Infinity or -Infinity, which the partial parser reads
// and JSON cannot write.
type jsSpecial string

// readArguments returns what the model's text of a tool call's arguments
// means, as JSON, and whether it could be read (see the top of this file):
// no text at all is {}; text that cannot be read comes back as it is, with
// ok false. Its only error is errTooDeep.
func readArguments(text string) (args []byte, ok bool, err error) {
	if strings.TrimFunc(text, isJSSpace) == "" {
		return []byte("{}"), true, nil // some servers send nothing for a tool without parameters
	}
	if v, err := parseJSON(text); err == nil {
		return encodeJS(v), true, nil
	}
	repaired := repairJSON(text)
	if repaired != text {
		if v, err := parseJSON(repaired); err == nil {
			return encodeJS(v), true, nil
		}
	}
	for _, t := range []string{text, repaired} {
		v, clean, err := parsePartial(t)
		if errors.Is(err, errTooDeep) {
			return nil, false, err // the repair changes no bracket
		}
		if err != nil {
			continue
		}
		if !clean && !isJSONStart(t) {
			return []byte(text), false, nil
		}
		if v == nil {
			v = newJSObject() // pi-ai: partialParse(...) ?? {}
		}
		return encodeJS(v), true, nil
	}
	return []byte(text), false, nil
}

// isJSONStart reports whether text is the start of a JSON value, cut off
// at the end: the text of a call that a length limit, or a stream that
// broke off, cut short.
func isJSONStart(text string) bool {
	var syntax *json.SyntaxError
	if !errors.As(json.Unmarshal([]byte(text), new(any)), &syntax) {
		return false
	}
	if syntax.Error() == "unexpected end of JSON input" {
		return true
	}
	// encoding/json ends a text with a space, to end a number: a number,
	// or an escape, cut off at the end fails on that space. A space that
	// the text itself ends with is one that fails.
	return syntax.Offset == int64(len(text)) && strings.HasPrefix(syntax.Error(), "invalid character ' '") &&
		strings.IndexByte(" \t\n\r", text[len(text)-1]) < 0
}

// isJSSpace reports whether JavaScript's String.prototype.trim removes r.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return '\u2000' <= r && r <= '\u200a'
}

// repairJSON is pi-ai's repairJson: inside a string, it escapes each
// control character and doubles each backslash that starts no valid
// escape.
func repairJSON(text string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case !inString:
			b.WriteByte(c)
			inString = c == '"'
		case c == '"':
			b.WriteByte(c)
			inString = false
		case c == '\\':
			if i+1 == len(text) {
				b.WriteString(`\\`)
				continue
			}
			next := text[i+1]
			if digits := text[i+2 : min(i+6, len(text))]; next == 'u' && len(digits) == 4 && isHex(digits) {
				b.WriteString(`\u` + digits)
				i += 5
				continue
			}
			if strings.IndexByte(`"\/bfnrtu`, next) >= 0 {
				b.WriteByte('\\')
				b.WriteByte(next)
				i++
				continue
			}
			b.WriteString(`\\`)
		case c < 0x20:
			b.WriteString(escapeControl(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeControl writes a control character as a JSON escape, as pi-ai does.
func escapeControl(c byte) string {
	switch c {
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	const hex = "0123456789abcdef"
	return `\u00` + string(hex[c>>4]) + string(hex[c&0xf])
}

// parseJSON is JavaScript's JSON.parse: text must be one JSON value.
func parseJSON(text string) (jsValue, error) {
	if !json.Valid([]byte(text)) {
		return nil, errors.New("not JSON")
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	return decodeJS(dec)
}

// parseScalar is parseJSON for the text of one string or number, which the
// partial parser reads many of: it returns the value without a
// json.Decoder, so that reading a long list of them takes little memory.
func parseScalar(text string) (jsValue, error) {
	if !json.Valid([]byte(text)) {
		return nil, errors.New("not JSON")
	}
	switch t := strings.Trim(text, " \t\n\r"); {
	case t[0] == '"':
		var s string
		err := json.Unmarshal([]byte(t), &s)
		return s, err
	case t[0] == '-' || '0' <= t[0] && t[0] <= '9':
		return json.Number(t), nil
	}
	return parseJSON(text)
}

// decodeJS reads the next value from dec, which holds valid JSON.
func decodeJS(dec *json.Decoder) (jsValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		list := []jsValue{}
		for dec.More() {
			v, err := decodeJS(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	case json.Delim('{'):
		obj := newJSObject()
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeJS(dec)
			if err != nil {
				return nil, err
			}
			obj.set(key.(string), v)
		}
		_, err := dec.Token()
		return obj, err
	}
	return tok, nil
}

// encodeJS writes v as compact JSON, as JSON.stringify writes it, but for
// numbers, which keep the digits the model wrote.
func encodeJS(v jsValue) []byte {
	var b bytes.Buffer
	writeJS(&b, v)
	return b.Bytes()
}

func writeJS(b *bytes.Buffer, v jsValue) {
	switch v := v.(type) {
	case nil, jsSpecial:
		b.WriteString("null") // JSON.stringify(NaN) is "null"
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(v))
	case string:
		writeJSString(b, v)
	case []jsValue:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteByte(']')
	case *jsObject:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, k)
			b.WriteByte(':')
			writeJS(b, v.values[k])
		}
		b.WriteByte('}')
	}
}

// writeJSString writes s as a JSON string with only the escapes JSON needs,
// so that every character the model meant shows as itself (and a key
// written with escapes can be found).
func writeJSString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// mapStrings returns v with f applied to every string in it, keys too.
func mapStrings(v jsValue, f func(string) string) jsValue {
	switch v := v.(type) {
	case string:
		return f(v)
	case []jsValue:
		out := make([]jsValue, len(v))
		for i, e := range v {
			out[i] = mapStrings(e, f)
		}
		return out
	case *jsObject:
		out := newJSObject()
		for _, k := range v.keys {
			out.set(f(k), mapStrings(v.values[k], f))
		}
		return out
	}
	return v
}

// A partialParser is partial-json 0.1.7's parser (its _parseJSON), with
// every kind of value allowed to be partial, as pi-ai calls it. It also
// notes whether it read the whole text without leaving anything out
// (clean): partial-json does not say.
type partialParser struct {
	s     string
	i     int
	clean bool
	steps int // a bound on the loops, which partial-json does not need
	depth int // of the array or object being read; at most maxNesting
	lastE int // the index of the text's last e, or -1
}

// A partialError is an error of the partial parser: partial-json's
// PartialJSON, MalformedJSON, or a SyntaxError of JSON.parse.
type partialError string

func (e partialError) Error() string { return string(e) }

// parsePartial is partial-json's parse(text): the value that the start of
// text makes, and whether the parser read all of text without leaving
// anything out.
func parsePartial(text string) (v jsValue, clean bool, err error) {
	text = strings.TrimFunc(text, isJSSpace)
	if text == "" {
		return nil, false, partialError("empty")
	}
	p := &partialParser{s: text, clean: true, lastE: strings.LastIndexByte(text, 'e')}
	v, err = p.parseAny()
	if err != nil {
		return nil, false, err
	}
	p.skipBlank()
	return v, p.clean && p.i >= len(p.s), nil
}

func (p *partialParser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

// literal reports whether the text at p.i is word, or, at the end of the
// text, its start, as partial-json reads null, true, false and the rest.
func (p *partialParser) literal(word string, minRest int) bool {
	rest := p.s[p.i:]
	return strings.HasPrefix(rest, word) || (len(rest) < len(word) && len(rest) > minRest && strings.HasPrefix(word, rest))
}

func (p *partialParser) parseAny() (jsValue, error) {
	p.skipBlank()
	if p.i >= len(p.s) {
		return nil, partialError("Unexpected end of input")
	}
	switch p.s[p.i] {
	case '"':
		return p.parseStr()
	case '{':
		return p.parseObj()
	case '[':
		return p.parseArr()
	}
	for _, lit := range []struct {
		word    string
		minRest int
		value   jsValue
	}{
		{"null", 0, nil},
		{"true", 0, true},
		{"false", 0, false},
		{"Infinity", 0, jsSpecial("Infinity")},
		{"-Infinity", 1, jsSpecial("-Infinity")},
		{"NaN", 0, jsSpecial("NaN")},
	} {
		if p.literal(lit.word, lit.minRest) {
			p.i += len(lit.word)
			if _, special := lit.value.(jsSpecial); special {
				p.clean = false // JSON has no such number
			}
			return lit.value, nil
		}
	}
	return p.parseNum()
}

func (p *partialParser) parseStr() (jsValue, error) {
	start := p.i
	escape := false
	p.i++ // the opening quote
	for p.i < len(p.s) && (p.s[p.i] != '"' || (escape && p.s[p.i-1] == '\\')) {
		escape = p.s[p.i] == '\\' && !escape
		p.i++
	}
	cut := 0
	if escape {
		cut = 1
	}
	if p.at(p.i) == '"' {
		p.i++
		v, err := parseScalar(p.s[start : p.i-cut])
		if err != nil {
			return nil, partialError("malformed string")
		}
		return v, nil
	}
	// The end of the text cuts the string: close it.
	if v, err := parseScalar(p.s[start:p.i-cut] + `"`); err == nil {
		return v, nil
	}
	// An escape that the end cut in two, or worse: partial-json cuts at
	// the text's last backslash.
	p.clean = false
	v, err := parseJSON(jsSubstring(p.s, start, strings.LastIndexByte(p.s, '\\')) + `"`)
	if err != nil {
		return nil, partialError("malformed string")
	}
	return v, nil
}

// enter counts one more level of nesting, for an array or an object, and
// fails with errTooDeep beyond maxNesting: partial-json calls itself once
// per level, and so does this parser. leave counts it back.
func (p *partialParser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return errTooDeep
	}
	return nil
}

func (p *partialParser) leave() { p.depth-- }

func (p *partialParser) parseObj() (jsValue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.i++ // the opening brace
	p.skipBlank()
	obj := newJSObject()
	for p.at(p.i) != '}' {
		if p.tooLong() {
			return obj, nil
		}
		p.skipBlank()
		if p.i >= len(p.s) {
			return obj, nil
		}
		key, err := p.parseStr()
		if err != nil {
			p.clean = false
			return obj, nil
		}
		p.skipBlank()
		p.i++ // the colon, or whatever stands in its place
		value, err := p.parseAny()
		if errors.Is(err, errTooDeep) {
			return nil, err
		}
		if err != nil {
			p.clean = false
			return obj, nil
		}
		k, ok := key.(string)
		if !ok {
			p.clean = false // partial-json reads whatever it finds as the key
			return obj, nil
		}
		obj.set(k, value)
		p.skipBlank()
		if p.at(p.i) == ',' {
			p.i++
		}
	}
	p.i++ // the closing brace
	return obj, nil
}

func (p *partialParser) parseArr() (jsValue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.i++ // the opening bracket
	list := []jsValue{}
	for p.at(p.i) != ']' {
		if p.tooLong() {
			return list, nil
		}
		v, err := p.parseAny()
		if errors.Is(err, errTooDeep) {
			return nil, err
		}
		if err != nil {
			p.clean = false
			return list, nil
		}
		list = append(list, v)
		p.skipBlank()
		if p.at(p.i) == ',' {
			p.i++
		}
	}
	p.i++ // the closing bracket
	return list, nil
}

func (p *partialParser) parseNum() (jsValue, error) {
	lastE := p.lastE
	if p.i == 0 {
		if p.s == "-" {
			return nil, partialError("Not sure what '-' is")
		}
		if v, err := parseJSON(p.s); err == nil {
			p.i = len(p.s)
			return v, nil
		}
		if v, err := parseJSON(jsSubstring(p.s, 0, lastE)); err == nil {
			p.clean = false
			return v, nil
		}
		return nil, partialError("malformed number")
	}
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) && strings.IndexByte(",]}", p.s[p.i]) < 0 {
		p.i++
	}
	if v, err := parseScalar(p.s[start:p.i]); err == nil {
		return v, nil
	}
	if p.s[start:p.i] == "-" {
		return nil, partialError("Not sure what '-' is")
	}
	if lastE <= start {
		// partial-json tries the text from the last e of the whole
		// text, or from its start if it has no e, up to this number:
		// never JSON, because that text starts with an e, or with the
		// array or object this number is in, which is still open. Not
		// trying it keeps a long list of such numbers from taking time
		// that grows with the square of its length.
		return nil, partialError("malformed number")
	}
	if v, err := parseJSON(jsSubstring(p.s, start, lastE)); err == nil {
		p.clean = false
		return v, nil
	}
	return nil, partialError("malformed number")
}

func (p *partialParser) skipBlank() {
	for p.i < len(p.s) && strings.IndexByte(" \n\r\t", p.s[p.i]) >= 0 {
		p.i++
	}
}

// tooLong bounds the parser's loops. partial-json's end, as far as can be
// seen, but a loop that took more steps than the text has bytes would
// not: it would read nothing new.
func (p *partialParser) tooLong() bool {
	p.steps++
	if p.steps > 2*len(p.s)+2 {
		p.clean = false
		return true
	}
	return false
}

// jsSubstring is JavaScript's String.prototype.substring: a negative index
// counts as 0, one past the end as the end, and the two are swapped if the
// first is larger.
func jsSubstring(s string, start, end int) string {
	start, end = max(0, min(start, len(s))), max(0, min(end, len(s)))
	if start > end {
		start, end = end, start
	}
	return s[start:end]
}
