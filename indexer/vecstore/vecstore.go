package vecstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
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

// The file format is described in doc.go. Records: a put (opPut) or the
// deletion of a path's chunks (opDelete).
const (
	vecMagic  = "CAIRNVEC"
	vecFormat = 6 // 4: int8 codes in vectors.i8, fields coded against the previous put; 5: a chunk's header; 6: the table's generation
	// oldFormat is the last format without a table, read once and
	// rewritten as a table by the next Compact.
	oldFormat = 5
	dataExt   = ".i8"

	opPut    = 1
	opDelete = 2
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// An Entry is a chunk as the store knows it: everything a hit shows and
// a filter tests, without the text. Callers must not change an Entry
// once they have put it or been given it.
type Entry struct {
	Path                string
	Seq                 int // the chunk's place in its document, from 0
	StartLine, StartCol int // where the chunk starts: 1-based line, byte in it
	EndLine, EndCol     int // where it ends: line, byte after the chunk in it
	Tokens              int
	Title, Kind, Layer  string
	Session             string
	Header              string // the line that heads the chunk's text, if any
	Tags                []string
	Created, Updated    int64 // Unix nanoseconds; 0 is unset
	Importance          float64
	Hash                uint64 // of the chunk text, to notice a changed file
	slot                int
}

// ID returns the chunk's id, Path#Seq.
func (e *Entry) ID() string { return ChunkID(e.Path, e.Seq) }

// ChunkID returns the id of the chunk of path numbered seq: path#seq.
func ChunkID(path string, seq int) string { return path + "#" + strconv.Itoa(seq) }

// A Store is the vector store: every chunk's Entry and vector, in memory
// and in its two files. Reads (Search, Materialize, Lookup, Slot, Entry,
// the counts) may run alongside each other; the caller keeps writes
// (Create, Load, Commit, Compact, Close) from running alongside anything.
type Store struct {
	file  string
	tfile string // the table
	f     *os.File
	dfile string   // the vectors
	df    *os.File // appending to dfile
	dsize int64    // of dfile
	// unsynced is true when Append has written what no fsync has made
	// durable yet.
	unsynced bool
	dim      int
	name     string

	cd      int       // codeDim(dim): a slot's codes in memory
	entries []*Entry  // by slot; nil is free
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
	slab    []Entry // for entries being loaded
	last    lastPut // of the file's last put record

	// gen is the generation of the table the log follows (0: none).
	gen uint64
	// base is how many chunks the last table written or read holds.
	base int
	// tab is the table as Load read it, while the store's slots are
	// still its records (nil after Compact): Materialize reads its
	// vectors.
	tab *table
	// unmapTab lets go of the table's vectors when the codes and scales
	// are its mapped pages, read in place; own copies them first.
	unmapTab func() error
	// old is true when Load read a log of oldFormat.
	old bool
	// pathsMu guards the making of byPath, which a store loaded from a
	// table makes only when first needed (see paths).
	pathsMu sync.Mutex
}

// lastPut is what a put record's fields are coded against: the previous
// put record's path, title, layer, session and created time, and the offset after its
// vector. Chunks of a file, and files of a session, follow each other,
// so most of these cost a byte or two instead of dozens.
type lastPut struct {
	path, title string
	layer       string
	session     string
	header      string
	created     int64
	next        int64
}

// New returns an empty store kept in file (the log) and file+".i8" (the
// vectors), for vectors of dim dimensions made by the embedder called
// name. Create makes the files, Load reads them.
func New(file string, dim int, name string) *Store {
	s := &Store{file: file, tfile: file + tabExt, dfile: file + dataExt, dim: dim, cd: codeDim(dim), name: name, byPath: make(map[string][]int), intern: make(map[string]string)}
	s.ready.Store(true)
	return s
}

func (s *Store) header() []byte {
	var b []byte
	b = append(b, vecMagic...)
	b = binary.LittleEndian.AppendUint32(b, vecFormat)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.dim))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.name)))
	b = append(b, s.name...)
	b = binary.LittleEndian.AppendUint64(b, s.gen)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// Create writes a new, empty store over whatever its files held.
