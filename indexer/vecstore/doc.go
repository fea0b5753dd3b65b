// Package vecstore is the vector half of cairn's search index: each
// chunk's metadata (an Entry: path, lines, title, kind, dates,
// importance, a hash of its text) and its embedding, quantised to int8,
// kept in memory and in two files, and searched by brute-force inner
// product (AVX2 on amd64). The indexer package is its only user; it knows
// nothing of Bleve, embedders or queries.
//
// # Files
//
// A store is three files: the table (the log's name + ".tab"), which
// holds the chunks as the last compaction left them, the log (the
// index's "vectors"), which holds what was written since, and the log's
// vectors (the log's name + ".i8").
//
// The table is read without replaying anything: fixed-width records,
// their strings in one blob after them, and the vectors laid out as the
// scan reads them. Load reads the header, records, tags and blob (one
// read, one checksum) and makes each record an Entry whose strings are
// views of the blob, with no allocation per chunk; the path map that
// writes need is made at the first write, and Slot finds a chunk by a
// binary search of the records, which are in path and sequence order. The
// vectors stay in the file until the first vector search, which maps it
// and, when nothing was logged since the table, scans the mapped pages
// in place after checking their checksum (a write copies them into
// memory first). All numbers little-endian:
//
//	header:  "CAIRNTAB" | u32 format (1) | u32 dim | u64 generation | u64 chunks |
//	         u64 tags | u64 blob bytes | u64 vectors offset | u32 crc32c(records, tags, blob) |
//	         u32 crc32c(codes, scales) | u16 len | embedder name | u32 crc32c(header)
//	records: per chunk, 112 bytes: path (u32 offset, u32 length in the blob) |
//	         u32 seq, start line, start column, end line, end column, tokens |
//	         title, kind, layer, session, header (each offset and length) |
//	         u32 first tag, u32 tags | i64 created, updated | f64 importance | u64 text hash
//	tags:    per tag, its offset and length in the blob
//	blob:    the strings, each once
//	(zeros to the vectors offset, a multiple of 64)
//	codes:   per chunk, codeDim(dim) int8 codes (dim rounded up to 16, zero padded)
//	scales:  per chunk, a float32
//
// Compact writes a table, whole and synced, under a new name renamed
// over the old (safefile.Write), when the log holds over 256 records and
// over a quarter as many as the last table has chunks (a first build
// ends with one), when dead records outnumber live ones, or when the log
// was of format 5 (before tables: it is read once, the old way, and
// written as a table). Its generation is one more than the last; then
// the vectors file is emptied and the log rewritten as a header naming
// that generation. A log naming an older generation than the table's
// is what a crash between the two leaves: the table holds its records,
// and Load empties it. A log naming a table that is missing, or newer
// than the one there, is damage.
//
// The log holds every chunk's metadata and where its vector is, for
// what was written since the table. It is a header, then records that
// put a chunk or delete a path's chunks, appended at each write (Append;
// fsynced, vectors first, by Sync, or at once by Commit) and replayed by
// Load:
//
//	header:  "CAIRNVEC" | u32 format (6) | u32 dim | u16 len | embedder name | u64 table generation (0: none) | u32 crc32c
//	record:  u32 len | u32 crc32c(payload) | payload
//	payload: 1 (put) | fields | u32 crc32c(vector) | varint offset in the vectors file
//	         2 (delete) | uvarint len | path
//
// A put's fields are coded against the previous put's (chunks of a file,
// and files of a session, follow each other, so most cost a byte or two):
// the path as the length of the prefix it shares and the rest; seq,
// lines, columns and tokens as uvarints; the title as the length of the
// end it shares and the rest; kind; layer and session as 1 when they are
// the previous one's, else 0 and the string; the tags; the header (the
// line that heads the chunk's text) as 1 when it is the previous one's,
// else 0 and the string; created as a
// varint difference from the previous one's and updated from created;
// importance in thousandths plus one when that is exact, else 0 and its
// float64 bits; the text's hash; and the vector's offset as the
// difference from the end of the previous one's. Strings are a uvarint
// length and the bytes; fixed-size numbers are little-endian.
//
// The vectors file (the log's name + ".i8") holds the vectors, appended
// before the records that name them. Each is quantised: a little-endian
// float32 scale and dim int8 codes, code = round(x / scale) and scale =
// max|x| / 127, a quarter of the float32 vector's bytes. Searches use the
// codes alone (scanning with the query's int8 codes, then rescoring the
// best with the float32 query), so nothing keeps the float32 vectors; on
// cairn's labelled set hit@k is the same as with float32, and a search
// finds 98.6% of the exact top 10.
//
// Load reads the table's chunks and the log, so a keyword search never
// reads a vector; the vectors are read, and checked against their
// checksums, on the first Search, Commit or Compact (Materialize).
// Vectors appended without a record (a crash between the two appends)
// are never named and go at the next compaction.
//
// A log that does not parse to the end is corrupt, as is a table whose
// size, records or checksums are wrong, or a vector that fails its
// checksum (a *CorruptError): the index needs a rebuild. A torn
// append can only follow a crash before the caller recorded the version
// its index reflects, so the rebuild loses nothing. A log of another
// format, embedder or dimension is a *MismatchError.
//
// A table's strings are views of its blob and its tags share one slice:
// callers must not change an Entry (as before), and the scales are read
// in place only where the host is little-endian.
package vecstore
