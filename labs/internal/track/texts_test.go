package track

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryTextHasAChineseVersion checks that a learner who reads Chinese
// reads Chinese throughout the track: every message of the front door, the
// heading of every README section an exercise points to, and every lab's
// idea, titles, TODOs, rules and hints. Each subtest names the file that
// lacks texts and lists them, so that a translator knows what is left.
func TestEveryTextHasAChineseVersion(t *testing.T) {
	t.Run("front door", func(t *testing.T) {
		var missing []string
		for _, lit := range frontDoorTexts(t) {
			if lit.text.ZH == "" {
				missing = append(missing, fmt.Sprintf("%s: %q", lit.pos, lit.text.EN))
			}
		}
		reportMissing(t, "the front door's files", missing)
	})
	// A lab's texts are checked as its exercises.json is read (Lab.validate).
}

// reportMissing fails t with the list of texts that where lacks in Chinese.
func reportMissing(t *testing.T, where string, missing []string) {
	t.Helper()
	if len(missing) > 0 {
		t.Errorf("%s: %d texts have no Chinese version (ZH):\n  %s", where, len(missing), strings.Join(missing, "\n  "))
	}
}

// A textLiteral is a Text written in the package's source, with where.
type textLiteral struct {
	pos  string
	text Text
}

// frontDoorTexts reads the Text literals with a literal EN in the package's
// source, except the tests and the labs' files: the front door's texts.
func frontDoorTexts(t *testing.T) []textLiteral {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []textLiteral
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Text" {
				return true
			}
			var text Text
			literal := false
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				b, ok := kv.Value.(*ast.BasicLit)
				if !ok || b.Kind != token.STRING {
					continue
				}
				s, err := strconv.Unquote(b.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(b.Pos()), err)
				}
				switch kv.Key.(*ast.Ident).Name {
				case "EN":
					text.EN, literal = s, true
				case "ZH":
					text.ZH = s
				}
			}
			if literal {
				p := fset.Position(lit.Pos())
				out = append(out, textLiteral{pos: fmt.Sprintf("%s:%d", p.Filename, p.Line), text: text})
			}
			return false
		})
	}
	if len(out) <= 20 {
		t.Fatalf("the front door's files hold %d texts, want more than 20: are they all found?", len(out))
	}
	return out
}

// chinese is an environment with a Chinese locale and no colour.
func chinese(name string) string {
	return map[string]string{"LANG": "zh_CN.UTF-8", "NO_COLOR": "1"}[name]
}

// TestTheFrontDoorSpeaksChinese checks that a Chinese locale, or -lang zh
// in any locale, gives the Chinese texts, and that they point to the
// Chinese README and its heading.
func TestTheFrontDoorSpeaksChinese(t *testing.T) {
	wb := testWorkbook(t, false)

	res := runIn(t, wb, chinese, "-h")
	wantStatus(t, res, 0)
	wantContains(t, res.stdout, "用法：go run ./labs", "%s in a Chinese locale", res)
	res = runCommand(t, wb, "-lang", "zh", "-h")
	wantContains(t, res.stdout, "用法：go run ./labs", "%s: -lang zh before -h", res)
	res = runIn(t, wb, chinese, "-lang", "en", "-h")
	wantContains(t, res.stdout, "Usage: go run ./labs", "%s: -lang en in a Chinese locale", res)

	res = runCommand(t, wb, "-lang", "zh", "check", "99")
	wantStatus(t, res, 2)
	wantContains(t, res.stderr, `没有叫 "99" 的实验`, "%s: standard error", res)
	wantContains(t, res.stderr, "命令：start、check", "%s: standard error", res)

	lab := labOf(t, "02-loop")
	ex := &lab.Exercises[0]
	reg := ex.Regions[0]
	res = runIn(t, wb, chinese, "start", "02")
	if res.status != 0 {
		t.Fatalf("%s in a Chinese locale: exit status %d, want 0; standard error:\n%s", res, res.status, res.stderr)
	}
	wantContains(t, res.stdout, "已开始 02-loop", "%s in a Chinese locale", res)
	wantContains(t, res.stdout, "练习 1："+ex.Title.ZH, "%s in a Chinese locale", res)
	wantContains(t, res.stdout, "先读 README.zh-CN.md 的「自己动手写（Build it yourself）」一节", "%s in a Chinese locale", res)
	src := readFile(t, filepath.Join(wb.copyDir("02-loop"), reg.File))
	wantContains(t, string(src), "// "+firstLine(reg.TODO.ZH), "the starter's TODO is in Chinese")

	r := &report{lab: lab, rel: "_mywork/02-loop", exercises: []exerciseResult{{exercise: ex, broken: 0, finding: &finding{why: msgNoMessage}}}}
	var out bytes.Buffer
	r.write(newPrinter(&out, Chinese, false), "")
	wantContains(t, out.String(), fmt.Sprintf("✗ 练习 1：%s\n  没满足的规则（第 1 条，共 %d 条）：", ex.Title.ZH, len(ex.Rules)), "the report in Chinese")
	wantContains(t, out.String(), "下一步：写练习 1，写在 "+reg.ID+" 标记处，文件是 _mywork/02-loop/"+reg.File+"。讲解见 README.zh-CN.md 的「自己动手写（Build it yourself）」一节。", "the report in Chinese")
	out.Reset()
	r.write(newPrinter(&out, English, false), "")
	wantContains(t, out.String(), "Next: write exercise 1 at the "+reg.ID+" markers in _mywork/02-loop/"+reg.File+` (README.md, section "Build it yourself").`, "the report in English")
}