func (s *Store) Create() error {
	// The table first: a log of generation 0 beside an older table
	// would read as one the table replaced.
	if err := os.Remove(s.tfile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s.gen = 0
	if err := s.restart(); err != nil {
		return err
	}
	return s.openAppend()
}

// restart makes the vectors file empty and the log a header of
// generation s.gen: what follows a table of that generation, or nothing.
func (s *Store) restart() error {
	if err := safefile.Write(s.dfile, nil, 0o600); err != nil {
		return err
	}
	if err := safefile.Write(s.file, s.header(), 0o600); err != nil {
		return err
	}
	s.dsize, s.last, s.records = 0, lastPut{}, 0
	return nil
}

func (s *Store) openAppend() error {
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

// A MismatchError says the files were made by another embedder or in
// another format: not damage, but a store this one cannot read.
type MismatchError struct{ msg string }

func (e *MismatchError) Error() string { return e.msg }

// Load reads the table, if there is one, and the log, checks their
// headers against the store's dimensions and embedder (a *MismatchError
// if they differ), takes the table's chunks as they are and replays the
// log's records, leaving the vectors in their files until they are
// needed. Every record's checksum, and that its vector lies within
// dfile, is checked here, as is the table's checksum of its chunks.
func (s *Store) Load() error {
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
	gen, off, err := s.parseHeader(b)
	if err != nil {
		return err
	}
	s.gen = gen
	tf, err := os.Open(s.tfile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if gen != 0 {
			return fmt.Errorf("the log follows chunk table %d, which is missing", gen)
		}
	case err != nil:
		return err
	default:
		defer tf.Close()
		h, err := readTabHeader(tf)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(s.tfile), err)
		}
		if h.gen < gen {
			return fmt.Errorf("the log follows chunk table %d, %s is %d", gen, filepath.Base(s.tfile), h.gen)
		}
		s.byPath = nil // made when needed: see paths
		if err := s.loadTable(tf, h); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(s.tfile), err)
		}
		s.base = s.tab.n
		if h.gen > gen {
			// Compact wrote the table and died before it emptied the
			// log, whose records the table holds: finish its work.
			s.gen, s.old = h.gen, false
			if err := s.restart(); err != nil {
				return err
			}
			return s.openAppend()
		}
	}
	if s.tab == nil {
		// Put records are about 100 bytes: size the map for them, as its
		// growth while loading showed in cold searches' profiles.
		s.reserve(len(b) / 64)
		if len(s.byPath) == 0 {
			s.byPath = make(map[string][]int, len(b)/80)
		}
	} else if off < len(b) {
		// Records after the table: its chunks' vectors stay in it, the
		// records' in dfile, until Materialize gathers them.
		s.reserve(s.tab.n + (len(b)-off)/64)
		s.voff, s.vsum = s.voff[:s.tab.n], s.vsum[:s.tab.n]
		for i := range s.voff {
			s.voff[i] = -int64(i) - 1
		}
		s.paths()
	}
	if err := s.parseRecords(b, off); err != nil {
		return err
	}
	return s.openAppend()
}

// parseHeader checks a log's header and returns the generation of the
// table it follows and where its records start.
func (s *Store) parseHeader(b []byte) (gen uint64, off int, err error) {
	r := bytes.NewReader(b)
	head := make([]byte, len(vecMagic)+10)
	if _, err := io.ReadFull(r, head); err != nil {
		return 0, 0, fmt.Errorf("reading header: %w", err)
	}
	if string(head[:len(vecMagic)]) != vecMagic {
		return 0, 0, errors.New("not a cairn vectors file")
	}
	format := binary.LittleEndian.Uint32(head[8:])
	dim := binary.LittleEndian.Uint32(head[12:])
	name := make([]byte, binary.LittleEndian.Uint16(head[16:]))
	if _, err := io.ReadFull(r, name); err != nil {
		return 0, 0, fmt.Errorf("reading header: %w", err)
	}
	summed := append(head, name...)
	if format == vecFormat {
		var g [8]byte
		if _, err := io.ReadFull(r, g[:]); err != nil {
			return 0, 0, fmt.Errorf("reading header: %w", err)
		}
		gen = binary.LittleEndian.Uint64(g[:])
		summed = append(summed, g[:]...)
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return 0, 0, fmt.Errorf("reading header: %w", err)
	}
	if crc32.Checksum(summed, crcTable) != binary.LittleEndian.Uint32(sum[:]) {
		return 0, 0, errors.New("header checksum mismatch")
	}
	if format != vecFormat && format != oldFormat {
		return 0, 0, &MismatchError{fmt.Sprintf("vectors file format %d, want %d", format, vecFormat)}
	}
	s.old = format == oldFormat
	if int(dim) != s.dim || string(name) != s.name {
		return 0, 0, &MismatchError{fmt.Sprintf("vectors were made by %s (%d dimensions), the embedder now is %s (%d)", name, dim, s.name, s.dim)}
	}
	return gen, len(summed) + 4, nil
}

