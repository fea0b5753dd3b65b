package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// TestPurgeSync: a path purged on one clone is not brought back by a sync
// with a clone that still changes it, and the purge list travels.
func TestPurgeSync(t *testing.T) {
	t.Parallel()
	bare := gitstoretest.Bare(t, t.TempDir(), "mem.git")
	a := project(t)
	ok(t, a, "init")
	secret := "sessions/s1/transcript.md"
	name := filepath.Join(a, ".cairn", filepath.FromSlash(secret))
	os.MkdirAll(filepath.Dir(name), 0o755)
	os.WriteFile(name, []byte("a token pasted by mistake\n"), 0o644)
	ok(t, a, "checkpoint")
	ok(t, a, "remote", "add", "origin", bare)
	ok(t, a, "sync")
	b := clone(t, bare)

	fails(t, a, 1, "nothing purged: run again with --confirm", "purge", secret)
	if _, err := os.Stat(name); err != nil {
		t.Fatal("purge without --confirm removed the file")
	}
	fails(t, a, 1, "outside the memory", "purge", "../main.go")
	fails(t, a, 1, "the memory's own file", "purge", "cairn.yaml")
	out := ok(t, a, "purge", secret, "--confirm")
	if !strings.Contains(out, "git filter-repo --invert-paths --path "+secret) {
		t.Errorf("purge output lacks the history help:\n%s", out)
	}
	ok(t, a, "sync")
	// b changes the file meanwhile, then syncs twice with a in between.
	bname := filepath.Join(b, ".cairn", filepath.FromSlash(secret))
	f, _ := os.OpenFile(bname, os.O_APPEND|os.O_WRONLY, 0o644)
	f.WriteString("more from b\n")
	f.Close()
	ok(t, b, "checkpoint")
	ok(t, b, "sync")
	// a purged it: b's change does not keep it in b either.
	if _, err := os.Stat(bname); err == nil {
		t.Error("b kept the file a purged")
	}
	ok(t, a, "sync")
	ok(t, b, "sync")
	if _, err := os.Stat(name); err == nil {
		t.Error("a sync brought the purged file back into a")
	}
	if got := gitc(t, filepath.Join(a, ".cairn"), "ls-files", secret); got != "" {
		t.Errorf("a's HEAD holds the purged file: %q", got)
	}
	if treeOf(t, a) != treeOf(t, b) {
		t.Error("a and b differ after sync")
	}
	list, _ := os.ReadFile(filepath.Join(b, ".cairn", "purged.txt"))
	if !strings.Contains(string(list), secret+"\n") {
		t.Errorf("b's purged.txt:\n%s", list)
	}
	checkGit(t, a)
	checkGit(t, b)
}

// TestGCCommand: cairn gc on a memory of many checkpoints packs it, and
// git sees the same history afterwards.
func TestGCCommand(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	for _, s := range []string{"one", "two", "three", "four", "five", "six"} {
		ok(t, p, "remember", "fact "+s+" about the queue")
	}
	mem := filepath.Join(p, ".cairn")
	log := gitc(t, mem, "log", "--format=%H %s")
	objects := gitc(t, mem, "rev-list", "--objects", "--all")
	out := ok(t, p, "gc")
	if !strings.Contains(out, "objects in one pack") || !strings.Contains(out, "freed:") {
		t.Errorf("gc said:\n%s", out)
	}
	gitc(t, mem, "fsck", "--full", "--strict")
	if gitc(t, mem, "log", "--format=%H %s") != log || gitc(t, mem, "rev-list", "--objects", "--all") != objects {
		t.Error("history changed under gc")
	}
	if out := ok(t, p, "gc"); !strings.Contains(out, "already packed") {
		t.Errorf("second gc said:\n%s", out)
	}
	ok(t, p, "remember", "written after gc")
	checkGit(t, p)
}
