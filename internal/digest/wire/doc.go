// Package wire is the binary form of what digest keeps between packs:
// varints, strings, and lists, sets and maps of strings, with a nil list
// or map kept apart from an empty one (each length is stored plus one,
// nil as 0) and a map's keys written sorted, so the same value gives the
// same bytes. A Decoder reads from a string without copying: what it
// returns shares the string's bytes.
package wire
