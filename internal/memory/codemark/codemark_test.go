package codemark

import (
	"maps"
	"slices"
	"testing"
)

// A trailer's value is read back only as a blob id and a clean path
// inside the project.
func TestRead(t *testing.T) {
	const blob = "c0a7993f261c4110d42b4b4962ba136f5c690f6a"
	got := Read([]string{Value("src/verify.js", blob), Value("../outside.js", blob), Value("/etc/passwd", blob), "c0a7993f src/short.js", blob})
	if want := map[string]string{"src/verify.js": blob}; !maps.Equal(got, want) {
		t.Errorf("Read = %v, want %v", got, want)
	}
	if Read(nil) != nil {
		t.Error("no value gave a map")
	}
}

func TestNamesCodeAndPaths(t *testing.T) {
	for p, want := range map[string]bool{"core/facts/a.md": true, "sessions/x/summary.md": true, "sessions/x/session.yaml": false, "core/facts/a.txt": false} {
		if NamesCode(p) != want {
			t.Errorf("NamesCode(%q) = %v", p, !want)
		}
	}
	seen := map[string]bool{}
	out := Paths(nil, seen, "Edited `src/verify.js` and src/server.js:12.")
	out = Paths(out, seen, "src/verify.js again, and verifyStripe")
	if want := []string{"src/verify.js", "src/server.js"}; !slices.Equal(out, want) {
		t.Errorf("Paths = %q, want %q", out, want)
	}
}
