package indexer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// The vectors file holds every chunk's metadata and where its vector is.
// It is a log: a header, then records that put a chunk or delete a path's
// chunks, appended and fsynced after each write to Bleve, replayed on
// open, and rewritten without dead records when they outnumber the live
// ones. The vectors themselves are appended to vectors.i8 before the
// records that name them, quantised: each is a little-endian float32
// scale and dim int8 codes (code = round(x / scale), scale = max|x| /
// 127), a quarter of the float32 vector's bytes. Searches use the codes
// alone (see search), so nothing keeps the float32 vectors.
//
//	header: "CAIRNVEC" | u32 format | u32 dim | u16 len | embedder name | u32 crc
//	record: u32 len | u32 crc32c(payload) | payload
//	payload: 1 (put) | fields (see logBuf.put) | u32 crc32c(vector) | uvarint offset in vectors.i8
//	         2 (delete) | uvarint len | path
//
// Opening the index reads only the log, so a keyword search never reads a
// vector; vectors.i8 is read, and each vector checked, on the first
// vector search or write. Vectors appended
// without a record (a crash between the two appends) are never named
// and go at the next compaction.
//
// A file that does not parse to the end is corrupt: the index needs a
// rebuild (a torn append can only follow a crash before the caller
// recorded the version, so the rebuild loses nothing).
const (
	vecMagic  = "CAIRNVEC"
	vecFormat = 4 // 4: int8 codes in vectors.i8, fields coded against the previous put
	dataExt   = ".i8"

	opPut    = 1
	opDelete = 2
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// entry is a chunk as the vector store knows it: everything a hit shows
// and a filter tests, without the text.
type entry struct {
	path                string
	seq                 int
	startLine, startCol int
	endLine, endCol     int
	tokens              int
	title, kind, layer  string
	session             string
	tags                []string
	created, updated    int64 // Unix nanoseconds; 0 is unset
	importance          float64
	hash                uint64 // of the chunk text, to notice a changed file
	slot                int
}

func (e *entry) id() string { return chunkID(e.path, e.seq) }

func chunkID(path string, seq int) string { return path + "#" + strconv.Itoa(seq) }

type vecStore struct {
	file  string
	f     *os.File
	dfile string   // the vectors
	df    *os.File // appending to dfile
	dsize int64    // of dfile
	dim   int
	name  string

	cd      int       // codeDim(dim): a slot's codes in memory
	entries []*entry  // by slot; nil is free
	codes   []int8    // slot*cd ... slot*cd+cd, once ready
	scales  []float32 // by slot, once ready
	// A loaded store leaves its vectors in dfile until the first vector
	// search or write needs them: voff is each slot's vector offset in
	// it, vsum the vector's checksum.
	voff    []int64
	vsum    []uint32
	ready   atomic.Bool // codes and scales hold every slot's vector
	readyMu sync.Mutex
	loadErr error // why the vectors could not be read
	free    []int
	byPath  map[string][]int
	dead    int // records in the file that no longer count
	records int
	intern  map[string]string
	slab    []entry // for entries being loaded
	last    lastPut // of the file's last put record
}

// lastPut is what a put record's fields are coded against: the previous
// put record's path, title, layer, session and created time, and the offset after its
// vector. Chunks of a file, and files of a session, follow each other,
// so most of these cost a byte or two instead of dozens.
type lastPut struct {
	path, title string
	layer       string
	session     string
	created     int64
	next        int64
}

func newVecStore(file string, dim int, name string) *vecStore {
	s := &vecStore{file: file, dfile: file + dataExt, dim: dim, cd: codeDim(dim), name: name, byPath: make(map[string][]int), intern: make(map[string]string)}
	s.ready.Store(true)
	return s
}

func (s *vecStore) header() []byte {
	var b []byte
	b = append(b, vecMagic...)
	b = binary.LittleEndian.AppendUint32(b, vecFormat)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.dim))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.name)))
	b = append(b, s.name...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// create writes a new, empty store.
func (s *vecStore) create() error {
	if err := safefile.Write(s.dfile, nil, 0o600); err != nil {
		return err
	}
	if err := safefile.Write(s.file, s.header(), 0o600); err != nil {
		return err
	}
	s.dsize = 0
	return s.openAppend()
}

func (s *vecStore) openAppend() error {
	f, err := os.OpenFile(s.file, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	df, err := os.OpenFile(s.dfile, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		f.Close()
		return err
	}
	s.f, s.df = f, df
	return nil
}

// errMismatch says the file was made by another embedder or format.
type errMismatch struct{ msg string }

func (e *errMismatch) Error() string { return e.msg }

// load reads the file, checks its header against s.dim and s.name and
// replays its records, leaving the vectors in dfile until they are
// needed. Every record's checksum, and that its vector lies within
// dfile, is checked here.
func (s *vecStore) load() error {
	fi, err := os.Stat(s.dfile)
	if err != nil {
		return err
	}
	s.dsize = fi.Size()
	b, err := os.ReadFile(s.file)
	if err != nil {
		return err
	}
	s.ready.Store(false)
	// Put records are about 100 bytes: size the map for them, as its
	// growth while loading showed in cold searches' profiles.
	s.reserve(len(b) / 64)
	if len(s.byPath) == 0 {
		s.byPath = make(map[string][]int, len(b)/80)
	}
	if err := s.parse(b); err != nil {
		return err
	}
	return s.openAppend()
}

// read replays a vectors file from r (with no vectors to read).
func (s *vecStore) read(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.dsize = math.MaxInt64 - 1<<32
	return s.parse(b)
}

// parse replays a vectors file's bytes.
func (s *vecStore) parse(b []byte) error {
	s.ready.Store(false)
	r := bytes.NewReader(b)
	head := make([]byte, len(vecMagic)+10)
	if _, err := io.ReadFull(r, head); err != nil {
		return fmt.Errorf("reading header: %w", err)
	}
	if string(head[:len(vecMagic)]) != vecMagic {
		return errors.New("not a cairn vectors file")
	}
	format := binary.LittleEndian.Uint32(head[8:])
	dim := binary.LittleEndian.Uint32(head[12:])
	name := make([]byte, binary.LittleEndian.Uint16(head[16:]))
	if _, err := io.ReadFull(r, name); err != nil {
		return fmt.Errorf("reading header: %w", err)
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return fmt.Errorf("reading header: %w", err)
	}
	if crc32.Checksum(append(head, name...), crcTable) != binary.LittleEndian.Uint32(sum[:]) {
		return errors.New("header checksum mismatch")
	}
	if format != vecFormat {
		return &errMismatch{fmt.Sprintf("vectors file format %d, want %d", format, vecFormat)}
	}
	if int(dim) != s.dim || string(name) != s.name {
		return &errMismatch{fmt.Sprintf("vectors were made by %s (%d dimensions), the embedder now is %s (%d)", name, dim, s.name, s.dim)}
	}
	offset := int64(len(head) + len(name) + 4)
	for offset < int64(len(b)) {
		if int64(len(b))-offset < 8 {
			return fmt.Errorf("record at byte %d: %w", offset, io.ErrUnexpectedEOF)
		}
		frame := b[offset : offset+8]
		n := binary.LittleEndian.Uint32(frame)
		if n == 0 || n > 64<<20 {
			return fmt.Errorf("record at byte %d: bad length %d", offset, n)
		}
		if int64(len(b))-offset-8 < int64(n) {
			return fmt.Errorf("record at byte %d: %w", offset, io.ErrUnexpectedEOF)
		}
		payload := b[offset+8 : offset+8+int64(n)]
		if crc32.Checksum(payload, crcTable) != binary.LittleEndian.Uint32(frame[4:]) {
			return fmt.Errorf("record at byte %d: checksum mismatch", offset)
		}
		if err := s.apply(payload, nil); err != nil {
			return fmt.Errorf("record at byte %d: %w", offset, err)
		}
		offset += 8 + int64(n)
	}
	return nil
}

// apply replays one record into memory. l holds the vectors of records
// being committed; without it, they stay in dfile.
func (s *vecStore) apply(p []byte, l *logBuf) error {
	s.records++
	d := decoder{b: p[1:]}
	switch p[0] {
	case opDelete:
		path := d.str()
		if d.err != nil {
			return d.err
		}
		s.deletePath(path)
		s.dead++ // the delete record itself
		return nil
	case opPut:
		// Loading takes entries from slabs: one allocation for many,
		// which is a good part of what opening a large index costs.
		// Later puts allocate one each, so that churn in a long-lived
		// process frees them.
		var e *entry
		if l == nil {
			if len(s.slab) == 0 {
				s.slab = make([]entry, 512)
			}
			e, s.slab = &s.slab[0], s.slab[1:]
		} else {
			e = &entry{}
		}
		// Fields are coded against the previous put's (see logBuf.putCode).
		prev := &s.last
		if n := d.uvarint(); n <= uint64(len(prev.path)) {
			if suffix := d.raw(); len(suffix) == 0 {
				e.path = prev.path[:n]
			} else {
				e.path = prev.path[:n] + string(suffix)
			}
		} else {
			return fmt.Errorf("path shares %d bytes with the previous one, which has %d", n, len(prev.path))
		}
		e.seq = d.int()
		e.startLine, e.startCol = d.int(), d.int()
		e.endLine, e.endCol = d.int(), d.int()
		e.tokens = d.int()
		if n := d.uvarint(); n <= uint64(len(prev.title)) {
			start := d.raw()
			e.title = string(start) + prev.title[uint64(len(prev.title))-n:]
		} else {
			return fmt.Errorf("title shares %d bytes with the previous one, which has %d", n, len(prev.title))
		}
		e.kind = s.interned(d.raw())
		if d.uvarint() == 1 {
			e.layer = prev.layer
		} else {
			e.layer = s.interned(d.raw())
		}
		if d.uvarint() == 1 {
			e.session = prev.session
		} else {
			e.session = s.interned(d.raw())
		}
		if n := d.int(); n > 0 && n < 1<<16 {
			e.tags = make([]string, n)
			for i := range e.tags {
				e.tags[i] = s.interned(d.raw())
			}
		}
		e.created = prev.created + d.varint()
		e.updated = e.created + d.varint()
		if m := d.uvarint(); m > 0 {
			e.importance = float64(m-1) / 1000
		} else {
			e.importance = math.Float64frombits(d.u64())
		}
		e.hash = d.u64()
		sum := d.u32()
		off := uint64(prev.next + d.varint())
		if d.err != nil {
			return d.err
		}
		*prev = lastPut{path: e.path, title: e.title, layer: e.layer, session: e.session, created: e.created, next: int64(off) + int64(s.recSize())}
		if len(d.b) != 0 {
			return fmt.Errorf("put record has %d bytes too many", len(d.b))
		}
		size := uint64(s.recSize())
		if off > uint64(s.dsize) || uint64(s.dsize)-off < size {
			return fmt.Errorf("vector at byte %d is beyond the end of %s (%d bytes)", off, filepath.Base(s.dfile), s.dsize)
		}
		switch {
		case l != nil:
			if int64(off) < l.base || int64(off)-l.base+int64(size) > int64(len(l.v)) {
				return fmt.Errorf("vector at byte %d is not among those being written", off)
			}
			s.putBytes(e, l.v[int64(off)-l.base:int64(off)-l.base+int64(size)])
		case s.ready.Load():
			return errors.New("vector of a put record without its bytes")
		default:
			slot := s.place(e)
			s.voff[slot], s.vsum[slot] = int64(off), sum
		}
		return nil
	default:
		return fmt.Errorf("unknown record type %d", p[0])
	}
}

func (s *vecStore) interned(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if w, ok := s.intern[string(b)]; ok { // no allocation
		return w
	}
	v := string(b)
	s.intern[v] = v
	return v
}

// put adds e with vector v to memory, replacing a chunk with the same id.
func (s *vecStore) put(e *entry, v []float32) {
	slot := s.place(e)
	s.scales[slot] = quantize(v, s.codes[slot*s.cd:(slot+1)*s.cd])
}

// putBytes is put with the vector as stored: a little-endian float32
// scale, then dim int8 codes.
func (s *vecStore) putBytes(e *entry, raw []byte) {
	slot := s.place(e)
	s.scales[slot] = decodeCode(s.codes[slot*s.cd:(slot+1)*s.cd], raw)
}

// recSize is the bytes of one vector in dfile.
func (s *vecStore) recSize() int { return 4 + s.dim }

// appendCode appends a stored vector: scale, then the first dim codes.
func appendCode(b []byte, scale float32, code []int8, dim int) []byte {
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(scale))
	return append(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(code))), dim)...)
}

