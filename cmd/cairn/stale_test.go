package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cairn stale lists an item the code changed under, --json says the
// same, --confirm clears it, and a bad id fails with one line.
func TestStaleCommand(t *testing.T) {
	dir := project(t)
	ok(t, dir, "init")
	id := strings.TrimSpace(ok(t, dir, "remember", "The entry point is `main.go`."))
	if out := ok(t, dir, "stale"); !strings.Contains(out, "No memory is stale: 1 anchored") {
		t.Errorf("before the change:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	gitc(t, dir, "commit", "-qam", "main")
	if out := ok(t, dir, "stale"); !strings.Contains(out, id) || !strings.Contains(out, "main.go changed in the latest commit") {
		t.Errorf("after the change:\n%s", out)
	}
	var r struct {
		Stale []struct {
			ID      string `json:"id"`
			Changes []struct {
				What string `json:"what"`
			} `json:"changes"`
		} `json:"stale"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "stale", "--json")), &r); err != nil || len(r.Stale) != 1 || r.Stale[0].ID != id || r.Stale[0].Changes[0].What != "changed" {
		t.Errorf("--json: %+v, %v", r, err)
	}
	ok(t, dir, "stale", "--confirm", id[len(id)-8:])
	if out := ok(t, dir, "stale"); !strings.Contains(out, "No memory is stale") {
		t.Errorf("after --confirm:\n%s", out)
	}
	fails(t, dir, 1, "no item or session summary", "stale", "--confirm", "ZZZZZZZZ")
	checkGit(t, dir)
}
