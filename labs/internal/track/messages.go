package track

// The front door's messages, in every language. Each is a format for
// fmt.Sprintf; a translation takes the same verbs in the same order. A
// message that names a README section names the README of its language:
// README.md, or its Chinese twin README.zh-CN.md (see Exercise.sectionIn).
var (
	// check
	msgCheckHeader        = Text{EN: "%s · your copy: %s", ZH: "%s · 你的副本：%s"}
	msgDoesNotCompile     = Text{EN: "Your code in %s does not compile:", ZH: "你在 %s 里的代码编译不通过："}
	msgVetFails           = Text{EN: "go vet, which go test runs first, finds a mistake in %s:", ZH: "go test 会先运行 go vet，它在 %s 里发现了一处错误："}
	msgExercisePasses     = Text{EN: "✓ exercise %d: %s", ZH: "✓ 练习 %d：%s"}
	msgExerciseFails      = Text{EN: "✗ exercise %d: %s", ZH: "✗ 练习 %d：%s"}
	msgBrokenRule         = Text{EN: "  broken rule (%d of %d): %s", ZH: "  没满足的规则（第 %d 条，共 %d 条）：%s"}
	msgBrokenTest         = Text{EN: "  checked by %s:", ZH: "  由 %s 检查："}
	msgOthersPass         = Text{EN: "✓ the lab's other tests", ZH: "✓ 实验的其他测试"}
	msgOtherFails         = Text{EN: "✗ a test outside the exercises fails: %s", ZH: "✗ 练习之外的一个测试失败了：%s"}
	msgGoldenPasses       = Text{EN: "✓ %s", ZH: "✓ %s"}
	msgGoldenFails        = Text{EN: "✗ %s (%s)", ZH: "✗ %s（%s）"}
	msgExerciseNotRun     = Text{EN: "· exercise %d: %s: not checked, an earlier test crashed or did not finish", ZH: "· 练习 %d：%s：没有检查，因为前面有测试崩溃了或没有结束"}
	msgOtherNotChecked    = Text{EN: "· the lab's other tests and your output: not checked, %s", ZH: "· 实验的其他测试和你的输出：没有检查（%s）"}
	msgNotYet             = Text{EN: "· the lab's other tests and your output: checked once every exercise passes", ZH: "· 实验的其他测试和你的输出：等每个练习都通过后再检查"}
	msgNextWrite          = Text{EN: `Next: write exercise %d at the %s markers in %s (README.md, section "%s").`, ZH: "下一步：写练习 %d，写在 %s 标记处，文件是 %s。讲解见 README.zh-CN.md 的「%s」一节。"}
	msgNextWriteNoMarkers = Text{EN: `Next: write exercise %d in %s (README.md, section "%s"). Its markers (%s) are no longer whole in your copy: put back "// exercise: ID" before your code and "// end of exercise: ID" after it, so that hint can find it.`, ZH: "下一步：写练习 %d，文件是 %s。讲解见 README.zh-CN.md 的「%s」一节。这个练习的标记 %s 在你的副本里已经不全了：请在你的代码前面放回 \"// exercise: ID\"，后面放回 \"// end of exercise: ID\"，这样 hint 才能找到它。"}
	msgAnd                = Text{EN: "%s and %s", ZH: "%s 和 %s"}
	msgListComma          = Text{EN: ", ", ZH: "、"}
	msgYourCopy           = Text{EN: "%s, your copy of %s, does not pass yet:", ZH: "%s 是你的 %s 副本，还没有通过："}
	msgYourCopyNext       = Text{EN: "Next: go run ./labs check %s says what its test saw, and what to do next.", ZH: "下一步：go run ./labs check %s 会告诉你它的测试看到了什么，以及下一步做什么。"}
	msgNextBuild          = Text{EN: "Next: fix the first error above. %s", ZH: "下一步：改正上面的第一处错误。%s"}
	msgNextBuildElsewhere = Text{EN: "Next: fix the first error above, then go run ./labs check %s again.", ZH: "下一步：改正上面的第一处错误，再运行一次 go run ./labs check %s。"}
	msgNextFailedUnseen   = Text{EN: "Next: take out the os.Exit, log.Fatal or go test lines your code prints, then go run ./labs check %s again.", ZH: "下一步：去掉你的代码里的 os.Exit、log.Fatal，或者它打印的 go test 那样的行，再运行一次 go run ./labs check %s。"}
	msgNextStartUp        = Text{EN: "Next: fix the code that runs as the package starts, then go run ./labs check %s again.", ZH: "下一步：改正包初始化时运行的那段代码，再运行一次 go run ./labs check %s。"}
	msgNextHintCode       = Text{EN: "  go run ./labs hint %s     a hint about that code, one more each time", ZH: "  go run ./labs hint %s     给一条关于那段代码的提示，每次多给一条"}
	msgNextHint           = Text{EN: "  go run ./labs hint %s     a hint, one more each time", ZH: "  go run ./labs hint %s     给一条提示，每次多给一条"}
	msgNextWatch          = Text{EN: "  go run ./labs watch %s    check again on every save", ZH: "  go run ./labs watch %s    每次保存都重新检查"}
	msgNextOther          = Text{EN: "Next: the exercises pass; make %s pass too. go run ./labs solution %s shows how your files differ from the lab's.", ZH: "下一步：练习都通过了，再让 %s 也通过。go run ./labs solution %s 会显示你的文件和实验的文件有哪些不同。"}
	msgNextReportMistake  = Text{EN: "Next: this is a mistake of the workbook, not of your code: report it to the workbook's maintainers.", ZH: "下一步：这是练习册本身的错误，不是你代码的问题：请把它报告给练习册的维护者。"}
	msgNextRestore        = Text{EN: "Next: restore the lab's test files with the command in the note above, then go run ./labs check %s again.", ZH: "下一步：用上面「注意」里的命令恢复实验的测试文件，再运行一次 go run ./labs check %s。"}
	msgNextCheckAgain     = Text{EN: "Next: go run ./labs check %s", ZH: "下一步：go run ./labs check %s"}
	msgNextGolden         = Text{EN: "Next: make your output the lab's. go run ./labs solution %s shows how your files differ from the lab's.", ZH: "下一步：让你的输出和实验的输出一模一样。go run ./labs solution %s 会显示你的文件和实验的文件有哪些不同。"}
	msgDone               = Text{EN: "Done: every exercise of %s passes, and your output is the lab's.", ZH: "完成：%s 的每个练习都通过了，你的输出和实验的输出一模一样。"}
	msgDoneContents       = Text{EN: "Next: go run ./labs, which shows how far you are in the labs you have started.", ZH: "下一步：go run ./labs，它会告诉你已经开始的各个实验做到了哪里。"}
	msgDoneNext           = Text{EN: "Next: go run ./labs %s", ZH: "下一步：go run ./labs %s"}
	msgDoneLast           = Text{EN: "That was the last lab with exercises.", ZH: "这是最后一个有练习的实验。"}
	msgNotRun             = Text{EN: "the test did not run: an earlier test crashed or did not finish", ZH: "这个测试没有运行：前面有测试崩溃了，或者没有结束"}
	msgNoSuchTest         = Text{EN: "the test %s did not run, and the lab's own tests do not have it: labs/%s/exercises.json names a test that does not exist", ZH: "测试 %s 没有运行，实验自己的测试里也没有它：labs/%s/exercises.json 写了一个不存在的测试"}
	msgMissingTest        = Text{EN: "the test %s is not in your copy: did you delete or rename it? go run ./labs solution %s shows how your files differ from the lab's", ZH: "你的副本里没有测试 %s：是删掉了，还是改了名字？go run ./labs solution %s 会显示你的文件和实验的文件有哪些不同"}
	msgTimeout            = Text{EN: "the test did not finish within %s: a loop that never ends, or a wait for something that never comes, is the likely cause", ZH: "这个测试在 %s 内没有结束：多半是循环停不下来，或者在等一个永远不会来的东西"}
	msgTimeoutLock        = Text{EN: "the test did not finish within %s: a goroutine waits to lock a mutex that nobody unlocks. Does a function return while it holds the lock? defer mu.Unlock(), right after mu.Lock(), unlocks it on every return", ZH: "这个测试在 %s 内没有结束：有个 goroutine 在等一把没人解开的互斥锁。是不是有函数拿着锁就返回了？紧跟在 mu.Lock() 后面写 defer mu.Unlock()，函数无论从哪里返回都会解锁"}
	msgNoMessage          = Text{EN: "the test failed without saying why", ZH: "这个测试失败了，但没有说明原因"}
	msgPanic              = Text{EN: "the test panicked: %s", ZH: "这个测试发生了 panic：%s"}
	msgFailedUnseen       = Text{EN: "Your code in %s ends the test program with a failure, although none of its tests failed: does it call os.Exit(1) or log.Fatal, or print lines such as \"--- PASS\" that go test reads as its own?", ZH: "你在 %s 里的代码让测试程序以失败结束，可是它的测试一个也没有失败：你的代码是不是调用了 os.Exit(1) 或 log.Fatal，或者打印了像 \"--- PASS\" 这样会被 go test 当成它自己输出的行？"}
	msgExitBeforeTests    = Text{EN: "Your code in %s ends the test program as the package starts, before any test runs: does an init function call os.Exit or log.Fatal?", ZH: "你在 %s 里的代码在包初始化时就结束了测试程序，还没有任何测试运行：是不是某个 init 函数调用了 os.Exit 或 log.Fatal？"}
	msgExitedInTest       = Text{EN: "the test program exited in the middle of this test, without a panic: does your code call os.Exit or log.Fatal?", ZH: "测试程序在这个测试进行到一半时退出了，并没有发生 panic：你的代码是不是调用了 os.Exit 或 log.Fatal？"}
	msgHangBeforeTests    = Text{EN: "Your code in %s does not let the test program start: after %s, no test had begun. Does an init function, or a package variable's initializer, run a loop that never ends?", ZH: "你在 %s 里的代码让测试程序启动不起来：过了 %s，还没有任何测试开始。是不是某个 init 函数或包级变量的初始化里有个停不下来的循环？"}
	msgOutOfMemory        = Text{EN: "the test used more than the %d GiB of memory that check allows: does a loop append to a slice that never stops growing?", ZH: "这个测试用掉的内存超过了 check 允许的 %d GiB：是不是有个循环一直往一个切片里追加，永远停不下来？"}
	msgFatal              = Text{EN: "the test program ended with a fatal error, which no recover catches: %s", ZH: "测试程序因为一个致命错误而结束，recover 接不住它：%s"}
	msgPanicBeforeTests   = Text{EN: "Your code in %s panics as the package starts, before any test runs:", ZH: "你在 %s 里的代码在包初始化时就发生了 panic，还没有任何测试运行："}
	msgDiffHeader         = Text{EN: "got differs from want (-want +got):", ZH: "实际结果和期望的不一样（-want +got）："}
	msgWant               = Text{EN: "want: %s", ZH: "期望：%s"}
	msgGot                = Text{EN: "got:  %s", ZH: "实际：%s"}
	msgMoreLines          = Text{EN: "… %d more lines: %s", ZH: "…… 还有 %d 行：%s"}
	msgMoreLine           = Text{EN: "… 1 more line: %s", ZH: "…… 还有 1 行：%s"}
	msgDeadlock           = Text{EN: "every goroutine of the test is blocked, each waiting for another: a deadlock", ZH: "这个测试的所有 goroutine 都阻塞了，彼此等待：死锁了"}
	msgNothingReported    = Text{EN: "go test reported nothing for %s", ZH: "go test 没有报告 %s 的任何结果"}
	msgChecking           = Text{EN: "checking %s with go test…", ZH: "正在用 go test 检查 %s……"}
	msgCheckingAll        = Text{EN: "checking your copies in %s with go test…", ZH: "正在用 go test 检查 %s 里你的副本……"}
	msgChangedMeanwhile   = Text{EN: "your copy changed while it was being checked: check again", ZH: "检查期间你的副本有改动：请再检查一次"}
	msgTestMissing        = Text{EN: "note: %s is missing from your copy; check runs the tests your copy has. To restore it: %s", ZH: "注意：你的副本里缺少 %s；check 只运行你的副本里有的测试。要恢复它：%s"}
	msgCodeMissing        = Text{EN: "note: %s is missing from your copy. To restore it: %s", ZH: "注意：你的副本里缺少 %s。要恢复它：%s"}
	msgCodeMissingMine    = Text{EN: "note: %s, where you write your code, is missing from your copy. Write it again, or start over: go run ./labs reset %s", ZH: "注意：你的副本里缺少 %s，你的代码就写在这个文件里。把它重新写出来，或者从头开始：go run ./labs reset %s"}
	msgStuckWaits         = Text{EN: "✗ Your run is stuck: its goroutines all wait, and nothing can wake them (%s). Where they wait:", ZH: "✗ 你的运行卡住了：它的 goroutine 全都在等待，没有什么能唤醒它们（%s）。它们等在这里："}
	msgStuckLock          = Text{EN: "✗ Your run is stuck: a goroutine waits to lock a mutex that nobody unlocks, and the test did not finish within %s (%s). Where the goroutines are:", ZH: "✗ 你的运行卡住了：有个 goroutine 在等一把没人解开的互斥锁，测试在 %s 内没有结束（%s）。各个 goroutine 停在这里："}
	msgStuckSpins         = Text{EN: "✗ Your run is stuck: the test did not finish within %s, and no goroutine waited for another: a loop that never ends, or never waits (%s). Where the goroutines are:", ZH: "✗ 你的运行卡住了：测试在 %s 内没有结束，却没有哪个 goroutine 在等另一个：有个循环停不下来，或者从不等待（%s）。各个 goroutine 停在这里："}
	msgStuckNowhere       = Text{EN: "  (none in your copy's code: the test's own goroutines wait)", ZH: "  （你副本的代码里一个都没有：在等的是测试自己的 goroutine）"}
	msgStuckUnseen        = Text{EN: "  (%d running on another thread as the test was stopped, where the dump cannot see: most likely the loop)", ZH: "  （测试被停下时，有 %d 个正在另一个线程上运行，堆栈转储看不到它在哪里：多半就是那个循环）"}
	msgStuckAbove         = Text{EN: "    the run got stuck: see above", ZH: "    运行卡住了：见上文"}
	msgRaceFails          = Text{EN: "✗ %s", ZH: "✗ %s"}
	msgRacePasses         = Text{EN: "✓ %s", ZH: "✓ %s"}
	msgRace               = Text{EN: "two goroutines used the same memory at once, one of them writing, with no lock or channel between them: a data race, at", ZH: "两个 goroutine 同时使用了同一块内存，其中一个在写，中间既没有锁也没有 channel：这是数据竞争（data race），位置是"}
	msgRaceNotRun         = Text{EN: "· the race detector (go test -race): not run, %s", ZH: "· 竞态检测器（go test -race）：没有运行，%s"}
	msgRaceNoCgo          = Text{EN: "since it needs cgo, and go env CGO_ENABLED says 0 here: with a C compiler, such as gcc, on the PATH, and CGO_ENABLED unset, it runs", ZH: "因为它需要 cgo，而这里的 go env CGO_ENABLED 是 0：PATH 里有 C 编译器（比如 gcc）、且没有设置 CGO_ENABLED 时，它就能运行"}
	msgRaceNoGoEnv        = Text{EN: "since go env, which says whether it can, failed: %v", ZH: "因为用来判断它能否运行的 go env 失败了：%v"}
	msgRaceCannotBuild    = Text{EN: "since go test -race could not build your copy: %s", ZH: "因为 go test -race 编译不了你的副本：%s"}
	msgRaceNotReported    = Text{EN: "since go test -race reported nothing for %s", ZH: "因为 go test -race 没有报告 %s 的任何结果"}
	msgCheckingRace       = Text{EN: "checking %s for data races with go test -race (the first time, it builds every package again, which takes a while)…", ZH: "正在用 go test -race 检查 %s 有没有数据竞争（第一次会把所有包重新编译一遍，要花一点时间）……"}
	msgNextRace           = Text{EN: "Next: the lines above are where two goroutines meet. Make them share nothing that one of them writes: a slot of its own for each, or a value handed over a channel.", ZH: "下一步：上面几行就是两个 goroutine 碰头的地方。让它们不共享任何一个会被其中之一写入的东西：要么各用自己的槽位，要么通过 channel 交接数据。"}
	msgTestChanged        = Text{EN: "note: your %s is not the lab's; check runs your copy of the tests. To use the lab's: %s", ZH: "注意：你的 %s 和实验的不一样；check 运行的是你副本里的测试。要换回实验的版本：%s"}
)

