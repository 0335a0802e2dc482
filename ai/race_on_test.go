//go:build race

package ai

// raceOn says the tests run under the race detector.
const raceOn = true
