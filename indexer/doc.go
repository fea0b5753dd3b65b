// Package indexer owns cairn's search index: it splits documents into
// chunks, indexes them for keyword search (Bleve, BM25) and for vector
// search (its own brute-force cosine index), and answers hybrid queries
// by reciprocal rank fusion.
//
// It is the one API of the index. Packages below it own parts that
// stand alone: indexer/chunk how a body is cut into chunks (and the
// token estimate, which this package re-exports with the chunking
// options as EstimateTokens and ChunkOptions), indexer/vecstore the
// chunk metadata and vectors (the vectors and vectors.i8 files, their
// format, quantisation and the scan), and indexer/embed the embedders,
// which this package re-exports (HashEmbedder, OpenAIEmbedder), so that
// callers import it alone.
//
// It knows nothing of memory kinds, git or the command line. Callers hand
// it Documents (a path, some fields, a body) and get Hits back (a chunk of
// a document with its line range, fields, keyword, vector and fused
// scores, and, given Options.Source, its text and a marked snippet, at
// once or, for the hits the caller shows, from FillText). What
// the fields mean, and what version of the world the index reflects, is
// the caller's business (SetVersion records an opaque string).
//
// Typical use:
//
//	ix, err := indexer.Open(ctx, dir, indexer.Options{Source: os.DirFS(root)})
//	if errors.Is(err, indexer.ErrNeedsRebuild) {
//		log.Printf("%v; rebuilding", err)
//		ix, err = indexer.Rebuild(ctx, dir, opts) // then Put everything
//	}
//	err = ix.Put(ctx, docs...)      // replaces each path's chunks
//	err = ix.Delete(ctx, paths...)
//	err = ix.SetVersion(ctx, commit)
//	res, err := ix.Search(ctx, indexer.Query{Text: q, K: 10})
//
// On disk an index is a directory:
//
//	meta.json   schema version, recorded version, embedder, chunking, chunk count
//	bleve/      the Bleve (scorch) full-text index; nothing stored in it
//	vectors.tab the chunks (metadata and int8 vectors) as last compacted:
//	            fixed-width records, read without parsing
//	vectors     chunk metadata written since: an append-only, checksummed log
//	vectors.i8  the log's vectors, quantised to int8 with a scale each,
//	            each checksummed in the log (all three: see indexer/vecstore)
//	lock        flock held by the one process that has the index open
//
// Open reads meta.json, Bleve (read-only: see openBleve), the table's
// records and the vectors log, not the vectors: they are read on the
// first vector or hybrid search or write, so a keyword search never
// reads a vector. The first write reopens Bleve for writing.
//
// A damaged, incomplete or outdated index is reported by Open as
// ErrNeedsRebuild (a *RebuildError saying why); one held by another
// process as ErrLocked, at once or after Options.LockTimeout. Damage
// inside vectors.i8 shows only when it is read: the first vector or
// hybrid Search, Put or Delete then fails with ErrNeedsRebuild, as do
// all later ones (keyword searches go on working).
package indexer
