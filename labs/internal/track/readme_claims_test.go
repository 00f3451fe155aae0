package track

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const readmeWithClaims = "# Lab 09\n" +
	"\n### 1. An exercise\n\n" +
	"<!-- edit -->\n" +
	"```diff\n" +
	"--- labs/09-x/a.go\n" +
	" func a() {\n" +
	"-\treturn 1\n" +
	"+\treturn 2\n" +
	"```\n\n" +
	"<!-- claim: go test -run TestA fails -->\n" +
	"```text\n" +
	"TestA\n" +
	"```\n\n" +
	"```sh\n" +
	"# a shell comment is not a heading\n" +
	"```\n\n" +
	"<!-- claim: exit status 1 of go run ./labs/09-x -flag -->\n" +
	"\n### 2. Another\n\n" +
	"<!-- claim: stdout of go run ./labs/09-x -->\n" +
	"```text\n" +
	"out\n" +
	"```\n"

func TestParseClaims(t *testing.T) {
	claims, err := parseClaims("labs/09-x/README.md", []byte(readmeWithClaims))
	require.NoError(t, err)
	require.Len(t, claims, 3)

	edit := readmeEdit{line: 5, file: "a.go", old: []string{"func a() {", "\treturn 1"}, new: []string{"func a() {", "\treturn 2"}}
	assert.Equal(t, readmeClaim{readme: "labs/09-x/README.md", line: 13, lab: "09-x", edits: []readmeEdit{edit}, kind: "fails", run: "TestA", block: []string{"TestA"}}, claims[0])
	assert.Equal(t, "exit", claims[1].kind)
	assert.Equal(t, 1, claims[1].status)
	assert.Equal(t, []string{"-flag"}, claims[1].args)
	assert.Equal(t, []readmeEdit{edit}, claims[1].edits, "edits hold through the section, over a code block's # lines")
	assert.Equal(t, "stdout", claims[2].kind)
	assert.Empty(t, claims[2].edits, "a heading ends the edits")
	assert.Equal(t, []string{"out"}, claims[2].block)

	none, err := parseClaims("README.md", []byte(readmeWithClaims))
	require.NoError(t, err)
	assert.Empty(t, none, "only a lab's README has claims")
}

func TestParseClaimsRefusesMalformedOnes(t *testing.T) {
	tests := []struct{ name, readme, err string }{
		{"an unknown claim", "<!-- claim: go vet fails -->\n", "a malformed claim or edit marker"},
		{"a claim without its block", "<!-- claim: go test fails -->\ntext\n", "must be followed by a fenced block"},
		{"an edit without a diff", "<!-- edit -->\n```text\nx\n```\n", "opened with ```diff"},
		{"a diff of another lab", "<!-- edit -->\n```diff\n--- labs/08-y/a.go\n-x\n+y\n```\n", "a diff must start with --- labs/09-x/FILE"},
		{"a diff with a bad line", "<!-- edit -->\n```diff\n--- labs/09-x/a.go\n-x\n*y\n```\n", "a diff line must start with"},
		{"a diff that changes nothing", "<!-- edit -->\n```diff\n--- labs/09-x/a.go\n x\n```\n", "changes nothing"},
		{"a claim about another lab", "<!-- claim: exit status 1 of go run ./labs/08-y -->\n", "a claim about labs/08-y"},
		{"an unclosed block", "<!-- claim: go test prints -->\n```text\nx\n", "not closed"},
	}
	for _, tt := range tests {
		_, err := parseClaims("labs/09-x/README.md", []byte(tt.readme))
		assert.ErrorContains(t, err, tt.err, tt.name)
	}
}

func TestApplyAnEdit(t *testing.T) {
	e := readmeEdit{file: "a.go", old: []string{"\treturn 1"}, new: []string{"\treturn 2", "\t// two"}}
	f := files{"a.go": []byte("func a() {\n\treturn 1\n}\n")}
	require.NoError(t, e.apply(f))
	assert.Equal(t, "func a() {\n\treturn 2\n\t// two\n}\n", string(f["a.go"]))
	assert.ErrorContains(t, e.apply(f), "not in a.go: the README is out of date")
	f["a.go"] = []byte("\treturn 1\n\treturn 1\n")
	assert.ErrorContains(t, e.apply(f), "more than once")
	assert.ErrorContains(t, readmeEdit{file: "b.go"}.apply(f), "the lab has no file b.go")
}

// claimRun is a package's tests with these statuses.
func claimRun(statuses map[string]testStatus, order ...string) *pkgRun {
	run := newPkgRun()
	run.built = true
	for _, name := range order {
		run.test(name).status = statuses[name]
	}
	return run
}

func TestFailsClaims(t *testing.T) {
	run := claimRun(map[string]testStatus{
		"TestA": failed, "TestA/one": failed, "TestA/two": failed, "TestA/three": passed, "TestB": passed, "TestC": failed,
	}, "TestA", "TestA/one", "TestA/two", "TestA/three", "TestB", "TestC")
	claim := func(lines ...string) readmeClaim { return readmeClaim{kind: "fails", block: lines} }

	assert.Empty(t, testClaimProblems(claim("TestA", "TestC"), run), "top-level tests")
	assert.Empty(t, testClaimProblems(claim("TestA/one", "TestA/two", "TestC"), run), "every failing subtest of TestA")
	assert.Equal(t, []string{"TestA/two fails too, and the README's list misses it"},
		testClaimProblems(claim("TestA/one", "TestC"), run), "a subtest missing, as lab 06's exercise 4 once was")
	assert.Equal(t, []string{"TestC fails too, and the README's list misses it"}, testClaimProblems(claim("TestA"), run))
	assert.Equal(t, []string{"TestB does not fail, and the README says it does"}, testClaimProblems(claim("TestA", "TestB", "TestC"), run))

	notBuilt := newPkgRun()
	notBuilt.buildOutput = []string{"a.go:1: oops"}
	assert.Equal(t, []string{"the edited lab does not compile:\na.go:1: oops"}, testClaimProblems(claim("TestA"), notBuilt))
}

func TestPassesAndPrintsClaims(t *testing.T) {
	run := claimRun(map[string]testStatus{"TestA": passed}, "TestA")
	run.tests["TestA"].output = []string{"    a_test.go:3: the loop did not end after 50 turns"}
	assert.Empty(t, testClaimProblems(readmeClaim{kind: "passes"}, run))
	assert.Empty(t, testClaimProblems(readmeClaim{kind: "prints", block: []string{"the loop did not end after 50 turns"}}, run))
	problems := testClaimProblems(readmeClaim{kind: "prints", block: []string{"something else"}}, run)
	assert.Equal(t, []string{`the tests do not print "something else"`}, problems)
	assert.Equal(t, []string{"no test ran"}, testClaimProblems(readmeClaim{kind: "passes"}, claimRun(nil)))
	assert.True(t, strings.HasPrefix(testClaimProblems(readmeClaim{kind: "passes"}, claimRun(map[string]testStatus{"TestA": failed}, "TestA"))[0], "TestA fails"))
}
