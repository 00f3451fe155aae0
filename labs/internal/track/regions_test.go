package track

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const withRegions = `package main

func f() int {
	// exercise: one
	x := 1
	return x
	// end of exercise: one
}

func g() {
		// exercise: two
		println()
		// end of exercise: two
}
`

func TestFindRegions(t *testing.T) {
	regions, err := findRegions([]byte(withRegions))
	require.NoError(t, err)
	assert.Equal(t, []region{
		{id: "one", indent: "\t", begin: 3, end: 6},
		{id: "two", indent: "\t\t", begin: 10, end: 12},
	}, regions)
}

func TestFindRegionsRefusesMalformedMarkers(t *testing.T) {
	tests := []struct{ name, src, err string }{
		{"nested", "// exercise: a\n// exercise: b\n// end of exercise: b\n// end of exercise: a", "line 2: region b begins inside region a"},
		{"an end without a beginning", "// end of exercise: a", "line 1: the end of region a has no beginning"},
		{"the wrong end", "// exercise: a\n// end of exercise: b", "line 2: the end of region b has no beginning"},
		{"no end", "// exercise: a\nx", "region a has no end"},
		{"twice", "// exercise: a\n// end of exercise: a\n// exercise: a\n// end of exercise: a", "line 3: region a occurs twice"},
		{"misspelt", "//exercise: a", `line 1: a malformed region marker: "//exercise: a"`},
		{"upper case", "// exercise: A", `line 1: a malformed region marker: "// exercise: A"`},
		{"indented differently", "\t// exercise: a\n// end of exercise: a", "line 2: the end of region a is indented differently from its beginning"},
	}
	for _, tt := range tests {
		_, err := findRegions([]byte(tt.src))
		assert.EqualError(t, err, tt.err, tt.name)
	}
}

func TestStarterReplacesOnlyTheBodies(t *testing.T) {
	src := []byte(withRegions)
	regions, err := findRegions(src)
	require.NoError(t, err)
	r := Region{TODO: Text{EN: "TODO: write f.\n\nSee README.md."}, Code: "return 0"}
	got := string(replaceRegions(src, regions, map[string][]string{"one": r.starterLines(English)}))
	assert.Equal(t, `package main

func f() int {
	// exercise: one
	// TODO: write f.
	//
	// See README.md.
	return 0
	// end of exercise: one
}

func g() {
		// exercise: two
		println()
		// end of exercise: two
}
`, got, "region two is not cut: it keeps its body")

	after, err := findRegions([]byte(got))
	require.NoError(t, err)
	assert.Equal(t, outside(src, regions), outside([]byte(got), after), "outside the regions, nothing changed")
}

func TestStarterLinesTakeTheLanguage(t *testing.T) {
	r := Region{TODO: Text{EN: "write it", ZH: "写出它"}}
	assert.Equal(t, []string{"// 写出它"}, r.starterLines(Chinese))
	assert.Equal(t, []string{"// write it"}, r.starterLines(English))
	r.TODO.ZH = ""
	assert.Equal(t, []string{"// write it"}, r.starterLines(Chinese), "an untranslated text falls back to English")
}

func TestStarterOfAnUnknownRegionIsAnError(t *testing.T) {
	lab := &Lab{Name: "xx-lab", Exercises: []Exercise{{ID: "e", Regions: []Region{{File: "a.go", ID: "missing"}}}}}
	_, err := starter(lab, files{"a.go": []byte(withRegions)}, lab.allExercises(), English)
	assert.ErrorContains(t, err, "labs/xx-lab/a.go has no region missing")
}

func TestEveryLabsExercisesAreRead(t *testing.T) {
	wb := openedWorkbook(t)
	require.NotEmpty(t, wb.tracks, "some labs have exercises")
	for _, name := range wb.labs {
		lab := wb.lab(name)
		_, err := os.Stat(filepath.Join(wb.labDir(name), exercisesFile))
		if assert.Equal(t, err == nil, lab != nil, "%s: a lab has exercises when it has %s", name, exercisesFile) && lab != nil {
			assert.Equal(t, name, lab.Name)
		}
	}
}

