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

	"github.com/cairn-mem/cairn/internal/model"
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

// A file of megabytes is described from its head (front matter and
// first lines), as it would be whole: same keys, same title, the blob
// and size of the whole file; a head whose front matter does not close
// is parsed whole, so a broken file names its line.
func TestDescribeBig(t *testing.T) {
	filler := strings.Repeat("A line of a pasted log, 2025-01-01 12:00:00 INFO worker: claimed a job.\n", 20000) // 1.4 MB
	long := strings.Repeat("word ", 300000)                                                                      // one line of 1.5 MB
	for _, tc := range []struct {
		name, data string
		want       Type
		title      string
		line       int
	}{
		{"front matter", "---\nkind: fact\ntitle: A fact\ntags: [x, y]\nsupersedes: 01jdxk3v9m2q7y8z4t6r5w1hbc\n---\n" + filler, Item, "A fact", 0},
		{"crlf", "---\r\nkind: note\r\ntitle: Notes\r\n---\r\n" + strings.ReplaceAll(filler, "\n", "\r\n"), Item, "Notes", 0},
		{"title from a long first line", "---\nkind: note\n---\n" + long + "\n" + filler, Item, "", 0},
		{"no line end at all", long, Item, "", 0},
		{"front matter longer than the head", "---\nkind: note\ntitle: Long\nlist:\n" + strings.Repeat("  - an entry of the list\n", 20000) + "---\nbody\n", Item, "Long", 0},
		{"unclosed front matter", "---\nkind: note\ntitle: Open\n" + filler, Broken, "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			if len(data) <= describeHead {
				t.Fatalf("%d bytes: not over the head", len(data))
			}
			r := Describe("core/notes/big.md", data)
			if r.Size != int64(len(data)) || r.Blob != BlobID(data) {
				t.Errorf("size %d blob %s, want the whole file's", r.Size, r.Blob)
			}
			if r.Type != tc.want || r.Line != tc.line {
				t.Fatalf("type %c line %d (%s), want %c %d", r.Type, r.Line, r.Err, tc.want, tc.line)
			}
			if tc.want != Item {
				return
			}
			if tc.title != "" && r.Title != tc.title {
				t.Errorf("title %q, want %q", r.Title, tc.title)
			}
			// As the whole file gives it.
			it, err := model.Parse("core/notes/big.md", data)
			if err != nil {
				t.Fatal(err)
			}
			if r.Title != it.Title || r.Kind != string(it.Kind) || !reflect.DeepEqual(r.Tags, it.Tags) {
				t.Errorf("row %q %s %q, the whole file %q %s %q", r.Title, r.Kind, r.Tags, it.Title, it.Kind, it.Tags)
			}
		})
	}
	if r := Describe("core/notes/big.md", []byte("---\nkind: fact\ntitle: A fact\nsupersedes: 01jdxk3v9m2q7y8z4t6r5w1hbc\n---\n"+filler)); r.Supersedes != "01JDXK3V9M2Q7Y8Z4T6R5W1HBC" {
		t.Errorf("supersedes %q", r.Supersedes)
	}
}
