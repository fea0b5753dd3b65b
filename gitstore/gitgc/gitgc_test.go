package gitgc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5/plumbing"
)

// newStore makes a memory-shaped repository with n checkpoints, each
// changing a few files, all objects loose as gitstore writes them.
func newStore(t testing.TB, n int) *gitstore.Store {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), ".cairn")
	s, _, err := gitstore.Init(ctx, dir, map[string][]byte{".gitignore": []byte(".state/\n")}, "init", gitstore.Options{Identity: gitstore.Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	unlock, err := s.Lock(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for i := range n {
		for j := range 3 {
			p := fmt.Sprintf("sessions/s%d/transcript.md", (i+j)%7)
			old, _ := s.ReadFile(p)
			line := fmt.Sprintf("turn %d of checkpoint %d: the agent ran the tests and fixed the queue\n", j, i)
			if err := s.WriteFile(p, append(old, line...)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Checkpoint(ctx, gitstore.CheckpointOptions{Subject: fmt.Sprintf("checkpoint %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func gitCLI(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=gc.auto", "GIT_CONFIG_VALUE_0=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// reachableObjects is what git itself says history holds.
func reachableObjects(t testing.TB, dir string) string {
	t.Helper()
	return gitCLI(t, dir, "rev-list", "--objects", "--all", "--reflog")
}

func repack(t testing.TB, s *gitstore.Store, opts Options) *Result {
	t.Helper()
	ctx := context.Background()
	unlock, err := s.Lock(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	res, err := Repack(ctx, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRepack(t *testing.T) {
	s := newStore(t, 60)
	dir := s.Dir()
	ctx := context.Background()
	// An unreachable object, old enough to be pruned, and a young one.
	w := s.NewObjectWriter(false)
	young, err := w.Write(plumbing.BlobObject, []byte("young and unreachable\n")) // a blob
	if err != nil {
		t.Fatal(err)
	}
	stale, err := w.Write(plumbing.BlobObject, []byte("stale and unreachable\n"))
	if err != nil {
		t.Fatal(err)
	}
	w.Flush()
	month := time.Now().Add(-30 * 24 * time.Hour)
	stalePath := filepath.Join(dir, ".git", "objects", stale.String()[:2], stale.String()[2:])
	if err := os.Chtimes(stalePath, month, month); err != nil {
		t.Fatal(err)
	}

	// Another process's Store (the daemon's) stays open across repacks.
	other, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	readOld := func(rev string) {
		t.Helper()
		if data, err := other.ReadFileAt(ctx, rev, "sessions/s3/transcript.md"); err != nil || len(data) == 0 {
			t.Fatalf("the other Store reads %s after repack: %v", rev, err)
		}
	}
	readOld("HEAD~1")

	log := gitCLI(t, dir, "log", "--format=%H %T %s")
	before := reachableObjects(t, dir)
	all := gitCLI(t, dir, "cat-file", "--batch-all-objects", "--batch-check")
	res := repack(t, s, Options{})
	if res.Before.Loose == 0 || res.After.Loose != 1 || res.After.Packs != 1 {
		t.Errorf("before %+v after %+v: want every loose object packed but the young unreachable one", res.Before, res.After)
	}
	if res.Pruned != 1 {
		t.Errorf("pruned %d, want the stale unreachable object", res.Pruned)
	}
	if res.After.Disk >= res.Before.Disk {
		t.Errorf("disk %d -> %d: nothing freed", res.Before.Disk, res.After.Disk)
	}
	gitCLI(t, dir, "fsck", "--full", "--strict")
	if got := reachableObjects(t, dir); got != before {
		t.Error("the reachable objects changed")
	}
	if got := gitCLI(t, dir, "log", "--format=%H %T %s"); got != log {
		t.Error("git log changed")
	}
	after := gitCLI(t, dir, "cat-file", "--batch-all-objects", "--batch-check")
	for _, line := range strings.Split(strings.TrimSpace(all), "\n") {
		id := strings.Fields(line)[0]
		if id == stale.String() {
			if strings.Contains(after, id) {
				t.Error("the stale unreachable object survived")
			}
			continue
		}
		if !strings.Contains(after, line) {
			t.Errorf("object lost: %s", line)
		}
	}
	if !strings.Contains(after, young.String()) {
		t.Error("the young unreachable object was pruned")
	}

	readOld("HEAD~20")
	// The Store reads and checkpoints on the packed repository.
	if data, err := s.ReadFileAt(ctx, "HEAD~10", "sessions/s3/transcript.md"); err != nil || len(data) == 0 {
		t.Fatalf("read at HEAD~10 after repack: %v", err)
	}
	unlock, _ := s.Lock(ctx, time.Second)
	s.WriteFile("core/notes/after.md", []byte("written after gc\n"))
	if _, err := s.Checkpoint(ctx, gitstore.CheckpointOptions{Subject: "after gc"}); err != nil {
		t.Fatal(err)
	}
	unlock()
	gitCLI(t, dir, "fsck", "--full", "--strict")

	// A second run packs the one new checkpoint with the rest.
	again := repack(t, s, Options{})
	if again.After.Packs != 1 || again.After.Loose != 1 {
		t.Errorf("second repack: after %+v", again.After)
	}
	gitCLI(t, dir, "fsck", "--full", "--strict")
	readOld("HEAD~30")
	third := repack(t, s, Options{})
	if !third.Skipped {
		t.Errorf("third repack wrote a pack: %+v", third)
	}
}

// TestRepackKilled leaves what a repack killed at each step would, and
// checks that the next run settles it and loses nothing.
func TestRepackKilled(t *testing.T) {
	for _, tc := range []struct {
		name  string
		leave func(t *testing.T, packDir string, pack string)
	}{
		{"half a temporary pack", func(t *testing.T, packDir, pack string) {
			data, _ := os.ReadFile(pack + ".pack")
			os.WriteFile(filepath.Join(packDir, "tmp_pack_123"), data[:len(data)/2], 0o444)
		}},
		{"a pack without its index", func(t *testing.T, packDir, pack string) {
			os.Remove(pack + ".idx")
		}},
		{"a truncated pack without its index", func(t *testing.T, packDir, pack string) {
			data, _ := os.ReadFile(pack + ".pack")
			os.Remove(pack + ".idx")
			os.Remove(pack + ".pack")
			os.WriteFile(pack+".pack", data[:len(data)/3], 0o444)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, 10)
			dir := s.Dir()
			before := reachableObjects(t, dir)
			packDir := filepath.Join(dir, ".git", "objects", "pack")
			// A pack of everything, as the killed run would have written,
			// with the loose objects still there.
			gitCLI(t, dir, "pack-objects", "-q", "--all", "--reflog", filepath.Join(packDir, "pack"))
			packs, _ := filepath.Glob(filepath.Join(packDir, "pack-*.pack"))
			if len(packs) != 1 {
				t.Fatalf("packs: %v", packs)
			}
			tc.leave(t, packDir, strings.TrimSuffix(packs[0], ".pack"))
			hour := time.Now().Add(-2 * time.Hour)
			leftovers, _ := filepath.Glob(filepath.Join(packDir, "*"))
			for _, f := range leftovers {
				os.Chtimes(f, hour, hour)
			}
			res := repack(t, s, Options{})
			if res.Swept == 0 && tc.name != "a pack without its index" {
				t.Errorf("nothing swept: %+v", res)
			}
			gitCLI(t, dir, "fsck", "--full", "--strict")
			if got := reachableObjects(t, dir); got != before {
				t.Error("the reachable objects changed")
			}
			if res.After.Loose != 0 || res.After.Packs != 1 {
				t.Errorf("after %+v", res.After)
			}
		})
	}
}

// TestRepackNeedsLock: a repack without the write lock would race a
// checkpoint's objects.
func TestRepackNeedsLock(t *testing.T) {
	s := newStore(t, 1)
	if _, err := Repack(context.Background(), s, Options{}); err == nil {
		t.Fatal("repack without the lock succeeded")
	}
}

// TestRepackCorruptPack: a pack damaged under its index (a disk error, a
// copy cut short) stops the repack with one line naming the object and
// the repair, and nothing is removed.
func TestRepackCorruptPack(t *testing.T) {
	s := newStore(t, 5)
	dir := s.Dir()
	gitCLI(t, dir, "repack", "-q", "-a", "-d")
	gitCLI(t, dir, "prune-packed")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	data, _ := os.ReadFile(packs[0])
	os.Chmod(packs[0], 0o644)
	if err := os.WriteFile(packs[0], data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "*", "*"))
	ctx := context.Background()
	unlock, _ := s.Lock(ctx, time.Second)
	defer unlock()
	s.Reload()
	_, err := Repack(ctx, s, Options{})
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "repack") {
		t.Fatalf("repack of a corrupt pack: %v; want one line", err)
	}
	t.Log(err)
	after, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "*", "*"))
	if strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("files changed:\n%v\n%v", before, after)
	}
	if fi, _ := os.Stat(packs[0]); fi.Size() != int64(len(data)/2) {
		t.Error("the damaged pack was touched")
	}
}
