// Package stepper writes a run of a lab as one page to step through in a
// browser (-html FILE): a step control, and at each step the history as the
// loop holds it, the reply while it streams in, the request of the turn,
// the tool calls on a time axis, lab 06's queues, and the counts the labs
// teach (turn, step, message). Step 0 is before the first step; the
// address's #step=N opens step N.
//
// The page is built from the run itself. Labs 05 and 06 emit events: each
// lab's narrate.go hands package narrative what it says about each event,
// and, last, the event's trace line, the line -trace prints; with -html the
// narrative hands all of it to a [Page], so each event is a step, named as
// Pi names it (data-event). Labs 02 to 04 emit no events and print a run
// once it has ended: they give [Options.Write] each finished run, its
// history and the requests the model got, and the page replays it one step
// of the six-step loop at a time (data-loop-step), named as the labs'
// READMEs name them.
//
// The page is one file, made with html/template and embed: its stylesheet
// and its script (page.css, page.js) are inside it, and it asks the network
// for nothing. Every element whose state depends on the step carries the
// range of steps at which it holds (data-from, data-to), so the script reads
// no data of the run; everything the run says reaches the page through the
// template, which escapes it. The same run writes the same bytes, so each
// lab's page is a golden file. Its own words are English, or Chinese with
// -lang zh; what the run says stays as the run said it.
//
// It knows no lab by name. It is not internal, so that a learner's copy of
// a lab in _mywork/ can import it. Package steppertest reads a page back,
// for tests.
package stepper
