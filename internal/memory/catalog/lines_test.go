package catalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A part read and written back copies the lines of the rows it read, and
// formats those that were replaced: the same file, then the change.
func TestWriteKeepsLines(t *testing.T) {
	p := NewPart("core")
	p.Commit, p.Tree, p.Written = strings.Repeat("a", 40), strings.Repeat("b", 40), time.Now().UnixNano()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, r := range []*Row{
		{Path: "core/a.md", Type: Item, Blob: "x", Size: 3, MTime: 7, ID: "ID", Kind: "fact", Title: "tab\there", Tags: []string{"t"}, Created: at, Updated: at, Importance: 0.5, Confid: 0.7, Schema: 1},
		{Path: "core/b.md", Type: Broken, Blob: "y", Line: 3, Err: "bad"},
		{Path: "core/c.md", Type: Item, Blob: "z", Size: 4, MTime: 9, Title: "C"},
	} {
		p.Rows[r.Path] = r
	}
	dir := t.TempDir()
	q, data := writeRead(t, p, filepath.Join(dir, "one.tsv"))
	if len(q.lines) != 3 {
		t.Fatalf("Read kept %d lines, want 3", len(q.lines))
	}
	second := filepath.Join(dir, "two.tsv")
	if err := q.Write(second); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(second); !bytes.Equal(again, data) {
		t.Fatalf("written back:\n%s\nwant:\n%s", again, data)
	}
	c := clonePart(q)
	changed := *c.Rows["core/c.md"]
	changed.Title, changed.MTime = "C, edited", 0
	c.Rows["core/c.md"] = &changed
	if err := c.Write(second); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(second)
	r, err := Read(again)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Rows["core/c.md"]; got.Title != "C, edited" || got.MTime != 0 || r.Rows["core/a.md"].Title != "tab\there" {
		t.Fatalf("after a replaced row: %+v, %+v", got, r.Rows["core/a.md"])
	}
}

// A copy's Sorted, which takes the order of the part it was copied from
// and merges in what was added, is the rows sorted by path: after rows
// are removed, replaced and added, over copies of copies.
func TestSortedOfCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	name := func() string {
		return fmt.Sprintf("core/%c/%d.md", 'a'+rng.IntN(5), rng.IntN(3000))
	}
	p := NewPart("core")
	p.Commit, p.Tree, p.Written = "c0", "t0", 1
	for range 800 {
		n := name()
		p.Rows[n] = &Row{Path: n, Type: Other}
	}
	q, _ := writeRead(t, p, filepath.Join(t.TempDir(), "part.tsv"))
	for round := range 30 {
		q = clonePart(q)
		for range rng.IntN(20) {
			n := name()
			switch rng.IntN(3) {
			case 0:
				delete(q.Rows, n)
			default:
				q.Rows[n] = &Row{Path: n, Type: Other}
			}
		}
		want := make([]*Row, 0, len(q.Rows))
		for _, r := range q.Rows {
			want = append(want, r)
		}
		slices.SortFunc(want, func(a, b *Row) int { return strings.Compare(a.Path, b.Path) })
		if got := q.Sorted(); !slices.Equal(got, want) {
			t.Fatalf("round %d: Sorted differs from the rows sorted (%d rows, want %d)", round, len(got), len(want))
		}
	}
}

// writeRead writes p to file and reads it back: the part and the bytes.
func writeRead(t *testing.T, p *Part, file string) (*Part, []byte) {
	t.Helper()
	if err := p.Write(file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return q, data
}

// A part is written again for the folders' times only when the next read
// would see them otherwise: an untrusted folder listed again within a
// second is untrusted at the next read as well.
func TestDirsMoved(t *testing.T) {
	now := time.Now().UnixNano()
	old, racy := now-int64(time.Hour), now-int64(time.Second/2)
	for _, c := range []struct {
		name      string
		was, dirs map[string]int64
		want      bool
	}{
		{"same", map[string]int64{"core": old}, map[string]int64{"core": old}, false},
		{"untrusted, listed within a second", map[string]int64{"core": old, "core/d": 0}, map[string]int64{"core": old, "core/d": racy}, false},
		{"untrusted, still", map[string]int64{"core/d": 0}, map[string]int64{"core/d": 0}, false},
		{"untrusted, settled", map[string]int64{"core/d": 0}, map[string]int64{"core/d": old}, true},
		{"trusted, now untrusted", map[string]int64{"core/d": old}, map[string]int64{"core/d": 0}, true},
		{"trusted, moved", map[string]int64{"core/d": old}, map[string]int64{"core/d": racy}, true},
		{"a new folder", map[string]int64{"core": old}, map[string]int64{"core": old, "core/e": racy}, true},
		{"a folder gone", map[string]int64{"core": old, "core/e": 0}, map[string]int64{"core": old}, true},
	} {
		if got := dirsMoved(c.was, c.dirs, now); got != c.want {
			t.Errorf("%s: dirsMoved = %v, want %v", c.name, got, c.want)
		}
	}
}

// dirOf is path.Dir, for the clean paths of rows and any other.
func TestDirOf(t *testing.T) {
	for _, p := range []string{
		"core/decisions/a.md", "sessions/s1/session.yaml", "core/a/b/c/d.md", "a.md", "", ".", "..", "/", "/a.md", "/a/b.md",
		"core//a.md", "core/./a.md", "core/../a.md", "./core/a.md", "../core/a.md", "core/a/", "core/a/.", "core/a/..",
		"core/.hidden/a.md", "core/...", "core/.../a.md", "a/b", "a//", "//a", "core/decisions/", "x/y/../../z",
	} {
		if got, want := dirOf(p), path.Dir(p); got != want {
			t.Errorf("dirOf(%q) = %q, want %q", p, got, want)
		}
	}
}

// inFolder(p, dir) is parent(p) == dir.
func TestInFolder(t *testing.T) {
	paths := []string{"core/a/x.md", "core/a/b/x.md", "core/ab/x.md", "core/x.md", "x.md", "", "/x.md", "core/a/", "core//x.md", "core/a"}
	for _, p := range paths {
		for _, dir := range append(paths, "core/a", "core", "", "core/a/b", "/") {
			if got, want := inFolder(p, dir), parent(p) == dir; got != want {
				t.Errorf("inFolder(%q, %q) = %v, want %v", p, dir, got, want)
			}
		}
	}
}
