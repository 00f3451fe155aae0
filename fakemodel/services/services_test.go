package services

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
	"github.com/agent-loop-lab/agent-loop-lab/labs/toolargs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
					assert.Equal(t, ProgressAfter, time.Since(start), "the note comes after ProgressAfter")
					reports = append(reports, p)
				})
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				assert.Equal(t, tt.took, time.Since(start), "the lookup takes the station's latency")
				assert.Equal(t, tt.reports, reports)
			})
		})
	}
}

func TestWeatherFailsForAnUnknownCityAndACancel(t *testing.T) {
	_, err := NewWeather(nil).LookUp(context.Background(), "call_1", WeatherArgs{City: "Atlantis"}, noReports(t))
	assert.EqualError(t, err, "no weather station in Atlantis")

	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := NewWeather(nil).LookUp(ctx, "call_1", WeatherArgs{City: "Oslo"}, noReports(t))
		assert.EqualError(t, err, "weather in Oslo: context deadline exceeded")
	})
}

func TestCheckWeather(t *testing.T) {
	assert.NoError(t, CheckWeather(WeatherArgs{City: "Oslo"}))
	assert.EqualError(t, CheckWeather(WeatherArgs{}), `field "city" must not be empty`)
}

func TestNotebook(t *testing.T) {
	ctx, nb := context.Background(), NewNotebook()
	out, err := nb.Write(ctx, "call_1", WriteArgs{Path: "a", Text: "hello"}, noReports(t))
	require.NoError(t, err)
	assert.Equal(t, "wrote 5 bytes to a", out)
	out, err = nb.Write(ctx, "call_1", WriteArgs{Path: "b", Text: "x"}, noReports(t))
	require.NoError(t, err)
	assert.Equal(t, "wrote 1 byte to b", out, "one byte, in the singular")
	out, err = nb.Read(ctx, "call_2", PathArgs{Path: "a"}, noReports(t))
	require.NoError(t, err)
	assert.Equal(t, "hello", out)
	out, err = nb.Rm(ctx, "call_3", PathArgs{Path: "a"}, noReports(t))
	require.NoError(t, err)
	assert.Equal(t, "deleted a", out)
	_, err = nb.Read(ctx, "call_4", PathArgs{Path: "a"}, noReports(t))
	assert.EqualError(t, err, "no note at a")
	_, err = nb.Rm(ctx, "call_5", PathArgs{Path: "a"}, noReports(t))
	assert.EqualError(t, err, "no note at a")
}

func TestNotebooksDoNotShareNotes(t *testing.T) {
	ctx := context.Background()
	_, err := NewNotebook().Write(ctx, "call_1", WriteArgs{Path: "a", Text: "x"}, noReports(t))
	require.NoError(t, err)
	_, err = NewNotebook().Read(ctx, "call_2", PathArgs{Path: "a"}, noReports(t))
	assert.EqualError(t, err, "no note at a", "a new notebook is empty")
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
		require.NoError(t, CheckCalculate(tt.args), "%+v", tt.args)
		got, err := Calculate(context.Background(), "call_1", tt.args, noReports(t))
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, "%+v", tt.args)
			continue
		}
		require.NoError(t, err, "%+v", tt.args)
		assert.Equal(t, tt.want, got, "%+v", tt.args)
	}
	assert.EqualError(t, CheckCalculate(CalculateArgs{Op: "power", A: 2, B: 3}), `field "op" must be add, subtract, multiply or divide, not "power"`)
	assert.EqualError(t, CheckCalculate(CalculateArgs{Op: "add", A: 2, B: -1e16}), `field "b" must be within ±9007199254740992, not -1e+16`)
	assert.NoError(t, CheckCalculate(CalculateArgs{Op: "add", A: 1 << 53, B: -(1 << 53)}), "±2⁵³ itself is exact")
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
		require.NoError(t, json.Unmarshal(tt.spec.Parameters, &schema), tt.spec.Name)
		assert.Equal(t, "object", schema.Type, tt.spec.Name)
		assert.ElementsMatch(t, tt.fields, schema.Required, tt.spec.Name)
		assert.ElementsMatch(t, tt.fields, slices.Collect(maps.Keys(schema.Properties)), tt.spec.Name)
		// The decoder refuses unknown fields: the schema must say so.
		if assert.NotNil(t, schema.AdditionalProperties, tt.spec.Name) {
			assert.False(t, *schema.AdditionalProperties, tt.spec.Name)
		}
		assert.NotEmpty(t, tt.spec.Description, tt.spec.Name)
	}
}
