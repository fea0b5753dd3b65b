package watcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

const (
	// readChunk is how much is read at a time looking for a line's end.
	readChunk = 64 << 10
	// maxUUIDLine is the longest line whose uuid is looked up: past it,
	// a delta goes without one rather than decode megabytes.
	maxUUIDLine = 256 << 10
)

// lastLineEnd returns the offset just past the last '\n' in [from, size) of
// r, or from when there is none: the end of the last complete line. A half
// written line at the end is left for later. It also returns the
// fingerprint of the bytes before that end (see tailHash), taken from the
// same read, so that it describes the bytes handed out even if the file
// changes right after.
func lastLineEnd(r io.ReaderAt, from, size int64) (int64, string, error) {
	buf := make([]byte, min(readChunk, max(size-from, 0)))
	for end := size; end > from; {
		start := max(from, end-readChunk)
		b := buf[:end-start]
		n, err := r.ReadAt(b, start)
		if err != nil && !errors.Is(err, io.EOF) {
			return from, "", err
		}
		if i := bytes.LastIndexByte(b[:n], '\n'); i >= 0 {
			end := start + int64(i) + 1
			if k := min(end, tailLen); end-k >= start {
				return end, fingerprint(b[end-k-start : end-start]), nil
			}
			tail, err := tailHash(r, end)
			return end, tail, err
		}
		end = start
	}
	return from, "", nil
}

// lineUUIDs returns the top-level "uuid" of the first and the last line of
// [from, to), a range of complete lines, when those lines are JSON objects
// that have one (Claude Code's transcripts do).
func lineUUIDs(r io.ReaderAt, from, to int64) (first, last string) {
	if to <= from {
		return "", ""
	}
	// The first line.
	n := min(to-from, maxUUIDLine)
	b := make([]byte, n)
	if k, _ := r.ReadAt(b, from); int64(k) == n {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			first = lineUUID(b[:i])
			if from+int64(i)+1 == to {
				return first, first // one line
			}
		}
	}
	// The last line: it ends at to-1.
	n = min(to-from, maxUUIDLine)
	b = b[:n]
	if k, _ := r.ReadAt(b, to-n); int64(k) == n {
		b = b[:n-1] // its '\n'
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 || n == to-from {
			last = lineUUID(b[i+1:])
		}
	}
	return first, last
}

func lineUUID(line []byte) string {
	if len(line) == 0 || line[0] != '{' {
		return ""
	}
	var v struct {
		UUID string `json:"uuid"`
	}
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
	return v.UUID
}