// decodeCode sets code from a stored vector and returns its scale. The
// codes past the stored ones (padding to codeDim) are zero.
func decodeCode(code []int8, raw []byte) float32 {
	n := copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(code))), len(code)), raw[4:])
	clear(code[n:])
	scale := math.Float32frombits(binary.LittleEndian.Uint32(raw))
	if scale != scale || math.IsInf(float64(scale), 0) {
		return 0 // the checksum let a bad scale through: score it 0
	}
	return scale
}

// materialize checks and copies the vectors left in the file into memory
// and lets go of the file's bytes, once. Searches may call it alongside
// each other. A vector that fails its checksum makes the index need a
// rebuild: the error (a *RebuildError) says so, then and on every later
// call.
func (s *vecStore) materialize() error {
	if s.ready.Load() {
		return nil
	}
	s.readyMu.Lock()
	defer s.readyMu.Unlock()
	if s.ready.Load() {
		return nil
	}
	if s.loadErr != nil {
		return s.loadErr
	}
	fail := func(err error) error {
		s.loadErr = &RebuildError{Dir: filepath.Dir(s.file), Reason: "corrupt", Err: fmt.Errorf("%s: %w", filepath.Base(s.dfile), err)}
		return s.loadErr
	}
	f, err := os.Open(s.dfile)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	b, unmap, err := mapFile(f)
	if err != nil {
		return fail(err)
	}
	if unmap != nil {
		defer unmap()
	}
	codes := make([]int8, len(s.entries)*s.cd, cap(s.entries)*s.cd)
	scales := make([]float32, len(s.entries), cap(s.entries))
	size := int64(s.recSize())
	for slot, e := range s.entries {
		if e == nil {
			continue
		}
		off := s.voff[slot]
		if off+size > int64(len(b)) {
			return fail(fmt.Errorf("vector of %s at byte %d: beyond the end", e.id(), off))
		}
		raw := b[off : off+size]
		if crc32.Checksum(raw, crcTable) != s.vsum[slot] {
			return fail(fmt.Errorf("vector of %s at byte %d: checksum mismatch", e.id(), off))
		}
		scales[slot] = decodeCode(codes[slot*s.cd:(slot+1)*s.cd], raw)
	}
	s.codes, s.scales, s.voff, s.vsum = codes, scales, nil, nil
	s.ready.Store(true)
	return nil
}

