// Command labs is the workbook's front door for building each lab
// yourself: it copies a lab into _mywork/ with its central code cut out,
// checks your code with the lab's own tests, and gives hints. An
// instructor grades a class's copies with it.
//
//	go run ./labs              your progress and the next thing to do
//	go run ./labs start 02     copy lab 02 into _mywork/02-loop
//	go run ./labs check 02     what still fails, and what to do next
//	go run ./labs grade DIR... grade a class: a row for each learner
//	go run ./labs -h           every command
//
// The machinery is in labs/internal/track.
package main

import (
	"github.com/agent-loop-lab/agent-loop-lab/labs/cli"
	"github.com/agent-loop-lab/agent-loop-lab/labs/internal/track"
)

// main runs the front door as the labs run their programs: the first
// Ctrl-C cancels the command, which stops the go test it runs; a second
// one ends the process at once, with status 130.
func main() { cli.Main(track.Run) }
