package vecstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/cairn-mem/cairn/indexer/embed"
)

func TestVecStoreRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "vectors")
	s := New(file, 3, "t")
	if err := s.Create(); err != nil {
		t.Fatal(err)
	}
	var l Log
	e1 := &Entry{Path: "a.md", Seq: 0, StartLine: 1, EndLine: 2, EndCol: 5, Tokens: 7, Title: "A", Kind: "fact",
		Layer: "core", Session: "s", Tags: []string{"x", "y"}, Created: 1, Updated: -2, Importance: 0.5, Hash: 42}
	e2 := &Entry{Path: "a.md", Seq: 1, Title: "A"}
	e3 := &Entry{Path: "b.md", Seq: 0}
	l.Put(e1, []float32{1, 0, 0})
	l.Put(e2, []float32{0, 1, 0})
	l.Put(e3, []float32{0, 0, 1})
	l.Delete("b.md")
	if err := s.Commit(&l); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2 := New(file, 3, "t")
	if err := s2.Load(); err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Count() != 2 || len(s2.byPath) != 1 {
		t.Fatalf("count %d paths %d", s2.Count(), len(s2.byPath))
	}
	got, ok := s2.Lookup("a.md#0")
	if !ok {
		t.Fatal("a.md#0 missing")
	}
	got.slot = e1.slot
	if got.Path != e1.Path || got.EndCol != 5 || got.Tokens != 7 || got.Kind != "fact" || len(got.Tags) != 2 ||
		got.Created != 1 || got.Updated != -2 || got.Importance != 0.5 || got.Hash != 42 {
		t.Errorf("round trip: %+v", got)
	}
	hits := s2.Search([]float32{0, 1, 0}, 1, nil)
	if len(hits) != 1 || s2.entries[hits[0].Slot].Seq != 1 || hits[0].Score != 1 {
		t.Errorf("search: %+v", hits)
	}
	// Compaction keeps the live chunks only.
	if err := s2.Compact(true); err != nil {
		t.Fatal(err)
	}
	s3 := New(file, 3, "t")
	if err := s3.Load(); err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if s3.Count() != 2 || s3.dead != 0 {
		t.Errorf("after compaction: %d live, %d dead", s3.Count(), s3.dead)
	}
	if s := New(file, 4, "t"); s.Load() == nil {
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
		if got := dotGo(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("dotGo of %d: %v, want %v", n, got, want)
		}
		ca, cb := make([]int8, codeDim(n)), make([]int8, codeDim(n))
		quantize(a, ca)
		sb := quantize(b, cb)
		// Three rows, so that the kernel's row loop runs.
		q16 := make([]int16, len(ca))
		for i, c := range ca {
			q16[i] = int16(c)
		}
		rows := append(append(append([]int8(nil), cb...), ca...), cb...)
		got, exp := make([]int32, 3), make([]int32, 3)
		dotsInt8(q16, rows, got)
		dotsInt8Go(q16, rows, exp)
		if fmt.Sprint(got) != fmt.Sprint(exp) {
			t.Errorf("dotsInt8 of %d: %v, want %v", n, got, exp)
		}
		// The float32 query against codes: within rounding of exact.
		if got := dotCode(a, cb[:n]) * sb; math.Abs(float64(got)-want) > 0.02*math.Sqrt(float64(n)+1) {
			t.Errorf("dotCode of %d: %v, want about %v", n, got, want)
		}
	}
}

// FuzzVectorsFile feeds arbitrary records after a valid header to the
// loader: it must fail cleanly or load, never panic. The input is split
// at "|" into payloads, each framed with a valid checksum so the decoder
// of records is reached; an input starting with "!" is used raw.
func FuzzVectorsFile(f *testing.F) {
	s := New("", 2, "f")
	var l Log
	l.Put(&Entry{Path: "p", Seq: 3, Tags: []string{"t"}, Title: "x"}, []float32{0.6, 0.8})
	l.Delete("p")
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
			var l Log
			for _, p := range bytes.Split(in, []byte("|")) {
				if len(p) > 0 {
					l.frame(p)
				}
			}
			file = append(file, l.b...)
		}
		s := New("", 2, "f")
		if err := s.read(bytes.NewReader(file)); err == nil {
			s.Search([]float32{1, 0}, 3, nil)
			for p := range s.byPath {
				s.IDs(p)
			}
		}
	})
}

