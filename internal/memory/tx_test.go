package memory

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/model"
)

// With MEMORY_HELPER set, the test binary runs a helper instead of the
// tests: a writer that a test kills at a point of the write path.
func TestMain(m *testing.M) {
	if h := os.Getenv("MEMORY_HELPER"); h != "" {
		if err := helperMain(h); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperMain remembers an item in MEMORY_DIR and, at the write path's
// point MEMORY_STOP, prints the item's path and waits to be killed.
func helperMain(name string) error {
	if name != "remember-stop" {
		return fmt.Errorf("unknown helper %q", name)
	}
	ctx := context.Background()
	m, err := Open(ctx, os.Getenv("MEMORY_DIR"), Options{Identity: gitstore.Identity{Name: "test", Email: "test@example.com"}})
	if err != nil {
		return err
	}
	it := model.NewItem(model.Decision, "Use PostgreSQL for the job queue", time.Now())
	it.Body = "Chosen over Redis for durability."
	it.ID = model.NewID(time.Now())
	m.stop = func(point string) {
		if point == os.Getenv("MEMORY_STOP") {
			fmt.Println(it.Path())
			select {} // killed here
		}
	}
	_, err = m.Remember(ctx, it)
	return err
}

// gitc runs the git command line in dir.
func gitc(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// An Update is redacted like a Remember: the secret reaches neither the
// file, nor its name, nor the commit.
func TestUpdateRedacts(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	it := model.NewItem(model.Fact, "Deploy credentials", m.Now())
	it.Body = "Ask ops for the deploy key."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	e, err := m.Get(ctx, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	const aws, gh = "AKIA2E0A8F3B244C9986", "ghp_aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3"
	e.Item.Title = "Deploy token " + gh
	e.Item.Body = "The deploy user's key is " + aws + "; rotate it monthly."
	cp, err := m.Update(ctx, e, "edit")
	if err != nil {
		t.Fatal(err)
	}
	if cp == nil {
		t.Fatal("Update made no checkpoint")
	}
	if strings.Contains(e.Path, "ghp") {
		t.Errorf("the file is named after the secret: %s", e.Path)
	}
	got := gitc(t, m.Dir, "show", "HEAD:"+e.Path)
	for _, s := range []string{aws, gh} {
		if strings.Contains(got, s) {
			t.Errorf("HEAD:%s holds %s:\n%s", e.Path, s, got)
		}
	}
	if !strings.Contains(got, "[REDACTED:") || !strings.Contains(got, "rotate it monthly") {
		t.Errorf("HEAD:%s is not the redacted text:\n%s", e.Path, got)
	}
	if log := gitc(t, m.Dir, "log", "-p", "--all"); strings.Contains(log, aws) || strings.Contains(log, gh) {
		t.Error("a secret is in history")
	}
	if st := gitc(t, m.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after Update:\n%s", st)
	}
}

// With checkpoint.auto off, Remember, Update and Forget write the files
// through the journal and commit nothing; the next checkpoint does.
func TestAutoOffLeavesFiles(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	off := false
	m.Config.Checkpoint.Auto = &off
	head := gitc(t, m.Dir, "rev-parse", "HEAD")
	it := model.NewItem(model.Fact, "Tests run with -race", m.Now())
	it.Body = "password = hunter2hunter2"
	cp, err := m.Remember(ctx, it)
	if err != nil || cp != nil {
		t.Fatalf("Remember = %v, %v; want no checkpoint", cp, err)
	}
	data, err := os.ReadFile(filepath.Join(m.Dir, it.Path()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "hunter2") {
		t.Errorf("the file holds the secret:\n%s", data)
	}
	e, err := m.Get(ctx, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	old := e.Path
	e.Item.Title = "Tests always run with -race"
	if _, err := m.Update(ctx, e, "edit"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, old)); !errors.Is(err, os.ErrNotExist) || old == e.Path {
		t.Errorf("the renamed item's old file %s is still there (%v)", old, err)
	}
	if m.JournalPending() {
		t.Error("a journal is left")
	}
	if got := gitc(t, m.Dir, "rev-parse", "HEAD"); got != head {
		t.Error("a commit was made with checkpoint.auto off")
	}
	if _, err := m.Checkpoint(ctx, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	gitc(t, m.Dir, "show", "HEAD:"+e.Path)
	if _, _, err := m.Forget(ctx, it.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, e.Path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Forget left %s (%v)", e.Path, err)
	}
	gitc(t, m.Dir, "show", "HEAD:"+e.Path) // not committed yet
}

// A Remember killed (SIGKILL) after its journal and files are written is
// settled by the next writer: the item is committed once or not at all,
// git fsck passes and the work tree is clean.
func TestKilledRemember(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stop      string
		committed bool
	}{
		{"applied", false},  // the files are written, the commit is not made
		{"committed", true}, // the commit is made, the journal not removed
	} {
		t.Run(tc.stop, func(t *testing.T) {
			m := testMemory(t)
			ctx := context.Background()
			head := strings.TrimSpace(gitc(t, m.Dir, "rev-parse", "HEAD"))
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "MEMORY_HELPER=remember-stop", "MEMORY_DIR="+m.Dir, "MEMORY_STOP="+tc.stop)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatalf("the helper stopped nowhere: %v", err)
			}
			p := strings.TrimSpace(line)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if !m.JournalPending() {
				t.Fatal("the killed writer left no journal")
			}
			if _, err := os.Stat(filepath.Join(m.Dir, p)); err != nil {
				t.Fatalf("the killed writer did not write %s: %v", p, err)
			}
			// Any command, a reader too, leaves .git/index describing
			// HEAD (issue 12, item 9): git status shows at most the
			// killed writer's uncommitted file, never a staged change.
			if _, err := Open(ctx, m.Dir, Options{}); err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(strings.TrimSpace(gitc(t, m.Dir, "status", "--porcelain")), "\n") {
				if l != "" && !strings.HasPrefix(l, "?? ") {
					t.Errorf("git status after the kill and a read: %q", l)
				}
			}

			// The next writer, another Remember, settles the batch.
			next := model.NewItem(model.Fact, "The next writer", m.Now())
			next.Body = "Written after the kill."
			if _, err := m.Remember(ctx, next); err != nil {
				t.Fatal(err)
			}
			if m.JournalPending() {
				t.Error("journal left after the next writer")
			}
			_, statErr := os.Stat(filepath.Join(m.Dir, p))
			inTree := statErr == nil
			cmt := exec.Command("git", "-C", m.Dir, "cat-file", "-e", "HEAD:"+p)
			inHead := cmt.Run() == nil
			if inTree != tc.committed || inHead != tc.committed {
				t.Errorf("item %s: in the work tree %v, in HEAD %v; want both %v", p, inTree, inHead, tc.committed)
			}
			// Once: the item's commit, if any, and the next writer's.
			want := 1
			if tc.committed {
				want = 2
			}
			if n := strings.Count(gitc(t, m.Dir, "log", "--format=%H", head+"..HEAD"), "\n"); n != want {
				t.Errorf("%d commits after the kill, want %d", n, want)
			}
			gitc(t, m.Dir, "show", "HEAD:"+next.Path())
			gitc(t, m.Dir, "fsck", "--full", "--strict")
			if st := gitc(t, m.Dir, "status", "--porcelain"); st != "" {
				t.Errorf("git status after settling:\n%s", st)
			}
		})
	}
}

// A restore stopped after writing its files and before its commit is
// rolled forward by the next writer.
func TestStoppedRestore(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	it := model.NewItem(model.Fact, "Kept in the old checkpoint", m.Now())
	it.Body = "Restored later."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	old := strings.TrimSpace(gitc(t, m.Dir, "rev-parse", "HEAD"))
	if _, _, err := m.Forget(ctx, it.ID); err != nil {
		t.Fatal(err)
	}
	type stopped struct{}
	m.stop = func(point string) {
		if point == "restored" {
			panic(stopped{}) // as if killed: the deferred End releases the lock
		}
	}
	func() {
		defer func() {
			if _, ok := recover().(stopped); !ok {
				t.Fatal("the restore did not stop")
			}
		}()
		_, _ = m.History().Restore(ctx, old, nil)
	}()
	m.stop = nil
	if !m.JournalPending() {
		t.Fatal("the stopped restore left no journal")
	}
	next := model.NewItem(model.Fact, "The next writer", m.Now())
	if _, err := m.Remember(ctx, next); err != nil {
		t.Fatal(err)
	}
	if m.JournalPending() {
		t.Error("journal left")
	}
	gitc(t, m.Dir, "show", "HEAD:"+it.Path())
	if log := gitc(t, m.Dir, "log", "-2", "--format=%B"); !strings.Contains(log, "Cairn-Restored-From: "+old) {
		t.Errorf("no restore commit before the next writer's:\n%s", log)
	}
	gitc(t, m.Dir, "fsck", "--full", "--strict")
	if st := gitc(t, m.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after settling:\n%s", st)
	}
}
