package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// TestUserMemory: remember --user makes the user memory and writes to it;
// promote copies a project's preference there; every project's context
// shows it under its own items.
func TestUserMemory(t *testing.T) {
	udir := filepath.Join(t.TempDir(), "share", "cairn")
	e := env{"CAIRN_USER_DIR": udir}
	a, b := project(t), project(t)
	ok(t, a, "init")
	ok(t, b, "init")

	id := strings.TrimSpace(okEnv(t, e, a, "remember", "--user", "--kind", "preference", "Prefers table-driven tests"))
	if _, err := os.Stat(filepath.Join(udir, ".git")); err != nil {
		t.Fatalf("remember --user made no user memory: %v", err)
	}
	if out := gitc(t, udir, "log", "--format=%s"); !strings.Contains(out, "remember: preference") {
		t.Errorf("user memory's log: %q", out)
	}
	if out := ok(t, a, "list"); strings.Contains(out, id[len(id)-8:]) {
		t.Errorf("remember --user wrote to the project too:\n%s", out)
	}

	pref := strings.TrimSpace(okEnv(t, e, a, "remember", "--kind", "pattern", "Never force-push a shared branch"))
	dec := strings.TrimSpace(okEnv(t, e, a, "remember", "--kind", "decision", "Use PostgreSQL for the job queue"))
	failsEnv(t, e, a, 2, "it is a decision; only preferences and patterns", "promote", dec)
	if out := okEnv(t, e, a, "promote", pref); !strings.Contains(out, "promoted pattern") {
		t.Errorf("promote said %q", out)
	}
	failsEnv(t, e, a, 1, "promoted already", "promote", pref)
	if out := ok(t, a, "show", pref); !strings.Contains(out, "promoted") {
		t.Errorf("the project's item is not tagged promoted:\n%s", out)
	}

	// Project b never saw either item: its pack has them, in their own
	// section; a's shows its own pattern once, as the project's.
	out := okEnv(t, e, b, "context")
	if !strings.Contains(out, "## You, all projects") || !strings.Contains(out, "Prefers table-driven tests") || !strings.Contains(out, "Never force-push a shared branch") {
		t.Errorf("project b's pack lacks the user memory:\n%s", out)
	}
	if strings.Contains(out, "Promoted from") {
		t.Errorf("the pack shows a promoted item's provenance:\n%s", out)
	}
	out = okEnv(t, e, a, "context")
	if n := strings.Count(out, "Never force-push a shared branch"); n != 1 {
		t.Errorf("project a's pack shows its promoted pattern %d times:\n%s", n, out)
	}
	if out := ok(t, b, "context"); strings.Contains(out, "You, all projects") {
		t.Errorf("a pack without a user memory has its section:\n%s", out)
	}
}

// TestUserDirNotMemory: a user folder that holds something else is one
// line of error, and nothing is written to it; the pack goes on.
func TestUserDirNotMemory(t *testing.T) {
	udir := filepath.Join(t.TempDir(), "cairn")
	os.Mkdir(udir, 0o755)
	os.WriteFile(filepath.Join(udir, "notes.txt"), []byte("mine\n"), 0o644)
	e := env{"CAIRN_USER_DIR": udir}
	p := project(t)
	ok(t, p, "init")
	id := strings.TrimSpace(ok(t, p, "remember", "--kind", "preference", "Prefers tabs"))
	failsEnv(t, e, p, 1, udir+" is not a cairn memory", "remember", "--user", "x")
	failsEnv(t, e, p, 1, "is not a cairn memory", "promote", id)
	failsEnv(t, e, p, 1, "is not a cairn memory", "sync", "--user")
	names, _ := os.ReadDir(udir)
	if len(names) != 1 {
		t.Errorf("the user folder now holds %d files, want its 1", len(names))
	}
	r := cairnEnv(t, e, p, "", "context")
	if r.code != 0 || !strings.Contains(r.stdout, "Prefers tabs") || !strings.Contains(r.stderr, "is not a cairn memory") {
		t.Errorf("context: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if out := ok(t, p, "show", id); strings.Contains(out, "promoted") {
		t.Errorf("a failed promote tagged the item")
	}
}

// TestUserMemorySync: the user memory syncs through its own remote, a
// bare repository here: a second machine's user memory adopts it, and a
// project there packs what the first machine remembered.
func TestUserMemorySync(t *testing.T) {
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "user.git")
	e1 := env{"CAIRN_USER_DIR": filepath.Join(root, "one")}
	e2 := env{"CAIRN_USER_DIR": filepath.Join(root, "two")}
	p := project(t)
	ok(t, p, "init")

	okEnv(t, e1, p, "remember", "--user", "--kind", "preference", "Answers in British English")
	okEnv(t, e1, p, "remote", "add", "--user", "origin", bare)
	if out := okEnv(t, e1, p, "remote", "list", "--user"); !strings.Contains(out, "origin") {
		t.Errorf("remote list --user: %q", out)
	}
	if out := ok(t, p, "remote", "list"); strings.Contains(out, "origin") {
		t.Errorf("remote add --user added the project's remote: %q", out)
	}
	okEnv(t, e1, p, "sync", "--user")

	okEnv(t, e2, p, "remote", "add", "--user", "origin", bare)
	okEnv(t, e2, p, "sync", "--user")
	if out := okEnv(t, e2, p, "context"); !strings.Contains(out, "Answers in British English") {
		t.Errorf("the second machine's pack lacks the synced preference:\n%s", out)
	}
	okEnv(t, e2, p, "remember", "--user", "--kind", "pattern", "Small commits, one change each")
	okEnv(t, e2, p, "sync", "--user")
	okEnv(t, e1, p, "sync", "--user")
	if out := okEnv(t, e1, p, "context"); !strings.Contains(out, "Small commits, one change each") {
		t.Errorf("the first machine's pack lacks the second's pattern:\n%s", out)
	}
	if got, want := gitc(t, bare, "rev-parse", "main"), gitc(t, filepath.Join(root, "one"), "rev-parse", "HEAD"); got != want {
		t.Errorf("remote at %s, first machine at %s", got, want)
	}
}
