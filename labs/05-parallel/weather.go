package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// weather looks up a city's weather at a fake weather service. Each lookup
// takes as long as its station's latency: the three cities of the demo take
// 300, 200 and 400 ms, so they finish in an order unlike the order they
// were asked in.
var weather = newTool(weatherSpec, checkWeather, lookUpWeather)

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

// declared returns the latencies of lookups for cities: the slowest, and
// their sum.
func declared(cities []string) *latencies {
	var l latencies
	for _, city := range cities {
		l.slowest = max(l.slowest, stations[city].latency)
		l.sum += stations[city].latency
	}
	return &l
}

// progressAfter is when a station that sends a progress note sends it. It
// is 100 ms away from every other event of the demo, so that the note comes
// at the same place in the output on every run.
const progressAfter = 100 * time.Millisecond

func lookUpWeather(ctx context.Context, args weatherArgs, report func(string)) (string, error) {
	s, ok := stations[args.City]
	if !ok {
		return "", fmt.Errorf("no weather station in %s", args.City)
	}
	wait := s.latency
	if s.progress != "" {
		if err := sleep(ctx, progressAfter); err != nil {
			return "", fmt.Errorf("weather in %s: %w", args.City, err)
		}
		report(s.progress)
		wait -= progressAfter
	}
	if err := sleep(ctx, wait); err != nil {
		return "", fmt.Errorf("weather in %s: %w", args.City, err)
	}
	return s.report, nil
}

// sleep waits for d, or until ctx is cancelled.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
