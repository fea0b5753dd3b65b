// Package differ tells whether two statements give one thing different
// values: a port, a listener, a command's argument, a place, a schedule,
// a duration, a period, a count out of a total, a claim's value. It reads
// text only; package retire decides with it, among its other tests,
// whether a newer statement retires an older one.
package differ
