package gitstore

import (
	"context"
	"testing"
)

// Issue 12, item 2: the work tree's .gitignore never applies to the
// caller's own paths (Options.Owned), only OwnedIgnore does; elsewhere it
// still applies.
func TestOwnedPathsNotIgnored(t *testing.T) {
	s := newStore(t, nil)
	s2, err := Open(context.Background(), s.Dir(), Options{Owned: []string{"core", "cairn.yaml"}, OwnedIgnore: []string{"*.swp"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, s2, ".gitignore", "*\n")
	for _, p := range []string{"core/a.md", "cairn.yaml", "core/.a.md.swp", "other.md", "cairn.yaml.d/x"} {
		write(t, s2, p, "x\n")
	}
	cp, err := checkpoint(t, s2, CheckpointOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range cp.Changes {
		got[c.Path] = true
	}
	for p, want := range map[string]bool{".gitignore": true, "core/a.md": true, "cairn.yaml": true,
		"core/.a.md.swp": false, "other.md": false, "cairn.yaml.d/x": false} {
		if got[p] != want {
			t.Errorf("%s committed %v, want %v (%v)", p, got[p], want, cp.Changes)
		}
	}
}
