package assoc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// magic starts a table's file; its number changes with the format.
const magic = "cairn-assoc 1\n"

// The file, after magic (numbers are unsigned varints):
//
//	chunks      the index's chunks
//	terms       how many words follow
//	per word    length, bytes; how many chunks; their numbers, each
//	            as the difference from the one before
//	crc32       of all the above, 4 bytes big-endian (IEEE)

// Save writes t to name, atomically.
func (t *Table) Save(name string) error {
	var b bytes.Buffer
	b.WriteString(magic)
	put := func(x uint64) { b.Write(binary.AppendUvarint(nil, x)) }
	put(uint64(t.chunks))
	put(uint64(len(t.terms)))
	for i, term := range t.terms {
		put(uint64(len(term)))
		b.WriteString(term)
		put(uint64(len(t.post[i])))
		prev := uint32(0)
		for _, c := range t.post[i] {
			put(uint64(c - prev))
			prev = c
		}
	}
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	if err := safefile.Write(name, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("save term associations: %w", err)
	}
	return nil
}

// Load reads the table name holds.
func Load(name string) (*Table, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("load term associations: %w", err)
	}
	t, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("load term associations: %s: %w", name, err)
	}
	return t, nil
}

func decode(data []byte) (*Table, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, errors.New("not a term association file")
	}
	body, sum := data[:len(data)-4], data[len(data)-4:]
	if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(sum) {
		return nil, errors.New("checksum mismatch")
	}
	r := bufio.NewReader(bytes.NewReader(body[len(magic):]))
	var err error // the first error reading
	num := func() uint64 {
		x, e := binary.ReadUvarint(r)
		if e != nil && err == nil {
			err = e
		}
		return x
	}
	str := func() string {
		n := num()
		if err != nil || n > uint64(len(body)) {
			err = errors.New("damaged")
			return ""
		}
		s := make([]byte, n)
		if _, e := io.ReadFull(r, s); e != nil {
			err = e
		}
		return string(s)
	}
	chunks := num()
	n := num()
	if err != nil || n > uint64(len(body)) || chunks > 1<<32 {
		return nil, errors.New("damaged")
	}
	terms, post := make([]string, 0, n), make([][]uint32, 0, n)
	for range n {
		term := str()
		m := num()
		if err != nil || m > chunks {
			return nil, errors.New("damaged")
		}
		p := make([]uint32, m)
		c := uint64(0)
		for j := range p {
			c += num()
			if c >= chunks {
				return nil, errors.New("damaged: a chunk number out of range")
			}
			p[j] = uint32(c)
		}
		if len(terms) > 0 && term <= terms[len(terms)-1] {
			return nil, errors.New("damaged: words out of order")
		}
		terms, post = append(terms, term), append(post, p)
	}
	if err != nil {
		return nil, fmt.Errorf("damaged: %w", err)
	}
	if _, e := r.ReadByte(); e != io.EOF {
		return nil, errors.New("damaged: bytes after the last word")
	}
	return newTable(int(chunks), terms, post), nil
}

// A Cache holds the table of one index, read at its first use: from its
// file if that was saved from the index at about its size, else from
// the index (then saved). The zero value is ready; its methods are safe
// for concurrent use.
type Cache struct {
	mu sync.Mutex
	t  *Table
}

// Table returns the table of ix, kept in the file name. The table is
// statistics: it is read again from the index when the index has grown
// or shrunk by more than a tenth since (reading it is about the cost of
// a search at 6,000 chunks, too much for each checkpoint), or when its
// file is missing or damaged. Failing to save it costs the next process
// the same reading, nothing else.
func (c *Cache) Table(ctx context.Context, name string, ix *indexer.Index) (*Table, error) {
	n := ix.Count()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t != nil && c.t.fits(n) {
		return c.t, nil
	}
	t, err := Load(name)
	if err != nil || !t.fits(n) {
		if t, err = Build(ctx, ix); err != nil {
			return nil, err
		}
		t.Save(name)
	}
	c.t = t
	return t, nil
}

// fits says whether t was read from an index of about n chunks.
func (t *Table) fits(n int) bool {
	d := t.chunks - n
	return 10*max(d, -d) <= t.chunks
}

// Related returns up to n words related to query's in ix, the best
// weighing weight (Table.Related), through the table kept in the file
// name: none when n or weight is 0 or the table cannot be read, since a
// search never fails for them.
func (c *Cache) Related(ctx context.Context, name string, ix *indexer.Index, query string, n int, weight float64) []indexer.Term {
	if n <= 0 || weight <= 0 {
		return nil
	}
	t, err := c.Table(ctx, name, ix)
	if err != nil {
		return nil
	}
	return t.Related(ix.Terms(query), n, weight)
}
