package gitstore

import (
	"bytes"
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
