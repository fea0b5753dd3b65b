package journal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// dirTree is a Tree on a plain folder.
type dirTree string

func (d dirTree) Abs(p string) (string, error)      { return filepath.Join(string(d), p), nil }
func (d dirTree) ReadFile(p string) ([]byte, error) { return os.ReadFile(filepath.Join(string(d), p)) }
func (d dirTree) Remove(p string) error             { return os.Remove(filepath.Join(string(d), p)) }
func (d dirTree) WriteFile(p string, data []byte) error {
	name := filepath.Join(string(d), p)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o600)
}

// A batch's moves map later paths back (Before), and Redo then Undo puts
// the tree back as it was.
func TestRedoUndo(t *testing.T) {
	dir := t.TempDir()
	tree := dirTree(dir)
	if err := tree.WriteFile("a/log.md", []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	b := &Writes{}
	b.Move("a", "b")
	b.Add("b/log.md", []byte("two\n"))
	b.Put("b/new.md", []byte("new\n"))
	if got := b.Before("b/log.md"); got != "a/log.md" {
		t.Errorf("Before = %q", got)
	}
	if got := b.Paths(); !slices.Equal(got, []string{"a", "b", "b/log.md", "b/new.md"}) {
		t.Errorf("Paths = %v", got)
	}
	j := &Journal{Schema: 1, Moves: b.Moves(), Paths: b.Paths()}
	for _, w := range b.Changes() {
		if w.Append {
			w.Base, w.Existed = 4, true
		}
		j.Writes = append(j.Writes, w)
	}
	jf := File{Path: filepath.Join(t.TempDir(), "journal.json"), Dir: dir, Tree: tree, DirPerm: 0o700}
	if err := jf.Write(j); err != nil {
		t.Fatal(err)
	}
	if back, err := jf.Read(); err != nil || back.What() != "a" {
		t.Fatalf("Read = %+v, %v", back, err)
	}
	for range 2 { // Redo runs again on a tree where it ran
		if err := jf.Redo(j); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := tree.ReadFile("b/log.md"); string(data) != "one\ntwo\n" {
		t.Errorf("after Redo: %q", data)
	}
	if err := jf.Undo(j); err != nil {
		t.Fatal(err)
	}
	if data, _ := tree.ReadFile("a/log.md"); string(data) != "one\n" {
		t.Errorf("after Undo: %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("b is left after Undo")
	}
	jf.Remove()
	if jf.Pending() {
		t.Error("journal left")
	}
}

// A journal that does not parse is a *DamagedError.
func TestDamaged(t *testing.T) {
	jf := File{Path: filepath.Join(t.TempDir(), "journal.json")}
	if err := os.WriteFile(jf.Path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	var d *DamagedError
	if _, err := jf.Read(); !errors.As(err, &d) {
		t.Fatalf("Read: %v", err)
	}
	jf.SetAside()
	if j, err := jf.Read(); j != nil || err != nil {
		t.Errorf("after SetAside: %v, %v", j, err)
	}
}

// TestOutside: a journal naming a path outside the memory was never
// written by a writer: it is damaged, set aside, not acted on at every
// write and failed on.
func TestOutside(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		damaged   bool
	}{
		{"ours", `{"schema":1,"writes":[{"path":"core/a.md","data":"eA=="}],"paths":["core/a.md"]}`, false},
		{"parent folder", `{"schema":1,"writes":[{"path":"../../etc/x","data":"eA=="}],"paths":["core/a.md"]}`, true},
		{"absolute", `{"schema":1,"writes":[{"path":"/etc/x"}],"paths":["/etc/x"]}`, true},
		{"moved out", `{"schema":1,"moves":[{"from":"core/a.md","to":"../a.md"}],"writes":[],"paths":["core/a.md"]}`, true},
		{"unclean", `{"schema":1,"writes":[],"paths":["core/../core/a.md"]}`, true},
		{"restore", `{"schema":1,"writes":[],"paths":[],"restore":{"from":"abc","paths":["../x"]}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jf := File{Path: filepath.Join(t.TempDir(), "journal.json")}
			os.WriteFile(jf.Path, []byte(tc.doc), 0o600)
			var d *DamagedError
			_, err := jf.Read()
			if got := errors.As(err, &d); got != tc.damaged {
				t.Errorf("Read: %v; damaged %v, want %v", err, got, tc.damaged)
			}
		})
	}
}
