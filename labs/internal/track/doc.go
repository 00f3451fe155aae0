// Package track is the workbook's build-it-yourself track, the machinery
// behind go run ./labs.
//
// A learner runs go run ./labs start 02-loop and gets _mywork/02-loop: a
// copy of labs/02-loop whose exercises are cut out, each replaced by a TODO
// and the least code that compiles. They write the code; go run ./labs
// check 02-loop runs the lab's own tests on the copy and prints, in at most
// about 40 lines, which exercises pass, the first rule still broken, what
// its test expected and what happened, and what to do next; go run ./labs
// hint 02-loop gives the hints of what check found, one more each time.
// watch, solution and reset help along; go run ./labs -h documents them
// all.
// _mywork/ is git-ignored and inside the module, so the learner's work never
// changes a tracked file, and each copy is an ordinary package of its own.
// Its name starts with "_", so that go test ./..., the workbook's
// self-check, leaves the copies' packages out; TestYourCopies runs check on
// them instead and says in a few lines what is unfinished.
//
// The package knows no lab by name: a lab's exercises are data in the lab's
// folder, and everything here reads them.
//
// # Adding a lab's exercises
//
// A lab's track is two things, both in the lab's folder: region markers in
// the lab's source, and exercises.json.
//
// 1. Mark each region to cut out with two whole lines, indented like the
// code around them:
//
//	// exercise: run-loop
//	... the lab's code, which is the solution ...
//	// end of exercise: run-loop
//
// IDs are lower-case letters, digits and '-'. Regions do not nest. The
// starter keeps both marker lines and replaces what is between them, so a
// region holds whole statements or declarations, and the code outside it
// must still compile when the region holds only its starter: mind the
// imports, which stay as they are (lab 02's starter returns fmt.Errorf for
// that reason). Adding two lines shifts the lines a README cites; the README
// tests say where.
//
// 2. Write exercises.json, after labs/02-loop/exercises.json. Its fields
// are those of [Lab], [Exercise], [Region], [Rule] and [Mistake], in lower
// case; every text a learner reads is {"en": …, "zh": …}, each a string or,
// for many lines, a list of lines:
//
//	{
//	  "idea": {"en": "…", "zh": "…"},
//	  "section": {"en": "Build it yourself", "zh": "自己动手写（Build it yourself）"},
//	  "exercises": [{
//	    "id": "turn-limit",
//	    "title": {"en": "…", "zh": "…"},
//	    "regions": [{"file": "loop.go", "id": "turn-limit", "todo": {…}, "code": […], "hints": [{…}]}],
//	    "rules": [{"test": "TestStubbornModelIsStoppedAfterThreeTurns", "text": {…}, "hints": [{…}, {…}]}]
//	  }],
//	  "mistakes": [{"name": "the limit checked one turn late", "file": "loop.go", "old": "…", "new": "…", "rule": "Test…",
//	    "seen": ["requests sent", "got:  4"], "hints": [{…}]}]
//	}
//
// An exercise lists its regions, its rules in the order a learner meets
// them, each with its hints, and a region's hints are about its code, for a
// learner whose code there does not compile. hint adds a last hint that
// points to the lines between the markers (labs/02-loop/loop.go:47-80). A
// region's todo says what to write and names the README section; its code
// is the least code that compiles and vets. A rule's test is a test of the
// lab, top-level ("TestX") or a subtest ("TestX/case_name", as go test
// -json writes it). A mistake is a typical mistake as an edit inside a
// region, the rule check must report for it, what check shows of it (seen:
// pieces of check's English report of the rule's test, each of which
// occurs in it), and its own hints, which hint gives instead of the rule's
// when check's finding shows the mistake. A mistake that every rule lets
// pass and the race detector finds has "race": true instead of a rule, in
// a lab with "race": true, whose exercises start goroutines. A Chinese todo
// names README.zh-CN.md and the section's Chinese heading.
//
// The file is read strictly, with package labs/strictjson, as scenario
// files are, and every command of the track refuses to start while a lab's
// file has a mistake: a key that is not a field's name, spelt exactly
// ("IDEA" is not "idea"), or that appears twice in its object; null; a
// value of the wrong type; bytes that are not UTF-8; a string with a
// character that a terminal does not print as itself, a tab apart (a line
// break is written as a list of lines; an escape, a bidirectional override
// or a zero-width space would reach the learner's terminal as it is); a text
// without its Chinese; a TODO or code line that would read as a region
// marker in the starter ("// end of exercise: ID"), which would cut the
// region short; a rule whose test no _test.go file of the lab declares (a
// subtest's own name is known only when it runs: if it does not, and the
// copy has the lab's test files as they are, check says that the workbook
// is at fault, not the learner). The error is one line that names the
// file, the line and column, whose the value is (exercise, region, rule,
// hint or mistake, by its ID or name) and the field:
//
//	labs/02-loop/exercises.json: line 225, column 14: exercise run-loop: rule TestX: hint 2: zh: must be a string or a list of strings, not a number
//
// 3. In the lab's README, add a section whose heading is the lab's section
// ("## Build it yourself"): what to write, in what order, and what "done"
// looks like. It must name each rule's test, in the rules' order. Its
// Chinese twin, README.zh-CN.md, has the same section under the Chinese
// heading. The README shows no line of an exercise's code outside a
// <details> fold (TestREADMEsFoldTheAnswers), so that a learner can build
// first.
//
// 4. Make the lab's tests a self-check a learner can act on, as lab 02's
// are (labs/02-loop/main_test.go):
//
//   - Each rule's test checks one rule, with the assertions of package
//     expected (expected.Equal, NoError, AssertHistory, …), whose messages
//     name the rule: each failure is an expected.Finding, which check reads
//     as data and prints in the learner's language.
//   - Every model a rule's test gives the loop is wrapped in expected.Guard,
//     with the cause a learner should look at: a loop that never ends then
//     fails within a second, "the loop did not end after 50 turns: does each
//     tool result reach the history (step 5)?", instead of hanging.
//   - The rules' tests must end even when the learner's loop does not; the
//     tests that run the whole program (golden tests, command-line tests)
//     need not, because check runs them only once every exercise passes.
//
// The first rule of each exercise must fail on its starter, each mistake
// must make check name its rule, or find its race, and hint give the
// mistake's own first hint, and a compile error in each region must get
// that region's first hint: the verification checks all of it (see below).
//
// # How check works
//
// check runs go test -json -count=1, with a timeout of 10 s, from the
// repository root, in two phases: never a cached result, so that a racy
// mistake that passed once is tested again (hint and the table of
// contents, which only ask which exercise fails, take go test's cached
// result when there is one). The first phase runs only the rules' tests,
// which are guarded; the second, once every exercise passes, runs every
// other test, the golden tests (TestOutputMatchesGoldenFile, TestProgram)
// included, which are the lab's last rule: "your output matches the lab's,
// byte for byte".
//
// The tests' failures are data: with AGENT_LOOP_LAB_FINDINGS=1 in their
// environment, the assertions of package expected write each Finding as a
// line of JSON, which check reads; a failing test that writes none, such as
// one the learner wrote, is shown with its own lines. Code that does not
// compile gets the compiler's first errors, after a note for each file of
// the lab missing from the copy, and a next step that says where the first
// error is; hint then gives the hints of that region's code. A panic (in a
// test, or as the package starts), a synctest deadlock, a fatal error such
// as running out of memory, and a timeout get a sentence and the copy's
// line, in the learner's files first, never a goroutine dump; an os.Exit gets a
// sentence of its own; a test that a crash kept from running is "not
// checked", and the test that crashed is the broken rule. A stuck run is
// check's headline, before any rule: goroutines that all wait (synctest's
// deadlock, or a Finding with Stuck, as lab 05's tests report it), or a
// test that ran out of time, in a loop that never ends or never waits, or
// waiting for a mutex that nobody unlocks, which synctest cannot tell from
// a wait that will end. The headline lists where the goroutines wait or
// run, in the learner's files first.
//
// go test and what it starts run in a process group of their own, which
// check ends whole on Ctrl-C, SIGTERM and SIGHUP; go test's work folders
// and the tests' temporary folders are in a folder check removes. SIGTERM
// and SIGHUP cancel any command as Ctrl-C does (Run), so that start and
// reset finish writing the copy first; then the track ends by the signal.
// A copy that a killed reset had set aside is put back by the next command
// (recoverCopy). A test binary that has
// not begun a test 10 s after it started, an init function that never
// ends, is asked for a dump of its goroutines and ended, and check names
// the line. A test binary may write at most 2 GiB of memory. Whatever go
// test and the learner's code print reaches the terminal escaped
// (cli.Printable, tabs kept), and at most 8 MB of a package's output is
// kept, and a few crashes' worth past it (eventLog). Inside a copy, the
// golden tests compare with the lab's output and keep the learner's in the
// copy's testdata directory (see package expected). In a lab whose
// exercises start goroutines (Lab.Race), check runs a third phase once
// everything else passes: the rules' tests with the race detector, which
// reports a data race as a finding with the lines of its accesses in the
// learner's files. The race detector needs cgo; where go env CGO_ENABLED
// says 0, or go test -race cannot build the copy, a line says so, and check
// says Done. Its first run builds every package again. While go test runs,
// which takes up to a minute the first time, a line on the terminal says so
// (statusLine), blanked before the report; output that is not a terminal
// gets the report alone.
//
// # How hint follows the mistake
//
// hint gives the hints of what check found (choose): a typical mistake's
// own, when check's finding of the mistake's rule, or of the race, holds
// every piece of its seen; the hints about a stuck run, of its kind; or the
// broken rule's. Each counts on its own (state.Hints), so that a new mistake
// starts at its own first hint: a typical mistake by its name, a stuck run
// by where it is stuck, and any other by what its test reported, without
// numbers. check keeps what hint needs of its report in _mywork/.track.json,
// with a digest of the copy's files, and hint answers from it at once while
// the copy is unchanged; otherwise it runs go test, which answers from its
// cache when it can.
//
// # How grade grades a class
//
// go run ./labs grade DIR... grades an instructor's class: each DIR is a
// learner's checkout, or a folder that holds their copies. It reads each
// learner's copies of the labs graded (readClass), only their Go files
// other than tests, and makes a copy of the workbook in TMPDIR
// (classTree), removed on every path: the workbook's go.mod, go.sum and
// packages, and in _class/NN/LAB each learner's copy, the lab's tests and
// data with the learner's code. The learners share it, so that the
// workbook's own packages, compiled once before the first learner
// (warmUp), come from the build cache for every other: the go command keys
// a package's compilation by its directory. Each learner is checked as
// check checks a copy, all their copies in one go test a phase, under
// check's limits, one package at a time, a learner for each core
// (grader). After each learner, the tree is checked for files changed
// outside their copies (changedOutside); if one did, the learners whose
// runs were under way are checked again, each alone, in a tree built
// again, and one whose run alone changes the tree fails every test. The
// reports become a test for each exercise and one for the lab's output, a
// point each (labTests), which grade writes as a table for a terminal 100
// columns wide, as JSON in the shape of Gradescope's results (-json), or
// as the result of a step that GitHub Classroom's reporter reads
// (-classroom, .github/workflows/classroom.yml).
//
// # What the verification proves
//
// The track's proof is part of the workbook's (expected.VerifyEnv):
//
//	AGENT_LOOP_LAB_VERIFY=1 go test ./...
//
// which .ci/run runs on every change; go test ./... leaves it out, so that
// the learner's self-check answers in seconds. TestVerify copies every lab
// that has exercises into a directory named _track-verify-*, which ./...
// ignores, and proves for each exercise: its starter (the lab's starter with
// the exercises before it written, as the learner meets it) compiles, vets
// and is gofmt'd; it differs from the lab only inside the regions; every
// region belongs to an exercise and every exercise's region exists; check
// on the starter fails, names the exercise's first rule, and prints at most
// 40 lines; the lab passes as a copy; each mistake makes check name its
// rule, and hint then gives that rule's first hint; a compile error at the
// start of each region makes check end with a next step and hint give the
// region's first hint. Each mistake's first hint begins as no other hint of
// its lab does, so that the proof that hint gives it proves that hint
// recognised the mistake; a stuck mistake's report begins with the stuck
// run; a lab that runs the race detector has a mistake that races, which
// check finds with the race detector. It runs one go vet and one go test
// per phase for all copies at once, and skips under -race and on a
// read-only checkout. A copy
// costs a build, so a README's edit that makes a mistake's files shares
// that mistake's copy. The other tests that run the go command (a learner's
// way through lab 02, check's cache, the process group)
// are part of the proof too.
//
// # Exercises that stay true: the README grammar
//
// A README's "change this line, predict, run" exercises make claims, and
// TestVerify applies each edit to a copy of the lab and checks each claim.
// An edit is a marker line followed by a fenced diff of one hunk, whose
// first line names a file of the README's lab; context lines start with a
// space, removed lines with '-', added lines with '+'; an optional "+++"
// line and "@@" lines are ignored. The context and removed lines must occur
// exactly once in the file:
//
//	<!-- edit -->
//	```diff
//	--- labs/02-loop/loop.go
//	 			// model never sees the result, and asks for the tool again.
//	-			history = append(history, fakemodel.ToolResultMessage{
//	+			_ = append(history, fakemodel.ToolResultMessage{
//	```
//
// Edits add up until the next heading; a claim holds for the edits before
// it in its section (a claim with none is about the lab as it is). The
// claims:
//
//	<!-- claim: go test [-run PATTERN] fails -->      then a fenced block, one failing test per line
//	<!-- claim: go test [-run PATTERN] passes -->
//	<!-- claim: go test [-run PATTERN] prints -->     then a fenced block of lines the tests print
//	<!-- claim: stdout of go run ./labs/NN-name [ARGS] -->     then a fenced block: all of it
//	<!-- claim: stderr of go run ./labs/NN-name [ARGS] -->     the same for standard error
//	<!-- claim: exit status N of go run ./labs/NN-name [ARGS] -->
//
// go test claims run the lab's package with that -run pattern (without
// one, all its tests: mind the tests that would hang on an edit that makes
// the loop endless). A "fails" list must name every test that fails: a
// top-level test, or, if the list names subtests of it, each of its failing
// subtests. go run claims run the edited program from the repository root,
// as go run does, without go run's own "exit status" line. A marker may
// stand inside <details>, to hide an answer.
package track