// place gives e a slot, replacing a chunk with the same id, and returns it.
func (s *vecStore) place(e *entry) int {
	for _, slot := range s.byPath[e.path] {
		if s.entries[slot].seq == e.seq {
			s.release(slot)
			s.dead++
			break
		}
	}
	var slot int
	if n := len(s.free); n > 0 {
		slot = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		slot = len(s.entries)
		s.reserve(slot + 1)
		s.entries = s.entries[:slot+1]
		if s.ready.Load() {
			s.codes = s.codes[:(slot+1)*s.cd]
			s.scales = s.scales[:slot+1]
		} else {
			s.voff = s.voff[:slot+1]
			s.vsum = s.vsum[:slot+1]
		}
	}
	e.slot = slot
	s.entries[slot] = e
	s.byPath[e.path] = append(s.byPath[e.path], slot)
	return slot
}

// reserve makes room for n slots, at least doubling the capacity when it
// grows (append grows large slices by a quarter, which makes loading a
// big store copy it many times over).
func (s *vecStore) reserve(n int) {
	if n <= cap(s.entries) {
		return
	}
	n = max(n, 2*cap(s.entries), 64)
	s.entries = append(make([]*entry, 0, n), s.entries...)
	if s.ready.Load() {
		s.codes = append(make([]int8, 0, n*s.cd), s.codes...)
		s.scales = append(make([]float32, 0, n), s.scales...)
	} else {
		s.voff = append(make([]int64, 0, n), s.voff...)
		s.vsum = append(make([]uint32, 0, n), s.vsum...)
	}
}

