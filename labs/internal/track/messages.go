package track

// The front door's messages, in every language. Each is a format for
// fmt.Sprintf; a translation takes the same verbs in the same order.
var (
	// check
	msgCheckHeader      = Text{EN: "%s · your copy: %s"}
	msgDoesNotCompile   = Text{EN: "Your code in %s does not compile:"}
	msgVetFails         = Text{EN: "go vet, which go test runs first, finds a mistake in %s:"}
	msgExercisePasses   = Text{EN: "✓ exercise %d: %s"}
	msgExerciseFails    = Text{EN: "✗ exercise %d: %s"}
	msgBrokenRule       = Text{EN: "  broken rule (%d of %d): %s"}
	msgBrokenTest       = Text{EN: "  checked by %s:"}
	msgOthersPass       = Text{EN: "✓ the lab's other tests"}
	msgOtherFails       = Text{EN: "✗ a test outside the exercises fails: %s"}
	msgGoldenPasses     = Text{EN: "✓ %s"}
	msgGoldenFails      = Text{EN: "✗ %s (%s)"}
	msgNotYet           = Text{EN: "· the lab's other tests and your output: checked once every exercise passes"}
	msgNextWrite        = Text{EN: "Next: write exercise %s in %s (README.md, section %q)."}
	msgNextHint         = Text{EN: "  go run ./labs hint %s     a hint, one more each time"}
	msgNextWatch        = Text{EN: "  go run ./labs watch %s    check again on every save"}
	msgNextOther        = Text{EN: "Next: the exercises pass; make %s pass too. go run ./labs solution %s shows how your files differ from the lab's."}
	msgNextGolden       = Text{EN: "Next: make your output the lab's. go run ./labs solution %s shows how your files differ from the lab's."}
	msgDone             = Text{EN: "Done: every exercise of %s passes, and your output is the lab's."}
	msgDoneNext         = Text{EN: "Next: go run ./labs %s"}
	msgDoneLast         = Text{EN: "That was the last lab with exercises."}
	msgNotRun           = Text{EN: "the test did not run: an earlier test crashed or did not finish"}
	msgMissingTest      = Text{EN: "the test %s is not in your copy: did you delete or rename it? go run ./labs solution %s shows how your files differ from the lab's"}
	msgTimeout          = Text{EN: "the test did not finish within %s: a loop that never ends, or a wait for something that never comes, is the likely cause"}
	msgNoMessage        = Text{EN: "the test failed without saying why"}
	msgPanic            = Text{EN: "the test panicked: %s"}
	msgDeadlock         = Text{EN: "every goroutine of the test is blocked, each waiting for another: a deadlock"}
	msgNothingReported  = Text{EN: "go test reported nothing for %s"}
	msgChangedMeanwhile = Text{EN: "your copy changed while it was being checked: check again"}
	msgTestMissing      = Text{EN: "note: %s is missing from your copy; check runs the tests your copy has"}
	msgTestChanged      = Text{EN: "note: your %s is not the lab's; check runs your copy of the tests"}
)

