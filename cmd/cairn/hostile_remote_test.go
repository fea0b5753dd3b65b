package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// gitStdin runs git in dir with stdin, for the plumbing that builds trees
// no work tree can hold.
func gitStdin(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=R", "GIT_AUTHOR_EMAIL=r@x", "GIT_COMMITTER_NAME=R", "GIT_COMMITTER_EMAIL=r@x")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// TestSyncHostileRemote: a real git daemon serves a memory whose history
// brings a .gitignore of "*" (issue 12, item 2), then trees with names no
// memory may hold (item 8). The first cannot stop memory being committed
// and pushed; the second are refused by sync with one line.
func TestSyncHostileRemote(t *testing.T) {
	t.Parallel()
	d := gitstoretest.StartDaemon(t)
	bare := gitstoretest.Bare(t, d.Root, "mem.git")
	a := project(t)
	mem := filepath.Join(a, ".cairn")
	ok(t, a, "init")
	ok(t, a, "remote", "add", "origin", d.URL("mem.git"))
	ok(t, a, "sync")

	// The remote's .gitignore becomes "*", and comes in by fast-forward.
	work := filepath.Join(t.TempDir(), "w")
	gitc(t, d.Root, "clone", "-q", bare, work)
	os.WriteFile(filepath.Join(work, ".gitignore"), []byte("*\n"), 0o644)
	gitc(t, work, "-c", "user.name=R", "-c", "user.email=r@x", "commit", "-qam", "ignore everything")
	gitc(t, work, "push", "-q", "origin", "main")
	if out := ok(t, a, "sync"); !strings.Contains(out, "fast-forward") {
		t.Fatalf("sync said %q", out)
	}
	ok(t, a, "remember", "--kind", "decision", "memory outlives a hostile gitignore")
	files := gitc(t, mem, "ls-tree", "-r", "--name-only", "HEAD")
	if !strings.Contains(files, "core/decisions/memory-outlives-a-hostile-gitignore") {
		t.Errorf("remember committed nothing:\n%s", files)
	}
	if out := ok(t, a, "status"); strings.Contains(out, "core/") {
		t.Errorf("status after remember: %q", out)
	}
	ok(t, a, "sync")
	if ours, theirs := gitc(t, mem, "rev-parse", "HEAD"), gitc(t, bare, "rev-parse", "main"); ours != theirs {
		t.Errorf("sync pushed nothing: remote at %s, we are at %s", theirs, ours)
	}
	checkGit(t, a)

	// Names no memory may hold, built with git's plumbing on the remote.
	good := gitc(t, bare, "rev-parse", "main")
	head := gitc(t, mem, "rev-parse", "HEAD")
	for _, name := range []string{"new\nline.md", "bell\a.md", "..md", strings.Repeat("n", 300) + ".md"} {
		blob := gitStdin(t, bare, "hostile\n", "hash-object", "-w", "--stdin")
		notes := gitStdin(t, bare, "100644 blob "+blob+"\t"+name+"\x00", "mktree", "-z")
		core := gitStdin(t, bare, "040000 tree "+notes+"\tnotes\x00", "mktree", "-z")
		var top []string
		for _, e := range strings.Split(gitStdin(t, bare, "", "ls-tree", "-z", "main"), "\x00") {
			if e != "" && !strings.HasSuffix(e, "\tcore") {
				top = append(top, e+"\x00")
			}
		}
		root := gitStdin(t, bare, strings.Join(top, "")+"040000 tree "+core+"\tcore\x00", "mktree", "-z")
		c := gitStdin(t, bare, "", "commit-tree", root, "-p", "main", "-m", "hostile name")
		gitc(t, bare, "update-ref", "refs/heads/main", c)
		r := cairn(t, a, "", "sync")
		if msg := strings.TrimSpace(r.stderr); r.code != 1 || strings.Contains(msg, "\n") || !strings.Contains(msg, "bad file name") {
			t.Errorf("%q: sync exit %d, want one line refusing it:\n%s%s", name, r.code, r.stdout, r.stderr)
		}
		if now := gitc(t, mem, "rev-parse", "HEAD"); now != head {
			t.Errorf("%q: HEAD moved", name)
		}
		gitc(t, bare, "update-ref", "refs/heads/main", strings.TrimSpace(good))
		gitc(t, mem, "update-ref", "refs/remotes/origin/main", strings.TrimSpace(good))
	}
	ok(t, a, "sync")
	checkGit(t, a)
}

// TestHostileWorkTree: files named by hand in .cairn/ with a newline, a
// control character or only dots before the extension (issue 12, item 8)
// are never committed, each named escaped on one warning line, and do
// not stop later writes.
func TestHostileWorkTree(t *testing.T) {
	t.Parallel()
	a := project(t)
	mem := filepath.Join(a, ".cairn")
	ok(t, a, "init")
	notes := filepath.Join(mem, "core", "notes")
	os.MkdirAll(notes, 0o700)
	bad := []string{"new\nline.md", "esc\x1b]0;x\a.md", "..md"}
	for _, n := range bad {
		if err := os.WriteFile(filepath.Join(notes, n), []byte("---\ntitle: x\n---\nx\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(notes, "fine.md"), []byte("---\ntitle: fine\n---\nfine\n"), 0o600)
	r := cairn(t, a, "", "checkpoint", "-m", "by hand")
	if r.code != 0 || strings.ContainsAny(r.stderr, "\a\x1b") {
		t.Errorf("checkpoint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, n := range bad {
		if strings.Count(r.stderr, strconv.Quote("core/notes/"+n)) != 1 {
			t.Errorf("%q: not named once, escaped, in:\n%s", n, r.stderr)
		}
	}
	files := gitc(t, mem, "ls-tree", "-r", "-z", "--name-only", "HEAD")
	if !strings.Contains(files, "core/notes/fine.md") {
		t.Errorf("fine.md not committed")
	}
	for _, n := range bad {
		if strings.Contains(files, n) {
			t.Errorf("%q committed", n)
		}
	}
	ok(t, a, "remember", "writes go on")
	ok(t, a, "remember", "and on")
}