// aLab is a small valid exercises.json.
const aLab = `{
  "idea": {"en": "an idea", "zh": "一个概念"},
  "section": {"en": "Build it yourself", "zh": "自己动手写（Build it yourself）"},
  "exercises": [{
    "id": "e",
    "title": {"en": "t", "zh": "题"},
    "regions": [{"file": "a.go", "id": "e", "todo": {"en": ["TODO:", "write it"], "zh": "TODO：写出来"},
      "code": ["return nil"], "hints": [{"en": "h", "zh": "提示"}]}],
    "rules": [{"test": "TestA", "text": {"en": "rule", "zh": "规则"}, "hints": [{"en": "h", "zh": "提示"}]}]
  }],
  "mistakes": [{"name": "m", "file": "a.go", "old": ["x", "y"], "new": "z", "rule": "TestA"}]
}`

func TestExercisesAreData(t *testing.T) {
	l, err := parseLab("99-x", []byte(aLab))
	require.NoError(t, err)
	assert.Equal(t, "99-x", l.Name)
	assert.Equal(t, "TODO:\nwrite it", l.Exercises[0].Regions[0].TODO.EN, "a list of lines is one text")
	assert.Equal(t, "TODO：写出来", l.Exercises[0].Regions[0].TODO.ZH)
	assert.Equal(t, Lines("x\ny"), l.Mistakes[0].Old)
	assert.Equal(t, Lines("z"), l.Mistakes[0].New)

	for name, tt := range map[string]struct{ from, to, err string }{
		"a misspelt field":    {`"idea"`, `"ideas"`, `unknown field "ideas"`},
		"a misspelt language": {`"zh": "一个概念"`, `"cn": "一个概念"`, `a text has an English version (en) and a Chinese one (zh), and no "cn"`},
		"a number for a text": {`"h", "zh": "提示"}]}],
    "rules"`, `1, "zh": "提示"}]}],
    "rules"`, "cannot unmarshal a text that is not a string or a list of lines into Go struct field Region.exercises.regions.hints"},
		"broken JSON": {`"mistakes": [`, `"mistakes": [,`, "line 11: invalid character"},
		"two values": {`"rule": "TestA"}]
}`, `"rule": "TestA"}]
} {}`, "more than one JSON value"},
		"no Chinese":            {`"zh": "规则"`, `"zh": ""`, "exercise e: rule TestA: text: needs an English text (en) and a Chinese one (zh)"},
		"a rule without hints":  {`"text": {"en": "rule", "zh": "规则"}, "hints": [{"en": "h", "zh": "提示"}]`, `"text": {"en": "rule", "zh": "规则"}, "hints": []`, "exercise e: rule TestA: no hints"},
		"code without hints":    {`"code": ["return nil"], "hints": [{"en": "h", "zh": "提示"}]`, `"code": ["return nil"]`, "exercise e: region e in a.go: no hints"},
		"a bad ID":              {`"id": "e",`, `"id": "Bad ID",`, `exercise ID "Bad ID"`},
		"a golden test":         {`"test": "TestA"`, `"test": "TestProgram/x"`, "the golden tests are every lab's last rule"},
		"a mistake's rule":      {`"rule": "TestA"`, `"rule": "TestB"`, `mistake "m": needs`},
		"an untranslated title": {`"title": {"en": "t", "zh": "题"}`, `"title": {"en": "t"}`, "exercise e: title: needs"},
	} {
		require.Contains(t, aLab, tt.from, name)
		_, err := parseLab("99-x", []byte(strings.Replace(aLab, tt.from, tt.to, 1)))
		assert.ErrorContains(t, err, tt.err, name)
	}
}

func TestTextsAndLinesWriteWhatTheyRead(t *testing.T) {
	for _, text := range []Text{{EN: "one line", ZH: "一行"}, {EN: "two\nlines", ZH: "两\n行"}} {
		data, err := json.Marshal(text)
		require.NoError(t, err)
		var back Text
		require.NoError(t, json.Unmarshal(data, &back))
		assert.Equal(t, text, back)
	}
	data, err := json.Marshal(Text{EN: "a\nb", ZH: "c"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"en": ["a", "b"], "zh": "c"}`, string(data))
}

func TestRuleTestsAreTopLevelAndOnce(t *testing.T) {
	lab := &Lab{Exercises: []Exercise{
		{Rules: []Rule{{Test: "TestA/one"}, {Test: "TestB"}}},
		{Rules: []Rule{{Test: "TestA/two"}}},
	}}
	assert.Equal(t, []string{"TestA", "TestB"}, lab.ruleTests())
	assert.Equal(t, "^(TestA|TestB)$", anyOf(lab.ruleTests()))
	assert.Equal(t, "^TestA$/^one_\\(x\\)$", runPattern("TestA/one_(x)"))
	assert.True(t, strings.HasPrefix(anyOf([]string{"TestZ", "TestA"}), "^(TestA|"), "sorted")
}
