// Package differ tells whether two statements give one thing different
// values: a port, a listener, a command's argument, a place, a schedule,
// a duration, a period, a count out of a total, a claim's value; whether
// two counts are of different things (another path, another compound
// noun, another lead), a size was got or put in, and a rule that holds a
// thing back is lifted. It reads text only; package retire decides with
// it, among its other tests, whether a newer statement retires an older
// one.
package differ
