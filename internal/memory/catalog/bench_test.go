package catalog

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// statSource is a folderSource whose files' information is taken once:
// what a read costs beside the kernel's part.
type statSource struct {
	folderSource
	info map[string]fs.FileInfo
}

func (s statSource) Lstat(p string) (fs.FileInfo, error) {
	if fi, ok := s.info[p]; ok {
		return fi, nil
	}
	return s.folderSource.Lstat(p)
}

func (s statSource) LstatIn(dir string, names []string, out []fs.FileInfo) {
	for i, n := range names {
		out[i], _ = s.Lstat(dir + "/" + n)
	}
}

// BenchmarkRowsWarm reads the rows of 5,700 core items in five folders
// from the part's file, nothing changed: what every pack at 100,000
// files does, its lstat calls answered from memory.
func BenchmarkRowsWarm(b *testing.B) {
	dir := b.TempDir()
	info := map[string]fs.FileInfo{}
	for i := range 5700 {
		kind := []string{"decisions", "facts", "notes", "patterns", "preferences"}[i%5]
		p := "core/" + kind + "/an-item-with-a-title-of-some-length-" + strconv.Itoa(i) + "--01JDXK3V9M2Q7Y8Z4T6R5W" + strconv.Itoa(1000+i) + ".md"
		name := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("---\nkind: fact\ntitle: item "+strconv.Itoa(i)+"\n---\nbody\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// Written long before the part, as a memory's files are: none racy.
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	state := b.TempDir()
	rows, err := NewKeeper(folderSource{&dirSource{dir: dir}}, state).Rows(ctx, "core")
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rows {
		fi, err := os.Lstat(filepath.Join(dir, r.Path))
		if err != nil {
			b.Fatal(err)
		}
		info[r.Path] = fi
	}
	src := statSource{folderSource{&dirSource{dir: dir}}, info}
	for b.Loop() {
		// A new process: the part read from its file.
		if _, err := NewKeeper(src, state).Rows(ctx, "core"); err != nil {
			b.Fatal(err)
		}
	}
}
