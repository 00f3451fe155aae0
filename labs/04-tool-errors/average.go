package main

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// average is a tool with a bug: it divides by the length of its list
// without checking that the list has any numbers, so an empty list makes it
// panic with an integer division by zero. The loop must survive it.
var average = newTool(averageSpec, nil, func(ctx context.Context, args averageArgs) (string, error) {
	sum := 0
	for _, n := range args.Numbers {
		sum += n
	}
	return strconv.Itoa(sum / len(args.Numbers)), nil
})

// averageSpec describes average to the model.
var averageSpec = fakemodel.ToolSpec{
	Name:        "average",
	Description: "Return the average of a list of whole numbers, rounded toward zero.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {"numbers": {"type": "array", "items": {"type": "integer"}}},
		"required": ["numbers"],
		"additionalProperties": false
	}`),
}

// averageArgs are the arguments of average.
type averageArgs struct {
	Numbers []int `json:"numbers"`
}
