// Package ui owns how cairn's command line shows its results: for each
// result type a text renderer, for people, and a JSON renderer, whose
// shapes are the contracts README.md and docs/ document (cairn log --json,
// search --json, context --format json, ...). A command's JSON has this
// one home; cmd/cairn parses flags, calls one function and renders here.
// Where a command only fetches what it shows (cairn session show, list,
// status, sync, ...), that one function is here too: it takes the open
// memory and a writer, does the work through the package that owns it
// and prints the result.
//
// The shared pieces live here too: JSON's indentation, terminal
// detection, the progress bar, tables, and Escape, which every text
// renderer applies to what came from memory files or remotes (titles,
// snippets, subjects, tags, paths), so that a control character in a
// title cannot drive the terminal.
package ui
