// Package services is the fake world behind the labs' demo tools: a weather
// service with three stations, a notebook to write, read and delete notes
// in, and a calculator. Each comes with the fakemodel.ToolSpec a model reads
// (a JSON Schema that a real model can use too), its typed arguments, and,
// where a value of the right type can still be wrong, a check that rejects
// it. The arguments are decoded strictly, before the check, by the lab
// (labs/toolargs).
//
// Lab 05, and the tools of lab 06's -chat (labs/talk), wrap each service in
// a tool of their own, in a line or two:
//
//	newTool(services.WeatherSpec, services.CheckWeather, services.NewWeather(clk).LookUp)
//
// Every service has the shape of their tools' functions, Pi's
// execute(toolCallId, args, signal, onUpdate): a context that cancels the
// call, the call's ID, the decoded arguments and a function to report
// progress with.
//
// No lab teaches these services; they give the loop something to run. One
// of them is taught first, though: labs 01 to 04 write the calculator
// themselves, in their calculate.go, and lab 04's calculate.go is where it
// is explained (its arguments, its checks and their messages). Calculate
// and CheckCalculate here behave exactly as lab 04's calculate and
// checkCalculate, and CalculateSpec is its calculateSpec: a test in lab 04
// (calculate_test.go) runs both over the same table, so a change to one
// must be made to the other.
package services