// release frees slot and removes it from its path's list.
func (s *vecStore) release(slot int) {
	e := s.entries[slot]
	slots := s.byPath[e.path]
	for i, x := range slots {
		if x == slot {
			slots = append(slots[:i], slots[i+1:]...)
			break
		}
	}
	if len(slots) == 0 {
		delete(s.byPath, e.path)
	} else {
		s.byPath[e.path] = slots
	}
	s.entries[slot] = nil
	if s.ready.Load() {
		clear(s.codes[slot*s.cd : (slot+1)*s.cd])
		s.scales[slot] = 0
	}
	s.free = append(s.free, slot)
}

// deletePath removes every chunk of path from memory.
func (s *vecStore) deletePath(path string) {
	slots := append([]int(nil), s.byPath[path]...)
	for _, slot := range slots {
		s.release(slot)
	}
	s.dead += len(slots)
}

// ids returns the chunk ids of path.
func (s *vecStore) ids(path string) []string {
	var ids []string
	for _, slot := range s.byPath[path] {
		ids = append(ids, s.entries[slot].id())
	}
	return ids
}

func (s *vecStore) count() int { return len(s.entries) - len(s.free) }

// A logBuf gathers records, and the vectors they name, to append in one
// write each.
type logBuf struct {
	b    []byte // records
	v    []byte // vectors, to go at byte base of dfile
	base int64
	code []int8  // scratch for quantising
	last lastPut // of the last put record before l's end
}

