package indexer

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"path/filepath"
	"testing"
)

func TestVecStoreRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "vectors")
	s := newVecStore(file, 3, "t")
	if err := s.create(); err != nil {
		t.Fatal(err)
	}
	var l logBuf
	e1 := &entry{path: "a.md", seq: 0, startLine: 1, endLine: 2, endCol: 5, tokens: 7, title: "A", kind: "fact",
		layer: "core", session: "s", tags: []string{"x", "y"}, created: 1, updated: -2, importance: 0.5, hash: 42}
	e2 := &entry{path: "a.md", seq: 1, title: "A"}
	e3 := &entry{path: "b.md", seq: 0}
	l.put(e1, []float32{1, 0, 0})
	l.put(e2, []float32{0, 1, 0})
	l.put(e3, []float32{0, 0, 1})
	l.delete("b.md")
	if err := s.commit(&l); err != nil {
		t.Fatal(err)
	}
	s.close()

	s2 := newVecStore(file, 3, "t")
	if err := s2.load(); err != nil {
		t.Fatal(err)
	}
	defer s2.close()
	if s2.count() != 2 || len(s2.byPath) != 1 {
		t.Fatalf("count %d paths %d", s2.count(), len(s2.byPath))
	}
	got, ok := s2.lookup("a.md#0")
	if !ok {
		t.Fatal("a.md#0 missing")
	}
	got.slot = e1.slot
	if got.path != e1.path || got.endCol != 5 || got.tokens != 7 || got.kind != "fact" || len(got.tags) != 2 ||
		got.created != 1 || got.updated != -2 || got.importance != 0.5 || got.hash != 42 {
		t.Errorf("round trip: %+v", got)
	}
	hits := s2.search([]float32{0, 1, 0}, 1, nil)
	if len(hits) != 1 || s2.entries[hits[0].slot].seq != 1 || hits[0].score != 1 {
		t.Errorf("search: %+v", hits)
	}
	// Compaction keeps the live chunks only.
	if err := s2.compact(true); err != nil {
		t.Fatal(err)
	}
	s3 := newVecStore(file, 3, "t")
	if err := s3.load(); err != nil {
		t.Fatal(err)
	}
	defer s3.close()
	if s3.count() != 2 || s3.dead != 0 {
		t.Errorf("after compaction: %d live, %d dead", s3.count(), s3.dead)
	}
	if s := newVecStore(file, 4, "t"); s.load() == nil {
		t.Errorf("loaded with another dimension")
	}
}

func TestDot(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 7, 8, 9, 384, 1000} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = r.Float32()-0.5, r.Float32()-0.5
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("dot of %d: %v, want %v", n, got, want)
		}
		if got := dotGo(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("dotGo of %d: %v, want %v", n, got, want)
		}
	}
}

// FuzzVectorsFile feeds arbitrary records after a valid header to the
// loader: it must fail cleanly or load, never panic. The input is split
// at "|" into payloads, each framed with a valid checksum so the decoder
// of records is reached; an input starting with "!" is used raw.
func FuzzVectorsFile(f *testing.F) {
	s := newVecStore("", 2, "f")
	var l logBuf
	l.put(&entry{path: "p", seq: 3, tags: []string{"t"}, title: "x"}, []float32{0.6, 0.8})
	l.delete("p")
	for b := l.b; len(b) > 0; { // the payloads, "|"-separated
		n := binary.LittleEndian.Uint32(b)
		f.Add(b[8 : 8+n])
		b = b[8+n:]
	}
	f.Add(append([]byte("!"), l.b...))
	f.Add([]byte{})
	f.Add([]byte{opPut, 1, 'p', 0xff, 0xff, 0xff, 0xff, 0x0f})
	header := s.header()
	f.Fuzz(func(t *testing.T, in []byte) {
		var file []byte
		file = append(file, header...)
		if len(in) > 0 && in[0] == '!' {
			file = append(file, in[1:]...)
		} else {
			var l logBuf
			for _, p := range bytes.Split(in, []byte("|")) {
				if len(p) > 0 {
					l.frame(p)
				}
			}
			file = append(file, l.b...)
		}
		s := newVecStore("", 2, "f")
		if err := s.read(bytes.NewReader(file)); err == nil {
			s.search([]float32{1, 0}, 3, nil)
			for p := range s.byPath {
				s.ids(p)
			}
		}
	})
}
