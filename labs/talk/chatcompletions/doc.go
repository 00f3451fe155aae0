// Package chatcompletions is a [fakemodel.Model] that asks a real model. It
// speaks the Chat Completions API, POST {base URL}/chat/completions, which
// OpenAI defined and which Ollama, LM Studio, llama.cpp's server and vLLM
// serve too. It uses the standard library only. It lives beside the package
// talk, whose -chat is what uses it; the package fakemodel and its other
// subpackages hold only the stand-ins for a provider.
//
// # Step 2 crosses the network
//
// The loop keeps its six steps. Step 2, ask the model with the full history,
// is still one call of Reply. What changes is behind that call: Reply
// encodes the history and the tool specs as JSON, sends them over HTTP to a
// server that runs the model, and reads the reply back. The server keeps
// nothing between two requests, just as the fake models keep nothing: the
// whole history travels with every request, so each request is longer than
// the one before. Steps 3 to 6 stay on your machine: the branch on "any tool
// calls?", running the tools, appending their results. The model only asks
// for a tool; your loop runs it.
//
// # What streaming changes, and what it does not
//
// The server sends the reply while the model writes it, as server-sent
// events: one chunk of JSON per event, each with a few more words or a piece
// of a tool call, then one with a finish reason, then "data: [DONE]". Reply
// hands each piece of text to [fakemodel.Request.OnText] as it arrives, so
// the user reads the answer while the model still writes it. A tool call
// comes in pieces too: its ID and name first, then its arguments in
// fragments that are JSON only once they are joined. Reply joins them.
//
// Streaming does not change the loop. Reply still returns one whole
// [fakemodel.AssistantMessage], and the loop still decides from that alone,
// once the reply has ended: tool calls to run, or an answer. Nothing runs
// from half a tool call.
//
// # A real model differs from run to run
//
// Ask a real model the same question twice and it may answer in other words,
// call other tools, or write arguments that are not valid JSON. So a run
// with a real model is never compared with a golden file. This package's
// tests use fixed streams instead (testdata/*.sse), written after the API's
// public reference and served by a test server.
//
// # How the conversation maps to the API
//
//   - A user message becomes a message with role "user".
//   - An assistant message becomes one with role "assistant": its text as
//     content (null when it has none) and its tool calls as tool_calls. A
//     call's arguments travel as a string that holds the JSON. Arguments
//     that are not a JSON object go back as {}, because some servers
//     (Ollama is one) decode the arguments of every call in the history and
//     reject the request if they cannot; the error result that answers the
//     call tells the model what it sent.
//   - A reply with stop reason error or aborted is left out, as Pi's
//     providers leave it out: it is a note for the user, not words of the
//     model. So is a reply with neither text nor tool calls, which some
//     servers reject.
//   - A tool result becomes a message with role "tool" and the tool_call_id
//     of its call. The API has no field that marks a failure, so the content
//     of an error result starts with "Error: ". (Pi sends the text alone.)
//   - A tool call without a result gets one: "Error: No result provided",
//     where the next user or assistant message begins, or at the end, as
//     pi-ai 0.83.0's transformMessages does. A run cancelled while its
//     calls were prepared leaves such calls, and a server rejects a
//     history in which a call has no result.
//   - Each tool spec becomes a tool of type "function" with its name,
//     description and parameters, the JSON Schema.
//
// The request asks for a stream ("stream": true). pi-ai 0.83.0 also asks
// for the token usage, with stream_options: {"include_usage": true}, unless
// a model's compat settings say its server refuses it. This package leaves
// stream_options out: the usage has no place in a
// fakemodel.AssistantMessage, and not every server accepts the field.
//
// # How the reply maps back
//
// The reply is read as pi-ai 0.83.0 reads it (src/api/openai-completions.ts),
// rule by rule, so that a stream gives the reply it gives in Pi. Each rule
// has a stream in testdata; testdata/pi-ai.mjs, a maintainer's script, feeds
// them all to pi-ai itself and writes what it made of them to
// testdata/pi-ai.json, and TestFixturesReadAsPiAiReadsThem checks this
// package against that.
//
// The finish reason "stop" becomes [fakemodel.StopReasonStop], "tool_calls"
// [fakemodel.StopReasonToolUse] and "length" [fakemodel.StopReasonLength].
// So do their other names: "end", which some versions of Ollama and LM
// Studio send, is "stop", and "function_call", from the older functions
// API, is "tool_calls". A reply cut off by the length limit keeps its tool
// calls: the loop answers each with an error result instead of running it.
// Any other finish reason fails the request: "content_filter" means the
// server's filter withheld the rest of the reply, and a reason this package
// does not know may mean anything. Pi does the same: such a reply ends with
// stop reason error.
//
// Each chunk counts by its first choice, whatever its index says: a request
// asks for one reply. A chunk that is no JSON object, or whose choices are
// no list, is skipped.
//
// A model that reasons before it answers streams its reasoning in a field of
// its own: reasoning_content (llama.cpp's server, vLLM), reasoning (Ollama)
// or reasoning_text; the first of them that holds text counts. It is no
// part of the reply's text. Reply passes each piece to the function that
// [fakemodel.WithOnThinking] put in the request's context, as it arrives,
// so that a user sees that the model works; it does not keep it, and does
// not send it back. (Pi keeps it in the reply, as a thinking block.)
//
// Tool calls come in the order their first pieces arrived, not in the order
// of their indexes. A piece belongs to the call with its index, or else to
// the call with its ID, or else starts a new call: a piece with neither
// index nor ID is a new call, as a server that sends each call whole and
// numbers none of them means it. A call's ID and name are the first ones
// that arrive; its arguments are all the pieces, joined. Where this package
// differs from pi-ai, it does on purpose:
//
//   - A call that comes without an ID gets one (call_1, call_2, ...
//     counted over the history, as the fake models number theirs), where
//     pi-ai leaves it empty: the loop pairs each result with its call by
//     ID, and two calls without one would get each other's results.
//   - Arguments that a server sends as a JSON object, not as a string that
//     holds one, are that object. pi-ai adds the object to the text as
//     JavaScript prints it, "[object Object]", and reads [] from that.
//
// The arguments are read as pi-ai reads them, in arguments.go: JSON as it
// is; else JSON after pi-ai's repair, which escapes a raw line break or tab
// inside a string and doubles a backslash that starts no escape, as in
// "C:\Users"; else, for a call cut off at the end, what pi-ai's partial
// parser makes of it: it closes what is open, so that {"city":"Oslo" is
// {"city":"Oslo"}. No text at all is {}. What the arguments mean is then
// written anew as compact JSON, so that a call prints the same whatever
// spacing and escapes the model chose: Pi keeps the arguments as the object
// it parsed, and JSON.stringify writes that object when it sends the call
// back. One rule differs on
// purpose: where the partial parser has to leave out something it cannot
// read, as in {"city": Oslo}, or text after the value, pi-ai runs the tool
// with what is left, often {}. This package does not run a tool with
// arguments the model did not write. Such arguments cannot be read: they
// stay the text the model wrote, which is not JSON (fakemodel.ToolCall
// allows that), and the loop's check of the arguments answers the call
// with an error result that says what is wrong with them, such as
// "arguments are not valid JSON: invalid character 'O' looking for
// beginning of value". Sent back to the server in the history, they go as
// {}, as described above.
//
// Arguments nest at most 10000 levels deep, the depth to which encoding/json
// reads JSON; deeper ones fail the request at once, with a line that names
// the call and the limit (the nesting limit). pi-ai states no bound: its
// partial parser calls itself once per level until JavaScript's stack runs
// out, a few thousand levels down, depending on the machine, and the
// request that sends such arguments back fails. 1.2 million [ took it 11
// seconds; here reading them takes milliseconds and little memory.
//
// # Failures and limits
//
// A request that fails is a Go error, as the [fakemodel.Model] contract
// says, and the labs turn it into a reply with stop reason error. Its
// message is one line that says what happened: the HTTP status and the
// server's own message, a stream that ended before the reply did, a line
// or a chunk that is malformed (quoted), an error the server reported
// mid-stream, or a limit. A stream that fails keeps its text: every piece
// that arrived has gone to OnText before Reply returns, as pi-ai keeps it
// in its reply. When the request's context is cancelled, Reply returns at
// once with an error that wraps ctx.Err(), which the labs turn into stop
// reason aborted. Either way the response is closed, the connection with
// it, and no goroutine is left behind.
//
// Errors follow pi-ai too. A chunk whose "error" field is set fails the
// request with its message. A chunk that only looks like an error, such as
// vLLM's {"object": "error", "message": ...} or an event named error whose
// data has no "error" field, does not: pi-ai reads on, and a reply that
// then ends properly stands. If the stream ends without a finish_reason
// instead, as it does after vLLM's error, the error says so, with the
// server's message, where pi-ai says only that the stream ended without
// one. An event named error whose data is not JSON fails with that data as
// the server's message.
//
// The first mistakes with a new server get a line that says what to do: a
// base URL without its scheme ("localhost:11434/v1") is refused with "add
// http://"; a 404 from a base URL without a path ("http://localhost:11434")
// says "add /v1 to the base URL"; a server's error with a name and a
// message, as {"error": "TypeError", "message": "..."}, shows both.
//
// Four limits keep a request from hanging or growing without end, each
// with a default: [Config.ConnectTimeout]; [Config.IdleTimeout], the
// longest the server may send no data, where blank lines and comments such
// as ": ping" count as none; [Config.RequestTimeout], the longest a whole
// request may take, however steadily the server sends; and
// [Config.MaxResponseBytes]. Each ends the request with one line that names
// it. Pi relies on OpenAI's SDK, whose timeout (10 minutes) bounds only the
// wait for the response's headers, and on Node's fetch, which gives up on a
// body that sends nothing for five minutes; a comment every minute keeps
// such a request waiting for ever.
//
// The API key, if any, comes only from the OPENAI_API_KEY environment
// variable, through [APIKeyFromEnv], and is sent as "Authorization:
// Bearer". It never shows: not in an error, even one that quotes a server
// that quoted the key, not in a reply whose text quotes it, and not when a
// Config or a Model is printed. The model replaces with "[redacted]" the
// key, and every run of 8 or more of its characters in a row, wherever
// they occur: in an error message, in the Location of a redirect before it
// is cut to 200 characters, in the reply's text and reasoning, which a
// server may split inside the key, and in a tool call's ID, name and
// arguments, strings within the arguments too. A character counts written
// as it is, as a JSON escape ("\u002d" for "-", escaped once more inside a
// JSON string) or as a URL escape ("%2D"). So a run of fewer than 8 of the
// key's characters may show, as can a piece of the key written in any
// other way; and any text that shares 8 characters in a row with the key,
// such as a key's usual prefix ("sk-proj-"), is redacted too.
package chatcompletions
