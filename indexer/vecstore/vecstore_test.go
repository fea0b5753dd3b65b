package indexer

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

// TestVecSearchRecall compares the search of int8 codes (scan, then
// rescoring with the float32 query) against exact float32 brute force
// over the vectors before quantisation. Measured 0.986 on embeddings and
// 0.984 on random vectors: what it misses are near ties (the labelled
// set's hit@k is the same as with float32).
func TestVecSearchRecall(t *testing.T) {
	h, err := NewHashEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := benchDocs(10_000, 3)
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Title + "\n\n" + d.Body
	}
	vecs, _ := h.Embed(context.Background(), texts)
	r := rand.New(rand.NewSource(4))
	random := make([][]float32, len(docs))
	for i := range random {
		v := make([]float32, HashDim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		normalize(v)
		random[i] = v
	}
	for _, k := range []int{10, 150} { // 150: what memory's search asks for
		for name, set := range map[string][][]float32{"embeddings": vecs, "random": random} {
			s := newVecStore("", HashDim, "t")
			for i, v := range set {
				s.put(&entry{path: fmt.Sprint(i)}, v)
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
				exact := make([]scored, len(set))
				for i, v := range set {
					exact[i] = scored{i, dotGo(q, v)}
				}
				sort.Slice(exact, func(i, j int) bool { return minHeap(exact).Less(j, i) })
				want := map[int]bool{}
				for _, x := range exact[:k] {
					want[x.slot] = true
				}
				for _, x := range s.search(q, k, nil) {
					if want[x.slot] {
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
		s := newVecStore(file, 3, "t")
		if err := s.create(); err != nil {
			t.Fatal(err)
		}
		l := s.newLog()
		l.put(&entry{path: "a.md"}, []float32{1, 0, 0})
		l.put(&entry{path: "b.md"}, []float32{0, 1, 0})
		if err := s.commit(l); err != nil {
			t.Fatal(err)
		}
		if replace { // a.md's vector moves to the end of the file
			l := s.newLog()
			l.delete("a.md")
			l.put(&entry{path: "a.md"}, []float32{0, 0, 1})
			if err := s.commit(l); err != nil {
				t.Fatal(err)
			}
		}
		s.close()
		want := map[bool][]float32{false: {1, 0, 0}, true: {0, 0, 1}}[replace]
		s2 := newVecStore(file, 3, "t")
		if err := s2.load(); err != nil {
			t.Fatal(err)
		}
		if s2.ready.Load() {
			t.Fatalf("replace=%v: vectors read at load", replace)
		}
		hits := s2.search(want, 1, nil)
		if len(hits) != 1 || s2.entries[hits[0].slot].path != "a.md" || hits[0].score != 1 {
			t.Errorf("replace=%v: search %+v", replace, hits)
		}
		s2.close()

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
		s3 := newVecStore(file, 3, "t")
		if err := s3.load(); err != nil {
			t.Fatal(err)
		}
		if err := s3.materialize(); !errors.Is(err, ErrNeedsRebuild) {
			t.Errorf("replace=%v: damaged vector: %v, want ErrNeedsRebuild", replace, err)
		}
		s3.close()
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

// TestFeatTable checks the embedder's feature counts against a map,
// across growth and reuse, with colliding low bits and the hash 0.
func TestFeatTable(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var ft featTable
	for round, n := range []int{0, 1, 10, 600, 5000, 3} {
		ft.reset()
		want := map[uint64]float64{}
		for i := 0; i < n; i++ {
			h := uint64(r.Intn(n/2+1)) << (r.Intn(3) * 20) // repeats, same low bits
			if h == 0 {
				h = 1 // as add counts it
			}
			w := r.Float64()
			ft.add(h, w)
			want[h] += w
		}
		got := map[uint64]float64{}
		for _, i := range ft.used {
			if _, dup := got[ft.keys[i]]; dup {
				t.Fatalf("round %d: %x counted twice", round, ft.keys[i])
			}
			got[ft.keys[i]] = ft.vals[i]
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d features, want %d", round, len(got), len(want))
		}
		for h, w := range want {
			if math.Abs(got[h]-w) > 1e-9 {
				t.Errorf("round %d: %x counts %v, want %v", round, h, got[h], w)
			}
		}
	}
}

// TestVecStoreFieldCoding checks that the fields coded against the
// previous put record (path, title, layer, session, times, importance,
// vector offset) come back as written, across commits, a reload and a
// compaction.
func TestVecStoreFieldCoding(t *testing.T) {
	entries := []*entry{
		{path: "archive/2026/10/s0/summary.md", title: "Summary of session s0", kind: "summary", layer: "archival", session: "s0", created: 5e18, updated: 5e18, importance: 0.6, hash: 1},
		{path: "archive/2026/10/s0/summary.md", seq: 1, title: "Summary of session s0", kind: "summary", layer: "archival", session: "s0", created: 5e18, updated: 5e18 + 7, importance: 0.6, hash: 2},
		{path: "archive/2026/10/s0/prompts.md", title: "Prompts of session s0", kind: "prompt", layer: "archival", session: "s0", created: 4e18, updated: 6e18, importance: 0.123456789, hash: 3},
		{path: "archive/2026/10/s1/prompts.md", title: "", kind: "prompt", layer: "archival", session: "s1", importance: -1, hash: 4},
		{path: "core/a.md", title: "s0", kind: "fact", layer: "core", tags: []string{"t"}, created: -3, importance: 1, hash: 5},
		{path: "core", title: "of session s0", layer: "", importance: math.NaN(), hash: 6},
		{path: "core/b.md", title: "Prompts of session s0", kind: "fact", layer: "core", importance: 999.999, hash: 7},
	}
	file := filepath.Join(t.TempDir(), "vectors")
	s := newVecStore(file, 3, "t")
	if err := s.create(); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries { // one commit each but the first two
		l := s.newLog()
		c := *e
		l.put(&c, []float32{float32(i), 1, 0})
		if i == 0 {
			c2 := *entries[1]
			l.put(&c2, []float32{1, 1, 0})
		}
		if i == 1 {
			continue
		}
		if err := s.commit(l); err != nil {
			t.Fatal(err)
		}
	}
	check := func(s *vecStore, when string) {
		t.Helper()
		if s.count() != len(entries) {
			t.Fatalf("%s: %d chunks, want %d", when, s.count(), len(entries))
		}
		for _, want := range entries {
			got, ok := s.lookup(want.id())
			if !ok {
				t.Fatalf("%s: %s missing", when, want.id())
			}
			g, w := *got, *want
			g.slot, w.slot = 0, 0
			if g.importance != g.importance && w.importance != w.importance {
				g.importance, w.importance = 0, 0 // NaN
			}
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("%s:\n got %+v\nwant %+v", when, g, w)
			}
		}
	}
	check(s, "written")
	s.close()
	s2 := newVecStore(file, 3, "t")
	if err := s2.load(); err != nil {
		t.Fatal(err)
	}
	check(s2, "loaded")
	if err := s2.compact(true); err != nil {
		t.Fatal(err)
	}
	l := s2.newLog() // after a compaction, coded against its last record
	extra := &entry{path: "core/b.md", seq: 1, title: "Prompts of session s0", layer: "core", importance: 0.5}
	l.put(extra, []float32{0, 0, 1})
	if err := s2.commit(l); err != nil {
		t.Fatal(err)
	}
	entries = append(entries, extra)
	s2.close()
	s3 := newVecStore(file, 3, "t")
	if err := s3.load(); err != nil {
		t.Fatal(err)
	}
	defer s3.close()
	check(s3, "compacted")
	if err := s3.materialize(); err != nil {
		t.Fatal(err)
	}
}
