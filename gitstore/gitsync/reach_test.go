package gitsync_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
	"github.com/cairn-mem/cairn/gitstore/gitsync"
)

// Reach answers for a remote that is there, empty or not, and fails for
// one that is not.
func TestReach(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := gitstore.Init(ctx, filepath.Join(dir, "mem"), map[string][]byte{"cairn.yaml": []byte("schema: 1\n")}, "init", gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bare := gitstoretest.Bare(t, dir, "mem.git")
	for name, url := range map[string]string{"origin": bare, "gone": filepath.Join(dir, "missing.git")} {
		if _, err := gitsync.AddRemote(s, name, url, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := gitsync.Reach(ctx, s, "origin", func(string) string { return "" }); err != nil {
		t.Errorf("empty bare remote: %v", err)
	}
	if err := gitsync.Reach(ctx, s, "gone", func(string) string { return "" }); err == nil {
		t.Error("a missing remote answered")
	}
}
