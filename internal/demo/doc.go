// Package demo owns what `cairn demo` works on: a temporary project (a
// git repository of its own with one commit, so that checkpoints record
// a code commit), the bundled sample memory (data/items.yaml), a Claude
// Code session transcript to ingest (data/session.jsonl, the repository's
// testdata/transcripts/claude/basic.jsonl), and the hand edit the demo
// makes to show that cairn finds changes made without it.
//
// It owns the demo's steps too (Run): their titles, the command lines
// shown, and their order. The steps are cairn's own commands, which
// cmd/cairn runs for it (Options.Cairn) in the project, so that the
// command stays wiring and the demo shows exactly what a person would
// type.
package demo
