package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		path, data string
		want       Type
		title      string
	}{
		{"core/facts/a--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", "---\nkind: fact\ntitle: A fact\ntags: [x, y]\n---\nbody\n", Item, "A fact"},
		{"core/notes/plain.md", "no front matter\n", Item, "no front matter"},
		{"core/notes/bad.md", "---\ntitle: [unclosed\n---\n", Broken, ""},
		{"sessions/s/prompts.md", "- a prompt\n", Other, ""},
		{"sessions/s/summary.md", "---\nkind: summary\ntitle: What was done\n---\n", Item, "What was done"},
		{"sessions/s/session.yaml", "schema: 1\nid: s\nstatus: active\ntitle: Fix the queue\nstarted: 2026-12-01T10:00:00Z\n", Session, "Fix the queue"},
		{"sessions/s/session.yaml", "{{{", Other, ""},
	} {
		r := Describe(tc.path, []byte(tc.data))
		if r.Type != tc.want || r.Title != tc.title || r.Size != int64(len(tc.data)) || r.Blob != BlobID([]byte(tc.data)) {
			t.Errorf("Describe(%s) = %c %q size %d, want %c %q", tc.path, r.Type, r.Title, r.Size, tc.want, tc.title)
		}
	}
	// git hash-object of "hello\n"
	if got := BlobID([]byte("hello\n")); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("BlobID = %s", got)
	}
}

func TestWriteRead(t *testing.T) {
	p := NewPart("core")
	p.Commit, p.Tree, p.Written = strings.Repeat("a", 40), strings.Repeat("b", 40), time.Now().UnixNano()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("", 3600))
	for _, r := range []*Row{
		{Path: "core/a.md", Type: Item, Blob: "x", Size: 3, MTime: 7, ID: "ID", Kind: "fact", Title: "tab\there \\t and\nline", Tags: []string{"a\x1fb", "c\\"}, Created: at, Updated: at.UTC(), Importance: 0.1, Confid: 0.72, Pinned: true, Schema: 1, Supersedes: "OLD", Session: "s"},
		{Path: "core/b c.md", Type: Broken, Blob: "y", Line: 3, Err: "bad:\tthing"},
		{Path: "sessions/s/session.yaml", Type: Session, Title: "T", Status: "active", Activity: at},
		{Path: "sessions/s/prompts.md", Type: Other, Blob: "z", Size: 1},
		{Path: "core/empty.md", Type: Item, Tags: []string{}},
	} {
		p.Rows[r.Path] = r
	}
	name := filepath.Join(t.TempDir(), "catalog-core.tsv")
	if err := p.Write(name); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v %v", fi, err)
	}
	data, _ := os.ReadFile(name)
	q, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	p.Rows["core/empty.md"].Tags = nil
	for k, r := range p.Rows {
		g := q.Rows[k]
		if g == nil || !g.Created.Equal(r.Created) || !g.Updated.Equal(r.Updated) || !g.Activity.Equal(r.Activity) {
			t.Fatalf("%s: %+v, want %+v", k, g, r)
		}
		a, b := *g, *r
		a.Created, a.Updated, a.Activity, b.Created, b.Updated, b.Activity = time.Time{}, time.Time{}, time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", k, a, b)
		}
	}
	if q.Commit != p.Commit || q.Tree != p.Tree || q.Written != p.Written || q.Root != "core" || len(q.Rows) != len(p.Rows) {
		t.Errorf("header %+v", q)
	}
	var want, got []string
	for _, r := range p.Sorted() {
		want = append(want, r.Path)
	}
	for _, r := range q.Sorted() {
		got = append(got, r.Path)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
	q.Rows["core/0.md"] = &Row{Path: "core/0.md"} // changed since read
	if s := q.Sorted(); len(s) != len(p.Rows)+1 || s[0].Path != "core/0.md" {
		t.Errorf("sorted after a change: %d rows, first %q", len(s), s[0].Path)
	}
	delete(q.Rows, "core/0.md")
	// The folders' times count with the part they were written with.
	p.Dirs = map[string]int64{"core": 5, "core/a\tb": 7}
	if err := p.Write(name); err != nil {
		t.Fatal(err)
	}
	dirs, err := os.ReadFile(DirsName(name))
	if err != nil {
		t.Fatal(err)
	}
	if q.ReadDirs(dirs); !reflect.DeepEqual(q.Dirs, p.Dirs) {
		t.Errorf("folders %v, want %v", q.Dirs, p.Dirs)
	}
	for _, bad := range [][]byte{nil, dirs[:len(dirs)-2], []byte(strings.Replace(string(dirs), fmt.Sprint(p.Written), fmt.Sprint(p.Written+1), 1))} {
		if q.ReadDirs(bad); len(q.Dirs) != 0 {
			t.Errorf("folders read from %q: %v", bad, q.Dirs)
		}
	}
	// Every cut of the file is told from the whole.
	for i := range len(data) {
		if _, err := Read(data[:i]); !errors.Is(err, ErrDamaged) {
			t.Fatalf("Read of the first %d of %d bytes: %v", i, len(data), err)
		}
	}
}
