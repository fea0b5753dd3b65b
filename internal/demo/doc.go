// Package demo owns what `cairn demo` works on: a temporary project (a
// git repository of its own with one commit, so that checkpoints record
// a code commit), the bundled sample memory (data/items.yaml), a Claude
// Code session transcript to ingest (data/session.jsonl, the repository's
// testdata/transcripts/claude/basic.jsonl), and the hand edit the demo
// makes to show that cairn finds changes made without it.
//
// The demo's steps are cairn's own commands, run and printed by
// cmd/cairn; this package only builds what they run on, so that the
// command stays wiring and the sample data lives in one place.
package demo
