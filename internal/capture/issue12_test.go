package capture

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/ranges"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

// TestStopPayloadSecretRedacted (issue 12, item 4): when a Stop payload's
// last_assistant_message is the record (no transcript cairn may read),
// a password with punctuation in it is redacted whole: no file of the
// memory, committed or in .state, keeps any of it. Before, the redactor's
// value ended at the first byte outside base64, and "!9" survived.
func TestStopPayloadSecretRedacted(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	const pw = "Pw8UxK3mQ7vR2tZ9nL4b…!9"
	const session = "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"
	payload, _ := json.Marshal(map[string]any{
		"session_id":             session,
		"cwd":                    "/home/dev/src/tidepool",
		"hook_event_name":        "Stop",
		"last_assistant_message": "Done. The DB password is " + pw + " and the admin token is " + strings.ToUpper(pw[:20]) + "!?x%",
	})
	// The way a hook script hands it over: a queue job, run by the worker.
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Enqueue(ctx, watcher.Job{Kind: JobHook, Payload: payload}); err != nil {
		t.Fatal(err)
	}
	res, err := Drain(ctx, m, watcher.QueueOptions{}, 0)
	if err != nil || res.Done != 1 {
		t.Fatalf("drain: %+v, %v", res, err)
	}
	tr := readRepo(t, m, "sessions/"+session+"/transcript.md")
	if !strings.Contains(tr, "The DB password is [REDACTED:secret] and the admin token is [REDACTED:secret]") {
		t.Errorf("transcript.md:\n%s", tr)
	}
	// Nothing of either password anywhere in the memory but the queue,
	// which keeps the payload as it came until the job is done.
	bad := []string{"Pw8U", "nL4b", "…!9", "!?x%", "PW8U"}
	filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, p)
		if strings.HasPrefix(rel, ".git"+string(filepath.Separator)+"objects") {
			return nil // compressed; the files committed are checked above
		}
		b, _ := os.ReadFile(p)
		for _, s := range bad {
			if strings.Contains(string(b), s) && !strings.HasPrefix(rel, filepath.Join(".state", "queue")) {
				t.Errorf("%s keeps %q:\n%s", rel, s, b)
			}
		}
		return nil
	})
}

// TestRepeatedLinesDaemonMatchesIngest (issue 12, item 14): a transcript
// line whose uuid was captured already is skipped by the daemon's delta
// jobs as it is by ingest. The file repeats earlier lines (prompts among
// them) further on, as Claude Code's transcripts do; fed through growing
// transcript-delta jobs it must give the prompts.md of one ingest. Before,
// each delta was parsed with no memory of the uuids before it, so every
// repeat in a later delta was captured again.
func TestRepeatedLinesDaemonMatchesIngest(t *testing.T) {
	t.Run("one process", func(t *testing.T) { repeatedLines(t, false) })
	// Each job in a new process: the ids before a range are read from
	// the file, a few lines at a time.
	t.Run("a process a job", func(t *testing.T) {
		defer func(c *ranges.Cache) { transcripts = c }(transcripts)
		restartChunk = 700
		defer func() { restartChunk = 0 }()
		repeatedLines(t, true)
	})
}

