package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/fsview"
	"github.com/cairn-mem/cairn/fsview/fusetest"
	"github.com/cairn-mem/cairn/internal/server"
)

// mountProject makes a project with two remembered items and an empty
// mount point.
func mountProject(t *testing.T) (proj, mnt string) {
	t.Helper()
	fusetest.Need(t)
	proj = project(t)
	ok(t, proj, "init")
	ok(t, proj, "remember", "-k", "decision", "--tag", "db", "Use PostgreSQL for the job queue: it survives restarts")
	ok(t, proj, "remember", "-k", "fact", "CI runs on two cores")
	mnt = t.TempDir()
	t.Cleanup(func() {
		if mp, _ := fsview.MountedAt(mnt); mp != nil {
			t.Errorf("%s is still mounted", mnt)
			fsview.Unmount(mnt)
		}
	})
	return proj, mnt
}

// waitMounted waits until a live cairn view is mounted at dir.
func waitMounted(t *testing.T, dir string, want bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mp, err := fsview.MountedAt(dir)
		if err != nil {
			t.Fatal(err)
		}
		if (mp != nil && !fsview.Stale(dir)) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: mounted is not %v after 10 s (%+v)", dir, want, mp)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMountForeground(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	code := make(chan int)
	go func() {
		code <- run(ctx, testProcess(nil, strings.NewReader(""), &bytes.Buffer{}, &stderr), []string{"-C", proj, "mount", mnt})
	}()
	waitMounted(t, mnt, true)
	out, err := exec.Command("grep", "-rl", "PostgreSQL", filepath.Join(mnt, "core")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "use-postgresql") {
		t.Errorf("grep -r in the mount: %v %s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "CONTEXT.md")); err != nil || !strings.Contains(string(b), "PostgreSQL") {
		t.Errorf("CONTEXT.md: %v %s", err, b)
	}
	hits, err := filepath.Glob(filepath.Join(mnt, "search", "job queue", "01-*.md"))
	if err != nil || len(hits) != 1 {
		t.Errorf("search/job queue: %v %v", hits, err)
	}
	links, _ := os.ReadDir(filepath.Join(mnt, "tagged", "db"))
	if len(links) != 1 {
		t.Errorf("tagged/db: %v", links)
	}
	// A checkpoint made while mounted shows up.
	ok(t, proj, "remember", "-k", "note", "Mounted views follow checkpoints")
	deadline := time.Now().Add(5 * time.Second)
	for {
		es, _ := os.ReadDir(filepath.Join(mnt, "core", "notes"))
		if len(es) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("core/notes after a checkpoint: %v", es)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Ctrl-C.
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("cairn mount: exit %d\n%s", c, &stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cairn mount did not return after Ctrl-C")
	}
	waitMounted(t, mnt, false)
}

func TestMountBackgroundAndUmount(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	out, err := cairnProc(proj, "", "mount", "--background", mnt).CombinedOutput()
	if err != nil {
		t.Fatalf("cairn mount --background: %v\n%s", err, out)
	}
	waitMounted(t, mnt, true)
	fails(t, proj, 1, "already mounted", "mount", mnt)
	latest, err := os.Readlink(filepath.Join(mnt, "checkpoints", "latest"))
	if err != nil || !strings.Contains(latest, "remember") {
		t.Errorf("checkpoints/latest -> %q %v", latest, err)
	}
	ok(t, proj, "umount", mnt)
	waitMounted(t, mnt, false)
	fails(t, proj, 1, "no cairn view is mounted", "umount", mnt)
}

// startMount starts cairn mount DIR as a process of its own and returns
// once it says the view is ready.
func startMount(t *testing.T, proj, mnt string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := cairnProc(proj, "", "mount", mnt)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), server.MountedMsg) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("cairn mount not ready after 10 s: %s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	waitMounted(t, mnt, true)
	return cmd, stderr
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestMountSIGTERM(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	cmd, stderr := startMount(t, proj, mnt)
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("cairn mount after SIGTERM: %v\n%s", err, stderr)
	}
	waitMounted(t, mnt, false)
}

func TestMountKilled(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	for _, next := range []string{"mount", "umount"} {
		cmd, _ := startMount(t, proj, mnt)
		cmd.Process.Kill()
		cmd.Wait()
		if !fsview.Stale(mnt) {
			t.Fatalf("%s: not stale after the server was killed", mnt)
		}
		switch next {
		case "mount":
			// The next mount cleans up and mounts.
			out, err := cairnProc(proj, "", "mount", "--background", mnt).CombinedOutput()
			if err != nil {
				t.Fatalf("cairn mount over a stale mount: %v\n%s", err, out)
			}
			waitMounted(t, mnt, true)
			if _, err := os.Stat(filepath.Join(mnt, "core")); err != nil {
				t.Error(err)
			}
			ok(t, proj, "umount", mnt)
		case "umount":
			r := cairn(t, proj, "", "umount", mnt)
			if r.code != 0 || !strings.Contains(r.stderr, "stale") {
				t.Errorf("cairn umount of a stale mount: exit %d %s", r.code, r.stderr)
			}
		}
		waitMounted(t, mnt, false)
		if mp, _ := fsview.MountedAt(mnt); mp != nil {
			t.Errorf("after %s, still mounted: %+v", next, mp)
		}
	}
}

func TestMountBadInput(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	fails(t, proj, 1, "does not exist", "mount", filepath.Join(mnt, "missing"))
	fails(t, proj, 1, "not empty", "mount", full)
	fails(t, proj, 1, "already a proc mount", "mount", "/proc")
	fails(t, proj, 2, "takes 1 argument", "mount")
	fails(t, proj, 1, "no cairn view is mounted", "umount", full)
	fails(t, proj, 1, "not a cairn view", "umount", "/proc")
	fails(t, t.TempDir(), 1, "no cairn memory", "mount", mnt)
}

// A server killed while it starts may be stuck for good on its own mount;
// cairn umount still cleans up, and the process can then end.
func TestMountKilledStarting(t *testing.T) {
	t.Parallel()
	proj, mnt := mountProject(t)
	for i := 0; i < 3; i++ {
		cmd := cairnProc(proj, "", "mount", mnt)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for mp, _ := fsview.MountedAt(mnt); mp == nil; mp, _ = fsview.MountedAt(mnt) {
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Kill()
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		ok(t, proj, "umount", mnt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Fatal("killed cairn mount did not end after cairn umount")
		}
		if mp, _ := fsview.MountedAt(mnt); mp != nil {
			t.Fatalf("still mounted: %+v", mp)
		}
	}
}
