// Package keep decides what the memory's work tree and repository keep:
// the retention of archived sessions' transcripts (capture.transcripts_keep,
// capture.keep_summaries_only), cairn gc (retention, then a repack of the
// repository), cairn purge (a path no longer carried forward, history
// untouched) and cairn migrate (files of older schemas rewritten in one
// checkpoint).
//
// Everything here forgets visibly: each change is a checkpoint, so
// history keeps what left the work tree and cairn restore brings it back.
// Only the repack removes objects, and never a reachable one.
package keep
