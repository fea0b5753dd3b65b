// Package replace reads what replacing one line of a file with another
// says, as a command's "s/old/new/" or an edit gives the two lines: the
// value of a named thing that changed ("reminders: 3" → "reminders: 15"),
// a dependency pin given another package, a port a mapping or an address
// gave up, a lower bound raised, and a file written whole with one value.
// The retirer (package digest) reads older statements against them.
package replace
