// Package strictjson reads the workbook's hand-written JSON files strictly,
// and says where each mistake is. Two formats use it: the scenario files of
// lab 06 (package fakemodel/scenario) and the labs' exercises.json (the
// build-it-yourself track, labs/internal/track). Neither format is taught by
// a lab: this is machinery, so it lives here, once.
//
// encoding/json alone is lenient where a hand-written file needs it not to
// be: it matches keys without regard to case, so "Prompt" and "IDEA" fill
// "prompt" and "idea"; it keeps the last of two equal keys and drops the
// first without a word; it reads null as "not set"; it replaces bytes that
// are not UTF-8; and its type errors give a byte offset and a field path
// without indexes, or, from a type that decodes itself, no place at all.
// [Format.Decode] first walks the document alongside the Go type it
// decodes into, and refuses, in this order:
//
//   - a byte-order mark at the start, and bytes that are not UTF-8;
//   - text that is not JSON, or more data after the value;
//   - arrays and objects nested more than [Format.MaxDepth] levels deep;
//     the walk stops there, so a file of a million [ costs what a file of
//     MaxDepth+1 does;
//   - a key that is not the JSON name of a field of the struct it fills,
//     spelt exactly, and a key that appears twice in its object;
//   - null where the type gives the value a meaning;
//   - a string that [Format.Strings] refuses, anywhere;
//   - a value that a type which decodes itself (json.Unmarshaler) refuses,
//     at the value's place.
//
// Then json.Unmarshal decodes the document, and a value of the wrong type
// is reported at its place, in the words of toolargs.Mismatch ("must be a
// string, not a number"). Values of type json.RawMessage may be any JSON,
// null included; only their nesting and their keys' repetition are
// checked.
//
// A type that decodes itself is walked without a type, unless it says what
// its JSON looks like with a method JSONShape (a [Shaper]): a text of the
// track, which is {"en": …, "zh": …}, is then checked as that struct, key
// by key, and each mistake inside it is placed exactly.
//
// Every mistake is an [*Error]: its offset in the document, the path of the
// value it is about ([Path], as in replies[0].toolCalls[1].args), and the
// problem. Its Error method writes one sentence, as the scenario files'
// errors read; a format may write its own from the parts, as the track
// does, naming an exercise by its ID rather than its index. [Position]
// turns the offset into the line and column that an editor shows.
// A check that runs after decoding places its own mistakes with the
// document's [Node] tree: [Node.Find] returns the value at a path, or the
// object that lacks it.
package strictjson
