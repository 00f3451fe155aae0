package main

import (
	"encoding/json"

	"github.com/agent-loop-lab/agent-loop-lab/fakemodel"
)

// calculateSpec describes the calculator to the model. This lab has no code
// behind it: the model may ask for calculate, and nothing will run it.
var calculateSpec = fakemodel.ToolSpec{
	Name:        "calculate",
	Description: "Apply an arithmetic operation to two numbers.",
	Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"op": {"type": "string", "enum": ["add", "subtract", "multiply", "divide"]},
			"a": {"type": "number"},
			"b": {"type": "number"}
		},
		"required": ["op", "a", "b"],
		"additionalProperties": false
	}`),
}
