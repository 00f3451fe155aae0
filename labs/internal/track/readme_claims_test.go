package track

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) != 3 {
		t.Fatalf("parseClaims reads %d claims, want 3: %v", len(claims), claims)
	}
	unexported := cmp.AllowUnexported(readmeClaim{}, readmeEdit{})

	edit := readmeEdit{line: 5, file: "a.go", old: []string{"func a() {", "\treturn 1"}, new: []string{"func a() {", "\treturn 2"}}
	want := readmeClaim{readme: "labs/09-x/README.md", line: 13, lab: "09-x", edits: []readmeEdit{edit}, kind: "fails", run: "TestA", block: []string{"TestA"}}
	if diff := cmp.Diff(want, claims[0], unexported); diff != "" {
		t.Errorf("the first claim (-want +got):\n%s", diff)
	}
	if claims[1].kind != "exit" || claims[1].status != 1 || !slices.Equal(claims[1].args, []string{"-flag"}) {
		t.Errorf("the second claim is of kind %q, status %d, arguments %q, want %q, 1, %q", claims[1].kind, claims[1].status, claims[1].args, "exit", []string{"-flag"})
	}
	if diff := cmp.Diff([]readmeEdit{edit}, claims[1].edits, unexported); diff != "" {
		t.Errorf("the second claim's edits differ, want the first's: edits hold through the section, over a code block's # lines (-want +got):\n%s", diff)
	}
	if claims[2].kind != "stdout" {
		t.Errorf("the third claim is of kind %q, want %q", claims[2].kind, "stdout")
	}
	if len(claims[2].edits) != 0 {
		t.Errorf("the third claim has the edits %v, want none: a heading ends the edits", claims[2].edits)
	}
	if want := []string{"out"}; !slices.Equal(claims[2].block, want) {
		t.Errorf("the third claim's block is %q, want %q", claims[2].block, want)
	}

	none, err := parseClaims("README.md", []byte(readmeWithClaims))
	if err != nil {
		t.Fatal(err)
	}
	if len(none) != 0 {
		t.Errorf("the root README has the claims %v, want none: only a lab's README has claims", none)
	}
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
		wantErrorContaining(t, err, tt.err, "%s", tt.name)
	}
}

func TestApplyAnEdit(t *testing.T) {
	e := readmeEdit{file: "a.go", old: []string{"\treturn 1"}, new: []string{"\treturn 2", "\t// two"}}
	f := files{"a.go": []byte("func a() {\n\treturn 1\n}\n")}
	if err := e.apply(f); err != nil {
		t.Fatal(err)
	}
	if got, want := string(f["a.go"]), "func a() {\n\treturn 2\n\t// two\n}\n"; got != want {
		t.Errorf("the edited a.go is %q, want %q", got, want)
	}
	wantErrorContaining(t, e.apply(f), "not in a.go: the README is out of date", "the edit made again")
	f["a.go"] = []byte("\treturn 1\n\treturn 1\n")
	wantErrorContaining(t, e.apply(f), "more than once", "the edit of a line that occurs twice")
	wantErrorContaining(t, readmeEdit{file: "b.go"}.apply(f), "the lab has no file b.go", "an edit of a file the lab does not have")
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

// wantProblems checks the problems found with a claim; none if want is.
// The format and its args say what claim, or why.
func wantProblems(t *testing.T, got, want []string, format string, args ...any) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: the problems are %q, want %q", fmt.Sprintf(format, args...), got, want)
	}
}

func TestFailsClaims(t *testing.T) {
	run := claimRun(map[string]testStatus{
		"TestA": failed, "TestA/one": failed, "TestA/two": failed, "TestA/three": passed, "TestB": passed, "TestC": failed,
	}, "TestA", "TestA/one", "TestA/two", "TestA/three", "TestB", "TestC")
	claim := func(lines ...string) readmeClaim { return readmeClaim{kind: "fails", block: lines} }

	wantProblems(t, testClaimProblems(claim("TestA", "TestC"), run), nil, "top-level tests")
	wantProblems(t, testClaimProblems(claim("TestA/one", "TestA/two", "TestC"), run), nil, "every failing subtest of TestA")
	wantProblems(t, testClaimProblems(claim("TestA/one", "TestC"), run), []string{"TestA/two fails too, and the README's list misses it"},
		"a subtest missing, as lab 06's exercise 4 once was")
	wantProblems(t, testClaimProblems(claim("TestA"), run), []string{"TestC fails too, and the README's list misses it"}, "TestC missing")
	wantProblems(t, testClaimProblems(claim("TestA", "TestB", "TestC"), run), []string{"TestB does not fail, and the README says it does"}, "TestB, which passes, listed")

	notBuilt := newPkgRun()
	notBuilt.buildOutput = []string{"a.go:1: oops"}
	wantProblems(t, testClaimProblems(claim("TestA"), notBuilt), []string{"the edited lab does not compile:\na.go:1: oops"}, "a lab that does not compile")
}

func TestPassesAndPrintsClaims(t *testing.T) {
	run := claimRun(map[string]testStatus{"TestA": passed}, "TestA")
	run.tests["TestA"].output = []string{"    a_test.go:3: the loop did not end after 50 turns"}
	wantProblems(t, testClaimProblems(readmeClaim{kind: "passes"}, run), nil, "passes, of a test that passes")
	wantProblems(t, testClaimProblems(readmeClaim{kind: "prints", block: []string{"the loop did not end after 50 turns"}}, run), nil, "prints, of what the test prints")
	wantProblems(t, testClaimProblems(readmeClaim{kind: "prints", block: []string{"something else"}}, run), []string{`the tests do not print "something else"`}, "prints, of what the test does not print")
	wantProblems(t, testClaimProblems(readmeClaim{kind: "passes"}, claimRun(nil)), []string{"no test ran"}, "passes, of no test")
	if got := testClaimProblems(readmeClaim{kind: "passes"}, claimRun(map[string]testStatus{"TestA": failed}, "TestA")); !strings.HasPrefix(got[0], "TestA fails") {
		t.Errorf("passes, of a test that fails: the first problem is %q, want one that begins %q", got[0], "TestA fails")
	}
}
