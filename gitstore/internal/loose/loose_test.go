package loose

import (
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestWriteAsGitDoes(t *testing.T) {
	gitDir := t.TempDir()
	w := NewWriter(gitDir, nil)
	h, err := w.Write(plumbing.BlobObject, []byte("hello\n"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "ce013625030ba8dba906f756967f9e9ca394464a" // git hash-object
	if h.String() != want || Hash(plumbing.BlobObject, []byte("hello\n")) != h {
		t.Fatalf("id = %s, want %s", h, want)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(gitDir, "objects", want[:2], want[2:]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := zlib.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil || string(b) != "blob 6\x00hello\n" {
		t.Errorf("object = %q, %v", b, err)
	}
	// Written once: a second write finds it and leaves nothing pending.
	if _, err := w.Write(plumbing.BlobObject, []byte("hello\n")); err != nil || len(w.pending) != 0 {
		t.Errorf("rewrite: pending %v, %v", w.pending, err)
	}
}