// The command line.
var (
	msgUsage = Text{EN: `Usage: go run ./labs [flags] [command LAB]

Build it yourself: start copies a lab into mywork/, with the lab's central
code cut out and a TODO in its place; you write the code, and check runs the
lab's own tests on your copy and says what is still wrong.

Commands:
  (none)          the labs, your progress, and the next thing to do
  start LAB       copy the lab into mywork/LAB, each exercise cut out;
                  it never overwrites work you have
  check LAB       run the lab's tests on your copy: which exercise passes,
                  the first broken rule, and what to do next
  hint LAB        the next hint for the first exercise that fails, one more
                  each time; the last points to the lab's own lines
  watch LAB       check once, then again whenever a file in mywork/LAB
                  changes, until Ctrl-C
  solution LAB    a diff of your files against the lab's
  reset LAB       start the lab over; it refuses to discard changed work
                  without -force

LAB is a lab's directory name, its number or the start of its name:
02-loop, 02, loop. The labs: %s.

Flags, before or after the command:
  -force          with reset: discard your changes
  -lang en|zh     the language of these texts (default: zh when LC_ALL,
                  LC_MESSAGES or LANG starts with zh, en otherwise); the
                  labs' own output stays English
  -h              print this help

Exit status: 0 on success, and when Ctrl-C ends watch; 1 when check finds
a rule broken or a command cannot do what it was asked; 2 for a bad command
line; 130 when Ctrl-C ends any other command.
`}
	msgUnknownCommand = Text{EN: "unknown command %q"}
	msgUnknownLab     = Text{EN: "no lab is named %q"}
	msgAmbiguousLab   = Text{EN: "%q names more than one lab: %s"}
	msgNeedsLab       = Text{EN: "%s needs a lab, as in: go run ./labs %s 02-loop"}
	msgTooManyArgs    = Text{EN: "too many arguments: %s"}
	msgForceOnlyReset = Text{EN: "-force is only for reset"}
	msgLists          = Text{EN: "The commands: start, check, hint, watch, solution, reset, or none for your progress.\nThe labs: %s.\nMore: go run ./labs -h"}
	msgNoExercises    = Text{EN: "%s has no exercises yet: read it and run it (go run ./labs/%s)."}
	msgInterrupted    = Text{EN: "interrupted"}

	// start and reset
	msgNotStarted     = Text{EN: "You have not started %s yet. Start it with:\n  go run ./labs start %s"}
	msgAlreadyStarted = Text{EN: "You have started %s already: your work is in %s, and start never overwrites it.\nTo start over: go run ./labs reset %s"}
	msgCopyIsAFile    = Text{EN: "%s is a file, not your copy of the lab. Move it away, then: go run ./labs start %s"}
	msgWorkIsAFile    = Text{EN: "%s is a file; the track keeps your copies of the labs in a directory of that name. Move the file away, then try again."}
	msgStarted        = Text{EN: "Started %s: your copy is %s."}
	msgStartExercise  = Text{EN: "  exercise %d: %s, in %s"}
	msgStartNext      = Text{EN: "Read README.md, section %q, then write the first exercise.\n  go run ./labs check %s    what still fails, and what to do next\n  go run ./labs watch %s    the same, again on every save"}
	msgResetRefuses   = Text{EN: "%s holds work of yours that reset would discard: %s.\nTo discard it: go run ./labs reset -force %s\nTo keep it, move it away first: mv %s somewhere-else"}
	msgResetFresh     = Text{EN: "Reset %s: your copy is the starter again."}
	msgRememberFailed = Text{EN: "note: %v"}

	// hint
	msgHintBuild        = Text{EN: "Your code does not compile yet; go run ./labs check %s shows the errors. Hints are for code that compiles."}
	msgHintAllPass      = Text{EN: "Every exercise of %s passes: no hint needed."}
	msgHintExercisePass = Text{EN: "Every exercise of %s passes; go run ./labs check %s shows what else fails."}
	msgHintHeader       = Text{EN: "Hint %d of %d for exercise %d of %s, %s:"}
	msgHintMore         = Text{EN: "Still stuck? go run ./labs hint %s gives the next."}
	msgHintLastAgain    = Text{EN: "That is the last hint."}
	msgHintLines        = Text{EN: "The lab's own code for this exercise: %s.\ngo run ./labs solution %s shows how yours differs."}

	// watch
	msgWatching = Text{EN: "Watching %s; Ctrl-C ends it."}
	msgChanged  = Text{EN: "── %s changed: checking again ──"}

	// solution
	msgSolutionSame    = Text{EN: "Your files in %s are the lab's."}
	msgSolutionMissing = Text{EN: "%s is missing from your copy (the lab's is %s)."}
	msgSolutionExtra   = Text{EN: "%s is yours alone: the lab has no such file."}

	// the table of contents
	msgTOCHeader      = Text{EN: "Agent Loop Lab: build each lab yourself. go run ./labs -h lists the commands.\n"}
	msgTOCNoExercises = Text{EN: "    no exercises yet: read and run it, go run ./labs/%s"}
	msgTOCNotStarted  = Text{EN: "    not started: %d exercises"}
	msgTOCNotStarted1 = Text{EN: "    not started: 1 exercise"}
	msgTOCPasses      = Text{EN: "    ✓ exercise %d: %s"}
	msgTOCFails       = Text{EN: "    ✗ exercise %d: %s: %s"}
	msgTOCBuild       = Text{EN: "    ✗ does not compile"}
	msgTOCIsAFile     = Text{EN: "    ✗ %s is not a directory"}
	msgTOCOther       = Text{EN: "    ✗ a test outside the exercises fails: %s"}
	msgTOCGolden      = Text{EN: "    ✗ %s"}
	msgTOCDone        = Text{EN: "    ✓ %s"}
	msgTOCNextStart   = Text{EN: "Next: go run ./labs start %s"}
	msgTOCNextCheck   = Text{EN: "Next: go run ./labs check %s"}
	msgTOCAllDone     = Text{EN: "Every lab with exercises passes."}
)