// TestTheHelpsLanguageIsTheLastLangWhereverItComes checks that -lang
// chooses the help's language whether it comes before -h or after it, in
// every spelling, with or without a command.
func TestTheHelpsLanguageIsTheLastLangWhereverItComes(t *testing.T) {
	wb := testWorkbook(t, false)
	for _, args := range [][]string{
		{"-lang", "zh", "-h"}, {"-h", "-lang", "zh"}, {"-h", "-lang=zh"}, {"-h", "--lang", "zh"},
		{"check", "-h", "-lang", "zh"}, {"-lang", "en", "-h", "-lang", "zh"},
	} {
		res := runIn(t, wb, english, args...)
		wantStatus(t, res, 0)
		if !strings.HasPrefix(res.stdout, "用法：") {
			t.Errorf("%s does not print the help in Chinese; its first line:\n%s", res, firstLineOf(res.stdout))
		}
	}
	for _, args := range [][]string{{"-h"}, {"-h", "-lang", "en"}, {"-lang", "zh", "-h", "-lang", "en"}} {
		res := runIn(t, wb, english, args...)
		if !strings.HasPrefix(res.stdout, "Usage: ") {
			t.Errorf("%s does not print the help in English; its first line:\n%s", res, firstLineOf(res.stdout))
		}
	}
}

// firstLineOf is the first line of a text.
func firstLineOf(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// TestTheNextCommandsKeepTheLearnersLanguage checks that the commands the
// front door advises carry the -lang that chose a language the locale
// would not give, so that the next command answers in it too, and carry
// no -lang that the locale makes needless.
func TestTheNextCommandsKeepTheLearnersLanguage(t *testing.T) {
	for _, tt := range []struct {
		env  func(string) string
		args []string
		flag string // the flag each command must carry, or ""
	}{
		{english, []string{"-lang", "zh"}, "-lang zh"},
		{chinese, []string{"-lang", "en"}, "-lang en"},
		{chinese, []string{"-lang", "zh"}, ""},
		{english, nil, ""},
	} {
		wb := testWorkbook(t, false)
		var said []string
		for _, cmd := range [][]string{{"check", "02"}, {"start", "02"}, {"start", "02"}} {
			res := runIn(t, wb, tt.env, append(slices.Clone(tt.args), cmd...)...)
			said = append(said, res.stdout+res.stderr)
		}
		// A report that check prints, and the last hint, which names a
		// command within a message.
		lab := labOf(t, "02-loop")
		var out bytes.Buffer
		s := &session{wb: wb, out: newPrinter(&out, English, false), errOut: newPrinter(io.Discard, English, false)}
		s.out.langFlag = tt.flag
		r := &report{lab: lab, rel: "_mywork/02-loop", exercises: []exerciseResult{{exercise: &lab.Exercises[0], broken: 0, finding: &finding{why: msgNoMessage}}}}
		r.write(s.out, "")
		for range len(lab.Exercises[0].Rules[0].Hints) + 1 {
			if err := s.hintFor(lab, r); err != nil {
				t.Fatal(err)
			}
		}
		said = append(said, out.String())

		commands := 0
		for _, text := range said {
			for _, part := range strings.Split(text, "go run ./labs ")[1:] {
				commands++
				switch {
				case tt.flag == "" && strings.HasPrefix(part, "-lang"):
					t.Errorf("with %q and the locale's LANG=%s, a command carries a -lang the locale makes needless: go run ./labs %s", tt.args, tt.env("LANG"), firstLineOf(part))
				case tt.flag != "" && !strings.HasPrefix(part, tt.flag+" "):
					t.Errorf("with %q and the locale's LANG=%s, a command lacks %s: go run ./labs %s", tt.args, tt.env("LANG"), tt.flag, firstLineOf(part))
				case tt.flag != "" && strings.HasPrefix(part, tt.flag+" "+tt.flag):
					t.Errorf("a command carries %s twice: go run ./labs %s", tt.flag, firstLineOf(part))
				}
			}
		}
		if commands < 5 {
			t.Errorf("with %q, the front door advised %d commands, want at least 5 to check:\n%s", tt.args, commands, strings.Join(said, "\n"))
		}
	}
}
