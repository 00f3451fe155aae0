package track

import (
	"flag"
	"testing"
)

// verify turns on the track's proof, which builds and tests copies of the
// labs with the go command, and so takes a minute or more of both cores:
//
//	go test ./labs/internal/track -verify
//
// .ci/run runs it on every change; go test ./..., a learner's self-check,
// leaves it out.
var verify = flag.Bool("verify", false, "prove the track: check every starter, solution, typical mistake and README claim (slow)")

// needVerify skips a test that runs the go command on copies of the labs,
// unless -verify asks for the proof.
func needVerify(t *testing.T) {
	t.Helper()
	if !*verify {
		t.Skip("it runs the go command on copies of the labs: go test ./labs/internal/track -verify")
	}
}
