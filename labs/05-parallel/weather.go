package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/fakemodel/democlock"
)

// weatherTool looks up a city's weather at a fake weather service. Each
// lookup waits on clk for as long as its station's latency: the three cities
// of the demo take 300, 200 and 400 ms, so they finish in an order unlike
// the order they were asked in. With a nil clk, it waits on the machine's
// clock.
func weatherTool(clk *democlock.Clock) Tool {
	return newTool(weatherSpec, checkWeather, weatherService{clk}.lookUp)
}

var weatherSpec = fakemodel.ToolSpec{
	Name:        "weather",
	Description: "Look up the current weather in a city.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"city": {"type": "string", "minLength": 1}},
		"required": ["city"],
		"additionalProperties": false
	}`),
}

type weatherArgs struct {
	City string `json:"city"`
}

func checkWeather(args weatherArgs) error {
	if args.City == "" {
		return errors.New(`field "city" must not be empty`)
	}
	return nil
}

// A station is the fake service's answer for one city.
type station struct {
	report  string
	latency time.Duration
	// progress, if set, is a note the station sends after 100 ms.
	progress string
}

var stations = map[string]station{
	"Oslo":  {report: "Oslo 4 °C, light rain", latency: 300 * time.Millisecond},
	"Lima":  {report: "Lima 19 °C, overcast", latency: 200 * time.Millisecond},
	"Cairo": {report: "Cairo 31 °C, sunny", latency: 400 * time.Millisecond, progress: "the Cairo station is slow, still waiting"},
}

// progressAfter is when a station that sends a progress note sends it.
const progressAfter = 100 * time.Millisecond

// A weatherService answers lookups on its clock.
type weatherService struct {
	clock *democlock.Clock
}

func (w weatherService) lookUp(ctx context.Context, toolCallID string, args weatherArgs, report func(string)) (string, error) {
	s, ok := stations[args.City]
	if !ok {
		return "", fmt.Errorf("no weather station in %s", args.City)
	}
	wait := s.latency
	if s.progress != "" {
		if err := w.clock.Sleep(ctx, toolCallID, progressAfter); err != nil {
			return "", fmt.Errorf("weather in %s: %w", args.City, err)
		}
		report(s.progress)
		wait -= progressAfter
	}
	if err := w.clock.Sleep(ctx, toolCallID, wait); err != nil {
		return "", fmt.Errorf("weather in %s: %w", args.City, err)
	}
	return s.report, nil
}
