package fsview_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cairn-mem/cairn/fsview"
	"github.com/cairn-mem/cairn/fsview/fusetest"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// mount mounts a view of m into a temporary folder for the test's
// duration and checks, at the end, that the mount and its descriptors
// are gone.
func mount(t *testing.T, m *memory.Memory, s fsview.Searcher) string {
	t.Helper()
	fusetest.Need(t)
	ctx := context.Background()
	v, err := fsview.New(ctx, m.Store(), fsview.Options{Searcher: s, Warn: func(s string) { t.Log("warn: " + s) }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fdsBefore := openFDs(t, dir)
	srv, err := fsview.Mount(ctx, dir, v, fsview.MountOptions{Poll: 20 * time.Millisecond})
	if err != nil {
		fusetest.Unavailable(t, err)
	}
	t.Cleanup(func() {
		if err := srv.Unmount(); err != nil {
			t.Errorf("unmount: %v", err)
		}
		if mp, err := fsview.MountedAt(dir); err != nil || mp != nil {
			t.Errorf("after unmount, %s is still in /proc/self/mountinfo: %+v %v", dir, mp, err)
		}
		// go-fuse closes /dev/fuse as its serve loop winds down, which
		// may be just after Unmount returns: give it a moment.
		after := openFDs(t, dir)
		for i := 0; i < 100 && after > fdsBefore; i++ {
			time.Sleep(20 * time.Millisecond)
			after = openFDs(t, dir)
		}
		if after > fdsBefore {
			t.Errorf("descriptors of /dev/fuse or the mount: %d before mounting, %d after unmounting", fdsBefore, after)
		}
	})
	return dir
}

// openFDs counts this process's descriptors of /dev/fuse and of files
// in dir. (go-fuse keeps a pool of pipes for splicing, process-wide.)
func openFDs(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		l, _ := os.Readlink("/proc/self/fd/" + e.Name())
		if l == "/dev/fuse" || strings.HasPrefix(l, dir) {
			n++
		}
	}
	return n
}

func sh(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestMountTestFS(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, fsview.IndexedSearcher(t, m))
	if _, err := os.Stat(filepath.Join(mnt, "search", "postgres")); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(os.DirFS(mnt), "CONTEXT.md", "core", "checkpoints/latest", "tags/v1", "kinds/decision", "tagged/db"); err != nil {
		t.Fatal(err)
	}
}

func TestMountTools(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, fsview.IndexedSearcher(t, m))
	mem := m.Dir

	// The live tree is the last checkpoint: the same as the work tree.
	sh(t, "", "diff", "-r", filepath.Join(mem, "core"), filepath.Join(mnt, "core"))
	if out := sh(t, mnt, "grep", "-rl", "postgres", "core"); !strings.Contains(out, "use-postgresql-for-the-job-queue") {
		t.Errorf("grep -r postgres core: %q", out)
	}
	find := sh(t, mnt, "find", ".", "-path", "./search", "-prune", "-o", "-print")
	for _, want := range []string{"./CONTEXT.md", "./checkpoints/latest", "./tags/release/first", "./kinds/decision/", "./tagged/db/"} {
		if !strings.Contains(find, want) {
			t.Errorf("find does not list %s:\n%s", want, find)
		}
	}
	ls := sh(t, mnt, "ls", "checkpoints")
	if n := len(strings.Fields(ls)); n != 5 {
		t.Errorf("ls checkpoints: %d names, want 4 checkpoints and latest:\n%s", n, ls)
	}
	// Two checkpoints differ by one item.
	out, _ := exec.Command("diff", "-r", filepath.Join(mnt, "tags/v1"), filepath.Join(mnt, "checkpoints/latest")).CombinedOutput()
	if !strings.Contains(string(out), "Only in") || !strings.Contains(string(out), "logs-are-json-lines") {
		t.Errorf("diff -r tags/v1 checkpoints/latest:\n%s", out)
	}
	// A checkpoint's files carry its commit time, sizes are right.
	c, err := m.Store().Commit(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	st := sh(t, mnt, "stat", "-L", "-c", "%Y %s %a %F", "checkpoints/latest/cairn.yaml")
	yaml, _ := os.ReadFile(filepath.Join(mem, "cairn.yaml"))
	want := []string{strconv.FormatInt(c.Time.Unix(), 10), strconv.Itoa(len(yaml)), "444", "regular"}
	if f := strings.Fields(st); len(f) < 4 || f[0] != want[0] || f[1] != want[1] || f[2] != want[2] || f[3] != want[3] {
		t.Errorf("stat: %q, want %q", st, want)
	}
	// A file has one inode number whichever way it is reached.
	v1, _ := os.Readlink(filepath.Join(mnt, "tags", "v1"))
	i1 := sh(t, mnt, "stat", "-L", "-c", "%i", "tags/v1/cairn.yaml")
	i2 := sh(t, filepath.Join(mnt, "tags"), "stat", "-c", "%i", v1+"/cairn.yaml")
	if i1 != i2 || i1 == "0\n" {
		t.Errorf("inode numbers %q and %q of one file", i1, i2)
	}
	if got := sh(t, mnt, "sh", "-c", `cat search/"why postgres"/01-*.md`); !strings.Contains(got, "survive restarts") {
		t.Errorf("cat search/why postgres/01-*.md: %q", got)
	}
	if got := sh(t, mnt, "cat", "CONTEXT.md"); !strings.Contains(got, "tokens") {
		t.Errorf("CONTEXT.md: %q", got)
	}
}

func TestMountReadOnly(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, nil)
	for _, try := range []func() error{
		func() error { return os.WriteFile(filepath.Join(mnt, "core", "new.md"), []byte("x"), 0o644) },
		func() error { return os.Mkdir(filepath.Join(mnt, "core", "x"), 0o755) },
		func() error { return os.Remove(filepath.Join(mnt, "checkpoints", "latest")) },
		func() error { return os.Chmod(filepath.Join(mnt, "CONTEXT.md"), 0o644) },
		func() error {
			f, err := os.OpenFile(filepath.Join(mnt, "CONTEXT.md"), os.O_WRONLY, 0)
			if err == nil {
				f.Close()
			}
			return err
		},
	} {
		if err := try(); err == nil || !strings.Contains(err.Error(), "read-only file system") {
			t.Errorf("write into the view: %v, want EROFS", err)
		}
	}
}

