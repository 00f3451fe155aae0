package expected

import (
	"os"
	"testing"
)

// VerifyEnv is the environment variable that asks for the workbook's
// proof: the tests that prove the workbook itself, rather than a learner's
// loop, and take the go command seconds or minutes to run. go test ./...,
// the README's self-check, leaves them out; a maintainer, and .ci/run, run
// them with
//
//	AGENT_LOOP_LAB_VERIFY=1 go test ./...
const VerifyEnv = "AGENT_LOOP_LAB_VERIFY"

// Verification skips the test unless the proof is asked for (VerifyEnv).
func Verification(t testing.TB) {
	t.Helper()
	if os.Getenv(VerifyEnv) != "1" {
		t.Skip("part of the workbook's proof: " + VerifyEnv + "=1 go test ./...")
	}
}
