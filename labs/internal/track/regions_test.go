package track

import (
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

func TestLabsAreValid(t *testing.T) {
	require.NotEmpty(t, registry)
	for name, lab := range registry {
		assert.NoError(t, lab.validate(), name)
		assert.Equal(t, name, lab.Name)
	}
}

func TestValidateRefusesIncompleteLabs(t *testing.T) {
	good := func() Lab {
		return Lab{
			Name: "99-x",
			Idea: Text{EN: "an idea"},
			Exercises: []Exercise{{
				ID: "e", Title: Text{EN: "t"}, Section: "Build it yourself",
				Regions: []Region{{File: "a.go", ID: "e", TODO: Text{EN: "todo"}}},
				Rules:   []Rule{{Test: "TestA", Text: Text{EN: "rule"}}},
			}},
			Mistakes: []Mistake{{Name: "m", File: "a.go", Old: "x", New: "y", Rule: "TestA"}},
		}
	}
	l := good()
	require.NoError(t, l.validate())
	for name, spoil := range map[string]func(l *Lab){
		"no exercises":       func(l *Lab) { l.Exercises = nil },
		"no idea":            func(l *Lab) { l.Idea = Text{} },
		"a bad ID":           func(l *Lab) { l.Exercises[0].ID = "Bad ID" },
		"no rules":           func(l *Lab) { l.Exercises[0].Rules = nil },
		"a golden test rule": func(l *Lab) { l.Exercises[0].Rules[0].Test = "TestProgram/x" },
		"a rule twice":       func(l *Lab) { l.Exercises[0].Rules = append(l.Exercises[0].Rules, l.Exercises[0].Rules[0]) },
		"an empty hint":      func(l *Lab) { l.Exercises[0].Hints = []Text{{}} },
		"no TODO":            func(l *Lab) { l.Exercises[0].Regions[0].TODO = Text{} },
		"a mistake's rule":   func(l *Lab) { l.Mistakes[0].Rule = "TestB" },
		"an exercise twice":  func(l *Lab) { l.Exercises = append(l.Exercises, l.Exercises[0]) },
	} {
		l := good()
		l.Exercises[0].Rules = append([]Rule(nil), l.Exercises[0].Rules...)
		spoil(&l)
		assert.Error(t, l.validate(), name)
	}
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