// newLog starts a logBuf to commit to s.
func (s *vecStore) newLog() *logBuf { return &logBuf{base: s.dsize, last: s.last} }

func (l *logBuf) frame(payload []byte) {
	l.b = binary.LittleEndian.AppendUint32(l.b, uint32(len(payload)))
	l.b = binary.LittleEndian.AppendUint32(l.b, crc32.Checksum(payload, crcTable))
	l.b = append(l.b, payload...)
}

func (l *logBuf) delete(path string) {
	p := []byte{opDelete}
	p = appendStr(p, path)
	l.frame(p)
}

// put adds a record of e with vector v, quantised.
func (l *logBuf) put(e *entry, v []float32) {
	if cap(l.code) < len(v) {
		l.code = make([]int8, len(v))
	}
	l.code = l.code[:len(v)]
	scale := quantize(v, l.code)
	l.putCode(e, scale, l.code)
}

// putCode adds a record of e with a vector already quantised. The path
// is coded as the length of the prefix it shares with the previous put
// record's and the rest; the title as the length of the end it shares
// and the rest; layer and session as 1 when they are the previous one's,
// else 0 and the string; created as the difference from the previous
// one's, updated from created; the vector's offset as the difference from
// the end of the previous one's.
func (l *logBuf) putCode(e *entry, scale float32, code []int8) {
	prev := &l.last
	p := []byte{opPut}
	n := 0
	for n < len(e.path) && n < len(prev.path) && e.path[n] == prev.path[n] {
		n++
	}
	p = binary.AppendUvarint(p, uint64(n))
	p = appendStr(p, e.path[n:])
	for _, n := range []int{e.seq, e.startLine, e.startCol, e.endLine, e.endCol, e.tokens} {
		p = binary.AppendUvarint(p, uint64(n))
	}
	n = 0 // the title's end it shares with the previous one's
	for n < len(e.title) && n < len(prev.title) && e.title[len(e.title)-1-n] == prev.title[len(prev.title)-1-n] {
		n++
	}
	p = binary.AppendUvarint(p, uint64(n))
	p = appendStr(p, e.title[:len(e.title)-n])
	p = appendStr(p, e.kind)
	if e.layer == prev.layer {
		p = append(p, 1)
	} else {
		p = append(p, 0)
		p = appendStr(p, e.layer)
	}
	if e.session == prev.session {
		p = append(p, 1)
	} else {
		p = append(p, 0)
		p = appendStr(p, e.session)
	}
	p = binary.AppendUvarint(p, uint64(len(e.tags)))
	for _, t := range e.tags {
		p = appendStr(p, t)
	}
	p = binary.AppendVarint(p, e.created-prev.created)
	p = binary.AppendVarint(p, e.updated-e.created)
	// Importance in thousandths when that is exact (it nearly always
	// is), else its 8 bytes.
	if m := math.Round(e.importance * 1000); m >= 0 && m < 1e6 && m/1000 == e.importance {
		p = binary.AppendUvarint(p, uint64(m)+1)
	} else {
		p = append(p, 0)
		p = binary.LittleEndian.AppendUint64(p, math.Float64bits(e.importance))
	}
	p = binary.LittleEndian.AppendUint64(p, e.hash)
	at := len(l.v)
	l.v = appendCode(l.v, scale, code, len(code))
	off := l.base + int64(at)
	p = binary.LittleEndian.AppendUint32(p, crc32.Checksum(l.v[at:], crcTable))
	p = binary.AppendVarint(p, off-prev.next)
	l.frame(p)
	*prev = lastPut{path: e.path, title: e.title, layer: e.layer, session: e.session, created: e.created, next: off + int64(len(l.v)-at)}
}

