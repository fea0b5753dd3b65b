package memsync

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/go-git/go-git/v5"
)

func TestReach(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	bare := filepath.Join(t.TempDir(), "ok.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, url string
		ok        bool
	}{
		{"origin", bare, true},
		{"gone", filepath.Join(t.TempDir(), "missing.git"), false},
	} {
		if _, err := AddRemote(ctx, m, tc.name, tc.url, ""); err != nil {
			t.Fatal(err)
		}
		if err := Reach(ctx, m, tc.name, nil); (err == nil) != tc.ok {
			t.Errorf("Reach(%s): %v, want reachable %v", tc.name, err, tc.ok)
		}
	}
	if err := Reach(ctx, m, "unknown", nil); err == nil {
		t.Error("Reach of a remote that is not configured succeeded")
	}
}