func repeatedLines(t *testing.T, restart bool) {
	ctx := context.Background()
	lines := strings.SplitAfter(string(basicFixture(t)), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	var all []string
	all = append(all, lines[:10]...)
	all = append(all, lines[1:6]...) // a stretch repeated, its first prompt included
	all = append(all, lines[10:]...)
	all = append(all, lines[1], lines[2], lines[7]) // and single lines, at the end
	data := []byte(strings.Join(all, ""))

	// Ingest, in one pass.
	mi := testMemory(t)
	tp := followedTranscript(t, mi, data)
	one, err := Ingest(ctx, mi, tp, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// The daemon: the file grows a few lines at a time, each growth a
	// transcript-delta job the worker runs; an idle catch-up at the end.
	md := testMemory(t)
	tp = followedTranscript(t, md, nil)
	q, err := Queue(md, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var prompts int
	size := int64(0)
	for i := 0; i < len(all); i += 3 {
		chunk := strings.Join(all[i:min(i+3, len(all))], "")
		f, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(chunk)
		f.Close()
		if restart {
			transcripts = ranges.New(restartChunk)
		}
		r := watcher.Range{Path: tp, From: size, To: size + int64(len(chunk))}
		size = r.To
		if _, err := q.Enqueue(ctx, watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &r, AgentSession: basicID}); err != nil {
			t.Fatal(err)
		}
		res, err := Drain(ctx, md, watcher.QueueOptions{}, 0)
		if err != nil || res.Failed != 0 {
			t.Fatalf("drain: %+v, %v", res, err)
		}
		for _, r := range res.Results {
			prompts += r.Prompts
		}
	}
	if restart {
		transcripts = ranges.New(restartChunk)
	}
	res, err := CatchUpTranscript(ctx, md, tp, true)
	if err != nil {
		t.Fatal(err)
	}
	prompts += res.Prompts

	if prompts != one.Prompts {
		t.Errorf("prompts: %d by delta jobs, %d by ingest", prompts, one.Prompts)
	}
	a := readRepo(t, mi, "sessions/"+basicID+"/prompts.md")
	b := readRepo(t, md, "sessions/"+basicID+"/prompts.md")
	if a != b {
		t.Errorf("prompts.md differs:\ningest:\n%s\ndelta jobs:\n%s", a, b)
	}
	ta := readRepo(t, mi, "sessions/"+basicID+"/transcript.md")
	tb := readRepo(t, md, "sessions/"+basicID+"/transcript.md")
	if strings.Count(ta, "\n- `") != strings.Count(tb, "\n- `") || strings.Count(ta, "**Assistant:**") != strings.Count(tb, "**Assistant:**") {
		t.Errorf("transcript.md differs:\ningest:\n%s\ndelta jobs:\n%s", ta, tb)
	}
}

// TestDiskFullJobOneLine (issue 12, item 11): a queue job that fails
// because the disk is full is reported in one line saying what and
// where, and is not left in processing/: it is back in pending/, and a
// worker's run (WorkFor, a session start without a daemon) does not try
// it again at once. Before, the error was two errors joined (the job's,
// then that Fail could not record it), each naming the temporary file as
// well, and the job stayed in processing/ until a daemon started.
func TestDiskFullJobOneLine(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	t.Setenv("HOME", t.TempDir())
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	ctx := context.Background()
	m, _, err := memory.Init(ctx, proj, memory.Options{Identity: memory.Identity{Name: "test", Email: "test@example.com"}, Warn: func(s string) { t.Log("warn: " + s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]any{"session_id": "5e1d2c3b-eeee", "hook_event_name": "UserPromptSubmit", "prompt": strings.Repeat("word ", 40000)})
	j, err := q.Enqueue(ctx, watcher.Job{Kind: JobHook, Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(dir, "filler")
	f, _ := os.Create(filler)
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()

	res, err := Drain(ctx, m, watcher.QueueOptions{}, 0)
	if err != nil || res.Failed != 1 || len(res.Errors) != 1 {
		t.Fatalf("drain on a full disk: %+v, %v", res, err)
	}
	msg := res.Errors[0].Error()
	if strings.Contains(msg, "\n") || strings.Count(msg, "no space left on device") != 1 || strings.Contains(msg, ".tmp-") ||
		!strings.HasPrefix(msg, "job "+j.ID+" (hook): write "+m.Dir) {
		t.Errorf("error on a full disk, want one line, one path:\n%s", msg)
	}
	st, _ := q.Status(ctx)
	if st.Processing != 0 || st.Pending != 1 {
		t.Errorf("queue after the failure: %+v", st)
	}
	// A session start's run does not spin on it.
	start := time.Now()
	w, err := WorkFor(ctx, m, WorkOptions{Budget: 2 * time.Second, Grace: time.Second})
	if err != nil || w.Failed > 1 || time.Since(start) > 2*time.Second {
		t.Errorf("WorkFor on a full disk: %+v, %v, in %v", w, err, time.Since(start))
	}
	os.Remove(filler)
	res, err = Drain(ctx, m, watcher.QueueOptions{}, 0)
	if err != nil || res.Done != 1 {
		t.Errorf("drain with space again: %+v, %v", res, err)
	}
}

// restartChunk is how much of a transcript a Cache made for a new
// process in these tests reads at a time before a range (0: ranges.New's
// default).
var restartChunk int64
