package vecstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// tableStore makes a store in a temporary directory with n chunks of
// varied fields over a few paths, committed to the log, and returns it
// open with the vectors it was given, by id.
func tableStore(t *testing.T, n int) (*Store, map[string][]float32) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "vectors")
	s := New(file, 5, "t")
	if err := s.Create(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(int64(n)))
	vecs := make(map[string][]float32)
	l := s.NewLog()
	for i := range n {
		e := &Entry{
			Path: fmt.Sprintf("sessions/s%d/%c.md", i/7, 'a'+i%3), Seq: i, StartLine: i + 1, EndLine: i + 3, EndCol: 9,
			Tokens: 40 + i, Title: fmt.Sprintf("Title %d", i/5), Kind: []string{"fact", "summary", ""}[i%3],
			Layer: "archival", Session: fmt.Sprintf("s%d", i/7), Header: fmt.Sprintf("Session %d", i/7),
			Created: int64(i) * 1e12, Updated: int64(i)*1e12 + 5, Importance: float64(i%10) / 10, Hash: uint64(i) * 977,
		}
		if i%4 == 0 {
			e.Tags = []string{"x", fmt.Sprintf("t%d", i%5)}
		}
		v := make([]float32, 5)
		for k := range v {
			v[k] = r.Float32()*2 - 1
		}
		vecs[e.ID()] = v
		l.Put(e, v)
	}
	if err := s.Commit(l); err != nil {
		t.Fatal(err)
	}
	return s, vecs
}

// same fails unless a and b hold the same chunks with the same fields and
// scores for q.
func same(t *testing.T, what string, a, b *Store, q []float32) {
	t.Helper()
	if a.Count() != b.Count() {
		t.Fatalf("%s: %d chunks, want %d", what, b.Count(), a.Count())
	}
	for _, e := range a.entries {
		if e == nil {
			continue
		}
		got, ok := b.Lookup(e.ID())
		if !ok {
			t.Fatalf("%s: %s missing", what, e.ID())
		}
		x, y := *e, *got
		x.slot, y.slot = 0, 0
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("%s: %s is %+v, want %+v", what, e.ID(), y, x)
		}
	}
	ha, hb := a.Search(q, 10, nil), b.Search(q, 10, nil)
	if len(ha) != len(hb) {
		t.Fatalf("%s: %d hits, want %d", what, len(hb), len(ha))
	}
	for i := range ha {
		if a.entries[ha[i].Slot].ID() != b.entries[hb[i].Slot].ID() || ha[i].Score != hb[i].Score {
			t.Fatalf("%s: hit %d is %s %v, want %s %v", what, i, b.entries[hb[i].Slot].ID(), hb[i].Score, a.entries[ha[i].Slot].ID(), ha[i].Score)
		}
	}
}

