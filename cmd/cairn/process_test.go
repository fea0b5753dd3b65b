package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cairnProc runs the cairn binary as its own process in dir.
func cairnProc(dir string, stdin string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// headFiles lists the files committed at HEAD in the memory.
func headFiles(t *testing.T, proj string) map[string]bool {
	t.Helper()
	out := gitc(t, filepath.Join(proj, ".cairn"), "ls-tree", "-r", "--name-only", "HEAD")
	files := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		files[l] = true
	}
	return files
}

// committedIDs returns the ids of the items committed at HEAD.
func committedIDs(t *testing.T, proj string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for f := range headFiles(t, proj) {
		if i := strings.LastIndex(f, "--"); i >= 0 && strings.HasSuffix(f, ".md") {
			ids[strings.TrimSuffix(f[i+2:], ".md")] = true
		}
	}
	return ids
}

func TestConcurrentRemember(t *testing.T) {
	t.Parallel()
	procs, each := 8, 100
	if testing.Short() {
		procs, each = 4, 10
	}
	p := project(t)
	ok(t, p, "init")
	var (
		mu   sync.Mutex
		ids  = map[string]bool{}
		errs []string
		wg   sync.WaitGroup
	)
	for w := 0; w < procs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				var out, errb bytes.Buffer
				cmd := cairnProc(p, "", "remember", "--kind", "fact", fmt.Sprintf("writer %d fact %d", w, i))
				// What is tested is that no write is lost, not how long a
				// writer waits: with the whole suite beside it on two
				// cores, one of eight writers polling for the lock has
				// waited past the default 10 s.
				cmd.Env = append(os.Environ(), "CAIRN_LOCK_TIMEOUT=2m")
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Sprintf("writer %d item %d: %v: %s", w, i, err, errb.String()))
				} else {
					ids[strings.TrimSpace(out.String())] = true
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d remembers failed, first: %s", len(errs), errs[0])
	}
	if len(ids) != procs*each {
		t.Fatalf("%d distinct ids, want %d", len(ids), procs*each)
	}
	committed := committedIDs(t, p)
	for id := range ids {
		if !committed[id] {
			t.Errorf("item %s is not committed", id)
		}
	}
	if n := strings.TrimSpace(gitc(t, filepath.Join(p, ".cairn"), "rev-list", "--count", "HEAD")); n != fmt.Sprint(procs*each+1) {
		t.Errorf("%s commits, want %d", n, procs*each+1)
	}
	checkGit(t, p)
}

// TestCrash kills cairn at random instants while it writes, and checks
// that the repository stays valid, that nothing committed is lost, and
// that the next command carries on.
func TestCrash(t *testing.T) {
	t.Parallel()
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	os.MkdirAll(filepath.Join(mem, "core"), 0o755)
	confirmed := map[string]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	killed := 0
	for i := 0; i < rounds; i++ {
		// A hand edit for checkpoint's whole-tree scan to find.
		os.WriteFile(filepath.Join(mem, "core", fmt.Sprintf("hand-%d.md", i)), []byte(strings.Repeat("hand edit\n", 50)), 0o644)
		var cmd *exec.Cmd
		if i%3 == 0 {
			cmd = cairnProc(p, "", "checkpoint", "-m", fmt.Sprintf("round %d", i))
		} else {
			cmd = cairnProc(p, "", "remember", "--kind", "decision", fmt.Sprintf("decision %d", i))
		}
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(120000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err == nil {
			if i%3 != 0 {
				confirmed[strings.TrimSpace(out.String())] = true
			}
		} else {
			killed++
		}
		gitc(t, mem, "fsck", "--full", "--no-dangling")
		// Issue 12, item 9: after any command, a reader too, .git/index
		// describes HEAD, so git status shows no staged change (a kill
		// between moving the branch and writing the index showed one);
		// only untracked files: hand edits, a killed writer's batch.
		ok(t, p, "list")
		for _, l := range strings.Split(strings.TrimSpace(gitc(t, mem, "status", "--porcelain")), "\n") {
			if l != "" && !strings.HasPrefix(l, "?? ") {
				t.Errorf("round %d: git status after the kill and a list: %q", i, l)
			}
		}
	}
	t.Logf("%d of %d runs killed, %d remembers confirmed", killed, rounds, len(confirmed))
	committed := committedIDs(t, p)
	for id := range confirmed {
		if !committed[id] {
			t.Errorf("confirmed item %s lost", id)
		}
	}
	// The next commands recover: stale locks and caches do not stop them.
	ok(t, p, "checkpoint")
	ok(t, p, "remember", "after the crashes")
	checkGit(t, p)
	files := headFiles(t, p)
	for i := 0; i < rounds; i++ {
		if !files[fmt.Sprintf("core/hand-%d.md", i)] {
			t.Errorf("hand edit %d not committed after recovery", i)
		}
	}
	if t.Failed() {
		t.Log(gitc(t, mem, "log", "--stat", "--format=%h %s"))
	}
}

// mountTmpfs mounts a small tmpfs for tests of a full or read-only disk.
// It needs root, which CI has.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

func TestFullDisk(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, "4m")
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	ok(t, proj, "init")
	id := strings.TrimSpace(ok(t, proj, "remember", "--kind", "fact", "kept before the disk filled"))
	before := gitc(t, filepath.Join(proj, ".cairn"), "rev-parse", "HEAD")

	// Fill the disk, leaving a few kilobytes.
	filler := filepath.Join(dir, "filler")
	f, _ := os.Create(filler)
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	big := strings.Repeat("a long memory that does not fit on this disk\n", 20000)
	r := cairn(t, proj, big, "remember", "--kind", "fact", "-")
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("remember on a full disk: exit %d, stderr %q", r.code, r.stderr)
	}
	r = cairn(t, proj, "", "checkpoint")
	if r.code == 2 {
		t.Errorf("checkpoint on a full disk: usage error %q", r.stderr)
	}
	os.Remove(filler)
	if after := gitc(t, filepath.Join(proj, ".cairn"), "rev-parse", "HEAD"); after != before {
		t.Errorf("HEAD moved during the failed write: %s -> %s", before, after)
	}
	if show := ok(t, proj, "show", id); !strings.Contains(show, "kept before the disk filled") {
		t.Error("an item was lost")
	}
	ok(t, proj, "checkpoint")
	ok(t, proj, "remember", "after space came back")
	checkGit(t, proj)
}

func TestReadOnlyDisk(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, "8m")
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	ok(t, proj, "init")
	id := strings.TrimSpace(ok(t, proj, "remember", "a fact"))
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only: %v", err)
	}
	r := cairn(t, proj, "", "remember", "cannot be written")
	if r.code != 1 || !strings.Contains(r.stderr, "read-only file system") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("remember on a read-only disk: exit %d, stderr %q", r.code, r.stderr)
	}
	// Reading still works.
	if show := ok(t, proj, "show", id); !strings.Contains(show, "a fact") {
		t.Error("show failed on a read-only disk")
	}
	ok(t, proj, "log")
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT, ""); err != nil {
		t.Fatal(err)
	}
	ok(t, proj, "remember", "writable again")
	checkGit(t, proj)
}