// The command line.
var (
	msgUsage = Text{EN: `Usage: go run ./labs [flags] [command LAB]
       go run ./labs [flags] grade DIR...

Build it yourself: start copies a lab into _mywork/, with the lab's central
code cut out and a TODO in its place; you write the code, and check runs the
lab's own tests on your copy and says what is still wrong.

Commands:
  (none)          the labs, your progress, and the next thing to do
  start LAB       copy the lab into _mywork/LAB, each exercise cut out;
                  it never overwrites work you have
  check LAB       run the lab's tests on your copy: which exercise passes,
                  the first broken rule, and what to do next
  hint LAB        the next hint about what check found, one more each
                  time; the last points to the lab's own lines
  watch LAB       check once, then again whenever a file in _mywork/LAB
                  changes, until Ctrl-C
  solution LAB    a diff of your files against the lab's
  reset LAB       start the lab over; it refuses to discard changed work
                  without -force

For instructors:
  grade DIR...    grade a class: each DIR is a learner's checkout, or a
                  folder that holds their copies. It copies the workbook
                  outside the repository, takes only each copy's Go code
                  (the tests and data are the lab's), runs the lab's tests
                  on it as check does, several learners at once, and prints
                  a table: a row for each learner, a column for each lab.

LAB is a lab's directory name, its number, or the start of its name with
or without the number: 02-loop, 02, loop, 02-l.
The labs: %s.

Flags, before or after the command:
  -force          with reset: discard your changes
  -json           with grade: the grades as JSON, an entry for each
                  learner, a test for each exercise and each lab's output
  -classroom      with grade, in GitHub Classroom: one line, result=…, for
                  $GITHUB_OUTPUT (.github/workflows/classroom.yml)
  -labs LIST      with grade: only these labs, as 01,02 (default: every lab
                  with exercises)
  -lang en|zh     the language of these texts (default: zh when the first
                  of LC_ALL, LC_MESSAGES and LANG that is set starts with
                  zh, en otherwise); the labs' own output stays English
  -h              print this help

Exit status: 0 on success, and when Ctrl-C ends watch; 1 when check finds
a rule broken or a command cannot do what it was asked; 2 for a bad command
line; 130 when Ctrl-C ends any other command. SIGTERM and SIGHUP (a closed
terminal) let start and reset finish writing the copy, stop check, and
then end the command by the signal. grade exits with 0 once it has graded,
whatever the learners' results, and with 1 when no folder holds copies to
grade.
`, ZH: `用法：go run ./labs [选项] [命令 LAB]
      go run ./labs [选项] grade DIR...

自己动手写：start 把一个实验复制到 _mywork/，挖掉实验的核心代码，
原处换成一段 TODO；你来写这段代码，check 在你的副本上运行实验自己的
测试，告诉你还有哪里不对。

命令：
  （不带命令）    列出各个实验、你的进度，以及下一步做什么
  start LAB       把实验复制到 _mywork/LAB，每个练习都被挖掉；
                  它从不覆盖你已有的代码
  check LAB       在你的副本上运行实验的测试：哪些练习通过了、
                  第一条没满足的规则，以及下一步做什么
  hint LAB        针对 check 发现的问题给出下一条提示，每次多给一条；
                  最后一条指向实验自己的那几行代码
  watch LAB       先检查一次，之后每当 _mywork/LAB 里有文件改动
                  就再检查一次，直到按下 Ctrl-C
  solution LAB    你的文件和实验的文件之间的 diff
  reset LAB       让实验从头开始；你改过的代码，不加 -force
                  它就不肯丢弃

给老师用的：
  grade DIR...    给一个班评分：每个 DIR 是一个学员的仓库，或者放着他的
                  实验副本的文件夹。它把练习册复制到仓库之外，只取每个
                  副本的 Go 代码（测试和数据用实验自己的），像 check 那样
                  在上面运行实验的测试，几个学员同时进行，最后打印一张表：
                  每个学员一行，每个实验一列。

LAB 是实验的目录名、编号，或者名字的开头（带不带编号都行）：
02-loop、02、loop、02-l。
各个实验：%s。

选项（放在命令之前或之后都可以）：
  -force          与 reset 一起用：丢弃你的改动
  -json           与 grade 一起用：以 JSON 输出成绩，每个学员一项，
                  每个练习和每个实验的输出各算一个测试
  -classroom      在 GitHub Classroom 里与 grade 一起用：输出一行
                  result=…，写进 $GITHUB_OUTPUT
                  （.github/workflows/classroom.yml）
  -labs LIST      与 grade 一起用：只评这些实验，如 01,02（默认：
                  每个有练习的实验）
  -lang en|zh     这些文字的语言（默认：LC_ALL、LC_MESSAGES、LANG
                  中第一个有值的以 zh 开头时为 zh，否则为 en）；
                  各实验自己的输出仍然是英文
  -h              打印这份帮助

退出状态：成功时为 0，Ctrl-C 结束 watch 时也是 0；check 发现有规则
没满足，或者命令做不到要求的事，为 1；命令行有误为 2；Ctrl-C 结束
其他命令时为 130。SIGTERM 和 SIGHUP（比如终端被关掉）会先让 start 和
reset 把副本写完整、让 check 停下，再以这个信号结束命令。grade 评完分
就以 0 退出，不论学员的结果如何；没有任何文件夹里有可评分的副本时为 1。
`}
	msgBadFlag        = Text{EN: "%v", ZH: "%v"}
	msgUnknownFlag    = Text{EN: "flag provided but not defined: -%s", ZH: "没有 -%s 这个选项"}
	msgFlagNeedsValue = Text{EN: "flag needs an argument: -%s", ZH: "选项 -%s 需要一个值"}
	msgFlagTwice      = Text{EN: "flag given twice: -%s", ZH: "选项 -%s 给了两次"}
	msgBadLang        = Text{EN: "-lang %q: the languages are en and zh", ZH: "-lang %q：可选的语言是 en 和 zh"}
	msgUnknownCommand = Text{EN: "unknown command %q", ZH: "没有 %q 这个命令"}
	msgUnknownLab     = Text{EN: "no lab is named %q", ZH: "没有叫 %q 的实验"}
	msgAmbiguousLab   = Text{EN: "%q names more than one lab: %s", ZH: "%q 对应不止一个实验：%s"}
	msgNeedsLab       = Text{EN: "%s needs a lab, as in: go run ./labs %s 02-loop", ZH: "%s 需要指定一个实验，例如：go run ./labs %s 02-loop"}
	msgTooManyArgs    = Text{EN: "too many arguments: %s", ZH: "多余的参数：%s"}
	msgForceOnlyReset = Text{EN: "-force is only for reset", ZH: "-force 只能和 reset 一起用"}
	msgLists          = Text{EN: "The commands: start, check, hint, watch, solution, reset, or none for your progress; grade, for instructors.\nThe labs: %s.\nMore: go run ./labs -h", ZH: "命令：start、check、hint、watch、solution、reset；不带命令则显示你的进度；grade 是给老师用的。\n各个实验：%s。\n详细说明：go run ./labs -h"}
	msgNoExercises    = Text{EN: "%s has no exercises yet: read it and run it (go run ./labs/%s).", ZH: "%s 还没有练习：读一读，再运行一下（go run ./labs/%s）。"}

	// start and reset
	msgNotStarted        = Text{EN: "You have not started %s yet. Start it with:\n  go run ./labs start %s", ZH: "你还没有开始 %s。这样开始：\n  go run ./labs start %s"}
	msgAlreadyStarted    = Text{EN: "You have started %s already: your work is in %s, and start never overwrites it.\nTo start over: go run ./labs reset %s", ZH: "你已经开始过 %s 了：你写的东西在 %s 里，start 从不覆盖它。\n想从头再来：go run ./labs reset %s"}
	msgCopyIsABrokenLink = Text{EN: "%s is a symbolic link to nothing, not your copy of the lab. Remove it or point it to your copy, then: go run ./labs check %s", ZH: "%s 是一个失效的符号链接（它指向的东西不存在），不是你的实验副本。删掉它，或者让它指向你的副本，再运行：go run ./labs check %s"}
	msgCopyIsAFile       = Text{EN: "%s is a file, not your copy of the lab. Move it away, then: go run ./labs start %s", ZH: "%s 是一个文件，不是你的实验副本。先把它移走，再运行：go run ./labs start %s"}
	msgWorkIsAFile       = Text{EN: "%s is a file; the track keeps your copies of the labs in a directory of that name. Move the file away, then try again.", ZH: "%s 是一个文件；这条路线要把你的实验副本放在同名的目录里。先把这个文件移走，再试一次。"}
	msgStarted           = Text{EN: "Started %s: your copy is %s.", ZH: "已开始 %s，你的副本在 %s。"}
	msgStartExercise     = Text{EN: "  exercise %d: %s, in %s", ZH: "  练习 %d：%s（写在 %s 里）"}
	msgStartNext         = Text{EN: "Read README.md, section \"%s\", then write the first exercise.\n  go run ./labs check %s    what still fails, and what to do next\n  go run ./labs watch %s    the same, again on every save", ZH: "先读 README.zh-CN.md 的「%s」一节，再写第一个练习。\n  go run ./labs check %s    还有什么没通过，下一步做什么\n  go run ./labs watch %s    同上，每次保存都再检查一次"}
	msgResetRefuses      = Text{EN: "%s holds work of yours that reset would discard: %s.\nTo discard it: go run ./labs reset -force %s\nTo keep it, move it aside first, to a name that git ignores and go test ./... skips:\n  mv %s %s", ZH: "%s 里有你写的东西，reset 会把它们丢掉：%s。\n确定要丢掉：go run ./labs reset -force %s\n想留着，就先把它挪到一边，换一个 git 不跟踪、go test ./... 也会跳过的名字：\n  mv %s %s"}
	msgCopyRecovered     = Text{EN: "Your copy of %s is back in %s: a reset that was stopped midway had set it aside.", ZH: "你的 %s 副本已经放回 %s：之前有一次 reset 中途被打断，把它暂时挪到了一边。"}
	msgResetFresh        = Text{EN: "Reset %s: your copy is the starter again.", ZH: "已重置 %s：你的副本又回到了起始代码。"}
	msgRememberFailed    = Text{EN: "note: %v", ZH: "注意：%v"}

	// hint
	msgHintVetFails       = Text{EN: "go vet, which go test runs first, finds a mistake in your code: go run ./labs check %s shows it. %s", ZH: "go test 会先运行 go vet，它在你的代码里发现了一处错误：go run ./labs check %s 会显示出来。%s"}
	msgHintDoesNotCompile = Text{EN: "Your code does not compile yet: go run ./labs check %s shows the compiler's errors. %s", ZH: "你的代码还编译不通过：go run ./labs check %s 会显示编译器报的错。%s"}
	msgFirstInside        = Text{EN: "The first is in the code of exercise %d, in %s.", ZH: "第一处在练习 %d 的代码里，在 %s 中。"}
	msgFirstOutside       = Text{EN: "The first is in %s, outside the code of exercise %d; what you wrote in that file is the likely cause, such as an import it no longer uses.", ZH: "第一处在 %s 里，但不在练习 %d 的代码里；多半是你在这个文件里写的代码引起的，比如一个不再用到的 import。"}
	msgFirstInFile        = Text{EN: "The first is in %s, a file of exercise %d; its markers there are gone, so where exactly is for you to see.", ZH: "第一处在 %s 里，这是练习 %d 的文件；里面的标记已经不全了，具体在哪里要你自己看。"}
	msgHintBuild          = Text{EN: "Your code does not compile yet; go run ./labs check %s shows the errors. Its first error is in no file of an exercise, so no hint fits it.", ZH: "你的代码还编译不通过；go run ./labs check %s 会显示错误。第一处错误不在任何练习的文件里，所以没有对应的提示。"}
	msgHintPanic          = Text{EN: "Your code panics or exits before any test runs; go run ./labs check %s says more. Hints are for code whose tests run.", ZH: "还没有任何测试运行，你的代码就发生了 panic 或退出了；go run ./labs check %s 会说得更详细。提示只给测试能运行的代码。"}
	msgHintAllPass        = Text{EN: "Every exercise of %s passes: no hint needed.", ZH: "%s 的每个练习都通过了：不需要提示。"}
	msgHintExercisePass   = Text{EN: "Every exercise of %s passes; go run ./labs check %s shows what else fails.", ZH: "%s 的每个练习都通过了；还有什么没通过，go run ./labs check %s 会告诉你。"}
	msgHintRuleHeader     = Text{EN: "Hint %d of %d, for the broken rule of exercise %d (%d of %d): %s", ZH: "第 %d 条提示（共 %d 条），针对练习 %d 没满足的规则（第 %d 条，共 %d 条）：%s"}
	msgHintCodeHeader     = Text{EN: "Hint %d of %d, for the code of exercise %d (%s) in %s:", ZH: "第 %d 条提示（共 %d 条），针对练习 %d（%s）在 %s 里的代码："}
	msgHintMore           = Text{EN: "Still stuck? go run ./labs hint %s gives the next.", ZH: "还是卡住了？go run ./labs hint %s 给出下一条。"}
	msgHintLastAgain      = Text{EN: "That is the last hint.", ZH: "这是最后一条提示。"}
	msgHintStuckHeader    = Text{EN: "Hint %d of %d, for your stuck run:", ZH: "第 %d 条提示（共 %d 条），针对你卡住的运行："}
	msgHintRaceHeader     = Text{EN: "Hint %d of %d, for the data race that go test -race found:", ZH: "第 %d 条提示（共 %d 条），针对 go test -race 发现的数据竞争："}
	msgHintAllPassNoRace  = Text{EN: "Every test of %s passes. go run ./labs check %s runs the race detector too, before it says Done.", ZH: "%s 的每个测试都通过了。go run ./labs check %s 还会运行竞态检测器，然后才说完成。"}
	msgHintLines          = Text{EN: "The lab's own code for this exercise: %s.\ngo run ./labs solution %s shows how yours differs.", ZH: "实验里对应这个练习的代码：%s。\ngo run ./labs solution %s 会显示你的代码和它有哪些不同。"}
	msgHintLinesAll       = Text{EN: "The lab's own code for its exercises: %s.\ngo run ./labs solution %s shows how yours differs.", ZH: "实验里对应各个练习的代码：%s。\ngo run ./labs solution %s 会显示你的代码和它有哪些不同。"}

	// watch
	msgWatching = Text{EN: "Watching %s; Ctrl-C ends it.", ZH: "正在监视 %s；按 Ctrl-C 结束。"}
	msgChanged  = Text{EN: "── %s changed: checking again ──", ZH: "── %s 有改动：重新检查 ──"}

	// solution
	msgSolutionSame    = Text{EN: "Your files in %s are the lab's.", ZH: "你在 %s 里的文件和实验的完全相同。"}
	msgSolutionMissing = Text{EN: "%s is missing from your copy (the lab's is %s).", ZH: "你的副本里缺少 %s（实验里的是 %s）。"}
	msgSolutionProgram = Text{EN: "%s is a program, as go build makes, which the lab does not have; it is not compared.", ZH: "%s 是一个程序（go build 生成的那种），实验里没有它；不做比较。"}
	msgSolutionExtra   = Text{EN: "%s is yours alone: the lab has no such file.", ZH: "%s 只有你有：实验里没有这个文件。"}
	msgDiffYours       = Text{EN: "%s (yours)", ZH: "%s（你的）"}
	msgDiffLab         = Text{EN: "%s (the lab's)", ZH: "%s（实验的）"}

	// the table of contents
	msgTOCHeader       = Text{EN: "Agent Loop Lab: build each lab yourself. go run ./labs -h lists the commands.\n", ZH: "Agent Loop Lab：每个实验都自己动手写一遍。go run ./labs -h 列出所有命令。\n"}
	msgTOCNoExercises  = Text{EN: "    no exercises yet: read and run it, go run ./labs/%s", ZH: "    还没有练习：读一读，再运行一下，go run ./labs/%s"}
	msgTOCNotStarted   = Text{EN: "    not started: %d exercises", ZH: "    未开始：%d 个练习"}
	msgTOCNotStarted1  = Text{EN: "    not started: 1 exercise", ZH: "    未开始：1 个练习"}
	msgTOCPasses       = Text{EN: "    ✓ exercise %d: %s", ZH: "    ✓ 练习 %d：%s"}
	msgTOCFails        = Text{EN: "    ✗ exercise %d: %s: %s", ZH: "    ✗ 练习 %d：%s；没满足：%s"}
	msgTOCStuck        = Text{EN: "    ✗ exercise %d: %s: your run is stuck", ZH: "    ✗ 练习 %d：%s：你的运行卡住了"}
	msgTOCBuild        = Text{EN: "    ✗ does not compile", ZH: "    ✗ 编译不通过"}
	msgTOCFailedUnseen = Text{EN: "    ✗ fails, although none of its tests does", ZH: "    ✗ 测试程序失败了，可是没有哪个测试失败"}
	msgTOCExited       = Text{EN: "    ✗ exits before any test runs", ZH: "    ✗ 还没运行任何测试就退出了"}
	msgTOCHung         = Text{EN: "    ✗ never gets to its tests", ZH: "    ✗ 一直没有开始运行测试"}
	msgTOCPanic        = Text{EN: "    ✗ panics before any test runs", ZH: "    ✗ 还没运行任何测试就 panic 了"}
	msgTOCIsAFile      = Text{EN: "    ✗ %s is not a directory", ZH: "    ✗ %s 不是目录"}
	msgTOCNotRun       = Text{EN: "    · exercise %d: %s: not checked, an earlier test crashed or did not finish", ZH: "    · 练习 %d：%s：没有检查，因为前面有测试崩溃了或没有结束"}
	msgTOCNotChecked   = Text{EN: "    · the lab's other tests and your output: not checked, %s", ZH: "    · 实验的其他测试和你的输出：没有检查（%s）"}
	msgTOCOthersPass   = Text{EN: "    ✓ the lab's other tests", ZH: "    ✓ 实验的其他测试"}
	msgTOCOther        = Text{EN: "    ✗ a test outside the exercises fails: %s", ZH: "    ✗ 练习之外的一个测试失败了：%s"}
	msgTOCGolden       = Text{EN: "    ✗ %s", ZH: "    ✗ %s"}
	msgTOCDone         = Text{EN: "    ✓ %s", ZH: "    ✓ %s"}
	msgTOCNextStart    = Text{EN: "Next: go run ./labs start %s", ZH: "下一步：go run ./labs start %s"}
	msgTOCNextCheck    = Text{EN: "Next: go run ./labs check %s", ZH: "下一步：go run ./labs check %s"}
	msgTOCAllDone      = Text{EN: "Every lab with exercises passes.", ZH: "每个有练习的实验都通过了。"}
)

