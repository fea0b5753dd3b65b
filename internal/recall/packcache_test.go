package recall

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/model"
)

// The pack cache changes nothing a pack shows: the pack made from it
// equals the one made without it, a pack of the same inputs computes
// nothing (the file is not written again), and a damaged cache is said
// in one line and rebuilt.
func TestPackCache(t *testing.T) {
	ctx := context.Background()
	m, w := reopen(t, projectMemory(t))
	name := m.StatePath(packCacheFile)
	packText := func() string {
		t.Helper()
		p, err := Context(ctx, m, ContextOptions{Budget: 1500})
		if err != nil {
			t.Fatal(err)
		}
		return p.Text
	}
	fresh := func() string {
		t.Helper()
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return packText()
	}

	want := fresh()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatalf("no cache after a pack: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(name)
	if got := packText(); got != want {
		t.Errorf("pack from the cache differs:\n%s\nwant:\n%s", got, want)
	}
	if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
		t.Error("a pack of the same inputs wrote the cache again")
	}
	if l := w.take(); len(l) != 0 {
		t.Errorf("warnings: %q", l)
	}

	// Damaged: a flipped byte in the answers, then a file cut short.
	for _, damage := range [][]byte{
		append(slices.Clone(data[:len(data)-1]), data[len(data)-1]^0xff),
		data[:len(packCacheMagic)+5],
	} {
		if err := os.WriteFile(name, damage, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := packText(); got != want {
			t.Errorf("pack from a damaged cache differs:\n%s\nwant:\n%s", got, want)
		}
		if l := w.take(); len(l) != 1 || !strings.Contains(l[0], "damaged") {
			t.Errorf("warnings %q, want one saying the cache is damaged", l)
		}
		if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
			t.Error("the damaged cache was not rebuilt")
		}
	}

	// A new core item changes the inputs: the answers are computed again,
	// and agree with a pack made from nothing.
	it := model.NewItem(model.Fact, "The API listens on port 9090 now", m.Now())
	it.Body, it.Importance = "Moved from 8081 for the new load balancer.", 0.95
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	got := packText()
	if again, _ := os.ReadFile(name); bytes.Equal(again, data) {
		t.Error("the cache was not made again for the new inputs")
	}
	if want := fresh(); got != want {
		t.Errorf("pack after a change differs from one made without the cache:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(got, "9090") {
		t.Errorf("the new item is not in the pack:\n%s", got)
	}
}

func TestParsePackCache(t *testing.T) {
	key := sha256.Sum256([]byte("inputs"))
	c := &retirer{key: key, memo: map[string]string{"R0\x00a title": "1", "D2\x00a body": "", "T1\x00x": "Session"}}
	var b bytes.Buffer
	b.WriteString(packCacheMagic)
	b.Write(key[:])
	good := encodePackCache(t, c)
	other := sha256.Sum256([]byte("other inputs"))
	for _, tc := range []struct {
		name    string
		data    []byte
		key     [sha256.Size]byte
		want    map[string]string
		damaged bool
	}{
		{"whole", good, key, c.memo, false},
		{"other inputs", good, other, nil, false},
		{"empty", nil, key, nil, true},
		{"another format", append([]byte("cairn-packcache 2\n"), good[len(packCacheMagic):]...), key, nil, true},
		{"cut short", good[:len(good)-3], key, nil, true},
		{"header only", b.Bytes(), key, nil, true},
		{"flipped", append(slices.Clone(good[:len(good)-1]), good[len(good)-1]^1), key, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePackCache(tc.data, tc.key)
			if (err != nil) != tc.damaged {
				t.Fatalf("err %v, damaged %v", err, tc.damaged)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for k, v := range tc.want {
				if g, ok := got[k]; !ok || g != v {
					t.Errorf("%q: got %q, want %q", k, g, v)
				}
			}
		})
	}
}

// encodePackCache is what save writes for c.
func encodePackCache(t *testing.T, c *retirer) []byte {
	t.Helper()
	m, _ := newTestMemory(t)
	c.added = 1
	c.save(m)
	data, err := os.ReadFile(m.StatePath(packCacheFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// overlapping finds exactly the titles digest.Overlap would.
func TestOverlapping(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("queue worker retry backoff postgres rows handler error status migration deploy port api cache report")
	set := func(n int) map[string]bool {
		s := map[string]bool{}
		for range n {
			s[words[rng.IntN(len(words))]] = true
		}
		return s
	}
	var c coreTitles
	for range 500 {
		c.add(set(1+rng.IntN(6)), nil)
	}
	for range 200 {
		w := set(rng.IntN(8))
		var want []int
		if len(w) >= 2 {
			for j, t := range c.words {
				if digest.Overlap(t, w) >= 0.75 {
					want = append(want, j)
				}
			}
		}
		if got := c.overlapping(w, 0.75); !slices.Equal(got, want) {
			t.Fatalf("overlapping(%v) = %v, want %v", w, got, want)
		}
	}
}
