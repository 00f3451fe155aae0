package services

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
	"github.com/google/go-cmp/cmp"
)

// noReports is a report function for services that must not report.
func noReports(t *testing.T) func(string) {
	return func(partial string) { t.Errorf("unexpected progress note %q", partial) }
}

func TestWeatherTakesEachStationsLatency(t *testing.T) {
	tests := []struct {
		city, want string
		took       time.Duration
		reports    []string
	}{
		{city: "Oslo", want: "Oslo 4 °C, light rain", took: 300 * time.Millisecond},
		{city: "Lima", want: "Lima 19 °C, overcast", took: 200 * time.Millisecond},
		{city: "Cairo", want: "Cairo 31 °C, sunny", took: 400 * time.Millisecond, reports: []string{"the Cairo station is slow, still waiting"}},
	}
	for _, tt := range tests {
		t.Run(tt.city, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var reports []string
				got, err := NewWeather(nil).LookUp(context.Background(), "call_1", WeatherArgs{City: tt.city}, func(p string) {
					if took := time.Since(start); took != ProgressAfter {
						t.Errorf("the progress note came after %v, want ProgressAfter (%v)", took, ProgressAfter)
					}
					reports = append(reports, p)
				})
				if err != nil {
					t.Fatalf("LookUp(%s): %v", tt.city, err)
				}
				if got != tt.want {
					t.Errorf("LookUp(%s) = %q, want %q", tt.city, got, tt.want)
				}
				if took := time.Since(start); took != tt.took {
					t.Errorf("the lookup took %v, want the station's latency, %v", took, tt.took)
				}
				if diff := cmp.Diff(tt.reports, reports); diff != "" {
					t.Errorf("progress notes (-want +got):\n%s", diff)
				}
			})
		})
	}
}

func TestWeatherFailsForAnUnknownCityAndACancel(t *testing.T) {
	_, err := NewWeather(nil).LookUp(context.Background(), "call_1", WeatherArgs{City: "Atlantis"}, noReports(t))
	wantError(t, "LookUp(Atlantis)", err, "no weather station in Atlantis")

	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := NewWeather(nil).LookUp(ctx, "call_1", WeatherArgs{City: "Oslo"}, noReports(t))
		wantError(t, "LookUp(Oslo) past its deadline", err, "weather in Oslo: context deadline exceeded")
	})
}

func TestCheckWeather(t *testing.T) {
	if err := CheckWeather(WeatherArgs{City: "Oslo"}); err != nil {
		t.Errorf("CheckWeather(Oslo): %v", err)
	}
	wantError(t, "CheckWeather of no city", CheckWeather(WeatherArgs{}), `field "city" must not be empty`)
}

func TestNotebook(t *testing.T) {
	ctx, nb := context.Background(), NewNotebook()
	out, err := nb.Write(ctx, "call_1", WriteArgs{Path: "a", Text: "hello"}, noReports(t))
	wantOutput(t, "Write(a, hello)", out, err, "wrote 5 bytes to a")
	out, err = nb.Write(ctx, "call_1", WriteArgs{Path: "b", Text: "x"}, noReports(t))
	if err != nil {
		t.Fatalf("Write(b, x): %v", err)
	}
	if want := "wrote 1 byte to b"; out != want {
		t.Errorf("Write(b, x) = %q, want %q: one byte, in the singular", out, want)
	}
	out, err = nb.Read(ctx, "call_2", PathArgs{Path: "a"}, noReports(t))
	wantOutput(t, "Read(a)", out, err, "hello")
	out, err = nb.Rm(ctx, "call_3", PathArgs{Path: "a"}, noReports(t))
	wantOutput(t, "Rm(a)", out, err, "deleted a")
	_, err = nb.Read(ctx, "call_4", PathArgs{Path: "a"}, noReports(t))
	wantError(t, "Read(a) after Rm(a)", err, "no note at a")
	_, err = nb.Rm(ctx, "call_5", PathArgs{Path: "a"}, noReports(t))
	wantError(t, "Rm(a) after Rm(a)", err, "no note at a")
}

func TestNotebooksDoNotShareNotes(t *testing.T) {
	ctx := context.Background()
	if _, err := NewNotebook().Write(ctx, "call_1", WriteArgs{Path: "a", Text: "x"}, noReports(t)); err != nil {
		t.Fatalf("Write(a, x): %v", err)
	}
	_, err := NewNotebook().Read(ctx, "call_2", PathArgs{Path: "a"}, noReports(t))
	wantError(t, "Read(a) in a new notebook, which is empty", err, "no note at a")
}

