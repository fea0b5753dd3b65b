package statcache

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestCacheRoundTrip(t *testing.T) {
	c := &Cache{Head: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567"), Written: 1234567890123}
	for _, p := range []string{"a", "a-b", "a/b/c.md", "core/decisions/x--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", string(bytes.Repeat([]byte("x"), 5000))} {
		c.Entries = append(c.Entries, Entry{Path: p, Mode: 0o100644, Stat: Stat{MtimeS: 7, Size: 9, Ino: 3}, Hash: plumbing.NewHash("ffffffffffffffffffffffffffffffffffffffff")})
	}
	slices.SortFunc(c.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	b, idx := c.Encode()
	got, err := Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Head != c.Head || got.Written != c.Written || len(got.Entries) != len(c.Entries) {
		t.Fatalf("decoded %+v", got)
	}
	for i := range c.Entries {
		if got.Entries[i] != c.Entries[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got.Entries[i], c.Entries[i])
		}
	}
	// The git index has the same entries and no cairn extension.
	gi, err := Decode(bytes.Join(idx, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !gi.Head.IsZero() || len(gi.Entries) != len(c.Entries) {
		t.Errorf("git index decoded as %+v", gi)
	}
}

// FuzzDecode: a damaged cache is an error, never a panic; what
// decodes re-encodes to something that decodes the same.
func FuzzDecode(f *testing.F) {
	c := &Cache{Entries: []Entry{{Path: "a.md", Mode: 0o100644}, {Path: "b/c.md", Mode: 0o100755}}}
	b, idx := c.Encode()
	f.Add(b)
	f.Add(bytes.Join(idx, nil))
	f.Add([]byte("DIRC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data, nil)
		if err != nil {
			return
		}
		b, _ := c.Encode()
		c2, err := Decode(b, nil)
		if err != nil {
			t.Fatalf("re-encoded cache does not decode: %v", err)
		}
		if len(c2.Entries) != len(c.Entries) || c2.Head != c.Head {
			t.Fatalf("round trip changed the cache")
		}
	})
}

func TestHeadOfTail(t *testing.T) {
	c := &Cache{Head: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567"), Written: 42, Monitor: "tok:1",
		Entries: []Entry{{Path: "CAIR.md"}, {Path: "core/x.md"}}}
	b, _ := c.Encode()
	for _, n := range []int{len(b), 200, 100} {
		if h, ok := HeadOfTail(b[len(b)-min(n, len(b)):]); !ok || h != c.Head {
			t.Errorf("tail of %d: %v %v", n, h, ok)
		}
	}
	if _, ok := HeadOfTail(b[:len(b)-1]); ok {
		t.Error("a torn tail read as a head")
	}
}

func TestFindFrom(t *testing.T) {
	c := &Cache{}
	for i := range 300 {
		c.Entries = append(c.Entries, Entry{Path: fmt.Sprintf("p%04d", 2*i)})
	}
	for from := 0; from <= 300; from += 37 {
		for n := 2 * from; n < 620; n++ {
			p := fmt.Sprintf("p%04d", n)
			wi, wok := c.Find(p)
			if i, ok := c.FindFrom(from, p); i != wi || ok != wok {
				t.Fatalf("FindFrom(%d, %s) = %d %v, want %d %v", from, p, i, ok, wi, wok)
			}
		}
	}
}

// BenchmarkLookups looks up every path of a 100,000-entry cache in order,
// as a whole-tree scan does: by binary search each time, and galloping on.
func BenchmarkLookups(b *testing.B) {
	c := &Cache{}
	for i := range 100_000 {
		c.Entries = append(c.Entries, Entry{Path: fmt.Sprintf("sessions/2026-01-%02d-%06d/observations.md", i%28+1, i)})
	}
	slices.SortFunc(c.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	paths := make([]string, len(c.Entries))
	for i := range c.Entries {
		paths[i] = strings.Clone(c.Entries[i].Path)
	}
	b.Run("Find", func(b *testing.B) {
		for b.Loop() {
			for _, p := range paths {
				c.Find(p)
			}
		}
	})
	b.Run("FindFrom", func(b *testing.B) {
		for b.Loop() {
			at := 0
			for _, p := range paths {
				at, _ = c.FindFrom(at, p)
			}
		}
	})
}