// commit appends l's records to the file, fsyncs it, and replays them into
// memory.
func (s *vecStore) commit(l *logBuf) error {
	if len(l.b) == 0 {
		return nil
	}
	if err := s.materialize(); err != nil {
		return err
	}
	if l.base != s.dsize {
		return fmt.Errorf("append to %s: vectors meant for byte %d, file has %d", s.dfile, l.base, s.dsize)
	}
	if len(l.v) > 0 {
		if _, err := s.df.Write(l.v); err != nil {
			return fmt.Errorf("append to %s: %w", s.dfile, err)
		}
		if err := s.df.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", s.dfile, err)
		}
		s.dsize += int64(len(l.v))
	}
	if _, err := s.f.Write(l.b); err != nil {
		return fmt.Errorf("append to %s: %w", s.file, err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", s.file, err)
	}
	for b := l.b; len(b) > 0; {
		n := binary.LittleEndian.Uint32(b)
		if err := s.apply(b[8:8+n], l); err != nil {
			return fmt.Errorf("replay of own record: %w", err)
		}
		b = b[8+n:]
	}
	l.b, l.v = l.b[:0], l.v[:0]
	l.base, l.last = s.dsize, s.last
	return nil
}

// compact rewrites the file with only live chunks when dead records
// outnumber live ones.
func (s *vecStore) compact(force bool) error {
	live := s.count()
	if !force && (s.dead < 1024 || s.dead <= live) {
		return nil
	}
	if err := s.materialize(); err != nil {
		return err
	}
	var l logBuf
	l.b = s.header()
	for slot, e := range s.entries {
		if e != nil {
			l.putCode(e, s.scales[slot], s.codes[slot*s.cd:slot*s.cd+s.dim])
		}
	}
	// Vectors first: a crash between the renames leaves the old log
	// naming vectors the new file does not hold where it says, which
	// their checksums find (the index then needs a rebuild).
	if err := safefile.Write(s.dfile, l.v, 0o600); err != nil {
		return err
	}
	if err := safefile.Write(s.file, l.b, 0o600); err != nil {
		return err
	}
	s.close()
	s.dead, s.records, s.dsize, s.last = 0, live, int64(len(l.v)), l.last
	return s.openAppend()
}

func (s *vecStore) close() error {
	var err error
	if s.df != nil {
		err = s.df.Close()
		s.df = nil
	}
	if s.f != nil {
		if cerr := s.f.Close(); err == nil {
			err = cerr
		}
		s.f = nil
	}
	return err
}

// scored is a slot and its similarity to a query.
type scored struct {
	slot  int
	score float32
}

// minHeap keeps the best n scores seen, worst on top. Its operations
// are written out rather than container/heap's, whose calls through an
// interface were a sixth of a vector search.
type minHeap []scored

func (h minHeap) Less(i, j int) bool { return h[i].less(h[j]) }

func (a scored) less(b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.slot > b.slot
}

// offer adds x if the heap holds fewer than n or x beats its worst.
func (h *minHeap) offer(x scored, n int) {
	if len(*h) < n {
		*h = append(*h, x)
		h.up(len(*h) - 1)
	} else if (*h)[0].less(x) {
		(*h)[0] = x
		h.down(0)
	}
}

