package main

import "github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"

// tellClock tells the demo clock which calls start, report and end, as the
// run's events say. The clock wakes the calls that wait on it one at a
// time, and only once every call that started waits or has ended, and its
// last report has been shown (see the package democlock); it cannot read
// the lab's events itself. A nil clock does nothing.
func tellClock(clock *democlock.Clock, ev Event) {
	switch ev := ev.(type) {
	case ToolExecutionStart:
		clock.Start(ev.ToolCallID)
	case ToolExecutionUpdate:
		clock.Reported(ev.ToolCallID)
	case ToolExecutionEnd:
		clock.End(ev.ToolCallID)
	}
}
