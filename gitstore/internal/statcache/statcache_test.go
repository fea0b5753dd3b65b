package gitstore

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestCacheRoundTrip(t *testing.T) {
	c := &cache{head: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567"), written: 1234567890123}
	for _, p := range []string{"a", "a-b", "a/b/c.md", "core/decisions/x--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", string(bytes.Repeat([]byte("x"), 5000))} {
		c.entries = append(c.entries, entry{path: p, mode: 0o100644, stat: stat{mtimeS: 7, size: 9, ino: 3}, hash: plumbing.NewHash("ffffffffffffffffffffffffffffffffffffffff")})
	}
	sortEntries(c.entries)
	b, idx := c.encode()
	got, err := decodeCache(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.head != c.head || got.written != c.written || len(got.entries) != len(c.entries) {
		t.Fatalf("decoded %+v", got)
	}
	for i := range c.entries {
		if got.entries[i] != c.entries[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got.entries[i], c.entries[i])
		}
	}
	// The git index has the same entries and no cairn extension.
	gi, err := decodeCache(bytes.Join(idx, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !gi.head.IsZero() || len(gi.entries) != len(c.entries) {
		t.Errorf("git index decoded as %+v", gi)
	}
}

// FuzzDecodeCache: a damaged cache is an error, never a panic; what
// decodes re-encodes to something that decodes the same.
func FuzzDecodeCache(f *testing.F) {
	c := &cache{entries: []entry{{path: "a.md", mode: 0o100644}, {path: "b/c.md", mode: 0o100755}}}
	b, idx := c.encode()
	f.Add(b)
	f.Add(bytes.Join(idx, nil))
	f.Add([]byte("DIRC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeCache(data)
		if err != nil {
			return
		}
		b, _ := c.encode()
		c2, err := decodeCache(b)
		if err != nil {
			t.Fatalf("re-encoded cache does not decode: %v", err)
		}
		if len(c2.entries) != len(c.entries) || c2.head != c.head {
			t.Fatalf("round trip changed the cache")
		}
	})
}

func TestApplyChanges(t *testing.T) {
	for _, n := range []int{3, 200} { // in place, and merged
		var base cache
		for i := 0; i < 500; i += 2 {
			base.entries = append(base.entries, entry{path: pathN(i)})
		}
		sortEntries(base.entries)
		var changes []change
		want := map[string]bool{}
		for _, e := range base.entries {
			want[e.path] = true
		}
		for k := 0; k < n; k++ {
			i := (k * 7) % 500
			p := pathN(i)
			switch {
			case want[p] && k%2 == 0:
				changes = append(changes, change{FileChange: FileChange{p, Deleted}})
				delete(want, p)
			case want[p]:
				changes = append(changes, change{FileChange: FileChange{p, Modified}, e: entry{path: p, mode: 1}})
			default:
				changes = append(changes, change{FileChange: FileChange{p, Added}, e: entry{path: p}})
				want[p] = true
			}
		}
		sortChanges(changes)
		changes = slices.CompactFunc(changes, func(a, b change) bool { return a.Path == b.Path })
		applyChanges(&base, changes)
		if len(base.entries) != len(want) {
			t.Errorf("n=%d: %d entries, want %d", n, len(base.entries), len(want))
		}
		for i, e := range base.entries {
			if !want[e.path] || i > 0 && base.entries[i-1].path >= e.path {
				t.Fatalf("n=%d: bad entry %d %q", n, i, e.path)
			}
		}
	}
}

func pathN(i int) string { return fmt.Sprintf("d%d/f%03d.md", i%7, i) }