func load(t *testing.T, file string) *Store {
	t.Helper()
	s := New(file, 5, "t")
	if err := s.Load(); err != nil {
		t.Fatalf("load: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func size(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestTable checks that a compacted store is a table that loads as
// written, is searched in place, takes writes after it (kept in the log,
// and gathered with the table's chunks) and is written again once they
// are many.
func TestTable(t *testing.T) {
	s, _ := tableStore(t, 300)
	defer s.Close()
	q := []float32{0.3, -0.2, 0.9, 0.1, -0.5}
	if err := s.Compact(false); err != nil { // 300 records, no table yet
		t.Fatal(err)
	}
	if size(t, s.file) != int64(len(s.header())) || size(t, s.dfile) != 0 {
		t.Fatalf("after compaction the log is %d bytes and the vectors %d", size(t, s.file), size(t, s.dfile))
	}
	t2 := load(t, s.file)
	if t2.ready.Load() || t2.byPath != nil || t2.tab == nil {
		t.Fatal("a table's vectors or paths were read at load")
	}
	same(t, "table", s, t2, q)
	if t2.unmapTab == nil && littleEndian() {
		t.Log("vectors not searched in place (no mmap here?)")
	}
	if t2.byPath != nil {
		t.Error("looking chunks up made the path map")
	}

	// Writes after the table: a path deleted, one replaced, one added.
	for _, st := range []*Store{s, t2} {
		l := st.NewLog()
		l.Delete("sessions/s0/a.md")
		l.Delete("sessions/s1/b.md")
		l.Put(&Entry{Path: "sessions/s1/b.md", Seq: 3, Title: "new"}, []float32{1, 0, 0, 0, 0})
		l.Put(&Entry{Path: "core/z.md", Tags: []string{"y"}}, []float32{0, 0, 1, 0, 0})
		if err := st.Commit(l); err != nil {
			t.Fatal(err)
		}
	}
	same(t, "written after loading", s, t2, q)
	t2.Close()
	t3 := load(t, s.file)
	if len(t3.voff) == 0 {
		t.Fatal("a table with records after it loaded as the table alone")
	}
	same(t, "table and log", s, t3, q)
	if err := t3.Compact(false); err != nil {
		t.Fatal(err)
	}
	if t3.gen != 1 {
		t.Errorf("4 records after a table of 300 made a new one (generation %d)", t3.gen)
	}
	if err := t3.Compact(true); err != nil {
		t.Fatal(err)
	}
	same(t, "compacted again", s, load(t, s.file), q)
}

// TestTableCrash checks each state a crash can leave the files in, and
// damaged tables: Load (or Materialize, for vectors) reports damage and
// never serves it.
func TestTableCrash(t *testing.T) {
	q := []float32{0.1, 0.2, 0.3, 0.4, 0.5}
	t.Run("table written, log not yet emptied", func(t *testing.T) {
		s, _ := tableStore(t, 50)
		defer s.Close()
		if err := s.writeTable(s.gen + 1); err != nil {
			t.Fatal(err)
		}
		t2 := load(t, s.file)
		same(t, "stale log", s, t2, q)
		if t2.gen != 1 || size(t, s.file) != int64(len(t2.header())) {
			t.Fatalf("the stale log was not emptied: generation %d, %d bytes", t2.gen, size(t, s.file))
		}
		// What is written after goes on.
		l := t2.NewLog()
		l.Put(&Entry{Path: "new.md"}, []float32{1, 1, 1, 1, 1})
		if err := t2.Commit(l); err != nil {
			t.Fatal(err)
		}
		t2.Close()
		if _, ok := load(t, s.file).Lookup("new.md#0"); !ok {
			t.Error("a chunk written after the repair was lost")
		}
	})
	t.Run("table missing", func(t *testing.T) {
		s, _ := tableStore(t, 300)
		if err := s.Compact(true); err != nil {
			t.Fatal(err)
		}
		s.Close()
		os.Remove(s.tfile)
		if err := New(s.file, 5, "t").Load(); err == nil {
			t.Error("a log of generation 1 loaded without its table")
		}
	})
	damage := []struct {
		name    string
		at      func(file string, h *tabHeader) int64 // byte to flip; -1 truncates
		atLoad  bool
		cutLast bool
	}{
		{"truncated", func(string, *tabHeader) int64 { return -1 }, true, false},
		{"record", func(_ string, h *tabHeader) int64 { return int64(h.size) + 10 }, true, false},
		{"blob", func(_ string, h *tabHeader) int64 { return int64(h.vecOff) - 70 }, true, false},
		{"header", func(string, *tabHeader) int64 { return 20 }, true, false},
		{"vectors", func(file string, h *tabHeader) int64 { return int64(h.vecOff) + 3 }, false, false},
		{"scales", func(file string, h *tabHeader) int64 { return fileSize(file) - 2 }, false, false},
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			s, _ := tableStore(t, 300)
			if err := s.Compact(true); err != nil {
				t.Fatal(err)
			}
			s.Close()
			f, err := os.Open(s.tfile)
			if err != nil {
				t.Fatal(err)
			}
			h, err := readTabHeader(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(s.tfile)
			if err != nil {
				t.Fatal(err)
			}
			if at := d.at(s.tfile, h); at < 0 {
				b = b[:len(b)-100]
			} else {
				b[at] ^= 0x40
			}
			if err := os.WriteFile(s.tfile, b, 0o600); err != nil {
				t.Fatal(err)
			}
			s2 := New(s.file, 5, "t")
			defer s2.Close()
			err = s2.Load()
			var mm *MismatchError
			if d.atLoad {
				if err == nil || errors.As(err, &mm) {
					t.Fatalf("load of a damaged table: %v, want damage", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("load: %v (damage in the vectors shows when they are read)", err)
			}
			var ce *CorruptError
			if err := s2.Materialize(); !errors.As(err, &ce) {
				t.Fatalf("materialize: %v, want a *CorruptError", err)
			}
			if hits := s2.Search(q, 3, nil); hits != nil {
				t.Errorf("damaged vectors were searched: %v", hits)
			}
		})
	}
}

func fileSize(name string) int64 {
	fi, err := os.Stat(name)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestTableUpgrade checks that a store in the format before tables
// (5: a log alone) loads, and that the next Compact, however few its
// records, writes it as a table.
func TestTableUpgrade(t *testing.T) {
	s, _ := tableStore(t, 20)
	s.Close()
	// The same log with a format 5 header: no table generation.
	b, err := os.ReadFile(s.file)
	if err != nil {
		t.Fatal(err)
	}
	head := len(s.header())
	var old []byte
	old = append(old, vecMagic...)
	old = binary.LittleEndian.AppendUint32(old, oldFormat)
	old = binary.LittleEndian.AppendUint32(old, 5)
	old = binary.LittleEndian.AppendUint16(old, 1)
	old = append(old, 't')
	old = binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, crcTable))
	if err := os.WriteFile(s.file, append(old, b[head:]...), 0o600); err != nil {
		t.Fatal(err)
	}
	q := []float32{1, 0, 0, 0, 0}
	o := load(t, s.file)
	if !o.old || o.Count() != 20 {
		t.Fatalf("format 5: old %v, %d chunks", o.old, o.Count())
	}
	if err := o.Compact(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.tfile); err != nil {
		t.Fatalf("no table after compacting a format 5 log: %v", err)
	}
	n := load(t, s.file)
	if n.old || n.tab == nil {
		t.Fatal("not loaded from the table")
	}
	same(t, "upgraded", o, n, q)
	// Another store format or embedder is a mismatch, not damage.
	if err := New(s.file, 5, "u").Load(); !errors.As(err, new(*MismatchError)) {
		t.Errorf("another embedder: %v, want a *MismatchError", err)
	}
}

// TestTableConcurrentReads checks, under -race, that the reads a store
// loaded from a table allows alongside each other (Search, which maps
// the vectors once; Lookup, which searches the records until the path
// map exists; Paths, which makes it) do not race.
func TestTableConcurrentReads(t *testing.T) {
	s, _ := tableStore(t, 300)
	if err := s.Compact(true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	l := load(t, s.file)
	done := make(chan bool)
	for g := range 6 {
		go func() {
			defer func() { done <- true }()
			for i := range 50 {
				switch g % 3 {
				case 0:
					l.Search([]float32{1, 0, 0, 0, float32(i)}, 5, nil)
				case 1:
					if _, ok := l.Lookup(fmt.Sprintf("sessions/s%d/%c.md#%d", i/7, 'a'+i%3, i)); !ok {
						t.Errorf("chunk %d not found", i)
					}
				default:
					l.Paths()
				}
			}
		}()
	}
	for range 6 {
		<-done
	}
}

// TestTableLongName checks that a table made by an embedder with a long
// name (an OpenAI-compatible server's model path) loads: the name is as
// long as the log's header allows, not the few bytes read at first.
func TestTableLongName(t *testing.T) {
	file := filepath.Join(t.TempDir(), "vectors")
	name := "openai:sentence-transformers/paraphrase-multilingual-mpnet-base-v2"
	s := New(file, 5, name)
	if err := s.Create(); err != nil {
		t.Fatal(err)
	}
	l := s.NewLog()
	l.Put(&Entry{Path: "a.md"}, []float32{1, 0, 0, 0, 0})
	if err := s.Commit(l); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := New(file, 5, name)
	if err := s2.Load(); err != nil {
		t.Fatalf("load: %v", err)
	}
	defer s2.Close()
	if s2.tab == nil || s2.Count() != 1 {
		t.Fatalf("loaded %d chunks, table %v", s2.Count(), s2.tab != nil)
	}
}
