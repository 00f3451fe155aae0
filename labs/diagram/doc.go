// Package diagram draws what the labs do as Mermaid, the diagram language
// that GitHub, GitLab and the common Markdown editors render: a run of the
// loop as a sequence diagram (-diagram, [Sequence]), the tool calls of a
// run on the demo clock as a Gantt chart (-timeline, [Timeline]), and the
// loop of each lab as a flowchart ([Loop]), which the labs' READMEs show.
//
// The labs print, and their tests check, text; a picture is another way to
// read the same run. So the drawing is machinery, not a lesson: labs 02 to
// 04 hand a finished run to [Sequence.Finished], and labs 05 and 06 draw
// through their narrative (package narrative), whose beats, one per thing
// that happens, a [Picture] draws instead of printing them.
//
// Every label comes from a run: a reply, a tool's name, its arguments, its
// result, what the user typed. None may break the diagram's syntax or
// configure it, so each is shortened, wrapped onto short lines, and written
// with Mermaid's entity codes (#35; for #) for every character that would
// end it or change its meaning, % among them, which would start a %%
// comment or a %%{init}%% directive (see [Lines]). The same input draws
// the same bytes.
//
// A picture must be readable in a README's column, about 900 pixels wide:
// a sequence diagram gives each call of a batch a lane of its own and
// wraps its labels, so that three calls at once fit in 1,200 pixels; lab
// 06's loop chart is drawn compact. The maintainer's check
// .ci/mermaid/pictures draws every picture in a browser and measures it.
//
// It is not internal, so that a learner's copy of a lab in mywork/ can
// import it.
package diagram
