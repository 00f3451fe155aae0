// Package chatcompletions is a [fakemodel.Model] that asks a real model. It
// speaks the Chat Completions API, POST {base URL}/chat/completions, which
// OpenAI defined and which Ollama, LM Studio, llama.cpp's server and vLLM
// serve too. It uses the standard library only.
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
// The request asks for a stream ("stream": true). It leaves out
// stream_options: the usage it would add has no place in a
// fakemodel.AssistantMessage, and not every server accepts it.
//
// # How the reply maps back
//
// The finish reason "stop" becomes [fakemodel.StopReasonStop], "tool_calls"
// [fakemodel.StopReasonToolUse] and "length" [fakemodel.StopReasonLength].
// So do their other names, as in pi-ai 0.83.0: "end", which some versions
// of Ollama and LM Studio send, is "stop", and "function_call", from the
// older functions API, is "tool_calls". A reply cut off by the length limit
// keeps its tool calls, cut off or not: the loop answers each with an error
// result instead of running it. Any other finish reason fails the request:
// "content_filter" means the server's filter withheld the rest of the
// reply, and a reason this package does not know may mean anything. Pi
// does the same: such a reply ends with stop reason error.
//
// Tool calls are kept in the order of their index. A call's ID and name are
// the first ones that arrive; its arguments are all the pieces, joined. A
// call that comes without an ID gets one (call_1, call_2, ... counted over
// the history, as the fake models number theirs), because the loop pairs
// each result with its call by ID. Arguments that are valid JSON are kept,
// compacted as Pi compacts them, and no arguments at all become {}. Arguments that are not
// valid JSON are not a failed request: they are what the model wrote, and
// the loop's check of the arguments turns them into an error result that
// the model reads. They are kept as a JSON string that holds the text,
// because a json.RawMessage that is not valid JSON makes json.Marshal fail,
// and with it the encoding of any history that holds the call.
//
// # Failures and limits
//
// A request that fails is a Go error, as the [fakemodel.Model] contract
// says, and the labs turn it into a reply with stop reason error. Its
// message is one line that says what happened: the HTTP status and the
// server's own message, a stream that ended before the reply did, a line
// or a chunk that is malformed (quoted), an error the server reported
// mid-stream, or a limit. When the request's context is cancelled, Reply
// returns at once with an error that wraps ctx.Err(), which the labs turn
// into stop reason aborted. Either way the response is closed, the
// connection with it, and no goroutine is left behind.
//
// Three limits keep a request from hanging or growing without end, each
// with a default: [Config.ConnectTimeout], [Config.IdleTimeout] (the
// longest the server may send nothing) and [Config.MaxResponseBytes].
//
// The API key, if any, comes only from the OPENAI_API_KEY environment
// variable, through [APIKeyFromEnv], and is sent as "Authorization:
// Bearer". It never shows: not in an error, even one that quotes a server
// that quoted the key, not in a reply whose text quotes it, and not when a
// Config or a Model is printed. The model replaces the key with
// "[redacted]" in each line the server sends, before it reads the line,
// and in the reply's text and arguments, which a server may split inside
// the key; it drops the start of a key that a limit cut off.
package chatcompletions