// TestVecSearchRecall compares the search of int8 codes (scan, then
// rescoring with the float32 query) against exact float32 brute force
// over the vectors before quantisation. Measured 0.986 on embeddings and
// 0.984 on random vectors: what it misses are near ties (the labelled
// set's hit@k is the same as with float32).
func TestVecSearchRecall(t *testing.T) {
	h, err := embed.NewHash()
	if err != nil {
		t.Fatal(err)
	}
	texts := benchTexts(10_000, 3)
	vecs, _ := h.Embed(context.Background(), texts)
	r := rand.New(rand.NewSource(4))
	random := make([][]float32, len(texts))
	for i := range random {
		v := make([]float32, embed.HashDim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		embed.Normalize(v)
		random[i] = v
	}
	for _, k := range []int{10, 150} { // 150: what memory's search asks for
		for name, set := range map[string][][]float32{"embeddings": vecs, "random": random} {
			s := New("", embed.HashDim, "t")
			for i, v := range set {
				s.put(&Entry{Path: fmt.Sprint(i)}, v)
			}
			found, total := 0, 0
			for qi := 0; qi < 50; qi++ {
				q := set[r.Intn(len(set))]
				if name == "embeddings" { // a query unlike any document
					v, err := h.Embed(context.Background(), []string{texts[r.Intn(len(texts))][:20] + " " + texts[r.Intn(len(texts))][:20]})
					if err != nil {
						t.Fatal(err)
					}
					q = v[0]
				}
				exact := make([]Scored, len(set))
				for i, v := range set {
					exact[i] = Scored{i, dotGo(q, v)}
				}
				sort.Slice(exact, func(i, j int) bool { return minHeap(exact).Less(j, i) })
				want := map[int]bool{}
				for _, x := range exact[:k] {
					want[x.Slot] = true
				}
				for _, x := range s.Search(q, k, nil) {
					if want[x.Slot] {
						found++
					}
				}
				total += k
			}
			recall := float64(found) / float64(total)
			t.Logf("%s: recall@%d of the int8 scan with rescoring %.3f", name, k, recall)
			if recall < 0.97 {
				t.Errorf("%s: recall@%d %.3f", name, k, recall)
			}
		}
	}
}

// TestVecStoreLazyRead checks vectors read on first use, both where each
// slot's vector is at its slot's place in the file and where replacing
// chunks moved them, and that damage to one shows then.
func TestVecStoreLazyRead(t *testing.T) {
	for _, replace := range []bool{false, true} {
		file := filepath.Join(t.TempDir(), "vectors")
		s := New(file, 3, "t")
		if err := s.Create(); err != nil {
			t.Fatal(err)
		}
		l := s.NewLog()
		l.Put(&Entry{Path: "a.md"}, []float32{1, 0, 0})
		l.Put(&Entry{Path: "b.md"}, []float32{0, 1, 0})
		if err := s.Commit(l); err != nil {
			t.Fatal(err)
		}
		if replace { // a.md's vector moves to the end of the file
			l := s.NewLog()
			l.Delete("a.md")
			l.Put(&Entry{Path: "a.md"}, []float32{0, 0, 1})
			if err := s.Commit(l); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		want := map[bool][]float32{false: {1, 0, 0}, true: {0, 0, 1}}[replace]
		s2 := New(file, 3, "t")
		if err := s2.Load(); err != nil {
			t.Fatal(err)
		}
		if s2.ready.Load() {
			t.Fatalf("replace=%v: vectors read at load", replace)
		}
		hits := s2.Search(want, 1, nil)
		if len(hits) != 1 || s2.entries[hits[0].Slot].Path != "a.md" || hits[0].Score != 1 {
			t.Errorf("replace=%v: search %+v", replace, hits)
		}
		s2.Close()

		// Damage a.md's vector: found at first use, not at load.
		b, err := os.ReadFile(file + dataExt)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)-1] ^= 0x5a
		if !replace {
			b[1] ^= 0x5a
		}
		os.WriteFile(file+dataExt, b, 0o600)
		s3 := New(file, 3, "t")
		if err := s3.Load(); err != nil {
			t.Fatal(err)
		}
		var ce *CorruptError
		if err := s3.Materialize(); !errors.As(err, &ce) {
			t.Errorf("replace=%v: damaged vector: %v, want a *CorruptError", replace, err)
		}
		s3.Close()
	}
}

