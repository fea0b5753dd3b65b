//go:build race

package derived

// raceOn: the race detector slows the retirer tenfold; tests of many
// random memories try fewer.
const raceOn = true