// The hints about a stuck run and a data race that no typical mistake of
// the lab explains: a typical mistake has hints of its own. hint adds the
// lab's lines as the last.
var (
	stuckHints = map[stuckKind][]Text{
		stuckWaits: {
			Text{EN: "Every goroutine of the run waits for another, so none can go on. check lists\nwhere each waits. For each, ask which goroutine should wake it: who receives\nwhat it sends, who sends what it receives, who calls Done or Unlock. If that\ngoroutine is in the list too, or has returned, nothing ever will.",
				ZH: "这次运行的每个 goroutine 都在等另一个，所以谁也走不下去。check 列出了它们各自\n等待的地方。对每一处都问一问：该由哪个 goroutine 来唤醒它？谁来接收它发送的，\n谁来发送它要接收的，谁来调用 Done 或 Unlock？如果那个 goroutine 也在这张单子上，\n或者已经返回了，就永远没人来唤醒它。"},
			Text{EN: "The usual causes: a send on an unbuffered channel before anyone receives, as\nwhen a loop calls wg.Wait() before it reads the channel the goroutines send\non; a receive that expects more values than are sent; a goroutine that returns\nearly without sending; a mutex locked twice.",
				ZH: "常见的原因有：在有人接收之前就往无缓冲 channel 发送，比如循环先调用 wg.Wait()，\n再去读 goroutine 们发送用的 channel；接收的次数比发送的多；goroutine 没发送就\n提前返回了；同一把互斥锁锁了两次。"},
		},
		stuckLock: {
			Text{EN: "A goroutine waits to lock a mutex that nobody unlocks. Does a function return\nwhile it holds the lock, on an early return or an error? defer mu.Unlock(),\nright after mu.Lock(), unlocks it on every return.",
				ZH: "有个 goroutine 在等一把没人解开的互斥锁。是不是有函数拿着锁就返回了，比如提前\nreturn 或者出错返回？紧跟在 mu.Lock() 后面写 defer mu.Unlock()，函数无论从哪里\n返回都会解锁。"},
			Text{EN: "A goroutine that holds a mutex and locks it again waits for itself: Go's\nmutexes are not reentrant. Does a function that holds the lock call another\nthat takes it too?",
				ZH: "已经拿着一把互斥锁的 goroutine 再去锁它，就是在等它自己：Go 的互斥锁不可重入。\n是不是有个拿着锁的函数，又调用了另一个也要拿这把锁的函数？"},
		},
		stuckSpins: {
			Text{EN: "The test ran out of time, and no goroutine waited for another: most likely a\nloop that never ends, or one that spins, checking a variable, or polling a\nchannel with select and default, without ever waiting. check lists where the\ngoroutines were when the test was stopped: the first is most likely the loop.",
				ZH: "测试超时了，却没有哪个 goroutine 在等另一个：多半是有个循环停不下来，或者一直\n空转：反复检查一个变量，或者用带 default 的 select 轮询 channel，从不真正等待。\ncheck 列出了测试被停下时各个 goroutine 所在的位置：第一个多半就是那个循环。"},
			Text{EN: "Look at the loop at that line: does its condition ever change? Does each pass\ntake a step toward its end, such as a value received from a channel or a\ncounter that grows? To wait for another goroutine, receive from a channel or\ncall wg.Wait(); never spin on a variable.",
				ZH: "看看那一行的循环：它的条件会变吗？每一遍都朝结束走了一步吗，比如从 channel 收\n到一个值，或者计数器加了一？要等另一个 goroutine，就从 channel 接收，或者调用\nwg.Wait()；不要在一个变量上空转。"},
		},
	}
	raceHints = []Text{
		Text{EN: "Two goroutines used the same memory at once, and at least one wrote: check\nshows the two accesses. Nothing orders them, so a run may see the old value,\nthe new one, or a broken one, and the tests pass only by luck.",
			ZH: "两个 goroutine 同时用了同一块内存，至少有一个在写：check 列出了这两处访问。没\n有任何东西规定它们的先后，所以一次运行可能看到旧值、新值，或者一个坏掉的值，测\n试能通过只是运气好。"},
		Text{EN: "Make the goroutines share nothing that one of them writes, unguarded: each\nwrites a slot of its own, in a slice made before they start, or hands its\nvalues over a channel; what they must share, such as a queue, they touch only\nwhile they hold its mutex. A variable that several goroutines append to, or\ncount with ++, races.",
			ZH: "让这些 goroutine 不共享任何一个会被其中之一不加保护地写入的东西：每个只写自己\n的槽位（槽位所在的切片在它们启动之前就分配好），或者通过 channel 交出自己的值；\n必须共享的东西，比如一个队列，只在拿着它的互斥锁时才碰。几个 goroutine 一起\nappend 的变量，或者一起用 ++ 计数的变量，都会发生竞争。"},
	}
)
