// Package filestate follows what a session's file tools leave in each
// file (what a Read showed, what an Edit or a Write that succeeded left),
// so that a Write of a whole file can say which settings it changed:
// "compatibility_date = \"2024-09-23\"" became "compatibility_date =
// \"2025-03-10\"" though the agent only wrote wrangler.toml anew.
//
// What it keeps stays in memory, for one rendering of a transcript, and
// is bounded: a file's text up to 400 lines, 64 files.
package filestate