// TestCalculate checks the calculator's answers and messages. Lab 04's
// calculate_test.go runs this package's calculator and lab 04's over one table.
func TestCalculate(t *testing.T) {
	tests := []struct {
		args      CalculateArgs
		want, err string
	}{
		{args: CalculateArgs{Op: "add", A: 2, B: 3}, want: "5"},
		{args: CalculateArgs{Op: "subtract", A: 2, B: 3}, want: "-1"},
		{args: CalculateArgs{Op: "multiply", A: 23, B: 17}, want: "391"},
		{args: CalculateArgs{Op: "divide", A: 1, B: 3}, want: "0.3333333333333333"},
		{args: CalculateArgs{Op: "divide", A: 1, B: 0}, err: "division by zero"},
	}
	for _, tt := range tests {
		if err := CheckCalculate(tt.args); err != nil {
			t.Fatalf("CheckCalculate(%+v): %v", tt.args, err)
		}
		got, err := Calculate(context.Background(), "call_1", tt.args, noReports(t))
		call := fmt.Sprintf("Calculate(%+v)", tt.args)
		if tt.err != "" {
			wantError(t, call, err, tt.err)
			continue
		}
		wantOutput(t, call, got, err, tt.want)
	}
	power := CalculateArgs{Op: "power", A: 2, B: 3}
	wantError(t, fmt.Sprintf("CheckCalculate(%+v)", power), CheckCalculate(power), `field "op" must be add, subtract, multiply or divide, not "power"`)
	inexact := CalculateArgs{Op: "add", A: 2, B: -1e16}
	wantError(t, fmt.Sprintf("CheckCalculate(%+v)", inexact), CheckCalculate(inexact), `field "b" must be within ±9007199254740992, not -1e+16`)
	if err := CheckCalculate(CalculateArgs{Op: "add", A: 1 << 53, B: -(1 << 53)}); err != nil {
		t.Errorf("CheckCalculate of ±2⁵³, which is exact: %v", err)
	}
}

// TestSchemasMatchTheArguments keeps the schema a model reads in step with
// what the labs' decoder (labs/toolargs) accepts: the same fields, all of
// them required, and no other.
func TestSchemasMatchTheArguments(t *testing.T) {
	tests := []struct {
		spec   fakemodel.ToolSpec
		fields []string
	}{
		{WeatherSpec, toolargs.Fields[WeatherArgs]()},
		{WriteSpec, toolargs.Fields[WriteArgs]()},
		{ReadSpec, toolargs.Fields[PathArgs]()},
		{RmSpec, toolargs.Fields[PathArgs]()},
		{CalculateSpec, toolargs.Fields[CalculateArgs]()},
	}
	for _, tt := range tests {
		var schema struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tt.spec.Parameters, &schema); err != nil {
			t.Fatalf("%s: the schema is not JSON: %v", tt.spec.Name, err)
		}
		if schema.Type != "object" {
			t.Errorf("%s: the schema's type is %q, want %q", tt.spec.Name, schema.Type, "object")
		}
		fields := sorted(tt.fields)
		if required := sorted(schema.Required); !slices.Equal(required, fields) {
			t.Errorf("%s: the schema requires %q, want %q, in any order", tt.spec.Name, required, fields)
		}
		if properties := slices.Sorted(maps.Keys(schema.Properties)); !slices.Equal(properties, fields) {
			t.Errorf("%s: the schema's properties are %q, want %q, in any order", tt.spec.Name, properties, fields)
		}
		// The decoder refuses unknown fields: the schema must say so.
		switch {
		case schema.AdditionalProperties == nil:
			t.Errorf("%s: the schema does not set additionalProperties, want false", tt.spec.Name)
		case *schema.AdditionalProperties:
			t.Errorf("%s: the schema sets additionalProperties true, want false", tt.spec.Name)
		}
		if tt.spec.Description == "" {
			t.Errorf("%s: the tool has no description", tt.spec.Name)
		}
	}
}

// sorted returns a sorted copy of s.
func sorted(s []string) []string {
	return slices.Sorted(slices.Values(s))
}

// wantOutput checks that call succeeded with the output want; a call that
// failed ends the test.
func wantOutput(t *testing.T, call, got string, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", call, err)
	}
	if got != want {
		t.Errorf("%s = %q, want %q", call, got, want)
	}
}

// wantError checks that call failed with the error want.
func wantError(t *testing.T, call string, err error, want string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: no error, want %q", call, want)
	case err.Error() != want:
		t.Errorf("%s: error %q, want %q", call, err, want)
	}
}
