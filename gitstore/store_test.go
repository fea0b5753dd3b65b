package gitstore

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
)

// newStore makes a repository in a temporary folder with files committed.
func newStore(t *testing.T, files map[string]string) *Store {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".cairn")
	fs := map[string][]byte{".gitignore": []byte(".state/\ninbox/\n")}
	for k, v := range files {
		fs[k] = []byte(v)
	}
	s, created, err := Init(context.Background(), dir, fs, "init", Options{Identity: Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatal("Init did not create")
	}
	return s
}

// gitCLI runs the git command-line tool in the store's work tree.
func gitCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkGit asserts what a git user expects after every cairn command.
func checkGit(t *testing.T, s *Store) {
	t.Helper()
	gitCLI(t, s.Dir(), "fsck", "--full", "--strict")
	if st := gitCLI(t, s.Dir(), "status", "--porcelain"); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
	if d := gitCLI(t, s.Dir(), "diff", "--cached", "--stat"); d != "" {
		t.Errorf("git index differs from HEAD:\n%s", d)
	}
}

func write(t *testing.T, s *Store, p, data string) {
	t.Helper()
	name := filepath.Join(s.Dir(), filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkpoint(t *testing.T, s *Store, opts CheckpointOptions) (*Checkpoint, error) {
	t.Helper()
	unlock, err := s.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	return s.Checkpoint(context.Background(), opts)
}

func TestCheckpointFindsHandEdits(t *testing.T) {
	s := newStore(t, map[string]string{"core/facts/a.md": "a\n", "core/facts/b.md": "b\n", "keep.md": "k\n"})
	checkGit(t, s)
	if _, err := checkpoint(t, s, CheckpointOptions{}); !errors.Is(err, ErrNothingToDo) {
		t.Fatalf("checkpoint of a clean tree: got %v, want ErrNothingToDo", err)
	}
	write(t, s, "core/facts/a.md", "a changed\n")
	write(t, s, "core/decisions/new.md", "new\n")
	os.Remove(filepath.Join(s.Dir(), "core/facts/b.md"))
	write(t, s, "inbox/job.json", "{}")
	write(t, s, ".state/junk", "x")
	cp, err := checkpoint(t, s, CheckpointOptions{Subject: "hand edits", Trailers: []Trailer{{Key: "Cairn-Event", Value: "test"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []FileChange{{"core/decisions/new.md", Added}, {"core/facts/a.md", Modified}, {"core/facts/b.md", Deleted}}
	if len(cp.Changes) != len(want) {
		t.Fatalf("changes = %v, want %v", cp.Changes, want)
	}
	for i := range want {
		if cp.Changes[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, cp.Changes[i], want[i])
		}
	}
	checkGit(t, s)
	files := gitCLI(t, s.Dir(), "ls-tree", "-r", "--name-only", "HEAD")
	if files != ".gitignore\ncore/decisions/new.md\ncore/facts/a.md\nkeep.md\n" {
		t.Errorf("HEAD tree:\n%s", files)
	}
	if msg := gitCLI(t, s.Dir(), "log", "-1", "--format=%B"); !strings.Contains(msg, "hand edits\n\nCairn-Event: test") {
		t.Errorf("message:\n%s", msg)
	}
}

func TestCheckpointPaths(t *testing.T) {
	s := newStore(t, map[string]string{"a/x.md": "x\n"})
	write(t, s, "a/y.md", "y\n")
	write(t, s, "b/z.md", "z\n")
	cp, err := checkpoint(t, s, CheckpointOptions{Paths: []string{"a/y.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 1 || cp.Changes[0].Path != "a/y.md" {
		t.Fatalf("changes = %v", cp.Changes)
	}
	// b/z.md is still pending, and found by a whole-tree checkpoint.
	st, err := s.Status(context.Background())
	if err != nil || len(st) != 1 || st[0].Path != "b/z.md" {
		t.Fatalf("status = %v, %v", st, err)
	}
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	checkGit(t, s)
}

func TestTreeShapes(t *testing.T) {
	// A file replaced by a folder of the same name and back, and names
	// that sort differently as files and folders.
	s := newStore(t, map[string]string{"a": "file\n", "a-b": "1\n", "a.c": "2\n"})
	os.Remove(filepath.Join(s.Dir(), "a"))
	write(t, s, "a/inner.md", "inner\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	checkGit(t, s)
	os.RemoveAll(filepath.Join(s.Dir(), "a"))
	write(t, s, "a", "file again\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	checkGit(t, s)
	if got := gitCLI(t, s.Dir(), "show", "HEAD:a"); got != "file again\n" {
		t.Errorf("a = %q", got)
	}
}

func TestRacyEdit(t *testing.T) {
	// Same size, same second: only the racy check can see this edit.
	s := newStore(t, map[string]string{"f.md": "aaaa\n"})
	write(t, s, "f.md", "bbbb\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, s, "f.md", "cccc\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatalf("second same-size edit: %v", err)
	}
	if got := gitCLI(t, s.Dir(), "show", "HEAD:f.md"); got != "cccc\n" {
		t.Errorf("f.md = %q", got)
	}
}

// A checkpoint writes blobs from the bytes its scan hashed, so that each
// changed file is read once, keeping at most a budget of them.
func TestScanKeepsHashedBytes(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"a.md": "a\n"})
	write(t, s, "a.md", "aaaa\n")
	write(t, s, "b.md", "bbbbbbbb\n")
	s.mu.Lock()
	_, head, err := s.objs.head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.index.load(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	changes, _, err := s.wt.scan(ctx, c, nil, 6, nil) // room for a.md only
	s.mu.Unlock()
	if err != nil || len(changes) != 2 {
		t.Fatalf("scan = %v, %v", changes, err)
	}
	if a, b := changes[0], changes[1]; string(a.data) != "aaaa\n" || b.data != nil {
		t.Errorf("kept %s: %q, %s: %q", a.Path, a.data, b.Path, b.data)
	}
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := gitCLI(t, s.Dir(), "show", "HEAD:a.md"); got != "aaaa\n" {
		t.Errorf("a.md = %q", got)
	}
}

func TestCacheRepairedAfterForeignCommit(t *testing.T) {
	s := newStore(t, map[string]string{"a.md": "a\n"})
	// A git user commits by hand; cairn must notice, not undo it.
	write(t, s, "b.md", "b\n")
	gitCLI(t, s.Dir(), "add", "b.md")
	gitCLI(t, s.Dir(), "-c", "user.name=U", "-c", "user.email=u@x", "commit", "-qm", "by hand")
	if _, err := checkpoint(t, s, CheckpointOptions{}); !errors.Is(err, ErrNothingToDo) {
		t.Fatalf("after a git commit: %v", err)
	}
	// A corrupt cache is rebuilt with a warning.
	var warned []string
	s2, err := Open(context.Background(), s.Dir(), Options{Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s2.StatePath(cacheFile), []byte("garbage"), 0o600)
	write(t, s2, "c.md", "c\n")
	cp, err := checkpoint(t, s2, CheckpointOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 1 || cp.Changes[0].Path != "c.md" {
		t.Errorf("changes = %v", cp.Changes)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "rebuilding") {
		t.Errorf("warnings = %q", warned)
	}
	checkGit(t, s2)
}

func TestLogTagDiffRestore(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"core/a.md": "one\n"})
	write(t, s, "core/a.md", "two\n")
	first, err := checkpoint(t, s, CheckpointOptions{Subject: "two", Tag: "v-two", Trailers: []Trailer{{Key: "Cairn-Session", Value: "s1"}}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, "core/a.md", "three\n")
	write(t, s, "core/b.md", "b\n")
	if _, err := checkpoint(t, s, CheckpointOptions{Subject: "three"}); err != nil {
		t.Fatal(err)
	}
	log, err := s.Log(ctx, LogOptions{})
	if err != nil || len(log) != 3 {
		t.Fatalf("log = %v, %v", log, err)
	}
	if log[1].Subject != "two" || log[1].Trailer("Cairn-Session") != "s1" || len(log[1].Tags) != 1 {
		t.Errorf("log[1] = %+v", log[1])
	}
	if h, err := s.Resolve("v-two"); err != nil || h != first.Hash {
		t.Errorf("resolve tag = %s, %v", h, err)
	}
	if _, err := s.Resolve("nope"); !errors.Is(err, ErrUnknownRev) {
		t.Errorf("unknown rev: %v", err)
	}
	diffs, err := s.Diff(ctx, DiffOptions{From: "v-two", To: "HEAD"})
	if err != nil || len(diffs) != 2 {
		t.Fatalf("diff = %v, %v", diffs, err)
	}
	if d := diffs[0]; d.Path != "core/a.md" || string(d.Old) != "two\n" || string(d.New) != "three\n" {
		t.Errorf("diffs[0] = %s %s %q -> %q", d.Path, d.Action, d.Old, d.New)
	}
	unlock, _ := s.Lock(ctx, time.Second)
	defer unlock()
	fcs, err := s.Restore(ctx, "v-two", nil)
	if err != nil || len(fcs) != 2 {
		t.Fatalf("restore = %v, %v", fcs, err)
	}
	paths := []string{}
	for _, f := range fcs {
		paths = append(paths, f.Path)
	}
	if _, err := s.Checkpoint(ctx, CheckpointOptions{Subject: "restore", Paths: paths}); err != nil {
		t.Fatal(err)
	}
	if got := gitCLI(t, s.Dir(), "ls-tree", "-r", "--name-only", "HEAD"); got != ".gitignore\ncore/a.md\n" {
		t.Errorf("after restore:\n%s", got)
	}
	if n := gitCLI(t, s.Dir(), "rev-list", "--count", "HEAD"); n != "4\n" {
		t.Errorf("history rewritten? %s commits", n)
	}
	unlock() // the git index is written when the lock is released
	checkGit(t, s)
}

func TestBadPaths(t *testing.T) {
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", ".git/config", ".state/lock", "a\\b"} {
		if _, err := gitpath.Clean(p); !errors.Is(err, ErrOutside) {
			t.Errorf("gitpath.Clean(%q) = %v, want ErrOutside", p, err)
		}
	}
}

func TestLockTimeout(t *testing.T) {
	s := newStore(t, nil)
	s2, err := Open(context.Background(), s.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = s2.Lock(context.Background(), 100*time.Millisecond)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "pid") {
		t.Errorf("second lock: %v", err)
	}
}

func TestDeferIndex(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"a.md": "a\n"})
	d, err := Open(ctx, s.Dir(), Options{DeferIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	write(t, d, "b.md", "b\n")
	if _, err := checkpoint(t, d, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if st := gitCLI(t, d.Dir(), "diff", "--cached", "--name-only"); st != "b.md\n" {
		t.Errorf("before Flush the index should lag HEAD by b.md, got %q", st)
	}
	// Another process checkpoints meanwhile; the deferred store's stale
	// cache must not be saved over its work.
	write(t, s, "c.md", "c\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	checkGit(t, s)
	write(t, d, "e.md", "e\n")
	if _, err := checkpoint(t, d, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	checkGit(t, d)
	if got := gitCLI(t, d.Dir(), "ls-tree", "--name-only", "HEAD"); got != ".gitignore\na.md\nb.md\nc.md\ne.md\n" {
		t.Errorf("HEAD:\n%s", got)
	}
}

// A process killed after moving the ref but before saving its cache
// leaves a cache and a git index one commit behind: the next command
// puts both right, even one that changes nothing.
func TestCacheBehindIsWrittenBack(t *testing.T) {
	s := newStore(t, map[string]string{"a.md": "a\n"})
	oldCache, _ := os.ReadFile(s.StatePath(cacheFile))
	oldIndex, _ := os.ReadFile(filepath.Join(s.Dir(), ".git", "index"))
	write(t, s, "b.md", "b\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.StatePath(cacheFile), oldCache, 0o600)
	os.WriteFile(filepath.Join(s.Dir(), ".git", "index"), oldIndex, 0o644)
	s2, err := Open(context.Background(), s.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s2.Status(context.Background()); err != nil || len(st) != 0 {
		t.Fatalf("status = %v, %v", st, err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	checkGit(t, s2)
}

// TestRestoreRefusesLink: a link committed with the git CLI is never
// written back by a restore, and nothing else of it is either.
func TestRestoreRefusesLink(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"core/a.md": "one\n"})
	dir := s.Dir()
	victim := filepath.Join(t.TempDir(), "victim.json")
	os.WriteFile(victim, []byte("{}"), 0o600)
	os.Symlink(victim, filepath.Join(dir, "core", "evil.md"))
	os.WriteFile(filepath.Join(dir, "core", "a.md"), []byte("two\n"), 0o600)
	gitCLI(t, dir, "add", "-A")
	gitCLI(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "a link")
	linked := strings.TrimSpace(gitCLI(t, dir, "rev-parse", "HEAD"))
	gitCLI(t, dir, "rm", "-q", "core/evil.md")
	os.WriteFile(filepath.Join(dir, "core", "a.md"), []byte("three\n"), 0o600)
	gitCLI(t, dir, "add", "-A")
	gitCLI(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "no link")
	unlock, _ := s.Lock(ctx, time.Second)
	defer unlock()
	_, err := s.Restore(ctx, linked, nil)
	if err == nil || !strings.Contains(err.Error(), "core/evil.md is a symbolic link") {
		t.Fatalf("restore: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "core", "evil.md")); !os.IsNotExist(err) {
		t.Errorf("the link was written: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "core", "a.md")); string(b) != "three\n" {
		t.Errorf("core/a.md = %q, want it untouched", b)
	}
}

// TestCheckpointScrub: what Scrub returns is written back and committed,
// so that the work tree, the commit and git status agree, and a file it
// leaves alone is committed as it is.
func TestCheckpointScrub(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, map[string]string{"core/a.md": "one\n"})
	dir := s.Dir()
	os.WriteFile(filepath.Join(dir, "core", "a.md"), []byte("token=hunter2\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "core", "b.md"), []byte("nothing to hide\n"), 0o600)
	unlock, _ := s.Lock(ctx, time.Second)
	defer unlock()
	var seen []string
	scrub := func(p string, data []byte) []byte {
		seen = append(seen, p)
		if out := strings.ReplaceAll(string(data), "hunter2", "[gone]"); out != string(data) {
			return []byte(out)
		}
		return nil
	}
	if _, err := s.Checkpoint(ctx, CheckpointOptions{Subject: "scrubbed", Scrub: scrub}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "core", "a.md")); string(b) != "token=[gone]\n" {
		t.Errorf("work tree: %q", b)
	}
	if got := gitCLI(t, dir, "show", "HEAD:core/a.md"); got != "token=[gone]\n" {
		t.Errorf("committed: %q", got)
	}
	if got := gitCLI(t, dir, "show", "HEAD:core/b.md"); got != "nothing to hide\n" {
		t.Errorf("committed: %q", got)
	}
	if !slices.Contains(seen, "core/a.md") || !slices.Contains(seen, "core/b.md") {
		t.Errorf("scrub saw %v", seen)
	}
	if _, err := s.Checkpoint(ctx, CheckpointOptions{Scrub: scrub}); !errors.Is(err, ErrNothingToDo) {
		t.Errorf("second checkpoint: %v", err)
	}
}
