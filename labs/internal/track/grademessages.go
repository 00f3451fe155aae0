package track

// grade's messages, in every language, as the front door's (messages.go).
// grade speaks to an instructor: its table, its notes about the folders it
// was given, and the one-line reason of each test that fails.
var (
	// the command line
	msgGradeNeedsDirs     = Text{EN: "grade needs the learners' folders, as in: go run ./labs grade class/*", ZH: "grade 需要学员的文件夹，例如：go run ./labs grade class/*"}
	msgGradeFlagsOnly     = Text{EN: "-json, -classroom and -labs are only for grade", ZH: "-json、-classroom 和 -labs 只能和 grade 一起用"}
	msgGradeJSONClassroom = Text{EN: "-json and -classroom are two formats of the same grades: give one", ZH: "-json 和 -classroom 是同一份成绩的两种格式：只能选一个"}
	msgGradeClassroomOne  = Text{EN: "-classroom grades one learner's checkout, as GitHub Classroom does: give one folder, not %d", ZH: "-classroom 只评一个学员的仓库，和 GitHub Classroom 一样：请只给一个文件夹，而不是 %d 个"}
	msgGradeNobody        = Text{EN: "grade: none of the folders holds copies of the labs to grade", ZH: "grade：这些文件夹里都没有可以评分的实验副本"}

	// the folders: one line each, on standard error
	msgGradeNoDir       = Text{EN: "%s: no such folder", ZH: "%s：没有这个文件夹"}
	msgGradeNotDir      = Text{EN: "%s: not a folder", ZH: "%s：不是文件夹"}
	msgGradeUnreadable  = Text{EN: "%s: cannot be read: %v", ZH: "%s：读不了：%v"}
	msgGradeNoCopies    = Text{EN: "%s: no copies of the labs: neither a _mywork folder nor a folder named after a lab, such as %s", ZH: "%s：没有实验副本：既没有 _mywork 文件夹，也没有以实验命名的文件夹（比如 %s）"}
	msgGradeGivenTwice  = Text{EN: "%s: given twice; graded once", ZH: "%s：给了两次；只评一次"}
	msgGradeTwice       = Text{EN: "%s: the same learner as %s (%s); graded once", ZH: "%s：和 %s 是同一个学员（%s）；只评一次"}
	msgGradeUnknownLab  = Text{EN: "%s: %s: no lab is named %s; not graded", ZH: "%s：%s：没有叫 %s 的实验；不评分"}
	msgGradeNoTrack     = Text{EN: "%s: %s: %s has no exercises; not graded", ZH: "%s：%s：%s 没有练习；不评分"}
	msgGradeLink        = Text{EN: "%s: %s: a symbolic link, which grade does not follow; not graded", ZH: "%s：%s：是符号链接，grade 不跟随链接；不评分"}
	msgGradeFileLink    = Text{EN: "%s: %s: a symbolic link, which grade does not follow; graded without it", ZH: "%s：%s：是符号链接，grade 不跟随链接；评分时不含这个文件"}
	msgGradeCopyNotDir  = Text{EN: "%s: %s: a file, not a copy of the lab; not graded", ZH: "%s：%s：是文件，不是实验副本；不评分"}
	msgGradeTooLarge    = Text{EN: "%s: %s: its Go files hold more than %d MiB; not graded", ZH: "%s：%s：其中的 Go 文件超过 %d MiB；不评分"}
	msgGradeOlder       = Text{EN: "%s: %s: made by another version of the workbook: its %s marks %s, which the lab no longer has (its exercises: %s); not graded. Grade it with the workbook that made it, or have the learner move their code into a new copy.", ZH: "%s：%s：是另一个版本的练习册生成的：其中的 %s 标记了 %s，而实验里已经没有它了（现在的练习：%s）；不评分。请用生成它的那个版本的练习册来评分，或者让学员把代码搬进一个新副本。"}
	msgGradeOutsideLine = Text{EN: "%s: their code changed %s, outside their copies, when graded alone; every test of theirs fails", ZH: "%s：单独评分时，他们的代码改动了副本之外的 %s；他们的每个测试都算不通过"}
	msgGradeNoRace      = Text{EN: "grade: the race detector did not run (%s): copies of labs with goroutines are graded without it", ZH: "grade：竞态检测器没有运行（%s）：有 goroutine 的实验的副本，评分时没有用它"}
	msgGradeFailedLine  = Text{EN: "%s: go test could not grade their copies: %s", ZH: "%s：go test 没能给他们的副本评分：%s"}

	// the reasons, one line for each test that fails
	msgGradeNotStarted   = Text{EN: "not started", ZH: "还没有开始"}
	msgGradeNotGraded    = Text{EN: "not graded: %s", ZH: "没有评分：%s"}
	msgGradeWhyOlder     = Text{EN: "made by another version of the workbook", ZH: "是另一个版本的练习册生成的"}
	msgGradeWhyLink      = Text{EN: "a symbolic link", ZH: "是符号链接"}
	msgGradeWhyFile      = Text{EN: "a file, not a folder", ZH: "是文件，不是文件夹"}
	msgGradeWhyLarge     = Text{EN: "its Go files are too large", ZH: "其中的 Go 文件太大"}
	msgGradeBuild        = Text{EN: "does not compile: %s", ZH: "编译不通过：%s"}
	msgGradeVet          = Text{EN: "go vet finds a mistake: %s", ZH: "go vet 发现一处错误：%s"}
	msgGradePanicStart   = Text{EN: "panics as the package starts, before any test runs: %s", ZH: "包初始化时就 panic 了，还没有任何测试运行：%s"}
	msgGradeExitStart    = Text{EN: "ends the test program as the package starts, before any test runs", ZH: "包初始化时就结束了测试程序，还没有任何测试运行"}
	msgGradeHangStart    = Text{EN: "never gets to its tests: none had begun after %s", ZH: "一直没有开始运行测试：过了 %s 还没有任何测试开始"}
	msgGradeRule         = Text{EN: "rule %d of %d broken: %s (%s): %s", ZH: "第 %d 条规则（共 %d 条）没满足：%s（%s）：%s"}
	msgGradeTimeout      = Text{EN: "did not finish within %s", ZH: "在 %s 内没有结束"}
	msgGradeTimeoutLock  = Text{EN: "did not finish within %s: a goroutine waits for a mutex that nobody unlocks", ZH: "在 %s 内没有结束：有个 goroutine 在等一把没人解开的互斥锁"}
	msgGradeExited       = Text{EN: "the test program exited in the middle of the test, without a panic (os.Exit, log.Fatal?)", ZH: "测试程序在测试进行到一半时退出了，没有 panic（os.Exit？log.Fatal？）"}
	msgGradeMemory       = Text{EN: "used more than the %d GiB of memory that check allows", ZH: "用掉的内存超过了 check 允许的 %d GiB"}
	msgGradeRace         = Text{EN: "a data race:", ZH: "数据竞争："}
	msgGradeWantGot      = Text{EN: "want %s, got %s", ZH: "期望 %s，实际 %s"}
	msgGradeOutputWaits  = Text{EN: "not checked: the output is checked once every exercise passes", ZH: "没有检查：等每个练习都通过后才检查输出"}
	msgGradeOther        = Text{EN: "a test outside the exercises fails: %s: %s", ZH: "练习之外的一个测试失败了：%s：%s"}
	msgGradeNotChecked   = Text{EN: "not checked: %s", ZH: "没有检查：%s"}
	msgGradeDiffers      = Text{EN: "your output differs from the lab's at line %s: the lab's %s, yours %s", ZH: "你的输出从第 %s 行起和实验的不同：实验的是 %s，你的是 %s"}
	msgGradeDiffersShort = Text{EN: "your output differs from the lab's at line %s", ZH: "你的输出从第 %s 行起和实验的不同"}
	msgGradeOutside      = Text{EN: "not graded: the learner's code changed %s, outside their copies", ZH: "不计分：学员的代码改动了副本之外的 %s"}
	msgGradeCouldNot     = Text{EN: "not graded: go test could not run: %s", ZH: "没有评分：go test 运行不了：%s"}
	msgGradeOutputTitle  = Text{EN: "your output matches the lab's, byte for byte", ZH: "你的输出和实验的输出逐字节相同"}
	msgGradeExercise     = Text{EN: "exercise %d: %s", ZH: "练习 %d：%s"}

	// the table
	msgGradeLearner   = Text{EN: "learner", ZH: "学员"}
	msgGradeTotal     = Text{EN: "total", ZH: "总分"}
	msgGradeLegend    = Text{EN: "Each cell is a lab's points: one for each exercise that passes, and one for output that is the lab's, byte for byte. – not started, ? not graded (see the note above), ! their code changed files outside their copies.", ZH: "每格是一个实验的得分：每通过一个练习得 1 分，输出和实验的逐字节相同再得 1 分。– 未开始，? 没有评分（见上面的说明），! 他们的代码改动了副本之外的文件。"}
	msgGradeLabsLine  = Text{EN: "Labs: %s.", ZH: "各个实验：%s。"}
	msgGradeWhyHeader = Text{EN: "Where a started lab loses points, its first test that fails:", ZH: "已开始的实验在哪里丢了分（第一个不通过的测试）："}
	msgGrading        = Text{EN: "grading %d learners with go test… %d done", ZH: "正在用 go test 给 %d 个学员评分……已完成 %d 个"}
)