func TestMountFollowsCheckpoints(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, nil)
	ctx := context.Background()
	dir := filepath.Join(mnt, "core", "decisions")
	before, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Read everything once so that the kernel caches it.
	sh(t, mnt, "grep", "-r", "-c", "e", "core")
	latest, _ := os.Readlink(filepath.Join(mnt, "checkpoints", "latest"))

	it := model.NewItem(model.Decision, "Mounts follow checkpoints", time.Now())
	it.Body = "A new checkpoint shows up in the mounted view."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	// An existing item changes too.
	e, err := m.Get(ctx, before[0].Name()[strings.LastIndex(before[0].Name(), "--")+2:len(before[0].Name())-3])
	if err != nil {
		t.Fatal(err)
	}
	e.Item.Body += "\nEdited while mounted."
	if _, err := m.Update(ctx, e, "edit"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		after, _ := os.ReadDir(dir)
		b, _ := os.ReadFile(filepath.Join(mnt, e.Path))
		l, _ := os.Readlink(filepath.Join(mnt, "checkpoints", "latest"))
		if len(after) == len(before)+1 && strings.Contains(string(b), "Edited while mounted.") && l != latest {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a checkpoint: %d entries (want %d), edited file %q, latest %s (was %s)", len(after), len(before)+1, b, l, latest)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The kernel's copy of the edited file matches the repository.
	disk, _ := os.ReadFile(filepath.Join(m.Dir, e.Path))
	view, _ := os.ReadFile(filepath.Join(mnt, e.Path))
	if string(disk) != string(view) {
		t.Errorf("edited file in the view:\n%s\nwant\n%s", view, disk)
	}
	// The old checkpoint is still there and unchanged.
	if _, err := os.Stat(filepath.Join(mnt, "checkpoints", latest)); err != nil {
		t.Error(err)
	}
}

// A folder that is in use when a checkpoint lands (a shell's working
// folder, a listing or a read under way) cannot be dropped from the
// kernel's caches: the kernel must be told that its listing changed.
func TestMountFollowsCheckpointsInOpenFolder(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, nil)
	dir := filepath.Join(mnt, "core", "decisions")
	before, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// grep reads core/ as well, which looks core/decisions up again.
	sh(t, mnt, "grep", "-r", "-c", "e", "core")
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	it := model.NewItem(model.Decision, "Open folders follow checkpoints", time.Now())
	it.Body = "A folder in use shows the new checkpoint too."
	if _, err := m.Remember(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		after, _ := os.ReadDir(dir)
		if len(after) == len(before)+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a checkpoint: %d entries in the open folder, want %d", len(after), len(before)+1)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMountBadMountPoints(t *testing.T) {
	fusetest.Need(t)
	m := fsview.NewTestMemory(t)
	ctx := context.Background()
	v, err := fsview.New(ctx, m.Store(), fsview.Options{})
	if err != nil {
		t.Fatal(err)
	}
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	mnt := mount(t, m, nil)
	for _, tc := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "missing"), "does not exist"},
		{full, "not empty"},
		{file, "not a folder"},
		{mnt, "already mounted"},
		{"/proc", "already a proc mount"},
	} {
		srv, err := fsview.Mount(ctx, tc.dir, v, fsview.MountOptions{})
		if err == nil {
			srv.Unmount()
			t.Errorf("Mount(%s) worked", tc.dir)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Mount(%s): %v, want %q", tc.dir, err, tc.want)
		}
	}
}

