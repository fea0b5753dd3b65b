package statcache

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestEWAHRoundTrip(t *testing.T) {
	for _, ps := range [][]int{
		nil, {0}, {63}, {64}, {0, 1, 2, 63, 64, 65, 127, 128},
		{5, 1000, 100000}, {70, 70 + 64*3, 70 + 64*4},
	} {
		b := appendEWAH(nil, ps)
		got, rest, err := readEWAH(append(b, 'x'))
		if err != nil {
			t.Errorf("%v: %v", ps, err)
			continue
		}
		if !slices.Equal(got, ps) || string(rest) != "x" {
			t.Errorf("%v read back as %v, rest %q", ps, got, rest)
		}
	}
}

// TestSplitRoundTrip: a cache changed in every way since its base is
// written as a split index that decodes, against that base, to the same
// entries.
func TestSplitRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	c := &Cache{Head: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567"), Written: 2e18, Monitor: "tok:3"}
	for i := range 1000 {
		c.Entries = append(c.Entries, entryN(i*2, 1))
	}
	sortByPath(c.Entries)
	bases := map[plumbing.Hash][]byte{}
	load := func(sum plumbing.Hash) (*Base, error) {
		b, ok := bases[sum]
		if !ok {
			return nil, os.ErrNotExist
		}
		return DecodeBase(b)
	}
	base := c.NewBase()
	bases[c.Base.Sum] = base
	for round := range 5 {
		var next []Entry
		for i := range 2000 {
			_, had := c.Find(entryN(i, 0).Path)
			switch k := r.IntN(10); {
			case had && k == 0: // deleted
			case had && k == 1:
				next = append(next, entryN(i, uint32(round+2))) // modified
			case had:
				j, _ := c.Find(entryN(i, 0).Path)
				next = append(next, c.Entries[j])
			case k == 0:
				next = append(next, entryN(i, 7)) // added
			}
		}
		sortByPath(next)
		c.Entries = next
		b, idx := c.Encode()
		if round == 0 && len(b) > len(base)/3 {
			t.Errorf("round %d: split file of %d bytes, base %d", round, len(b), len(base))
		}
		got, err := Decode(b, load)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !slices.Equal(got.Entries, c.Entries) || got.Head != c.Head || got.Monitor != c.Monitor || got.Base.Sum != c.Base.Sum {
			t.Fatalf("round %d: decoded %d entries, want %d", round, len(got.Entries), len(c.Entries))
		}
		if _, err := Decode(bytes.Join(idx, nil), load); err != nil {
			t.Fatalf("round %d: git index: %v", round, err)
		}
	}
	if _, err := Decode(appendSplitFor(c), nil); err == nil {
		t.Error("a split cache decoded with no base")
	}
}

func sortByPath(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
}

func appendSplitFor(c *Cache) []byte { b, _ := c.Encode(); return b }

func entryN(i int, v uint32) Entry {
	e := Entry{Path: fmt.Sprintf("d%d/f%05d.md", i%13, i), Mode: 0o100644, Stat: Stat{MtimeS: 1000 + v, Size: v, Ino: uint32(i)}}
	e.Hash[0], e.Hash[1] = byte(i), byte(v)
	return e
}

// TestDecodeGitSplitIndex reads a split index git wrote, with deleted,
// replaced and added entries, as git lists it.
func TestDecodeGitSplitIndex(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	put := func(p, s string) {
		t.Helper()
		name := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	for i := range 300 {
		put(fmt.Sprintf("d%d/f%03d.md", i%5, i), fmt.Sprint(i))
	}
	git("add", "-A")
	git("-c", "splitIndex.maxPercentChange=100", "update-index", "--split-index")
	for i := 0; i < 300; i += 7 {
		os.Remove(filepath.Join(dir, fmt.Sprintf("d%d/f%03d.md", i%5, i)))
	}
	for i := 1; i < 300; i += 11 {
		put(fmt.Sprintf("d%d/f%03d.md", i%5, i), "changed")
	}
	put("a/new.md", "new")
	put("d1/zz.md", "new")
	git("-c", "splitIndex.maxPercentChange=100", "add", "-A")
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Decode(b, func(sum plumbing.Hash) (*Base, error) {
		b, err := os.ReadFile(filepath.Join(dir, ".git", BaseName(sum)))
		if err != nil {
			return nil, err
		}
		return DecodeBase(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Base == nil {
		t.Fatal("git wrote no split index")
	}
	var got strings.Builder
	for _, e := range c.Entries {
		fmt.Fprintf(&got, "%o %s 0\t%s\n", e.Mode, e.Hash, e.Path)
	}
	if want := git("ls-files", "-s"); got.String() != want {
		t.Errorf("decoded:\n%s\ngit ls-files -s:\n%s", got.String(), want)
	}
}

// TestRacySavedSmudged: an entry racy when the cache is saved is saved
// without its stat data, whole or as a base, so that a later save with a
// later Written cannot make it look settled; SmudgeRacy does the same in
// memory.
func TestRacySavedSmudged(t *testing.T) {
	entries := []Entry{
		{Path: "old.md", Stat: Stat{MtimeS: 5, Size: 3, Ino: 1}},
		{Path: "racy.md", Stat: Stat{MtimeS: 9, Size: 3, Ino: 2}},
	}
	check := func(what string, es []Entry) {
		t.Helper()
		if len(es) != 2 || es[0].Smudged() || !es[1].Smudged() {
			t.Errorf("%s: %+v", what, es)
		}
	}
	c := &Cache{Written: 10e9, Entries: slices.Clone(entries)}
	b, _ := c.Encode()
	got, err := Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("saved whole", got.Entries)
	base, err := DecodeBase(c.NewBase())
	if err != nil {
		t.Fatal(err)
	}
	check("base", base.Entries)
	check("base in memory", c.Base.Entries)
	c.SmudgeRacy()
	check("in memory", c.Entries)
}
