package catalog

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// dirSource is a work tree in a folder as a Keeper reads it, its history
// one commit; walks counts the folders listed.
type dirSource struct {
	dir   string
	walks int
}

func (s *dirSource) Trees(context.Context, string) (string, map[string]string, error) {
	return "c1", map[string]string{"core": "t1"}, nil
}

func (s *dirSource) Diff(context.Context, string, string, string) ([]Change, error) {
	return nil, nil
}

func (s *dirSource) Walk(_ context.Context, root string, fn func(string, fs.DirEntry) error) error {
	s.walks++
	return filepath.WalkDir(filepath.Join(s.dir, root), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		return fn(filepath.ToSlash(rel), d)
	})
}

func (s *dirSource) ReadFile(p string) ([]byte, error) { return os.ReadFile(filepath.Join(s.dir, p)) }
func (s *dirSource) Lstat(p string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(s.dir, p))
}
func (s *dirSource) Warn(string)         {}
func (s *dirSource) WarnLink(error) bool { return false }

// A read that finds only folders' times moved, each settled before the
// part's time, writes those times and leaves the part's file as it was;
// the next read trusts them, and still sees an edit in place.
func TestDirsOnlyWritten(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	facts := filepath.Join(dir, "core", "facts")
	if err := os.MkdirAll(facts, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		if err := os.WriteFile(filepath.Join(facts, n), []byte("---\nkind: fact\ntitle: "+n+"\n---\nbody\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{filepath.Join(facts, "a.md"), filepath.Join(facts, "b.md"), filepath.Join(facts, "c.md"), facts, filepath.Join(dir, "core")} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	rows := func(s *dirSource) string {
		t.Helper()
		rs, err := NewKeeper(s, state).Rows(context.Background(), "core")
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(r.Path + " " + r.Title + "\n")
		}
		return b.String()
	}
	want := rows(&dirSource{dir: dir})
	part := filepath.Join(state, FileName("core"))
	// core/facts untrusted, as a checkpoint that added to it leaves it.
	dirs, err := os.ReadFile(DirsName(part))
	if err != nil {
		t.Fatal(err)
	}
	line := []byte("core/facts\t" + itoa(old.UnixNano()) + "\n")
	if !bytes.Contains(dirs, line) {
		t.Fatalf("no time of core/facts kept:\n%s", dirs)
	}
	if err := os.WriteFile(DirsName(part), bytes.Replace(dirs, line, []byte("core/facts\t0\n"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(part)
	fiBefore, _ := os.Stat(part)
	s := &dirSource{dir: dir}
	if got := rows(s); got != want || s.walks != 1 {
		t.Fatalf("rows %q after %d listings, want %q after one", got, s.walks, want)
	}
	after, _ := os.ReadFile(part)
	if fi, _ := os.Stat(part); !bytes.Equal(before, after) || !fi.ModTime().Equal(fiBefore.ModTime()) {
		t.Fatal("the part was written again for a folder's time")
	}
	if dirs, _ := os.ReadFile(DirsName(part)); !bytes.Contains(dirs, line) {
		t.Fatalf("the folder's time was not kept:\n%s", dirs)
	}
	s = &dirSource{dir: dir}
	if got := rows(s); got != want || s.walks != 0 {
		t.Fatalf("rows %q after %d listings, want %q after none", got, s.walks, want)
	}
	// A row smudged (its time cleared, as a checkpoint does to a row
	// racy at the part's time) and found unchanged is read again, and
	// the part not written for its time.
	data, _ := os.ReadFile(part)
	a := "\t" + itoa(old.UnixNano()) + "\t"
	smudged := bytes.Replace(data, []byte(a), []byte("\t0\t"), 1)
	if bytes.Equal(smudged, data) {
		t.Fatalf("no row of time %d:\n%s", old.UnixNano(), data)
	}
	if err := os.WriteFile(part, smudged, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(DirsName(part), dirs, 0o600); err != nil { // of the same part
		t.Fatal(err)
	}
	if got := rows(&dirSource{dir: dir}); got != want {
		t.Fatalf("rows %q with a smudged row, want %q", got, want)
	}
	if after, _ := os.ReadFile(part); !bytes.Equal(after, smudged) {
		t.Fatal("the part was written again for a smudged row's time")
	}
	if err := os.WriteFile(filepath.Join(facts, "b.md"), []byte("---\nkind: fact\ntitle: edited\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := rows(&dirSource{dir: dir}); !strings.Contains(got, "core/facts/b.md edited\n") {
		t.Fatalf("an edit in place unseen: %q", got)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// folderSource is a dirSource that looks at a folder's files together,
// as internal/memory's does (through a descriptor of the folder).
type folderSource struct{ *dirSource }

func (s folderSource) ListIn(dir string) ([]fs.DirEntry, error) {
	return os.ReadDir(filepath.Join(s.dir, dir))
}

func (s folderSource) LstatIn(dir string, names []string, out []fs.FileInfo) {
	for i, n := range names {
		out[i], _ = s.Lstat(dir + "/" + n)
	}
}

// lstatAll gives each path its own file's information whether the
// source looks at files one by one or a folder's together, with any
// number of workers, files missing among them.
func TestLstatAllByFolder(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for f, n := range map[string]int{"core/a": 7, "core/b": 1, "sessions/s1": 5, "sessions/s2": 3, "core/c": 12, "core/c/deep": 9} {
		if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			p := f + "/" + strconv.Itoa(i) + ".md"
			if i%4 != 3 { // every fourth is missing
				if err := os.WriteFile(filepath.Join(dir, p), bytes.Repeat([]byte("x"), len(p)+i), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			paths = append(paths, p)
		}
	}
	paths = append(paths, "core/gone/x.md", "core/a/0.md") // a folder missing; a folder again
	k := NewKeeper(folderSource{&dirSource{dir: dir}}, t.TempDir())
	for n := 1; n <= 4; n++ {
		out := make([]fs.FileInfo, len(paths))
		for w := range n {
			lstatByFolder(folderSource{&dirSource{dir: dir}}, paths, folderRuns(paths), w, n, out)
		}
		for i, p := range paths {
			want, err := os.Lstat(filepath.Join(dir, p))
			if got := out[i]; (got == nil) != (err != nil) || got != nil && (got.Size() != want.Size() || got.Name() != want.Name()) {
				t.Fatalf("%d workers: %s: %v, want %v (%v)", n, p, got, want, err)
			}
		}
	}
	if got := k.lstatAll(paths); len(got) != len(paths) || got[0] == nil || got[len(paths)-2] != nil {
		t.Fatalf("lstatAll: %v", got)
	}
}

// A Keeper of a FolderSource, which lists a folder in one call and looks
// at its files through it, finds the rows a Keeper of a plain Source
// finds, as files are added, edited and removed and a folder appears
// within a folder listed again.
func TestFolderSourceRows(t *testing.T) {
	dir := t.TempDir()
	write := func(p, title string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("---\nkind: fact\ntitle: "+title+"\n---\nbody\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		write("core/facts/"+strconv.Itoa(i)+".md", "fact "+strconv.Itoa(i))
	}
	write("core/notes/a.md", "a note")
	plain, byFolder := NewKeeper(&dirSource{dir: dir}, t.TempDir()), NewKeeper(folderSource{&dirSource{dir: dir}}, t.TempDir())
	rows := func(k *Keeper) string {
		t.Helper()
		rs, err := k.Rows(context.Background(), "core")
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(r.Path + " " + r.Title + " " + r.Blob + "\n")
		}
		return b.String()
	}
	for step, change := range []func(){
		func() {},
		func() { write("core/facts/new.md", "a new fact") },
		func() { write("core/facts/3.md", "fact three, edited") },
		func() { os.Remove(filepath.Join(dir, "core/facts/7.md")) },
		func() { write("core/facts/deeper/x.md", "in a folder within") },
		func() { os.RemoveAll(filepath.Join(dir, "core/notes")) },
	} {
		change()
		if got, want := rows(byFolder), rows(plain); got != want {
			t.Fatalf("step %d: by folder:\n%s\nfile by file:\n%s", step, got, want)
		}
	}
}
