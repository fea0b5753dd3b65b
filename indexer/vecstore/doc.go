// Package vecstore is the vector half of cairn's search index: each
// chunk's metadata (an Entry: path, lines, title, kind, dates,
// importance, a hash of its text) and its embedding, quantised to int8,
// kept in memory and in two files, and searched by brute-force inner
// product (AVX2 on amd64). The indexer package is its only user; it knows
// nothing of Bleve, embedders or queries.
//
// # Files
//
// The log (the index's "vectors") holds every chunk's metadata and where
// its vector is. It is a header, then records that put a chunk or delete
// a path's chunks, appended at each write (Append; fsynced, vectors
// first, by Sync, or at once by Commit), replayed by Load, and rewritten without dead records (Compact) when
// they outnumber the live ones:
//
//	header:  "CAIRNVEC" | u32 format | u32 dim | u16 len | embedder name | u32 crc32c
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
// Load reads only the log, so a keyword search never reads a vector; the
// vectors file is read, and each vector checked against its record's
// checksum, on the first Search, Commit or Compact (Materialize). Vectors
// appended without a record (a crash between the two appends) are never
// named and go at the next compaction.
//
// A log that does not parse to the end is corrupt, as is a vector that
// fails its checksum (a *CorruptError): the index needs a rebuild. A torn
// append can only follow a crash before the caller recorded the version
// its index reflects, so the rebuild loses nothing. A log of another
// format, embedder or dimension is a *MismatchError.
package vecstore
