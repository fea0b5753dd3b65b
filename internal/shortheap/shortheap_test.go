package shortheap

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestLarge: a core catalogue of LargeCore bytes or more is a large
// memory's; a smaller one, or none, is not.
func TestLarge(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size int
		want bool
	}{{0, false}, {LargeCore - 1, false}, {LargeCore, true}} {
		name := filepath.Join(dir, "catalog-core.tsv")
		if err := os.WriteFile(name, make([]byte, tc.size), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := Large(name); got != tc.want {
			t.Errorf("Large of %d bytes = %v, want %v", tc.size, got, tc.want)
		}
	}
	if Large(filepath.Join(dir, "none")) {
		t.Error("Large of no catalogue: true")
	}
}

// TestSettleGC: the opening percent is lowered to CommandGCPercent; any
// other setting stays.
func TestSettleGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct{ before, want int }{{ShortGCPercent, CommandGCPercent}, {100, 100}, {-1, -1}} {
		debug.SetGCPercent(tc.before)
		SettleGC()
		if got := debug.SetGCPercent(tc.before); got != tc.want {
			t.Errorf("settled from %d: %d, want %d", tc.before, got, tc.want)
		}
	}
}

// TestSettleOnce: the settle function asks whether to use huge pages
// once, however often it is called.
func TestSettleOnce(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	settle := Start()
	asked := 0
	settle(func() bool { asked++; return false })
	settle(func() bool { asked++; return false })
	if asked != 1 {
		t.Errorf("asked %d times, want once", asked)
	}
}

// TestReads: the commands that read much and exit, and the hooks that
// make a pack.
func TestReads(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"context", nil, true},
		{"session", []string{"list"}, true},
		{"hook", []string{"--agent", "codex", "session-start"}, true},
		{"hook", []string{"post-tool-use"}, false},
		{"daemon", []string{"run"}, false},
		{"version", nil, false},
	} {
		if got := Reads(tc.name, tc.args); got != tc.want {
			t.Errorf("Reads(%s %v) = %v, want %v", tc.name, tc.args, got, tc.want)
		}
	}
}
