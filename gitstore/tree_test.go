package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// TestTreeReading checks Tree, BlobSize, ReadBlob and ReadFileAt against
// what the git tool says about the same commit.
func TestTreeReading(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"core/a.md": "alpha\n", "core/sub/b.md": "beta beta\n", "top.md": "t"})
	first, err := s.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, "core/a.md", "changed\n")
	if _, err := checkpoint(t, s, CheckpointOptions{Subject: "change a"}); err != nil {
		t.Fatal(err)
	}
	root, err := s.TreeOf(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(gitCLI(t, s.Dir(), "rev-parse", "HEAD^{tree}")); root != want {
		t.Errorf("TreeOf(HEAD) = %s, git says %s", root, want)
	}
	es, err := s.Tree(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, " "); got != ".gitignore core top.md" {
		t.Errorf("root entries %q", got)
	}
	core := es[1]
	if !core.Mode.IsDir() {
		t.Errorf("core mode %v", core.Mode)
	}
	ces, err := s.Tree(ctx, core.Hash)
	if err != nil || len(ces) != 2 || ces[0].Name != "a.md" || ces[0].Mode != 0o644 || ces[1].Mode != fs.ModeDir|0o755 {
		t.Fatalf("core entries %+v %v", ces, err)
	}
	n, err := s.BlobSize(ctx, ces[0].Hash)
	if err != nil || n != int64(len("changed\n")) {
		t.Errorf("BlobSize = %d %v", n, err)
	}
	b, err := s.ReadBlob(ctx, ces[0].Hash)
	if err != nil || string(b) != "changed\n" {
		t.Errorf("ReadBlob = %q %v", b, err)
	}
	old, err := s.ReadFileAt(ctx, first, "core/a.md")
	if err != nil || string(old) != "alpha\n" {
		t.Errorf("ReadFileAt(first) = %q %v", old, err)
	}
	if _, err := s.ReadFileAt(ctx, "HEAD", "core/nope.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadFileAt of a missing file: %v", err)
	}
	for _, bad := range []string{"", "xyz", strings.Repeat("0", 40), root[:39]} {
		if _, err := s.Tree(ctx, bad); err == nil {
			t.Errorf("Tree(%q) worked", bad)
		}
	}
}
