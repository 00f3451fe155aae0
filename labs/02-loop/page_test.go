package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-loop-lab/agent-loop-lab/expected"
	"github.com/agent-loop-lab/agent-loop-lab/labs/stepper/steppertest"
)

// stepThrough runs the program with -html - and args, and reads the page
// it writes to standard output.
func stepThrough(t *testing.T, args ...string) *steppertest.Page {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), append([]string{"-html", "-"}, args...), &stdout, &stderr), "the program writes its page") {
		t.FailNow()
	}
	p, err := steppertest.Read(stdout.Bytes())
	if !expected.NoError(t, err, "the page reads back") {
		t.FailNow()
	}
	return p
}

// TestThePageStepsThroughTheSixSteps reads the run's page (-html): a step
// for each of the six steps the loop took, named as this README names
// them, and the counts the README gives: 2 turns, 3 steps (2 requests and
// 1 tool execution) and 4 messages.
func TestThePageStepsThroughTheSixSteps(t *testing.T) {
	p := stepThrough(t)
	var steps []string
	for _, s := range p.Steps {
		steps = append(steps, s.Loop)
	}
	expected.Equal(t, []string{"1", "2", "3", "4", "5", "2", "3", "end"}, steps, "the steps the loop took, by their numbers in loop.go")
	expected.Equal(t, "2 · ask the model, sending the full history", p.Steps[1].Label, "step 2's name")
	expected.Equal(t, "the loop ends: 2 turns, stop reason completed", p.Steps[7].Label, "the last step")

	atResult := p.At(5)
	expected.Equal(t, []string{"user", "assistant", "toolResult"}, atResult.Roles(), "the history once step 5 appended the result")
	expected.True(t, atResult.History[2].New && atResult.History[2].Text == "391", "step 5 adds the result 391, marked new: %+v", atResult.History[2])
	expected.Equal(t, "3 messages, the whole history: user, assistant, toolResult", p.At(6).Request, "the second request sends the full history")

	end := p.At(len(p.Steps))
	expected.Equal(t, []string{"user", "assistant", "toolResult", "assistant"}, end.Roles(), "the history at the end")
	expected.Equal(t, [4]int{2, 2, 1, 4}, [4]int{end.Turn, end.Requests, end.Execs, end.Messages}, "turns, requests, tool executions and messages at the end")
	expected.Includes(t, end.Notes, "answer: 23 × 17 = 391.", "the page ends with the answer")
}

// TestHTMLWritesThePageToAFile runs -html FILE: the page goes to the file,
// and standard output says where, in one line.
func TestHTMLWritesThePageToAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.html")
	var stdout, stderr bytes.Buffer
	if !expected.NoError(t, run(context.Background(), []string{"-html", file, "-lang", "zh"}, &stdout, &stderr), "the program writes its page") {
		return
	}
	expected.Equal(t, 1, strings.Count(stdout.String(), "\n"), "standard output is one line: %q", stdout.String())
	expected.Contains(t, stdout.String(), "open file://", "the line says how to open the page")
	page, err := os.ReadFile(file)
	expected.NoError(t, err, "the page is in its file")
	expected.Contains(t, string(page), "第 2 步 · 请求模型，发送完整历史", "with -lang zh, the page's own words are Chinese")
	expected.Contains(t, string(page), "I will use the calculator.", "what the run says stays as it said it")
}
