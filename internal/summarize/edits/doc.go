// Package edits reads what an agent's one-line edits did to a file's
// values: "reminders: 10" → "reminders: 15" gives a setting another
// value, which later statements of the old one are not. No I/O.
package edits
