package main

import "github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"

// tellClock tells the demo clock which calls start and end, as the run's
// events say. The clock wakes the calls that wait on it one at a time, and
// only once every call that started waits or has ended (see the package
// democlock); it cannot read the lab's events itself. A nil clock does
// nothing.
func tellClock(clock *democlock.Clock, ev Event) {
	switch ev := ev.(type) {
	case ToolExecutionStart:
		clock.Start(ev.ToolCallID)
	case ToolExecutionEnd:
		clock.End(ev.ToolCallID)
	}
}
