// Package capture turns agent transcripts and hook payloads into session
// memory: it ingests transcripts (through internal/transcript), renders a
// session's prompts.md, transcript.md and observations.md, summarises
// segments (through internal/summarize), consolidates what summaries
// found into core items (through internal/consolidate), and runs the
// capture queue's jobs (the worker behind the daemon and cairn queue
// run). Every batch is written through internal/memory's journal, so a
// crash loses nothing and a job applied twice has the effect of once.
// See docs/capture.md.
package capture
