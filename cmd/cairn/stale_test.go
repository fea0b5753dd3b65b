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

// A memory written while its file held an edit not committed yet (the
// agent leaves commits to the user) records the edit's blob in its
// checkpoint, as git hash-object names it; the user's commit of that
// edit leaves the memory current, a later change does not.
func TestStaleAfterTheUserCommits(t *testing.T) {
	dir := project(t)
	ok(t, dir, "init")
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { serve() }\n"), 0o644)
	blob := strings.TrimSpace(gitc(t, dir, "hash-object", "main.go"))
	id := strings.TrimSpace(ok(t, dir, "remember", "The entry point `main.go` calls serve."))
	if msg := gitc(t, filepath.Join(dir, ".cairn"), "log", "-1", "--format=%B"); !strings.Contains(msg, "Cairn-Code-Dirty: "+blob+" main.go\n") {
		t.Errorf("the checkpoint does not record the edit %s:\n%s", blob, msg)
	}
	var log []struct {
		CodeDirty map[string]string `json:"code_dirty"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "log", "--json", "-n", "1")), &log); err != nil || len(log) != 1 || log[0].CodeDirty["main.go"] != blob {
		t.Errorf("log --json: %+v, %v", log, err)
	}
	gitc(t, dir, "commit", "-qam", "serve")
	if out := ok(t, dir, "stale"); !strings.Contains(out, "No memory is stale: 1 anchored") {
		t.Errorf("after the user committed the edit:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { serveTLS() }\n"), 0o644)
	gitc(t, dir, "commit", "-qam", "tls")
	if out := ok(t, dir, "stale"); !strings.Contains(out, id) || !strings.Contains(out, "main.go changed in the latest commit") {
		t.Errorf("after a later change:\n%s", out)
	}
	checkGit(t, dir)
}
