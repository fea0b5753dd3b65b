// Package ranges reads a transcript file a range of bytes at a time, as
// the daemon follows a growing file: each range parsed once, knowing the
// ids of the lines before it so that a line read before is skipped
// (Cache.Parse), and the events before a range when a capture needs what
// its earlier jobs read (Before).
package ranges

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/internal/transcript/gemini"
)

// A File is a transcript open for Cache.Parse.
type File struct {
	Path string
	R    io.ReaderAt
	Info os.FileInfo // its identity, for the cache of ids; nil: not cached
	Head []byte      // its first bytes, likewise
}

// Parse parses the bytes [from, to) of a transcript, to is a line
// boundary or the end of the file. It is the one parse of a transcript
// that is captured, by Ingest and by the daemon's jobs (catchUp), and so
// the one dedupe rule: a line whose id was read before is skipped, whether
// the earlier line is in the range or before it (transcript.Options.Seen,
// the ids of the lines before from). A file captured a range at a time
// thus gives the events of one pass over it.
//
// The ids before from come from the ids of the last range parsed of the
// same file in this process, or from a parse of the bytes before from.
func (c *Cache) Parse(tf File, format transcript.Format, from, to int64, opts transcript.Options) (*transcript.Parsed, error) {
	seen, err := c.seenBefore(tf, format, from, opts)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, max(to-from, 0))
	if _, err := tf.R.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %s: %w", tf.Path, err)
	}
	opts.Offset, opts.Seen = from, seen
	if format == transcript.FormatGemini && opts.SessionID == "" {
		// Only the first line names the session.
		opts.SessionID = gemini.SessionID(tf.Head)
	}
	p, err := parse(format, buf, opts)
	if err != nil {
		return nil, err
	}
	if p.Consumed > from {
		c.ids.put(tf, p.Consumed, seen, p.IDs)
	}
	return p, nil
}

// maxBefore bounds how much of a transcript before a range Before
// reads: a file is read and then written within a turn or a few.
const maxBefore = 1 << 20

// Before returns the events of the last maxBefore bytes of tf before
// from, from the first whole line on, main then sidechain; none when they
// cannot be read (what needs them then does without). opts are those the
// parse of the range takes: Before sets their Offset and Final.
func Before(tf File, format transcript.Format, from int64, opts transcript.Options) []transcript.Event {
	if from <= 0 {
		return nil
	}
	start := max(0, from-maxBefore)
	if start > 0 {
		buf := make([]byte, min(64<<10, from-start))
		n, _ := tf.R.ReadAt(buf, start)
		nl := bytes.IndexByte(buf[:n], '\n')
		if nl < 0 {
			return nil
		}
		start += int64(nl + 1)
	}
	buf := make([]byte, from-start)
	if n, err := tf.R.ReadAt(buf, start); err != nil && !(errors.Is(err, io.EOF) && n == len(buf)) {
		return nil
	}
	opts.Offset, opts.Final = start, true
	p, err := parse(format, buf, opts)
	if err != nil {
		return nil
	}
	return append(p.Events, p.Sidechain...)
}

// parse is transcript.Parse, and gemini.Parse for Gemini CLI's chats,
// which live in a package of their own.
func parse(f transcript.Format, data []byte, opts transcript.Options) (*transcript.Parsed, error) {
	if f == transcript.FormatGemini {
		return gemini.Parse(data, opts), nil
	}
	return transcript.Parse(f, data, opts)
}

// seenBefore returns the ids of the lines of tf before from.
func (c *Cache) seenBefore(tf File, format transcript.Format, from int64, opts transcript.Options) (map[string]struct{}, error) {
	if from <= 0 {
		return nil, nil
	}
	start, seen := c.ids.get(tf, from)
	// A chunk of whole lines at a time, so that a long transcript is not
	// held in memory at once.
	for size := c.chunk; start < from; {
		buf := make([]byte, min(from-start, size))
		n, err := tf.R.ReadAt(buf, start)
		if err != nil && !(errors.Is(err, io.EOF) && n == len(buf)) {
			return nil, fmt.Errorf("read %s: %w", tf.Path, err)
		}
		if start+int64(n) < from {
			nl := bytes.LastIndexByte(buf, '\n')
			if nl < 0 {
				size *= 2 // a line longer than a chunk
				continue
			}
			buf = buf[:nl+1]
		}
		// Final: every line counts, held back or not.
		p, err := parse(format, buf, transcript.Options{Name: opts.Name, Offset: start, SessionID: opts.SessionID, Final: true, Seen: seen})
		if err != nil {
			return nil, err
		}
		start += int64(len(buf))
		seen = c.ids.put(tf, start, seen, p.IDs)
	}
	return seen, nil
}

// A Cache keeps, for the transcripts parsed last, the ids of their
// lines up to an offset, so that a daemon following a growing file
// parses each line once and not the whole file before every range. It
// is safe for concurrent use.
type Cache struct {
	ids   ids
	chunk int64 // how much of a transcript seenBefore parses at a time
}

// New returns an empty Cache that reads the lines before a range chunk
// bytes at a time (16 MiB when chunk is 0).
func New(chunk int64) *Cache {
	if chunk <= 0 {
		chunk = 16 << 20
	}
	return &Cache{ids: ids{entries: map[string]*idEntry{}}, chunk: chunk}
}

const maxIDFiles = 16

type ids struct {
	mu      sync.Mutex
	entries map[string]*idEntry // by path
}

type idEntry struct {
	fi   os.FileInfo
	head []byte
	upTo int64
	seen map[string]struct{} // never changed once here: parses read it
	used time.Time
}

// get returns the longest known prefix of tf not past from, and its ids;
// 0 and nil when none is known.
func (c *ids) get(tf File, from int64) (int64, map[string]struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[tf.Path]
	if e == nil || !e.same(tf) || e.upTo > from {
		return 0, nil
	}
	e.used = time.Now()
	return e.upTo, e.seen
}

// same reports whether tf is still the file e describes: the same file
// (device and inode), at least as long, and beginning with the same bytes.
func (e *idEntry) same(tf File) bool {
	if tf.Info == nil || e.fi == nil || !os.SameFile(e.fi, tf.Info) || tf.Info.Size() < e.upTo {
		return false
	}
	n := min(len(e.head), len(tf.Head))
	return bytes.Equal(e.head[:n], tf.Head[:n])
}

// put records that the ids of tf's lines before upTo are those of seen
// and more, and returns them.
func (c *ids) put(tf File, upTo int64, seen map[string]struct{}, more []string) map[string]struct{} {
	if len(more) > 0 {
		next := make(map[string]struct{}, len(seen)+len(more))
		maps.Copy(next, seen)
		for _, id := range more {
			next[strings.Clone(id)] = struct{}{}
		}
		seen = next
	}
	if tf.Info == nil {
		return seen
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxIDFiles && c.entries[tf.Path] == nil {
		var oldest string
		for p, e := range c.entries {
			if oldest == "" || e.used.Before(c.entries[oldest].used) {
				oldest = p
			}
		}
		delete(c.entries, oldest)
	}
	c.entries[tf.Path] = &idEntry{fi: tf.Info, head: bytes.Clone(tf.Head[:min(int64(len(tf.Head)), upTo)]), upTo: upTo, seen: seen, used: time.Now()}
	return seen
}
