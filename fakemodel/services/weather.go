package services

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// WeatherSpec describes the weather lookup to the model.
var WeatherSpec = fakemodel.ToolSpec{
	Name:        "weather",
	Description: "Look up the current weather in a city.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"city": {"type": "string", "minLength": 1}},
		"required": ["city"],
		"additionalProperties": false
	}`),
}

// WeatherArgs are the arguments of a weather lookup.
type WeatherArgs struct {
	// City is the city to look up.
	City string `json:"city"`
}

// CheckWeather rejects a lookup without a city, as the schema's minLength
// does.
func CheckWeather(args WeatherArgs) error {
	if args.City == "" {
		return errors.New(`field "city" must not be empty`)
	}
	return nil
}

// A station is the fake service's answer for one city.
type station struct {
	report  string
	latency time.Duration
	// progress, if set, is a note the station sends after ProgressAfter.
	progress string
}

// stations are the service's cities. They take 300, 200 and 400 ms, so a
// batch that asks for Oslo, Lima and Cairo sees them finish in an order
// unlike the order it asked in.
var stations = map[string]station{
	"Oslo":  {report: "Oslo 4 °C, light rain", latency: 300 * time.Millisecond},
	"Lima":  {report: "Lima 19 °C, overcast", latency: 200 * time.Millisecond},
	"Cairo": {report: "Cairo 31 °C, sunny", latency: 400 * time.Millisecond, progress: "the Cairo station is slow, still waiting"},
}

// ProgressAfter is when a slow station, Cairo's, reports that it is still
// working: 100 ms into its lookup.
const ProgressAfter = 100 * time.Millisecond

// A Weather is the fake weather service. It knows Oslo (300 ms), Lima
// (200 ms) and Cairo (400 ms, with a progress note after 100 ms).
type Weather struct {
	clock *democlock.Clock
}

// NewWeather returns a weather service whose lookups wait on clk, for as
// long as each station's latency. With a nil clk they wait on the machine's
// clock.
func NewWeather(clk *democlock.Clock) Weather {
	return Weather{clock: clk}
}

// LookUp returns the weather in args.City. It waits on the service's clock
// as the call toolCallID, and reports Cairo's progress note through report.
// A city without a station is an error, and so is a cancelled wait.
func (w Weather) LookUp(ctx context.Context, toolCallID string, args WeatherArgs, report func(partial string)) (string, error) {
	s, ok := stations[args.City]
	if !ok {
		return "", fmt.Errorf("no weather station in %s", args.City)
	}
	wait := s.latency
	if s.progress != "" {
		if err := w.clock.Sleep(ctx, toolCallID, ProgressAfter); err != nil {
			return "", fmt.Errorf("weather in %s: %w", args.City, err)
		}
		w.clock.Report(ctx, toolCallID) // no other call goes on before the report is shown
		report(s.progress)
		wait -= ProgressAfter
	}
	if err := w.clock.Sleep(ctx, toolCallID, wait); err != nil {
		return "", fmt.Errorf("weather in %s: %w", args.City, err)
	}
	return s.report, nil
}
