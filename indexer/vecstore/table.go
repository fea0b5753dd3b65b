package vecstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"sort"
	"unsafe"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// The table (the log's name + ".tab") holds the chunks as Compact left
// them, in a form Load reads without replaying anything: fixed-width
// records, their strings in a blob after them, and the vectors laid out
// as the scan reads them, so that a store with no records logged since
// scans the file's pages in place. The format is in doc.go.
const (
	tabMagic  = "CAIRNTAB"
	tabFormat = 1
	tabExt    = ".tab"
	// tabHead is the table header's fixed part, before the embedder's
	// name and the header's checksum.
	tabHead   = 8 + 4 + 4 + 8 + 8 + 8 + 8 + 8 + 4 + 4 + 2
	entrySize = 112
	tagSize   = 8
	vecAlign  = 64
)

// table is what Load read of a table: where its vectors are, for
// Materialize.
type table struct {
	gen    uint64
	n      int   // chunks, slots 0 to n-1 of a freshly loaded store
	vecOff int64 // the codes (n*cd int8), then the scales (n float32)
	vecSum uint32
}

// tabHeader is a table's header, decoded.
type tabHeader struct {
	format, dim     uint32
	gen             uint64
	n, tags, blob   uint64
	vecOff          uint64
	metaSum, vecSum uint32
	name            string
	size            int // of the header in the file
}

