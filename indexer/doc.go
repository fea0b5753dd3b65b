// Package indexer owns cairn's search index: it splits documents into
// chunks, indexes them for keyword search (Bleve, BM25) and for vector
// search (its own brute-force cosine index), and answers hybrid queries
// by reciprocal rank fusion.
//
// It knows nothing of memory kinds, git or the command line. Callers hand
// it Documents (a path, some fields and a body) and get Hits back (a chunk
// of a document with its line range, its fields and its scores). The
// caller decides what the fields mean and what version of the world the
// index reflects (SetVersion records an opaque string).
//
// On disk an index is a directory:
//
//	meta.json   schema version, recorded version, embedder, chunking settings
//	bleve/      the Bleve (scorch) full-text index: nothing stored
//	vectors     chunk metadata and vectors, an append-only log (see vecstore.go)
//	lock        held (flock) by the one process that has the index open
//
// A damaged or outdated index is reported by Open as ErrNeedsRebuild; a
// held one as ErrLocked.
package indexer
