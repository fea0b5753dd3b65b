package keep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/model"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// addSession commits a session folder with its files, last active at
// last; summarised says whether its summary covers every turn.
func addSession(t *testing.T, m *memory.Memory, id string, last time.Time, archived, summarised bool) *model.SessionEntry {
	t.Helper()
	ctx := context.Background()
	s := model.NewSession(id, model.AgentClaudeCode, last)
	s.Turns = 4
	e := &model.SessionEntry{Session: s, Dir: model.SessionDir(id)}
	if archived {
		e.Status = model.StatusArchived
		e.Dir = model.ArchiveDir(id, last)
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.End()
	for _, f := range []string{model.TranscriptFile, model.PromptsFile, model.ObservationsFile} {
		tx.Put(e.File(f), []byte("# "+f+" of "+id+"\n"))
	}
	if summarised {
		s.Summarized.Turns = 4
		tx.Put(e.File(model.SummaryFile), []byte("# summary of "+id+"\n"))
	}
	if err := tx.WriteSession(e); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx, memory.CheckpointOptions{Message: "add " + id}); err != nil {
		t.Fatal(err)
	}
	return e
}

func gitCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestRetain(t *testing.T) {
	for _, summariesOnly := range []bool{false, true} {
		t.Run(fmt.Sprint("keep_summaries_only=", summariesOnly), func(t *testing.T) {
			ctx := context.Background()
			m := memorytest.New(t)
			m.SetClock(func() time.Time { return now })
			old := now.Add(-120 * 24 * time.Hour)
			gone := addSession(t, m, "aaaa-old", old, true, true)
			pending := addSession(t, m, "bbbb-unsummarised", old, true, false)
			recent := addSession(t, m, "cccc-recent", now.Add(-30*24*time.Hour), true, true)
			live := addSession(t, m, "dddd-live", old, false, true)

			// No retention configured: nothing goes.
			if res, err := Retain(ctx, m); err != nil || res.Checkpoint != nil {
				t.Fatalf("without transcripts_keep: %+v, %v", res, err)
			}
			m.Config.Capture.TranscriptsKeep = config.Duration(90 * 24 * time.Hour)
			m.Config.Capture.KeepSummariesOnly = summariesOnly
			res, err := Retain(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{gone.File(model.TranscriptFile)}
			if summariesOnly {
				want = append(want, gone.File(model.PromptsFile), gone.File(model.ObservationsFile))
			}
			if fmt.Sprint(res.Dropped) != fmt.Sprint(want) || res.Sessions != 1 || res.Checkpoint == nil {
				t.Fatalf("dropped %v in %+v, want %v", res.Dropped, res, want)
			}
			if len(res.Unsummarised) != 1 || res.Unsummarised[0] != pending.ID {
				t.Errorf("unsummarised: %v", res.Unsummarised)
			}
			for _, p := range want {
				if m.StatOK(p) {
					t.Errorf("%s is still in the work tree", p)
				}
			}
			for _, p := range []string{gone.File(model.SummaryFile), gone.File(model.SessionFile),
				pending.File(model.TranscriptFile), recent.File(model.TranscriptFile), live.File(model.TranscriptFile)} {
				if !m.StatOK(p) {
					t.Errorf("%s left the work tree", p)
				}
			}
			if !summariesOnly && !m.StatOK(gone.File(model.PromptsFile)) {
				t.Error("prompts.md went without keep_summaries_only")
			}
			// History keeps it, and restore brings it back.
			if _, err := m.History().Restore(ctx, "HEAD~1", want[:1]); err != nil {
				t.Fatal(err)
			}
			data, err := m.ReadFile(want[0])
			if err != nil || !bytes.Contains(data, []byte("transcript.md of aaaa-old")) {
				t.Errorf("restored %q, %v", data, err)
			}
			gitCLI(t, m.Dir, "fsck", "--full")
		})
	}
}

func TestPurge(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	e := addSession(t, m, "aaaa-secret", now, false, true)
	secret := e.File(model.TranscriptFile)

	for _, bad := range []string{"../outside.md", "/etc/passwd", filepath.Join(m.Project, "main.go"), "cairn.yaml", memory.PurgedFile, "sessions", ".git/config", ".state/x", ""} {
		if plan, err := PlanPurge(ctx, m, "", bad); err == nil {
			t.Errorf("purge %q: planned %+v, want it refused", bad, plan)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("purge %q: %q is not one line", bad, err)
		}
	}
	headBefore := memorytest.Head(t, m)
	plan, err := PlanPurge(ctx, m, "", secret)
	if err != nil || len(plan.Files) != 1 || plan.Listed {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	if memorytest.Head(t, m) != headBefore || !m.StatOK(secret) {
		t.Fatal("planning changed the memory")
	}
	cp, err := Purge(ctx, m, plan)
	if err != nil || cp == nil {
		t.Fatalf("purge: %v, %v", cp, err)
	}
	if m.StatOK(secret) {
		t.Error("the purged file is still in the work tree")
	}
	if list := m.Purged(); len(list) != 1 || list[0] != secret {
		t.Errorf("purged list %v", list)
	}
	// No rewrite: the old commit still holds it.
	if out := gitCLI(t, m.Dir, "show", headBefore+":"+secret); !strings.Contains(out, "transcript.md of aaaa-secret") {
		t.Errorf("history lost the file: %q", out)
	}
	// A write through the memory (capture appends to transcripts) is dropped.
	tx, _ := m.Begin(ctx)
	tx.Add(secret, []byte("more secret turns\n"))
	tx.Add(e.File(model.PromptsFile), []byte("a prompt\n"))
	if _, err := tx.Commit(ctx, memory.CheckpointOptions{Message: "capture"}); err != nil {
		t.Fatal(err)
	}
	tx.End()
	if m.StatOK(secret) {
		t.Error("a write brought the purged file back")
	}
	// A file put back by hand stays out of checkpoints.
	os.WriteFile(filepath.Join(m.Dir, secret), []byte("by hand\n"), 0o644)
	again, err := memory.Open(ctx, m.Dir, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.Checkpoint(ctx, memory.CheckpointOptions{Message: "hand edits"}); err != nil && err != memory.ErrNothingToDo {
		t.Fatal(err)
	}
	if out := gitCLI(t, m.Dir, "ls-files", secret); out != "" {
		t.Errorf("a checkpoint added the purged file back: %q", out)
	}
	// Purging it again changes nothing in the list.
	plan, _ = PlanPurge(ctx, again, "", secret)
	if !plan.Listed {
		t.Error("the purged path is not reported as listed")
	}
	if help := HistoryHelp(m.Dir, secret); !strings.Contains(help, "git filter-repo --invert-paths --path "+secret) {
		t.Errorf("help: %s", help)
	}
	gitCLI(t, m.Dir, "fsck", "--full")
}

// TestMigrate puts a file of every format the project has had
// (internal/migrate/testdata) in a memory and migrates it.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	fixtures, _ := filepath.Glob("../migrate/testdata/*.*")
	want := map[string]string{} // path -> "upgraded", "newer" or "same"
	for _, f := range fixtures {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(f)
		var p string
		if strings.HasPrefix(base, "session") {
			p = "sessions/" + strings.TrimSuffix(base, ".yaml") + "/session.yaml"
		} else {
			p = "core/decisions/" + base
		}
		os.MkdirAll(filepath.Join(m.Dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(m.Dir, p), data, 0o644); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.Contains(base, "-0"):
			want[p] = "upgraded"
		case strings.Contains(base, "-2-"):
			want[p] = "newer"
		default:
			want[p] = "same"
		}
	}
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "old files"}); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for p := range want {
		before[p], _ = m.ReadFile(p)
	}
	// Reading works before any migration: the old files upgrade on read,
	// the newer ones are reported and skipped.
	items, problems, err := m.List(ctx, memory.Filter{})
	if err != nil || len(items) != 3 || len(problems) != 1 || !strings.Contains(problems[0].Error(), "version 2 is newer than this cairn knows (1)") {
		t.Fatalf("list before migrate: %d items, problems %v, %v", len(items), problems, err)
	}
	res, err := Migrate(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Checkpoint == nil || len(res.Newer) != 2 || len(res.Broken) != 0 {
		t.Fatalf("migrate: %+v", res)
	}
	for _, line := range res.Newer {
		if strings.Contains(line, "\n") || !strings.Contains(line, "-2-newer") || !strings.Contains(line, "version 2") {
			t.Errorf("newer file reported as %q: want one line with the file and its version", line)
		}
	}
	upgraded := map[string]bool{}
	for _, p := range res.Upgraded {
		upgraded[p] = true
	}
	for p, what := range want {
		after, err := m.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		switch what {
		case "upgraded":
			if !upgraded[p] || !bytes.Contains(after, []byte("schema: 1")) {
				t.Errorf("%s not upgraded:\n%s", p, after)
			}
		default:
			if upgraded[p] || !bytes.Equal(after, before[p]) {
				t.Errorf("%s rewritten (%s)", p, what)
			}
		}
	}
	log := gitCLI(t, m.Dir, "log", "--format=%s", "-1")
	if !strings.HasPrefix(log, "migrate: ") {
		t.Errorf("last commit %q", log)
	}
	again, err := Migrate(ctx, m)
	if err != nil || again.Checkpoint != nil || len(again.Upgraded) != 0 || len(again.Newer) != 2 {
		t.Errorf("second migrate: %+v, %v", again, err)
	}
}

func TestGC(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	m.SetClock(func() time.Time { return now })
	for i := range 30 {
		addSession(t, m, fmt.Sprintf("s%02d-archived", i), now.Add(-time.Duration(200-i)*24*time.Hour), true, true)
	}
	m.Config.Capture.TranscriptsKeep = config.Duration(90 * 24 * time.Hour)
	log := gitCLI(t, m.Dir, "log", "--format=%H")
	res, err := GC(ctx, m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retain.Sessions != 30 || res.Repack.After.Loose != 0 || res.Repack.After.Packs != 1 || res.Repack.After.Disk >= res.Repack.Before.Disk {
		t.Errorf("gc: retain %+v repack %+v", res.Retain, res.Repack)
	}
	gitCLI(t, m.Dir, "fsck", "--full", "--strict")
	if got := gitCLI(t, m.Dir, "log", "--format=%H"); !strings.HasSuffix(got, log) {
		t.Error("history changed under gc")
	}
	// cairn still reads and checkpoints.
	it := model.NewItem(model.Fact, "Written after gc", now)
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Get(ctx, it.ID); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, m.Dir, "fsck", "--full", "--strict")
}

// TestGCConcurrentCheckpoints: checkpoints made by another process's
// Memory while gc runs (pruning every unreachable object at once, the
// riskiest setting) all survive: the repack holds the write lock.
func TestGCConcurrentCheckpoints(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	for i := range 20 {
		addSession(t, m, fmt.Sprintf("s%02d", i), now, false, true)
	}
	other, err := memory.Open(ctx, m.Dir, memory.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ids := make(chan string, 40)
	done := make(chan error, 1)
	go func() {
		defer close(ids)
		for i := range 15 {
			it := model.NewItem(model.Fact, fmt.Sprintf("Fact %d written during gc", i), time.Now())
			if _, err := other.Remember(ctx, it); err != nil {
				done <- err
				return
			}
			ids <- it.ID
		}
		done <- nil
	}()
	for range 3 {
		if _, err := GC(ctx, m, -1); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := GC(ctx, m, -1); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, m.Dir, "fsck", "--full", "--strict")
	n := 0
	for id := range ids {
		if _, err := m.Get(ctx, id); err != nil {
			t.Errorf("item %s lost: %v", id, err)
		}
		n++
	}
	if n != 15 {
		t.Errorf("%d items written", n)
	}
	if out := gitCLI(t, m.Dir, "count-objects", "-v"); !strings.Contains(out, "count: 0\n") {
		t.Errorf("loose objects left after the last gc:\n%s", out)
	}
}
