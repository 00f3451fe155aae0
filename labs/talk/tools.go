package talk

import (
	"context"
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/scenario"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/services"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
)

// A Tool is a tool of the fake world as lab 06 needs it to build one of its
// own: what the model reads, whether it runs alone, the check of its
// arguments, and the code behind it, with the shape of Pi's
// execute(toolCallId, args, signal, onUpdate). It is a tool of -chat, or a
// fake tool, whose behaviour is data (FakeTool).
type Tool struct {
	// Spec is what the model reads about the tool: its name, what it is
	// for, and the JSON Schema of its arguments.
	Spec fakemodel.ToolSpec
	// Sequential makes a batch that calls the tool run one call at a
	// time.
	Sequential bool
	// Decode checks the arguments the model wrote and turns them into the
	// value Run expects.
	Decode func(raw json.RawMessage) (any, error)
	// Run executes the call with this ID. It returns the result's text,
	// and whether the result asks the run to stop after its batch.
	Run func(ctx context.Context, toolCallID string, args any, report func(partial string)) (content string, terminate bool, err error)
}

// FakeTool returns the tool t of a scenario, or of lab 06's demo: it takes
// any JSON object as its arguments (scenario.Args), and each call does what
// t says for its ID (scenario.Tool.Run), waiting on clock; with a nil
// clock, on the machine's clock.
func FakeTool(clock *democlock.Clock, t scenario.Tool) Tool {
	return Tool{
		Spec:       t.Spec(),
		Sequential: t.Sequential,
		Decode:     func(raw json.RawMessage) (any, error) { return scenario.Args(raw) },
		Run: func(ctx context.Context, toolCallID string, args any, report func(string)) (string, bool, error) {
			return t.Run(ctx, clock, toolCallID, args, report)
		},
	}
}

// serviceTools returns the tools of -chat, the labs' own, from
// fakemodel/services: the calculator, the weather service (Oslo, Lima and
// Cairo) and a notebook (write, read, rm), each with the JSON Schema a real
// model reads. Every call waits on clock, at least for its turn, so that
// the calls of a parallel batch end in the same order on every run; write
// is sequential, so that a read in its batch sees what it wrote.
func serviceTools(clock *democlock.Clock) []Tool {
	nb := services.NewNotebook()
	write := typed(services.WriteSpec, nil, onClock(clock, nb.Write))
	write.Sequential = true
	return []Tool{
		typed(services.CalculateSpec, services.CheckCalculate, onClock(clock, services.Calculate)),
		typed(services.WeatherSpec, services.CheckWeather, services.NewWeather(clock).LookUp),
		write,
		typed(services.ReadSpec, nil, onClock(clock, nb.Read)),
		typed(services.RmSpec, nil, onClock(clock, nb.Rm)),
	}
}

// A service is one of fakemodel/services' functions, for arguments A.
type service[A any] func(ctx context.Context, toolCallID string, args A, report func(partial string)) (string, error)

// typed returns a tool whose arguments are decoded strictly into an A
// (labs/toolargs) and then checked by check, if it is not nil, before run
// sees them: lab 05's newTool.
func typed[A any](spec fakemodel.ToolSpec, check func(A) error, run service[A]) Tool {
	return Tool{
		Spec: spec,
		Decode: func(raw json.RawMessage) (any, error) {
			args, err := toolargs.Decode[A](raw)
			if err == nil && check != nil {
				err = check(args)
			}
			return args, err
		},
		Run: func(ctx context.Context, toolCallID string, args any, report func(string)) (string, bool, error) {
			content, err := run(ctx, toolCallID, args.(A), report)
			return content, false, err
		},
	}
}

// onClock returns run, which returns at once, after it waits its turn on
// clock.
func onClock[A any](clock *democlock.Clock, run service[A]) service[A] {
	return func(ctx context.Context, toolCallID string, args A, report func(string)) (string, error) {
		if err := clock.Sleep(ctx, toolCallID, 0); err != nil {
			return "", err
		}
		return run(ctx, toolCallID, args, report)
	}
}
