//go:build !race

package track

// raceEnabled: the tests run with the race detector.
const raceEnabled = false