// dotGo is the exact inner product the int8 search is measured against.
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i]*b[i] + a[i+4]*b[i+4]
		s1 += a[i+1]*b[i+1] + a[i+5]*b[i+5]
		s2 += a[i+2]*b[i+2] + a[i+6]*b[i+6]
		s3 += a[i+3]*b[i+3] + a[i+7]*b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// TestVecStoreFieldCoding checks that the fields coded against the
// previous put record (path, title, layer, session, times, importance,
// vector offset) come back as written, across commits, a reload and a
// compaction.
func TestVecStoreFieldCoding(t *testing.T) {
	entries := []*Entry{
		{Path: "archive/2026/10/s0/summary.md", Title: "Summary of session s0", Kind: "summary", Layer: "archival", Session: "s0", Header: "Session 1 · 2026-10-01", Created: 5e18, Updated: 5e18, Importance: 0.6, Hash: 1},
		{Path: "archive/2026/10/s0/summary.md", Seq: 1, Title: "Summary of session s0", Kind: "summary", Layer: "archival", Session: "s0", Header: "Session 1 · 2026-10-01", Created: 5e18, Updated: 5e18 + 7, Importance: 0.6, Hash: 2},
		{Path: "archive/2026/10/s0/prompts.md", Title: "Prompts of session s0", Kind: "prompt", Layer: "archival", Session: "s0", Created: 4e18, Updated: 6e18, Importance: 0.123456789, Hash: 3},
		{Path: "archive/2026/10/s1/prompts.md", Title: "", Kind: "prompt", Layer: "archival", Session: "s1", Importance: -1, Hash: 4},
		{Path: "core/a.md", Title: "s0", Kind: "fact", Layer: "core", Tags: []string{"t"}, Created: -3, Importance: 1, Hash: 5},
		{Path: "core", Title: "of session s0", Layer: "", Importance: math.NaN(), Hash: 6},
		{Path: "core/b.md", Title: "Prompts of session s0", Kind: "fact", Layer: "core", Importance: 999.999, Hash: 7},
	}
	file := filepath.Join(t.TempDir(), "vectors")
	s := New(file, 3, "t")
	if err := s.Create(); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries { // one commit each but the first two
		l := s.NewLog()
		c := *e
		l.Put(&c, []float32{float32(i), 1, 0})
		if i == 0 {
			c2 := *entries[1]
			l.Put(&c2, []float32{1, 1, 0})
		}
		if i == 1 {
			continue
		}
		if err := s.Commit(l); err != nil {
			t.Fatal(err)
		}
	}
	check := func(s *Store, when string) {
		t.Helper()
		if s.Count() != len(entries) {
			t.Fatalf("%s: %d chunks, want %d", when, s.Count(), len(entries))
		}
		for _, want := range entries {
			got, ok := s.Lookup(want.ID())
			if !ok {
				t.Fatalf("%s: %s missing", when, want.ID())
			}
			g, w := *got, *want
			g.slot, w.slot = 0, 0
			if g.Importance != g.Importance && w.Importance != w.Importance {
				g.Importance, w.Importance = 0, 0 // NaN
			}
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("%s:\n got %+v\nwant %+v", when, g, w)
			}
		}
	}
	check(s, "written")
	s.Close()
	s2 := New(file, 3, "t")
	if err := s2.Load(); err != nil {
		t.Fatal(err)
	}
	check(s2, "loaded")
	if err := s2.Compact(true); err != nil {
		t.Fatal(err)
	}
	l := s2.NewLog() // after a compaction, coded against its last record
	extra := &Entry{Path: "core/b.md", Seq: 1, Title: "Prompts of session s0", Layer: "core", Importance: 0.5}
	l.Put(extra, []float32{0, 0, 1})
	if err := s2.Commit(l); err != nil {
		t.Fatal(err)
	}
	entries = append(entries, extra)
	s2.Close()
	s3 := New(file, 3, "t")
	if err := s3.Load(); err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	check(s3, "compacted")
	if err := s3.Materialize(); err != nil {
		t.Fatal(err)
	}
}