// A sync may rewrite history under a mounted view: the view follows the
// new HEAD, checkpoints that are gone disappear, and what remains reads
// right even after the old objects are pruned.
func TestMountHistoryRewritten(t *testing.T) {
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, nil)
	before, _ := os.ReadDir(filepath.Join(mnt, "checkpoints"))
	sh(t, mnt, "grep", "-r", "-c", "e", "core", "checkpoints")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = m.Dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("tag", "-d", "v1")
	git("tag", "-d", "release/first")
	git("reset", "-q", "--hard", "HEAD~2")
	git("reflog", "expire", "--expire=now", "--all")
	git("gc", "-q", "--prune=now")
	deadline := time.Now().Add(5 * time.Second)
	for {
		after, err := os.ReadDir(filepath.Join(mnt, "checkpoints"))
		if err != nil {
			t.Log(err)
		}
		tags, _ := os.ReadDir(filepath.Join(mnt, "tags"))
		if len(after) == len(before)-2 && len(tags) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the rewrite: %d checkpoints (want %d), tags %v", len(after), len(before)-2, tags)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The live tree is the new HEAD's, file for file.
	sh(t, "", "diff", "-r", filepath.Join(m.Dir, "core"), filepath.Join(mnt, "core"))
	sh(t, mnt, "grep", "-r", "-c", "e", "core", "checkpoints")
}

// Without allow_other, another user (root included, were it not the
// mounter) cannot look into the view, even where the folder is open to all.
func TestMountOnlyForTheMounter(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to act as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	m := fsview.NewTestMemory(t)
	mnt := mount(t, m, nil)
	for d := mnt; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	if err := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "ls", filepath.Dir(mnt)).Run(); err != nil {
		t.Fatalf("another user cannot even reach the mount point: %v", err)
	}
	out, err := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "ls", mnt+"/core").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Permission denied") {
		t.Errorf("another user lists the view: %v %s", err, out)
	}
}
