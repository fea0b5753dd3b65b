//go:build !race

package derived

const raceOn = false