func (h minHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h minHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h[r].less(h[c]) {
			c = r
		}
		if !h[c].less(h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// search returns the n chunks most similar to q (a unit vector) among
// those keep accepts, best first. It scans the int8 codes with the
// query's own int8 codes for the best few times n candidates (one
// goroutine per processor on large stores; the scan is bound by memory
// bandwidth, which int8 makes a quarter of float32's), then rescores
// those with the float32 query against each candidate's codes, which
// takes the query's rounding out of the final order.
func (s *vecStore) search(q []float32, n int, keep func(*entry) bool) []scored {
	if n <= 0 || len(s.entries) == 0 {
		return nil
	}
	if s.materialize() != nil {
		return nil // the caller asked materialize for the error first
	}
	// Twice n candidates, and at least 64 more than n: the int8 order
	// is close to the final one (TestVecSearchRecall), and rescoring was
	// a fifth of a search at 4n.
	cands := n + max(n, 64)
	qcode := make([]int8, s.cd)
	quantize(q, qcode)
	q16 := make([]int16, s.cd) // widened once, not for every row
	for i, c := range qcode {
		q16[i] = int16(c)
	}
	var h minHeap
	workers := min(runtime.GOMAXPROCS(0), len(s.entries)/8192)
	if workers <= 1 {
		h = s.scan(q16, cands, keep, 0, len(s.entries))
	} else {
		parts := make([]minHeap, workers)
		var wg sync.WaitGroup
		step := (len(s.entries) + workers - 1) / workers
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				parts[w] = s.scan(q16, cands, keep, w*step, min((w+1)*step, len(s.entries)))
			}()
		}
		wg.Wait()
		for _, p := range parts {
			h = append(h, p...)
		}
	}
	for i := range h {
		slot := h[i].slot
		h[i].score = dotCode(q, s.codes[slot*s.cd:slot*s.cd+s.dim]) * s.scales[slot]
	}
	sort.Slice(h, func(i, j int) bool { return h.Less(j, i) })
	if len(h) > n {
		h = h[:n]
	}
	return h
}

// dotCode is the inner product of a float32 vector and int8 codes of the
// same length.
func dotCode(a []float32, b []int8) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * float32(b[i])
		s1 += a[i+1] * float32(b[i+1])
		s2 += a[i+2] * float32(b[i+2])
		s3 += a[i+3] * float32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * float32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// scan keeps the best n of slots [from, to) by their int8 scores (the
// query's scale left out: it is the same for all). The inner products
// are taken a block of rows at a time.
func (s *vecStore) scan(q16 []int16, n int, keep func(*entry) bool, from, to int) minHeap {
	const block = 256
	var raw [block]int32
	h := make(minHeap, 0, n+1)
	cd := len(q16)
	for start := from; start < to; start += block {
		end := min(start+block, to)
		dotsInt8(q16, s.codes[start*cd:end*cd], raw[:end-start])
		for i, r := range raw[:end-start] {
			slot := start + i
			e := s.entries[slot]
			if e == nil || (keep != nil && !keep(e)) {
				continue
			}
			if sc := float32(r) * s.scales[slot]; len(h) < n || sc > h[0].score {
				h.offer(scored{slot, sc}, n)
			}
		}
	}
	return h
}

// decoder reads a record's fields, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("truncated %s", what)
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	v := d.uvarint()
	if v > math.MaxInt32 {
		d.fail("number")
		return 0
	}
	return int(v)
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// raw is str without the copy: the bytes are d's.
func (d *decoder) raw() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string")
		return nil
	}
	b := d.b[:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("string")
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) u32() uint32 {
	if len(d.b) < 4 {
		d.fail("number")
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *decoder) u64() uint64 {
	if len(d.b) < 8 {
		d.fail("number")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// slot finds the chunk with the given id.
func (s *vecStore) slot(id string) (int, bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return 0, false
	}
	seq, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return 0, false
	}
	for _, slot := range s.byPath[id[:i]] {
		if s.entries[slot].seq == seq {
			return slot, true
		}
	}
	return 0, false
}

func (s *vecStore) lookup(id string) (*entry, bool) {
	slot, ok := s.slot(id)
	if !ok {
		return nil, false
	}
	return s.entries[slot], true
}
