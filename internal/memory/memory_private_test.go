package memory

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestOpenPrivate: a memory another user could read (cloned with git,
// 0755) is made its owner's alone when opened, and that is said.
func TestOpenPrivate(t *testing.T) {
	m := testMemory(t)
	dir := m.Dir
	m.Close()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var said []string
	m2, err := Open(context.Background(), dir, Options{Warn: func(s string) { said = append(said, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %o, want 700", fi.Mode().Perm())
	}
	if !strings.Contains(strings.Join(said, "\n"), "0700 now") {
		t.Errorf("warnings: %q", said)
	}
}