// writeTableTo writes the table of the given slots to w, generation
// gen. It holds the records, tags and blob (a tenth of the table at 384
// dimensions) but not the vectors: their checksum is taken first, then
// they are written from the store's codes and scales in pieces, so that
// the compaction that ends a first build does not hold the vectors twice
// over (a copy for the table, and the table whole) next to the store's.
func (s *Store) writeTableTo(w io.Writer, gen uint64, slots []int) error {
	// The blob holds each string once.
	var blob []byte
	at := make(map[string]uint32)
	str := func(b []byte, v string) []byte {
		off, ok := at[v]
		if !ok {
			off = uint32(len(blob))
			at[v] = off
			blob = append(blob, v...)
		}
		b = binary.LittleEndian.AppendUint32(b, off)
		return binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	}
	n := len(slots)
	recs := make([]byte, 0, n*entrySize)
	var tags []byte
	ntags := 0
	for _, slot := range slots {
		e := s.entries[slot]
		recs = str(recs, e.Path)
		for _, v := range []int{e.Seq, e.StartLine, e.StartCol, e.EndLine, e.EndCol, e.Tokens} {
			recs = binary.LittleEndian.AppendUint32(recs, uint32(v))
		}
		for _, v := range []string{e.Title, e.Kind, e.Layer, e.Session, e.Header} {
			recs = str(recs, v)
		}
		recs = binary.LittleEndian.AppendUint32(recs, uint32(ntags))
		recs = binary.LittleEndian.AppendUint32(recs, uint32(len(e.Tags)))
		for _, t := range e.Tags {
			tags = str(tags, t)
		}
		ntags += len(e.Tags)
		recs = binary.LittleEndian.AppendUint64(recs, uint64(e.Created))
		recs = binary.LittleEndian.AppendUint64(recs, uint64(e.Updated))
		recs = binary.LittleEndian.AppendUint64(recs, math.Float64bits(e.Importance))
		recs = binary.LittleEndian.AppendUint64(recs, e.Hash)
	}
	at = nil
	metaSum := crc32.Update(crc32.Update(crc32.Checksum(recs, crcTable), crcTable, tags), crcTable, blob)
	metaLen := len(recs) + len(tags) + len(blob)

	// The vectors as the table lays them out: every slot's codes, then
	// every slot's scale, written a piece at a time.
	const piece = 1 << 16
	buf := make([]byte, 0, piece+s.cd)
	vectors := func(f func([]byte) error) error {
		buf = buf[:0]
		for _, slot := range slots {
			buf = append(buf, unsafe.Slice((*byte)(unsafe.Pointer(&s.codes[slot*s.cd])), s.cd)...)
			if len(buf) >= piece {
				if err := f(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		for _, slot := range slots {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(s.scales[slot]))
			if len(buf) >= piece {
				if err := f(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		if len(buf) > 0 {
			return f(buf)
		}
		return nil
	}
	var vecSum uint32
	vectors(func(b []byte) error { vecSum = crc32.Update(vecSum, crcTable, b); return nil })

	head := make([]byte, 0, tabHead+len(s.name)+4)
	hsize := tabHead + len(s.name) + 4
	vecOff := (hsize + metaLen + vecAlign - 1) &^ (vecAlign - 1)
	head = append(head, tabMagic...)
	head = binary.LittleEndian.AppendUint32(head, tabFormat)
	head = binary.LittleEndian.AppendUint32(head, uint32(s.dim))
	for _, v := range []uint64{gen, uint64(n), uint64(ntags), uint64(len(blob)), uint64(vecOff)} {
		head = binary.LittleEndian.AppendUint64(head, v)
	}
	head = binary.LittleEndian.AppendUint32(head, metaSum)
	head = binary.LittleEndian.AppendUint32(head, vecSum)
	head = binary.LittleEndian.AppendUint16(head, uint16(len(s.name)))
	head = append(head, s.name...)
	head = binary.LittleEndian.AppendUint32(head, crc32.Checksum(head, crcTable))
	pad := make([]byte, vecOff-hsize-metaLen)
	for _, b := range [][]byte{head, recs, tags, blob, pad} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return vectors(func(b []byte) error { _, err := w.Write(b); return err })
}

// sortedSlots returns the live slots in the order of their ids' paths and
// sequence numbers: a table's order, which Slot searches while the store
// is as loaded.
func (s *Store) sortedSlots() []int {
	slots := make([]int, 0, s.Count())
	for slot, e := range s.entries {
		if e != nil {
			slots = append(slots, slot)
		}
	}
	sort.Slice(slots, func(i, j int) bool { return before(s.entries[slots[i]], s.entries[slots[j]]) })
	return slots
}

func before(a, b *Entry) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Seq < b.Seq
}

// readTabHeader reads and checks the header of the table f.
func readTabHeader(f *os.File) (*tabHeader, error) {
	b := make([]byte, tabHead)
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("reading table header: %w", err)
	}
	if !bytes.HasPrefix(b, []byte(tabMagic)) {
		return nil, errors.New("not a cairn chunk table")
	}
	le := binary.LittleEndian
	h := &tabHeader{format: le.Uint32(b[8:]), dim: le.Uint32(b[12:])}
	h.gen, h.n, h.tags, h.blob, h.vecOff = le.Uint64(b[16:]), le.Uint64(b[24:]), le.Uint64(b[32:]), le.Uint64(b[40:]), le.Uint64(b[48:])
	h.metaSum, h.vecSum = le.Uint32(b[56:]), le.Uint32(b[60:])
	nl := int(le.Uint16(b[64:]))
	h.size = tabHead + nl + 4
	// The embedder's name, as long as the log's header allows (a uint16).
	b = append(b, make([]byte, nl+4)...)
	if _, err := f.ReadAt(b[tabHead:], tabHead); err != nil {
		return nil, fmt.Errorf("reading table header: %w", err)
	}
	h.name = string(b[tabHead : tabHead+nl])
	if crc32.Checksum(b[:tabHead+nl], crcTable) != le.Uint32(b[tabHead+nl:]) {
		return nil, errors.New("table header checksum mismatch")
	}
	return h, nil
}

// loadTable reads the table's header and chunks (not its vectors) into
// the empty store, as slots 0 to n-1, sharing its strings: each is a
// view of one blob read from the file, so loading allocates a few large
// slices however many chunks there are. The records are in the order
// Compact wrote them (sortedSlots), which their checksum vouches for.
func (s *Store) loadTable(f *os.File, h *tabHeader) error {
	if h.format != tabFormat {
		return &MismatchError{fmt.Sprintf("chunk table format %d, want %d", h.format, tabFormat)}
	}
	if int(h.dim) != s.dim || h.name != s.name {
		return &MismatchError{fmt.Sprintf("chunk table was made by %s (%d dimensions), the embedder now is %s (%d)", h.name, h.dim, s.name, s.dim)}
	}
	const most = 1 << 32 // chunks, tags or blob bytes: beyond it the header lies
	if h.n >= most || h.tags >= most || h.blob >= most {
		return errors.New("chunk table header: counts out of range")
	}
	n := int(h.n)
	metaLen := n*entrySize + int(h.tags)*tagSize + int(h.blob)
	vecLen := n*s.cd + 4*n
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if h.vecOff < uint64(h.size+metaLen) || h.vecOff%vecAlign != 0 || fi.Size() != int64(h.vecOff)+int64(vecLen) {
		return fmt.Errorf("chunk table is %d bytes, its header says %d", fi.Size(), int64(h.vecOff)+int64(vecLen))
	}
	meta := make([]byte, metaLen)
	if _, err := f.ReadAt(meta, int64(h.size)); err != nil {
		return fmt.Errorf("reading chunk table: %w", err)
	}
	if crc32.Checksum(meta, crcTable) != h.metaSum {
		return errors.New("chunk table: checksum mismatch")
	}
	recs, rest := meta[:n*entrySize], meta[n*entrySize:]
	tagRefs, blob := rest[:int(h.tags)*tagSize], rest[int(h.tags)*tagSize:]
	bad := false
	str := func(b []byte) string {
		off, ln := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
		if ln == 0 {
			return ""
		}
		if uint64(off)+uint64(ln) > uint64(len(blob)) {
			bad = true
			return ""
		}
		return unsafe.String(&blob[off], int(ln))
	}
	tags := make([]string, h.tags)
	for i := range tags {
		tags[i] = str(tagRefs[i*tagSize:])
	}
	slab := make([]Entry, n)
	s.reserve(n)
	s.entries = s.entries[:n]
	le := binary.LittleEndian
	u := func(b []byte, at int) int { return int(le.Uint32(b[at:])) }
	for i := range slab {
		r := recs[i*entrySize : (i+1)*entrySize]
		e := &slab[i]
		e.Path = str(r)
		e.Seq, e.StartLine, e.StartCol, e.EndLine, e.EndCol, e.Tokens = u(r, 8), u(r, 12), u(r, 16), u(r, 20), u(r, 24), u(r, 28)
		e.Title, e.Kind, e.Layer, e.Session, e.Header = str(r[32:]), str(r[40:]), str(r[48:]), str(r[56:]), str(r[64:])
		if first, count := le.Uint32(r[72:]), le.Uint32(r[76:]); count > 0 {
			if uint64(first)+uint64(count) > h.tags {
				return fmt.Errorf("chunk table: record %d: tags beyond the table", i)
			}
			e.Tags = tags[first : first+count : first+count]
		}
		e.Created, e.Updated = int64(le.Uint64(r[80:])), int64(le.Uint64(r[88:]))
		e.Importance = math.Float64frombits(le.Uint64(r[96:]))
		e.Hash = le.Uint64(r[104:])
		e.slot = i
		s.entries[i] = e
	}
	if bad {
		return errors.New("chunk table: a string lies beyond the blob")
	}
	s.tab = &table{gen: h.gen, n: n, vecOff: int64(h.vecOff), vecSum: h.vecSum}
	return nil
}

// writeTable writes the live chunks as a table of generation gen, whole
// and synced (safefile.Write) or not at all.
func (s *Store) writeTable(gen uint64) error {
	slots := s.sortedSlots()
	return safefile.WriteFunc(s.tfile, 0o600, safefile.SyncAll, func(w io.Writer) error {
		return s.writeTableTo(w, gen, slots)
	})
}

// mapTable maps the table's vectors and checks them against their
// checksum. release lets go of the mapping (nil if the file was read).
func (s *Store) mapTable() (codes []int8, scales []byte, release func() error, err error) {
	f, err := os.Open(s.tfile)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	b, unmap, err := mapFile(f)
	if err != nil {
		return nil, nil, nil, err
	}
	n := s.tab.n
	end := s.tab.vecOff + int64(n*s.cd+4*n)
	if int64(len(b)) != end {
		if unmap != nil {
			unmap()
		}
		return nil, nil, nil, fmt.Errorf("%s is %d bytes, want %d", s.tfile, len(b), end)
	}
	v := b[s.tab.vecOff:end]
	if crc32.Checksum(v, crcTable) != s.tab.vecSum {
		if unmap != nil {
			unmap()
		}
		return nil, nil, nil, fmt.Errorf("%s: vectors: checksum mismatch", s.tfile)
	}
	if n == 0 {
		return nil, nil, unmap, nil
	}
	codes = unsafe.Slice((*int8)(unsafe.Pointer(&v[0])), n*s.cd)
	return codes[: n*s.cd : n*s.cd], v[n*s.cd:], unmap, nil
}

// littleEndian reports whether the host lays out float32s as the table
// does, so that its scales can be read in place.
func littleEndian() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }
