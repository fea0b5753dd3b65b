package watcher

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t testing.TB, path, content string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// identity returns the device and inode of the file at path.
func identity(t testing.TB, path string) (uint64, uint64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileID(fi)
}

func TestCursorCheck(t *testing.T) {
	const start = "{\"uuid\":\"a\"}\n{\"uuid\":\"b\"}\n"
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		want   Change
		from   int64
	}{
		{"unchanged", func(*testing.T, string) {}, Unchanged, int64(len(start))},
		{"grown", func(t *testing.T, p string) { appendFile(t, p, "{\"uuid\":\"c\"}\n") }, Grown, int64(len(start))},
		{"half a line more", func(t *testing.T, p string) { appendFile(t, p, "{\"uu") }, Grown, int64(len(start))},
		{"truncated", func(t *testing.T, p string) {
			if err := os.Truncate(p, 5); err != nil {
				t.Fatal(err)
			}
		}, Truncated, 0},
		{"truncated to nothing", func(t *testing.T, p string) {
			if err := os.Truncate(p, 0); err != nil {
				t.Fatal(err)
			}
		}, Truncated, 0},
		{"rewritten in place, longer", func(t *testing.T, p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = f.WriteString("{\"uuid\":\"x\"}\n{\"uuid\":\"y\"}\n{\"uuid\":\"z\"}\n")
			_ = f.Close()
		}, Truncated, 0},
		{"replaced by rename", func(t *testing.T, p string) {
			tmp := p + ".tmp"
			writeFile(t, tmp, start+"{\"uuid\":\"c\"}\n")
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}, Replaced, 0},
		{"removed and created again", func(t *testing.T, p string) {
			keep := p + ".keep" // keeps the old inode from being reused
			if err := os.Rename(p, keep); err != nil {
				t.Fatal(err)
			}
			writeFile(t, p, start)
		}, Replaced, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "s.jsonl")
			writeFile(t, p, start)
			cs, err := OpenCursors(filepath.Join(dir, "cursors"))
			if err != nil {
				t.Fatal(err)
			}
			dev, ino := identity(t, p)
			if err := cs.Commit(Range{Path: p, To: int64(len(start)), Device: dev, Inode: ino, LastUUID: "b"}); err != nil {
				t.Fatal(err)
			}
			cur, err := cs.Load(p)
			if err != nil || cur == nil {
				t.Fatalf("Load = %+v, %v", cur, err)
			}
			if cur.Offset != int64(len(start)) || cur.Size != int64(len(start)) || cur.LastUUID != "b" || cur.Inode != ino || cur.Tail == "" {
				t.Fatalf("cursor %+v", cur)
			}
			tt.change(t, p)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, from, err := cur.Check(f)
			if err != nil || got != tt.want || from != tt.from {
				t.Fatalf("Check = %v, %d, %v; want %v, %d", got, from, err, tt.want, tt.from)
			}
		})
	}
}

func TestCursorsStore(t *testing.T) {
	dir := t.TempDir()
	cs, err := OpenCursors(filepath.Join(dir, "cursors"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a.jsonl")
	writeFile(t, p, "x\ny\n")
	if c, err := cs.Load(p); c != nil || err != nil {
		t.Fatalf("Load before any commit = %+v, %v", c, err)
	}
	var nilCursor *Cursor
	if ch, from, err := nilCursor.Check(nil); ch != NewFile || from != 0 || err != nil {
		t.Fatalf("Check without a cursor = %v, %d, %v", ch, from, err)
	}
	if err := cs.Commit(Range{Path: p, To: 2}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Commit(Range{Path: p, To: 4}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Commit(Range{Path: p, To: 5}); !errors.Is(err, ErrStale) {
		t.Errorf("Commit past the end: %v, want ErrStale", err)
	}
	if err := cs.Commit(Range{Path: p, To: 2, Inode: 1, Device: 1}); !errors.Is(err, ErrStale) {
		t.Errorf("Commit for another inode: %v, want ErrStale", err)
	}
	if err := cs.Commit(Range{Path: filepath.Join(dir, "gone"), To: 2}); !errors.Is(err, ErrStale) {
		t.Errorf("Commit for a missing file: %v, want ErrStale", err)
	}
	if err := cs.Commit(Range{Path: "relative", To: 2}); err == nil {
		t.Error("Commit of a relative path succeeded")
	}
	c, err := cs.Load(p)
	if err != nil || c.Offset != 4 {
		t.Fatalf("Load = %+v, %v; want offset 4", c, err)
	}
	names := ls(t, cs.Dir())
	if len(names) != 1 || len(names[0]) != 40+len(".json") {
		t.Fatalf("cursor folder holds %v, want one <sha1>.json", names)
	}
	all, err := cs.List()
	if err != nil || len(all) != 1 || all[0].Path != p {
		t.Fatalf("List = %+v, %v", all, err)
	}
	// A damaged cursor file is reported, with where.
	writeFile(t, filepath.Join(cs.Dir(), names[0]), `{"path": 5}`)
	if _, err := cs.Load(p); err == nil || !strings.Contains(err.Error(), "line 1, column") {
		t.Errorf("Load of a damaged cursor: %v", err)
	}
	if err := cs.Remove(p); err != nil {
		t.Fatal(err)
	}
	if c, err := cs.Load(p); c != nil || err != nil {
		t.Fatalf("Load after Remove = %+v, %v", c, err)
	}
}

func FuzzCursor(f *testing.F) {
	f.Add([]byte(`{"schema":1,"path":"/a/b.jsonl","offset":10,"size":12,"device":1,"inode":2,"mtime":"2026-01-01T00:00:00Z","tail":"00"}`))
	f.Add([]byte(`{"path":"/a/../b","offset":-1}`))
	f.Add([]byte(`{"path":"rel","schema":7}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCursor(data)
		if err != nil {
			return
		}
		if c.Offset < 0 || !filepath.IsAbs(c.Path) {
			t.Fatalf("accepted %+v", c)
		}
	})
}