// parseRecords replays the log's records, from byte offset of b.
func (s *Store) parseRecords(b []byte, off int) error {
	offset := int64(off)
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
func (s *Store) apply(p []byte, l *Log) error {
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
		var e *Entry
		if l == nil {
			if len(s.slab) == 0 {
				s.slab = make([]Entry, 512)
			}
			e, s.slab = &s.slab[0], s.slab[1:]
		} else {
			e = &Entry{}
		}
		// Fields are coded against the previous put's (see Log.putCode).
		prev := &s.last
		if n := d.uvarint(); n <= uint64(len(prev.path)) {
			if suffix := d.raw(); len(suffix) == 0 {
				e.Path = prev.path[:n]
			} else {
				e.Path = prev.path[:n] + string(suffix)
			}
		} else {
			return fmt.Errorf("path shares %d bytes with the previous one, which has %d", n, len(prev.path))
		}
		e.Seq = d.int()
		e.StartLine, e.StartCol = d.int(), d.int()
		e.EndLine, e.EndCol = d.int(), d.int()
		e.Tokens = d.int()
		if n := d.uvarint(); n <= uint64(len(prev.title)) {
			start := d.raw()
			e.Title = string(start) + prev.title[uint64(len(prev.title))-n:]
		} else {
			return fmt.Errorf("title shares %d bytes with the previous one, which has %d", n, len(prev.title))
		}
		e.Kind = s.interned(d.raw())
		if d.uvarint() == 1 {
			e.Layer = prev.layer
		} else {
			e.Layer = s.interned(d.raw())
		}
		if d.uvarint() == 1 {
			e.Session = prev.session
		} else {
			e.Session = s.interned(d.raw())
		}
		if n := d.int(); n > 0 && n < 1<<16 {
			e.Tags = make([]string, n)
			for i := range e.Tags {
				e.Tags[i] = s.interned(d.raw())
			}
		}
		if d.uvarint() == 1 {
			e.Header = prev.header
		} else {
			e.Header = string(d.raw())
		}
		e.Created = prev.created + d.varint()
		e.Updated = e.Created + d.varint()
		if m := d.uvarint(); m > 0 {
			e.Importance = float64(m-1) / 1000
		} else {
			e.Importance = math.Float64frombits(d.u64())
		}
		e.Hash = d.u64()
		sum := d.u32()
		off := uint64(prev.next + d.varint())
		if d.err != nil {
			return d.err
		}
		*prev = lastPut{path: e.Path, title: e.Title, layer: e.Layer, session: e.Session, header: e.Header, created: e.Created, next: int64(off) + int64(s.recSize())}
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

func (s *Store) interned(b []byte) string {
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

// putBytes is put with the vector as stored: a little-endian float32
// scale, then dim int8 codes.
func (s *Store) putBytes(e *Entry, raw []byte) {
	slot := s.place(e)
	s.scales[slot] = decodeCode(s.codes[slot*s.cd:(slot+1)*s.cd], raw)
}

// recSize is the bytes of one vector in dfile.
func (s *Store) recSize() int { return 4 + s.dim }

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

// Materialize checks and copies the vectors Load left in the file into
// memory and lets go of the file's bytes, once. Searches may call it
// alongside each other. A vector that fails its checksum, or a file that
// cannot be read, makes it fail with a *CorruptError, then and on every
// later call: the store needs rebuilding. Search, Commit and Compact call
// it; callers call it first to tell that error from others.
func (s *Store) Materialize() error {
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
		s.loadErr = &CorruptError{File: s.dfile, Err: err}
		return s.loadErr
	}
	var (
		tabCodes  []int8
		tabScales []byte
	)
	if s.tab != nil {
		codes, scales, unmap, err := s.mapTable()
		if err != nil {
			s.loadErr = &CorruptError{File: s.tfile, Err: err}
			return s.loadErr
		}
		if len(s.voff) == 0 {
			// The slots are the table's records: scan its pages in
			// place, unless the host's byte order forbids it.
			n := s.tab.n
			if unmap != nil && littleEndian() && n > 0 {
				s.codes, s.scales = codes, unsafe.Slice((*float32)(unsafe.Pointer(&scales[0])), n)
				s.unmapTab = unmap
			} else {
				s.codes = append(make([]int8, 0, cap(s.entries)*s.cd), codes...)
				s.scales = make([]float32, n, cap(s.entries))
				for i := range s.scales {
					s.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(scales[4*i:]))
				}
				if unmap != nil {
					unmap()
				}
			}
			s.ready.Store(true)
			return nil
		}
		if unmap != nil {
			defer unmap()
		}
		tabCodes, tabScales = codes, scales
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
		if off < 0 { // in the table
			i := int(-off - 1)
			copy(codes[slot*s.cd:(slot+1)*s.cd], tabCodes[i*s.cd:(i+1)*s.cd])
			scales[slot] = math.Float32frombits(binary.LittleEndian.Uint32(tabScales[4*i:]))
			continue
		}
		if off+size > int64(len(b)) {
			return fail(fmt.Errorf("vector of %s at byte %d: beyond the end", e.ID(), off))
		}
		raw := b[off : off+size]
		if crc32.Checksum(raw, crcTable) != s.vsum[slot] {
			return fail(fmt.Errorf("vector of %s at byte %d: checksum mismatch", e.ID(), off))
		}
		scales[slot] = decodeCode(codes[slot*s.cd:(slot+1)*s.cd], raw)
	}
	s.codes, s.scales, s.voff, s.vsum = codes, scales, nil, nil
	s.ready.Store(true)
	return nil
}

// own copies the vectors into memory if they are the table's mapped
// pages, which are read-only, before a write changes them.
func (s *Store) own() {
	if s.unmapTab == nil {
		return
	}
	s.codes = append(make([]int8, 0, cap(s.entries)*s.cd), s.codes...)
	s.scales = append(make([]float32, 0, cap(s.entries)), s.scales...)
	s.unmapTab()
	s.unmapTab = nil
}

// paths returns byPath, making it first if the store was loaded from a
// table: most searches need it for no more than a few hits, which Slot
// finds in the table's order.
func (s *Store) paths() map[string][]int {
	s.pathsMu.Lock()
	defer s.pathsMu.Unlock()
	if s.byPath == nil {
		m := make(map[string][]int, len(s.entries))
		for slot, e := range s.entries {
			if e != nil {
				m[e.Path] = append(m[e.Path], slot)
			}
		}
		s.byPath = m
	}
	return s.byPath
}

// place gives e a slot, replacing a chunk with the same id, and returns it.
func (s *Store) place(e *Entry) int {
	for _, slot := range s.paths()[e.Path] {
		if s.entries[slot].Seq == e.Seq {
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
	s.byPath[e.Path] = append(s.byPath[e.Path], slot)
	return slot
}

// reserve makes room for n slots, at least doubling the capacity when it
// grows (append grows large slices by a quarter, which makes loading a
// big store copy it many times over).
func (s *Store) reserve(n int) {
	if n <= cap(s.entries) {
		return
	}
	n = max(n, 2*cap(s.entries), 64)
	s.entries = append(make([]*Entry, 0, n), s.entries...)
	if s.ready.Load() {
		s.codes = append(make([]int8, 0, n*s.cd), s.codes...)
		s.scales = append(make([]float32, 0, n), s.scales...)
	} else {
		s.voff = append(make([]int64, 0, n), s.voff...)
		s.vsum = append(make([]uint32, 0, n), s.vsum...)
	}
}

// release frees slot and removes it from its path's list.
func (s *Store) release(slot int) {
	e := s.entries[slot]
	slots := s.paths()[e.Path]
	for i, x := range slots {
		if x == slot {
			slots = append(slots[:i], slots[i+1:]...)
			break
		}
	}
	if len(slots) == 0 {
		delete(s.byPath, e.Path)
	} else {
		s.byPath[e.Path] = slots
	}
	s.entries[slot] = nil
	if s.ready.Load() {
		clear(s.codes[slot*s.cd : (slot+1)*s.cd])
		s.scales[slot] = 0
	}
	s.free = append(s.free, slot)
}

// deletePath removes every chunk of path from memory.
func (s *Store) deletePath(path string) {
	slots := append([]int(nil), s.paths()[path]...)
	for _, slot := range slots {
		s.release(slot)
	}
	s.dead += len(slots)
}

// IDs returns the chunk ids of path.
func (s *Store) IDs(path string) []string {
	var ids []string
	for _, slot := range s.paths()[path] {
		ids = append(ids, s.entries[slot].ID())
	}
	return ids
}

// Count returns the number of chunks.
func (s *Store) Count() int { return len(s.entries) - len(s.free) }

// A Log gathers records, and the vectors they name, to append in one
// write each.
type Log struct {
	b    []byte // records
	v    []byte // vectors, to go at byte base of dfile
	base int64
	code []int8  // scratch for quantising
	last lastPut // of the last put record before l's end
}

// NewLog starts a Log to commit to s.
func (s *Store) NewLog() *Log { return &Log{base: s.dsize, last: s.last} }

func (l *Log) frame(payload []byte) {
	l.b = binary.LittleEndian.AppendUint32(l.b, uint32(len(payload)))
	l.b = binary.LittleEndian.AppendUint32(l.b, crc32.Checksum(payload, crcTable))
	l.b = append(l.b, payload...)
}

// Delete adds a record deleting every chunk of path.
func (l *Log) Delete(path string) {
	p := []byte{opDelete}
	p = appendStr(p, path)
	l.frame(p)
}

// Put adds a record of e with vector v (of the store's dimensions),
// quantised. e is the store's from Commit on.
func (l *Log) Put(e *Entry, v []float32) {
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
func (l *Log) putCode(e *Entry, scale float32, code []int8) {
	prev := &l.last
	p := []byte{opPut}
	n := 0
	for n < len(e.Path) && n < len(prev.path) && e.Path[n] == prev.path[n] {
		n++
	}
	p = binary.AppendUvarint(p, uint64(n))
	p = appendStr(p, e.Path[n:])
	for _, n := range []int{e.Seq, e.StartLine, e.StartCol, e.EndLine, e.EndCol, e.Tokens} {
		p = binary.AppendUvarint(p, uint64(n))
	}
	n = 0 // the title's end it shares with the previous one's
	for n < len(e.Title) && n < len(prev.title) && e.Title[len(e.Title)-1-n] == prev.title[len(prev.title)-1-n] {
		n++
	}
	p = binary.AppendUvarint(p, uint64(n))
	p = appendStr(p, e.Title[:len(e.Title)-n])
	p = appendStr(p, e.Kind)
	if e.Layer == prev.layer {
		p = append(p, 1)
	} else {
		p = append(p, 0)
		p = appendStr(p, e.Layer)
	}
	if e.Session == prev.session {
		p = append(p, 1)
	} else {
		p = append(p, 0)
		p = appendStr(p, e.Session)
	}
	p = binary.AppendUvarint(p, uint64(len(e.Tags)))
	for _, t := range e.Tags {
		p = appendStr(p, t)
	}
	if e.Header == prev.header {
		p = append(p, 1)
	} else {
		p = append(p, 0)
		p = appendStr(p, e.Header)
	}
	p = binary.AppendVarint(p, e.Created-prev.created)
	p = binary.AppendVarint(p, e.Updated-e.Created)
	// Importance in thousandths when that is exact (it nearly always
	// is), else its 8 bytes.
	if m := math.Round(e.Importance * 1000); m >= 0 && m < 1e6 && m/1000 == e.Importance {
		p = binary.AppendUvarint(p, uint64(m)+1)
	} else {
		p = append(p, 0)
		p = binary.LittleEndian.AppendUint64(p, math.Float64bits(e.Importance))
	}
	p = binary.LittleEndian.AppendUint64(p, e.Hash)
	at := len(l.v)
	l.v = appendCode(l.v, scale, code, len(code))
	off := l.base + int64(at)
	p = binary.LittleEndian.AppendUint32(p, crc32.Checksum(l.v[at:], crcTable))
	p = binary.AppendVarint(p, off-prev.next)
	l.frame(p)
	*prev = lastPut{path: e.Path, title: e.Title, layer: e.Layer, session: e.Session, header: e.Header, created: e.Created, next: off + int64(len(l.v)-at)}
}

// Commit appends l's records to the files, fsyncs them, and replays them
// into memory; l is then empty, ready for more.
func (s *Store) Commit(l *Log) error {
	if err := s.Append(l); err != nil {
		return err
	}
	return s.Sync()
}

// Append is Commit without the fsyncs: the records are durable at the
// next Sync (or Commit). A crash before it can leave records that do
// not parse or vectors that fail their checksums, which Load and
// Materialize report as corrupt.
func (s *Store) Append(l *Log) error {
	if len(l.b) == 0 {
		return nil
	}
	if err := s.Materialize(); err != nil {
		return err
	}
	s.own()
	if l.base != s.dsize {
		return fmt.Errorf("append to %s: vectors meant for byte %d, file has %d", s.dfile, l.base, s.dsize)
	}
	if len(l.v) > 0 {
		if _, err := s.df.Write(l.v); err != nil {
			return fmt.Errorf("append to %s: %w", s.dfile, err)
		}
		s.dsize += int64(len(l.v))
		s.unsynced = true
	}
	if _, err := s.f.Write(l.b); err != nil {
		return fmt.Errorf("append to %s: %w", s.file, err)
	}
	s.unsynced = true
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

// Sync makes what Append appended durable: the vectors first, then the
// records that name them.
func (s *Store) Sync() error {
	if !s.unsynced {
		return nil
	}
	if s.df != nil {
		if err := s.df.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", s.dfile, err)
		}
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", s.file, err)
	}
	s.unsynced = false
	return nil
}

// Compact writes the live chunks as a new table, and empties the log and
// the vectors file, when the log holds more than a quarter as many
// records as the last table chunks (and over 256), when dead records
// outnumber live ones (over a thousand of them), when the log was of the
// old format, or always if force.
func (s *Store) Compact(force bool) error {
	live := s.Count()
	if !force && !s.old && (s.records < 256 || s.records <= s.base/4) && (s.dead < 1024 || s.dead <= live) {
		return nil
	}
	if err := s.Materialize(); err != nil {
		return err
	}
	s.own()
	// The table first, of a new generation: a crash before the log is
	// emptied leaves a log of the old one, which Load then knows the
	// table holds.
	gen := s.gen + 1
	if err := s.writeTable(gen); err != nil {
		return err
	}
	s.Close()
	s.gen = gen
	if err := s.restart(); err != nil {
		return err
	}
	s.dead, s.base, s.tab, s.old = 0, live, nil, false
	s.unsynced = false // written whole and synced
	return s.openAppend()
}

// Close closes the files; the store is not usable after.
func (s *Store) Close() error {
	var err error
	if s.unmapTab != nil {
		// Codes and scales are the mapped pages: nothing may read them
		// after, which the caller's keeping Close from running alongside
		// a Search ensures.
		err = s.unmapTab()
		s.unmapTab = nil
		s.codes, s.scales = nil, nil
		s.ready.Store(false)
		s.loadErr = ErrClosed
	}
	if s.df != nil {
		if cerr := s.df.Close(); err == nil {
			err = cerr
		}
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

// ErrClosed is what Materialize returns after Close let go of the
// vectors.
var ErrClosed = errors.New("vector store is closed")

// Scored is a chunk, by its slot (see Entry), and its similarity to a
// query: the inner product of the query and the chunk's int8 codes.
type Scored struct {
	Slot  int
	Score float32
}

// minHeap keeps the best n scores seen, worst on top. Its operations
// are written out rather than container/heap's, whose calls through an
// interface were a sixth of a vector search.
type minHeap []Scored

func (h minHeap) Less(i, j int) bool { return h[i].less(h[j]) }

func (a Scored) less(b Scored) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.Slot > b.Slot
}

// offer adds x if the heap holds fewer than n or x beats its worst.
func (h *minHeap) offer(x Scored, n int) {
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

// Search returns the n chunks most similar to q (a unit vector) among
// those keep accepts, best first. It scans the int8 codes with the
// query's own int8 codes for the best few times n candidates (one
// goroutine per processor on large stores; the scan is bound by memory
// bandwidth, which int8 makes a quarter of float32's), then rescores
// those with the float32 query against each candidate's codes, which
// takes the query's rounding out of the final order.
func (s *Store) Search(q []float32, n int, keep func(*Entry) bool) []Scored {
	if n <= 0 || len(s.entries) == 0 {
		return nil
	}
	if s.Materialize() != nil {
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
		slot := h[i].Slot
		h[i].Score = dotCode(q, s.codes[slot*s.cd:slot*s.cd+s.dim]) * s.scales[slot]
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
func (s *Store) scan(q16 []int16, n int, keep func(*Entry) bool, from, to int) minHeap {
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
			if sc := float32(r) * s.scales[slot]; len(h) < n || sc > h[0].Score {
				h.offer(Scored{slot, sc}, n)
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

// Slot finds the slot of the chunk with the given id. A slot stands for
// a chunk until the next Commit or Compact.
func (s *Store) Slot(id string) (int, bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return 0, false
	}
	seq, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return 0, false
	}
	path := id[:i]
	s.pathsMu.Lock()
	m := s.byPath
	s.pathsMu.Unlock()
	if m == nil {
		// As loaded from a table: the slots are in its order.
		e := &Entry{Path: path, Seq: seq}
		slot := sort.Search(len(s.entries), func(k int) bool { return !before(s.entries[k], e) })
		if slot < len(s.entries) && s.entries[slot].Path == path && s.entries[slot].Seq == seq {
			return slot, true
		}
		return 0, false
	}
	for _, slot := range m[path] {
		if s.entries[slot].Seq == seq {
			return slot, true
		}
	}
	return 0, false
}

// Lookup returns the chunk with the given id.
func (s *Store) Lookup(id string) (*Entry, bool) {
	slot, ok := s.Slot(id)
	if !ok {
		return nil, false
	}
	return s.entries[slot], true
}

// Entry returns the chunk in slot, or nil if the slot is free.
func (s *Store) Entry(slot int) *Entry { return s.entries[slot] }

// Has reports whether path has chunks in the store.
func (s *Store) Has(path string) bool {
	_, ok := s.paths()[path]
	return ok
}

// Paths returns the paths that have chunks, sorted.
func (s *Store) Paths() []string {
	m := s.paths()
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// PathCount returns the number of paths that have chunks.
func (s *Store) PathCount() int { return len(s.paths()) }

// Dead returns the number of records in the log, and chunks in the
// table, that no longer count, which Compact drops.
func (s *Store) Dead() int { return s.dead }

// Files returns the names of the store's files: the log, the vectors
// and the table.
func (s *Store) Files() []string { return []string{s.file, s.dfile, s.tfile} }

// A CorruptError says the vectors file is damaged: a vector fails its
// checksum or lies beyond the end. The store needs rebuilding.
type CorruptError struct {
	File string // the vectors file
	Err  error
}

func (e *CorruptError) Error() string { return filepath.Base(e.File) + ": " + e.Err.Error() }

func (e *CorruptError) Unwrap() error { return e.Err }
