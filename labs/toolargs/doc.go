// Package toolargs decodes the arguments a model wrote for a tool call into
// the tool's typed arguments, strictly: Decode. Labs 04 and 05 build their
// typed tools on it, and turn its error into the error result the model
// reads ("Validation failed for tool ..."). That is the lesson of lab 04;
// how the decoder works is machinery no lab teaches, so it lives here.
//
// A model writes arguments the way it writes text, token by token, so none
// of what a tool needs can be taken for granted. Decode checks, in this
// order, and reports the first problem it finds:
//
//  1. The arguments are one JSON object: not invalid JSON ("arguments are
//     not valid JSON: ..."), not another JSON value ("arguments must be a
//     JSON object, not an array"), not null, and not nested more than
//     MaxDepth levels deep ("arguments nest more than 10000 levels deep").
//  2. Every key is the JSON name of a field of the arguments struct,
//     spelt exactly (`unknown field "c"`). encoding/json matches names
//     without regard to case, so left to it {"A":5} would fill the field
//     "a". The keys are checked in sorted order, so the same arguments
//     always get the same error.
//  3. Every field is given (`missing field "b"`: in this workbook every
//     argument is required), and no value is null or holds a null
//     (`field "a" must be a number, not null`). encoding/json leaves a field
//     untouched for null, so a null would pass as 0 or "".
//  4. Every value has its field's type (`field "a" must be a number, not a
//     string`), and a number fits it (`is out of range: 1e400`,
//     `must be a whole number, not 1.5`).
//
// Pi checks arguments against the tool's JSON Schema instead (pi-ai's
// validateToolArguments, with TypeBox), after converting what it can: the
// string "2" becomes the number 2. Decode rejects instead of converting, so
// that lab 04 can show every kind of mistake. A value of the right type but
// out of range (an unknown operation, a number too large for a tool) is the
// tool's own check, after Decode.
package toolargs
