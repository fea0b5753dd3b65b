package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/resume"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// fixtures are the sample transcripts shared by the repository's packages.
const fixtures = "../../testdata/transcripts"

// testMemory makes a memory in a new project, with a home folder of its
// own (for the transcript globs).
func testMemory(t testing.TB) *memory.Memory { return memorytest.New(t) }

func headOf(t testing.TB, m *memory.Memory) string { return memorytest.Head(t, m) }

func readRepo(t testing.TB, m *memory.Memory, p string) string {
	t.Helper()
	b, err := m.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fixture copies a sample transcript into dir (so that tests may change
// it) and returns the copy's path.
func fixture(t testing.TB, rel, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, rel))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, filepath.Base(rel))
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// basicID is the session of the fixture claude/basic.jsonl.
const basicID = "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"

// followedTranscript writes data as the transcript of session basicID
// where cairn follows Claude Code's transcripts for m's project, and
// returns its path.
func followedTranscript(t testing.TB, m *memory.Memory, data []byte) string {
	t.Helper()
	dir := filepath.Join(os.Getenv("HOME"), ".claude", "projects", follow.ClaudeProjectName(m.Project))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tp := filepath.Join(dir, basicID+".jsonl")
	if err := os.WriteFile(tp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return tp
}

// basicFixture returns the fixture claude/basic.jsonl.
func basicFixture(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, "claude/basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestIngestFixtures(t *testing.T) {
	tests := []struct {
		file, session, agent string
		prompts              int
		want                 []string // in transcript.md or observations.md
	}{
		{"claude/basic.jsonl", "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14", model.AgentClaudeCode, 2,
			[]string{"`Bash: go test -race -count=20 ./internal/queue/` → exit 0", "test `go test -race -count=20 ./internal/queue/` → passed", "changed `internal/queue/retry_test.go` (Edit)"}},
		{"claude/parallel-fail.jsonl", "8b2e4d61-0a9f-4c37-b5e8-6d1f3a7c9e20", model.AgentClaudeCode, 2,
			[]string{"**failed** (exit 1)", "fixed `Bash: go test ./cmd/tidepool/` after changing `cmd/tidepool/status_test.go`", "**interrupted**"}},
		// /model and /compact are commands: kept in transcript.md, not prompts.
		{"claude/compact.jsonl", "c4d7e9f1-2b3a-4c5d-8e6f-7a8b9c0d1e2f", model.AgentClaudeCode, 2,
			[]string{"_Context compacted", "**Compaction summary:**", "_Command: `/model`._", "_Command: `/compact keep the backoff decisions`._"}},
		{"claude/sidechain.jsonl", "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d", model.AgentClaudeCode, 2,
			[]string{"### Subagent", "(subagent)"}},
		{"claude/messy.jsonl", "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b", model.AgentClaudeCode, 2, []string{"read `README.md`"}},
		{"codex/rollout-2025-12-02T15-20-01-0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6.jsonl", "0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6", model.AgentCodex, 2,
			[]string{"`shell: make lint` → **failed** (exit 2)", "fixed `shell: make lint`"}},
		{"chat/session.jsonl", "chat-2025-12-03-standup", model.AgentChat, 2, []string{"mutex"}},
		{"markdown/headings.md", "2d9e6b1a-4c3f-4e8d-9a7b-6c5d4e3f2a1b", model.AgentMarkdown, 2, []string{"full jitter"}},
		{"markdown/bold.md", "bold", model.AgentMarkdown, 2, []string{"PostgreSQL"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m := testMemory(t)
			ctx := context.Background()
			name := fixture(t, tt.file, t.TempDir())
			res, err := Ingest(ctx, m, name, IngestOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Session != tt.session || res.Agent != tt.agent || !res.Created || res.Commit == "" || res.Segments != 1 {
				t.Errorf("result = %+v", res.CaptureResult)
			}
			if res.Prompts != tt.prompts {
				t.Errorf("prompts = %d, want %d", res.Prompts, tt.prompts)
			}
			e, err := m.Sessions().Get(ctx, tt.session)
			if err != nil {
				t.Fatal(err)
			}
			if e.Dir != "sessions/"+tt.session || e.Prompts != tt.prompts || e.Status != model.StatusActive || !model.ValidID(e.MemorySession) {
				t.Errorf("session = %+v", e.Session)
			}
			if e.Summarized.Turns != e.Turns || e.Summarized.Segments != 1 {
				t.Errorf("summarized %+v of %d turns", e.Summarized, e.Turns)
			}
			logs := readRepo(t, m, e.File(model.TranscriptFile)) + readRepo(t, m, e.File(model.ObservationsFile))
			for _, w := range tt.want {
				if !strings.Contains(logs, w) {
					t.Errorf("logs lack %q:\n%s", w, logs)
				}
			}
			if sum := readRepo(t, m, e.File(model.SummaryFile)); !strings.Contains(sum, "## Segment 1") {
				t.Errorf("summary.md:\n%s", sum)
			}
			if p := readRepo(t, m, e.File(model.PromptsFile)); strings.Count(p, "\n## ") != tt.prompts {
				t.Errorf("prompts.md:\n%s", p)
			}
			log, err := m.History().Log(ctx, memory.LogOptions{N: 1})
			if err != nil || log[0].Session != tt.session || log[0].Event != "ingest" {
				t.Errorf("log = %+v, %v", log, err)
			}

			// The same file again: nothing new, no commit.
			head := headOf(t, m)
			again, err := Ingest(ctx, m, name, IngestOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Commit != "" || again.Events != 0 || again.Skipped != res.Events || headOf(t, m) != head {
				t.Errorf("second ingest = %+v", again.CaptureResult)
			}
			if st, _ := m.Status(ctx); len(st) != 0 {
				t.Errorf("work tree changed: %v", st)
			}
		})
	}
}

// A transcript that grows is captured in pieces, each event once.
func TestIngestGrowing(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	full, err := os.ReadFile(filepath.Join(fixtures, "claude/parallel-fail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "8b2e4d61-0a9f-4c37-b5e8-6d1f3a7c9e20.jsonl")
	lines := strings.SplitAfter(string(full), "\n")
	half := strings.Join(lines[:len(lines)/2], "")
	os.WriteFile(name, []byte(half), 0o644)
	r1, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(name, full, 0o644)
	r2, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Created || r2.Events == 0 || r2.Commit == "" {
		t.Errorf("second part = %+v", r2.CaptureResult)
	}
	// One pass over the whole file gives as many prompts and tool lines.
	m2 := testMemory(t)
	one, err := Ingest(ctx, m2, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Prompts+r2.Prompts != one.Prompts {
		t.Errorf("prompts %d + %d, in one pass %d", r1.Prompts, r2.Prompts, one.Prompts)
	}
	id := "8b2e4d61-0a9f-4c37-b5e8-6d1f3a7c9e20"
	a := readRepo(t, m, "sessions/"+id+"/"+model.TranscriptFile)
	b := readRepo(t, m2, "sessions/"+id+"/"+model.TranscriptFile)
	if strings.Count(a, "\n- `") != strings.Count(b, "\n- `") {
		t.Errorf("tool lines: in pieces\n%s\nin one pass\n%s", a, b)
	}
}

func TestIngestBadFiles(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	dir := t.TempDir()
	head := headOf(t, m)
	bad := map[string]string{
		"binary.jsonl":  "\x00\x01\x02\x03",
		"notes.txt":     "just some notes\nnothing more\n",
		"empty.jsonl":   "",
		"garbage.jsonl": "{\"type\":\"user\",\"sessionId\":\"x\",\"message\":\n{oops\n",
	}
	for name, content := range bad {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := Ingest(ctx, m, p, IngestOptions{}); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := Ingest(ctx, m, filepath.Join(dir, "missing.jsonl"), IngestOptions{}); err == nil {
		t.Error("a missing file was ingested")
	}
	if headOf(t, m) != head {
		t.Error("a bad file made a commit")
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "sessions")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sessions/ exists after bad files: %v", err)
	}
}

func TestIngestTruncatedLastLine(t *testing.T) {
	m := testMemory(t)
	data, _ := os.ReadFile(filepath.Join(fixtures, "claude/basic.jsonl"))
	data = data[:len(data)-40] // the last line loses its end
	name := filepath.Join(t.TempDir(), "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14.jsonl")
	os.WriteFile(name, data, 0o644)
	res, err := Ingest(context.Background(), m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.BadLines) != 1 || !strings.Contains(res.BadLines[0], "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14.jsonl:") || res.Prompts != 2 {
		t.Errorf("bad lines %q, prompts %d", res.BadLines, res.Prompts)
	}
}

func TestSessionIDsRefused(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	head := headOf(t, m)
	name := fixture(t, "claude/basic.jsonl", t.TempDir())
	for _, id := range []string{"../escape", "a/b", "..", ".hidden", "-flag", "x\x00y", strings.Repeat("a", 200), "/abs"} {
		if _, err := Ingest(ctx, m, name, IngestOptions{Session: id}); !errors.Is(err, transcript.ErrInvalidSessionID) {
			t.Errorf("ingest --session %q: err = %v", id, err)
		}
		if _, err := Capture(ctx, m, Batch{Session: id, Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "hi"}}}); !errors.Is(err, transcript.ErrInvalidSessionID) {
			t.Errorf("capture %q: err = %v", id, err)
		}
		if _, err := m.Sessions().Get(ctx, id); err == nil {
			t.Errorf("session %q found", id)
		}
		if _, err := m.Sessions().SetVariables(ctx, id, map[string]string{"a": "b"}); err == nil {
			t.Errorf("set on %q worked", id)
		}
	}
	payload, _ := os.ReadFile("../../testdata/hooks/bad/traversal-session.json")
	if _, err := CaptureHook(ctx, m, payload); !errors.Is(err, transcript.ErrInvalidSessionID) || !IsPermanent(err) {
		t.Errorf("traversal hook: err = %v", err)
	}
	if headOf(t, m) != head {
		t.Error("a refused id made a commit")
	}
	filepath.Walk(filepath.Dir(m.Dir), func(p string, fi os.FileInfo, err error) error {
		if strings.Contains(p, "escape") || strings.Contains(p, ".ssh") {
			t.Errorf("wrote %s", p)
		}
		return nil
	})
}

// failing is a summarizer that always fails, as a misconfigured provider
// behind no fallback would.
type failing struct{}

func (failing) Summarize(context.Context, summarize.Request) (summarize.Result, error) {
	return summarize.Result{}, errors.New("no model today")
}

// fixed proposes the same candidates for every segment.
type fixed []summarize.Candidate

func (f fixed) Summarize(_ context.Context, req summarize.Request) (summarize.Result, error) {
	return summarize.Result{Summary: fmt.Sprintf("## Segment %d\n\nsomething happened", req.Segment.Index), Items: f, Provider: "fixed"}, nil
}

func TestSegments(t *testing.T) {
	m := testMemory(t)
	m.Config.Capture.SegmentTurns = 4
	ctx := context.Background()
	// Hook events one at a time: a segment of 4 turns once the next prompt
	// starts, the rest at the session's end.
	for i := 0; i < 10; i++ {
		res, err := Capture(ctx, m, Batch{
			Session: "s1", Key: fmt.Sprintf("k%d", i), Trigger: "prompt",
			Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: fmt.Sprintf("step %d", i), Meta: transcript.Meta{Time: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if i > 0 && i%4 == 0 {
			want = 1
		}
		if res.Segments != want || res.Prompts != 1 {
			t.Errorf("turn %d: %+v", i, res)
		}
	}
	res, err := Capture(ctx, m, Batch{Session: "s1", Key: "stop", Trigger: "stop",
		Events: []transcript.Event{{Kind: transcript.KindStop, Text: "done with the steps"}}, Summarizer: failing{}})
	if err != nil || res.Segments != 0 {
		t.Fatalf("a Stop cuts no segment: %+v, %v", res, err)
	}
	res, err = Capture(ctx, m, Batch{Session: "s1", Key: "end", Trigger: "session-end", Final: true,
		Events: []transcript.Event{{Kind: transcript.KindSessionEnd}}, Summarizer: failing{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Segments != 1 || res.Fallback == "" || res.Provider != "extractive" {
		t.Errorf("stop: %+v", res)
	}
	e, _ := m.Sessions().Get(ctx, "s1")
	if e.Summarized.Segments != 3 || e.Summarized.Turns != 11 || e.Turns != 11 || e.Prompts != 10 {
		t.Errorf("session: %+v", e.Session)
	}
	sum := readRepo(t, m, e.File(model.SummaryFile))
	for i := 1; i <= 3; i++ {
		if strings.Count(sum, fmt.Sprintf("## Segment %d", i)) != 1 {
			t.Errorf("summary.md lacks segment %d once:\n%s", i, sum)
		}
	}
	// Only the agent's last message stays, for a prompt of a resumed
	// session to answer.
	if left, err := m.Sessions().LoadPending("s1", e.Summarized.Through); err != nil || len(left) != 1 || !left[0].Context {
		t.Errorf("pending turns left: %+v, %v", left, err)
	}
	// A key seen before is skipped.
	res, err = Capture(ctx, m, Batch{Session: "s1", Key: "k3", Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "step 3"}}})
	if err != nil || res.Commit != "" || res.Skipped != 1 {
		t.Errorf("repeated key: %+v, %v", res, err)
	}
}

func TestConsolidate(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	capture := func(session string, c ...summarize.Candidate) *CaptureResult {
		t.Helper()
		res, err := Capture(ctx, m, Batch{Session: session, Key: fmt.Sprint(c), Final: true, Trigger: "stop",
			Events:     []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "decide"}},
			Summarizer: fixed(c)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := capture("s1",
		summarize.Candidate{Kind: summarize.Decision, Title: "Use PostgreSQL for the job queue", Body: "PostgreSQL is already deployed.", Importance: 0.8},
		summarize.Candidate{Kind: summarize.Fact, Title: "The API listens on port 8080", Body: "The API listens on port 8080.", Importance: 0.5})
	if len(res.Items) != 2 || res.Items[0].Action != "added" {
		t.Fatalf("items: %+v", res.Items)
	}
	first := res.Items[0]

	// The same decision again, worded a little differently: confirmed.
	res = capture("s2", summarize.Candidate{Kind: summarize.Decision, Title: "Using PostgreSQL for the job queues", Body: "PostgreSQL is deployed already.", Importance: 0.9})
	if len(res.Items) != 1 || res.Items[0].Action != "confirmed" || res.Items[0].ID != first.ID {
		t.Fatalf("confirm: %+v", res.Items)
	}
	e, err := m.Get(ctx, first.ID)
	if err != nil || e.Item.Importance != 0.9 || e.Item.Session != "s1" {
		t.Errorf("confirmed item: %+v, %v", e, err)
	}
	// A fact of another kind with a similar title is not a match.
	res = capture("s2", summarize.Candidate{Kind: summarize.Pattern, Title: "Use PostgreSQL for the job queue", Body: "a pattern"})
	if res.Items[0].Action != "added" {
		t.Errorf("other kind: %+v", res.Items)
	}
	// A new decision on the same subject supersedes the old one.
	res = capture("s3", summarize.Candidate{Kind: summarize.Decision, Title: "Use PostgreSQL for the job queue with SKIP LOCKED", Body: "Workers claim jobs with SELECT FOR UPDATE SKIP LOCKED; no advisory locks.", Importance: 0.7})
	if len(res.Items) != 1 || res.Items[0].Action != "superseded" || res.Items[0].Supersedes != first.ID {
		t.Fatalf("supersede: %+v", res.Items)
	}
	if _, err := m.Get(ctx, first.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("superseded item still there: %v", err)
	}
	data := readRepo(t, m, res.Items[0].Path)
	if !strings.Contains(data, "supersedes: "+first.ID) || !strings.Contains(data, "importance: 0.9") {
		t.Errorf("new item:\n%s", data)
	}
	it, err := model.Parse(res.Items[0].Path, []byte(data))
	if err != nil || it.Session != "s3" {
		t.Errorf("parse: %v %+v", err, it)
	}
	// An unrelated decision is new.
	res = capture("s3", summarize.Candidate{Kind: summarize.Decision, Title: "Deploy on Fridays only with a second reviewer", Body: "x"})
	if res.Items[0].Action != "added" {
		t.Errorf("unrelated: %+v", res.Items)
	}
	items, _, _ := m.List(ctx, memory.Filter{Kind: model.Decision})
	if len(items) != 2 {
		t.Errorf("%d decisions, want 2", len(items))
	}
}

// A sentence read as a decision and as a fact becomes one core item.
func TestConsolidateTwinKinds(t *testing.T) {
	m := testMemory(t)
	const title = "The switch is on OCaml 5.1.1 with eio 1.1"
	res, err := Capture(context.Background(), m, Batch{Session: "s1", Key: "k1", Final: true, Trigger: "stop",
		Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "why does it hang"}},
		Summarizer: fixed([]summarize.Candidate{
			{Kind: summarize.Decision, Title: title, Importance: 0.6},
			{Kind: summarize.Fact, Title: title, Importance: 0.55},
		})})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 1 || res.Items[0].Kind != model.Decision {
		t.Errorf("items: %+v, want the decision alone", res.Items)
	}
}

func TestArchive(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	m.SetClock(func() time.Time { return now })
	for _, id := range []string{"old", "new"} {
		if _, err := Capture(ctx, m, Batch{Session: id, Key: "k", Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "hello " + id}}}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(5 * 24 * time.Hour)
	}
	// "old" was last seen 10 days ago, "new" 5 days ago.
	res, err := m.Sessions().ArchiveInactive(ctx, 7*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moved) != 1 || res.Moved[0].ID != "old" || res.Moved[0].Dir != "archive/2026/03/old" || res.Checkpoint == nil {
		t.Fatalf("archive: %+v", res)
	}
	e, err := m.Sessions().Get(ctx, "old")
	if err != nil || e.Status != model.StatusArchived || !e.Archived() {
		t.Fatalf("archived session: %+v, %v", e, err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "sessions", "old")); !errors.Is(err, os.ErrNotExist) {
		t.Error("sessions/old is still there")
	}
	list, _, _ := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusArchived})
	if len(list) != 1 || list[0].ID != "old" {
		t.Errorf("archived list: %v", list)
	}
	items, _, _ := m.Sessions().List(ctx, memory.SessionFilter{})
	if len(items) != 2 {
		t.Errorf("all sessions: %d", len(items))
	}
	if again, err := m.Sessions().ArchiveInactive(ctx, 7*24*time.Hour); err != nil || len(again.Moved) != 0 {
		t.Errorf("second pass: %+v, %v", again, err)
	}
	if st, _ := m.Status(ctx); len(st) != 0 {
		t.Errorf("work tree changed: %v", st)
	}
	// New events bring it back.
	cr, err := Capture(ctx, m, Batch{Session: "old", Key: "k2", Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "back again"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !cr.Reactivated || cr.Dir != "sessions/old" {
		t.Errorf("reactivated: %+v", cr)
	}
	if p := readRepo(t, m, "sessions/old/prompts.md"); !strings.Contains(p, "hello old") || !strings.Contains(p, "back again") || strings.Count(p, "# Prompts") != 1 {
		t.Errorf("prompts.md:\n%s", p)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "archive")); !errors.Is(err, os.ErrNotExist) {
		t.Error("archive/ left behind empty")
	}
	if st, _ := m.Status(ctx); len(st) != 0 {
		t.Errorf("work tree changed: %v", st)
	}
}

func TestSessionCommands(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	if _, err := Capture(ctx, m, Batch{Session: "abcdef-1", Key: "k", Final: true, Summarizer: fixed{
		{Kind: summarize.Decision, Title: "Ship the queue behind a flag", Body: "Until the backfill is done.", Importance: 0.8},
		{Kind: summarize.Pattern, Title: "Wrap errors with the path", Body: "fmt.Errorf(\"%s: %w\", path, err)", Importance: 0.6},
		{Kind: summarize.Fact, Title: "CI runs on two cores", Body: "Keep tests light."},
	}, Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "plan the rollout"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Capture(ctx, m, Batch{Session: "other-2", Key: "k", Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Sessions().SetVariables(ctx, "abcdef", map[string]string{"branch": "feat/queue", "token": "ghp_" + "VIdVuddLEG62Hkd9Gf2leMeR3pzh84KpLMcN"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Sessions().SetProgress(ctx, "abcdef-1", model.Progress{Done: 3, Total: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Sessions().SetProgress(ctx, "abcdef-1", model.Progress{Done: 8, Total: 7}); err == nil {
		t.Error("progress 8/7 accepted")
	}
	e, _ := m.Sessions().Get(ctx, "abcdef-1")
	if e.Variables["branch"] != "feat/queue" || strings.Contains(e.Variables["token"], "VIdVudd") || e.Progress != (model.Progress{Done: 3, Total: 7}) {
		t.Errorf("session: %+v", e.Session)
	}
	// Unknown keys added by hand survive rewrites.
	yml := readRepo(t, m, e.File(model.SessionFile))
	os.WriteFile(filepath.Join(m.Dir, e.File(model.SessionFile)), []byte(yml+"ticket: OPS-42\n"), 0o644)
	if _, err := m.Sessions().SetStatus(ctx, "abcdef-1", model.StatusSuspended); err != nil {
		t.Fatal(err)
	}
	if yml = readRepo(t, m, e.File(model.SessionFile)); !strings.Contains(yml, "ticket: OPS-42") || !strings.Contains(yml, "status: suspended") {
		t.Errorf("session.yaml:\n%s", yml)
	}

	text, err := resume.Context(ctx, m, "abcdef-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Session abcdef-1", "Progress: 3 of 7", "`branch`: feat/queue", "plan the rollout", "Ship the queue behind a flag", "## Summary"} {
		if !strings.Contains(text, want) {
			t.Errorf("resume lacks %q:\n%s", want, text)
		}
	}

	res, err := memsync.Share(ctx, m, "abcdef-1", "other-2", memsync.ShareDecisions)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 1 || res.Checkpoint == nil {
		t.Fatalf("share: %+v", res)
	}
	got, err := m.Get(ctx, res.Items[0].ID)
	if err != nil || got.Item.Confidence != 0.8 || got.Item.Session != "other-2" || got.Item.Title != "Ship the queue behind a flag" {
		t.Errorf("shared: %+v, %v", got.Item, err)
	}
	if data := readRepo(t, m, got.Path); !strings.Contains(data, "shared_from: abcdef-1") {
		t.Errorf("no provenance:\n%s", data)
	}
	res, err = memsync.Share(ctx, m, "abcdef-1", "other-2", memsync.ShareDecisions)
	if err != nil || len(res.Items) != 0 || res.Skipped != 1 {
		t.Errorf("share again: %+v, %v", res, err)
	}
	res, err = memsync.Share(ctx, m, "abcdef-1", "other-2", memsync.ShareFull)
	if err != nil || len(res.Items) != 2 || res.Skipped != 1 {
		t.Errorf("share full: %+v, %v", res, err)
	}
	if _, err := memsync.Share(ctx, m, "abcdef-1", "nobody", memsync.ShareFull); !errors.Is(err, model.ErrNoSession) {
		t.Errorf("share to a missing session: %v", err)
	}
	if st, _ := m.Status(ctx); len(st) != 0 {
		t.Errorf("work tree changed: %v", st)
	}
}

func TestResumeBounded(t *testing.T) {
	m := testMemory(t)
	m.Config.Capture.SegmentTurns = 3
	ctx := context.Background()
	var events []transcript.Event
	for i := 0; i < 200; i++ {
		events = append(events, transcript.Event{ID: fmt.Sprint(i), Meta: transcript.Meta{Offset: int64(i)}, Kind: transcript.KindUserPrompt,
			Text: strings.Repeat(fmt.Sprintf("prompt %d says a lot about the work. ", i), 20)})
	}
	if _, err := Capture(ctx, m, Batch{Session: "big", Source: "/x/big.jsonl", To: 300, Events: events, Final: true}); err != nil {
		t.Fatal(err)
	}
	text, err := resume.Context(ctx, m, "big")
	if err != nil {
		t.Fatal(err)
	}
	if len(text) > resume.MaxChars || !strings.Contains(text, "## Summary") || !strings.Contains(text, "prompt 199") || !strings.Contains(text, "earlier section") {
		t.Errorf("resume is %d chars:\n%s", len(text), text)
	}
}

func TestCaptureHooks(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"
	for _, name := range []string{"session-start", "user-prompt-submit", "post-tool-use-bash", "post-tool-use-failure-bash", "post-tool-use-bash", "stop", "session-end"} {
		payload, err := os.ReadFile("../../testdata/hooks/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := CaptureHook(ctx, m, payload); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	e, err := m.Sessions().Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != model.StatusSuspended || e.Prompts != 1 || e.Summarized.Segments != 1 || e.Project != "/home/dev/src/tidepool" {
		t.Errorf("session: %+v", e.Session)
	}
	tr := readRepo(t, m, e.File(model.TranscriptFile))
	if strings.Count(tr, "go test -race -count=20") != 1 || !strings.Contains(tr, "**failed** (exit 1)") || !strings.Contains(tr, "_Session ended (prompt_input_exit)._") {
		t.Errorf("transcript.md:\n%s", tr)
	}
	log, _ := m.History().Log(ctx, memory.LogOptions{N: 1})
	if log[0].Event != "session-end" {
		t.Errorf("last event %q", log[0].Event)
	}
	// The summarizer's own sessions are not captured.
	own := fmt.Sprintf(`{"session_id":"s2","hook_event_name":"UserPromptSubmit","prompt":"x","cwd":%q}`, filepath.Join(m.Dir, ".state", "summarize", "claude"))
	res, err := CaptureHook(ctx, m, []byte(own))
	if err != nil || res.Ignored == "" || m.Sessions().Exists("s2") {
		t.Errorf("summarizer hook: %+v, %v", res, err)
	}
}

// A SessionStart hook can come before Claude Code has written the
// transcript's first line whole (seen with 2.1.197): the job is tried
// again, not given up, and once the line is there it is captured. A file
// whose lines are no transcript is given up.
func TestCaptureHookTranscriptBeingWritten(t *testing.T) {
	ctx := context.Background()
	data := basicFixture(t)
	for _, head := range []string{"", `{"type":"queue-operation","operation":"enq`} {
		m := testMemory(t)
		tp := followedTranscript(t, m, []byte(head))
		hook := []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/tidepool","hook_event_name":"SessionStart","source":"startup"}`, basicID, tp))
		_, err := CaptureHook(ctx, m, hook)
		if err == nil || IsPermanent(err) || !strings.Contains(err.Error(), "still being written") {
			t.Fatalf("first line %q: err = %v, want one to try again", head, err)
		}
		os.WriteFile(tp, data, 0o644)
		if res, err := CaptureHook(ctx, m, hook); err != nil || res.Prompts == 0 {
			t.Fatalf("first line written: %+v, %v", res, err)
		}
	}
	m := testMemory(t)
	tp := followedTranscript(t, m, []byte("no transcript here\nnor here\n"))
	hook := []byte(fmt.Sprintf(`{"session_id":"other","transcript_path":%q,"cwd":"/home/dev/src/tidepool","hook_event_name":"SessionStart","source":"startup"}`, tp))
	if _, err := CaptureHook(ctx, m, hook); !IsPermanent(err) {
		t.Errorf("a file of other lines: err = %v, want a permanent one", err)
	}
}

// A hook that names a transcript cairn may read captures the transcript,
// from where the session's capture of it stopped.
func TestCaptureHookTranscript(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := basicID
	data := basicFixture(t)
	lines := strings.SplitAfter(string(data), "\n")
	tp := followedTranscript(t, m, []byte(strings.Join(lines[:6], "")))
	hook := func(event string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/tidepool","hook_event_name":%q,"prompt":"ignored: the transcript says it"}`, id, tp, event))
	}
	res, err := CaptureHook(ctx, m, hook("UserPromptSubmit"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Events == 0 || res.Prompts != 1 || res.Segments != 0 {
		t.Errorf("prompt hook: %+v", res)
	}
	os.WriteFile(tp, data, 0o644)
	res, err = CaptureHook(ctx, m, hook("Stop"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Prompts != 1 || res.Segments != 0 || res.Skipped != 0 {
		t.Errorf("stop hook: %+v", res)
	}
	res, err = CaptureHook(ctx, m, hook("Stop"))
	if err != nil || res.Commit != "" {
		t.Errorf("stop again: %+v, %v", res, err)
	}
	res, err = CaptureHook(ctx, m, hook("SessionEnd"))
	if err != nil || res.Segments != 1 || res.Events != 0 {
		t.Errorf("session end: %+v, %v", res, err)
	}
	e, _ := m.Sessions().Get(ctx, id)
	if p := readRepo(t, m, e.File(model.PromptsFile)); strings.Contains(p, "ignored") || strings.Count(p, "\n## ") != 2 {
		t.Errorf("prompts.md:\n%s", p)
	}
	// A transcript of the summarizer's own claude is not read.
	own := filepath.Join(m.Dir, ".state", "summarize", "claude", "projects", "x", "s9.jsonl")
	os.MkdirAll(filepath.Dir(own), 0o755)
	os.WriteFile(own, data, 0o644)
	res, err = Capture(ctx, m, Batch{Session: "s9", Source: own, Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "x"}}})
	if err != nil || res.Ignored == "" || m.Sessions().Exists("s9") {
		t.Errorf("summarizer transcript: %+v, %v", res, err)
	}
	if follow.Allowed(m, own) || !follow.Allowed(m, tp) || follow.Allowed(m, "/etc/passwd") {
		t.Error("follow.Allowed")
	}
}

// A transcript caught up while its writer is busy holds back an open
// message; a final catch-up, when the file is idle, takes it.
func TestCatchUpTranscript(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	tp := followedTranscript(t, m, basicFixture(t))
	busy, err := CatchUpTranscript(ctx, m, tp, false)
	if err != nil {
		t.Fatal(err)
	}
	idle, err := CatchUpTranscript(ctx, m, tp, true)
	if err != nil {
		t.Fatal(err)
	}
	if busy.Events == 0 || idle.Events == 0 || busy.Events+idle.Events != 15 || busy.Segments != 0 || idle.Segments != 0 {
		t.Errorf("busy %+v, idle %+v", busy, idle)
	}
	if again, err := CatchUpTranscript(ctx, m, tp, true); err != nil || again.Commit != "" {
		t.Errorf("again: %+v, %v", again, err)
	}
	if _, err := CatchUpTranscript(ctx, m, "/etc/passwd", true); !IsPermanent(err) {
		t.Errorf("/etc/passwd: %v", err)
	}
}

// A job that starts past where the session's committed capture of its
// transcript stopped (its start was read from a session.yaml that a batch
// dying in another process had moved on) must not skip the lines between.
func TestCatchUpRefusesGap(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	full, err := os.ReadFile(filepath.Join(fixtures, "claude/parallel-fail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	id := "8b2e4d61-0a9f-4c37-b5e8-6d1f3a7c9e20"
	dir := filepath.Join(os.Getenv("HOME"), ".claude", "projects", follow.ClaudeProjectName(m.Project))
	os.MkdirAll(dir, 0o755)
	name := filepath.Join(dir, id+".jsonl")
	lines := strings.SplitAfter(string(full), "\n")
	half := strings.Join(lines[:len(lines)/2], "")
	os.WriteFile(name, []byte(half), 0o644)
	if _, err := Ingest(ctx, m, name, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(name, full, 0o644)
	late := int64(len(half) + len(lines[len(lines)/2]))

	_, err = Capture(ctx, m, Batch{Session: id, Source: name, From: late, To: int64(len(full))})
	var gap *gapError
	if !errors.As(err, &gap) || gap.committed > int64(len(half)) {
		t.Fatalf("Capture of a batch past the committed point: %v, want a gapError", err)
	}
	if _, err := catchUp(ctx, m, name, id, catchUpOptions{trigger: "transcript", from: late, to: int64(len(full))}); err != nil {
		t.Fatal(err)
	}
	m2 := testMemory(t)
	if _, err := Ingest(ctx, m2, name, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	p := "sessions/" + id + "/" + model.PromptsFile
	if a, b := readRepo(t, m, p), readRepo(t, m2, p); a != b {
		t.Errorf("prompts after a late job:\n%s\nin one pass:\n%s", a, b)
	}
}

// An event a newer Claude Code sends is no failure: its transcript is
// caught up when it names one cairn follows, and it is ignored otherwise.
// A payload without an event name is not a hook payload and fails.
func TestCaptureUnknownHook(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := basicID
	tp := followedTranscript(t, m, basicFixture(t))

	res, err := CaptureHook(ctx, m, []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"hook_event_name":"TeleportAgent"}`, id, tp)))
	if err != nil || res.Events == 0 || res.Commit == "" {
		t.Errorf("unknown event naming a transcript: %+v, %v", res, err)
	}
	res, err = CaptureHook(ctx, m, []byte(`{"session_id":"5e1d2c3b","hook_event_name":"TeleportAgent","extra":{"x":1}}`))
	if err != nil || !strings.Contains(res.Ignored, "TeleportAgent") || res.Commit != "" {
		t.Errorf("unknown event alone: %+v, %v", res, err)
	}
	if _, err := CaptureHook(ctx, m, []byte(`{"session_id":"5e1d2c3b"}`)); !IsPermanent(err) {
		t.Errorf("no event name: %v, want a permanent error", err)
	}
}

// A session whose last hooks never wrote (the agent exited first) is
// ended by the next session start: the held-back last turn, a summary of
// what was pending and the suspended status, once. A transcript still
// being written is a live session's, and is left alone; one written a
// moment ago and still since is the session that just exited (claude -p,
// then the next start at once), ended after a wait.
func TestCatchUpEnded(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	tp := followedTranscript(t, m, basicFixture(t))
	if r, err := CatchUpTranscript(ctx, m, tp, false); err != nil || r.Segments != 0 {
		t.Fatalf("busy catch-up: %+v, %v", r, err)
	}
	if n, err := CatchUpEnded(ctx, m, basicID); err != nil || n != 0 {
		t.Errorf("the starting session itself is left alone: %d, %v", n, err)
	}

	// Live: the file changes while the start looks at it. The start
	// leaves it at the first change it sees, well within endQuiet.
	touch := func(p string) {
		t.Helper()
		now := time.Now()
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(30 * time.Millisecond):
				now := time.Now()
				os.Chtimes(tp, now, now)
			}
		}
	}()
	touch(tp)
	live, cancel := context.WithTimeout(ctx, 3*time.Second)
	began := time.Now()
	n, err := CatchUpEnded(live, m, "another-session")
	took := time.Since(began)
	cancel()
	close(stop)
	<-done
	if err != nil || n != 0 {
		t.Errorf("a transcript being written is live: %d, %v", n, err)
	}
	if took >= endQuiet {
		t.Errorf("the start waited %v on a live transcript", took)
	}

	// Just exited: written a moment ago, still since.
	touch(tp)
	now := time.Now()
	n, err = CatchUpEnded(ctx, m, "another-session")
	if err != nil || n != 1 {
		t.Fatalf("CatchUpEnded: %d, %v", n, err)
	}
	if waited := time.Since(now); waited < endQuiet {
		t.Errorf("ended %v after its last write, before it was still for %v", waited, endQuiet)
	}
	e, err := m.Sessions().Get(ctx, basicID)
	if err != nil || e.Summarized.Segments != 1 || e.Status != model.StatusSuspended {
		t.Fatalf("session after: %+v, %v", e.Session, err)
	}
	if n, err := CatchUpEnded(ctx, m, "another-session"); err != nil || n != 0 {
		t.Errorf("again: %d, %v", n, err)
	}

	// A deadline sooner than the wait leaves it for the next start.
	m2 := testMemory(t)
	tp2 := followedTranscript(t, m2, basicFixture(t))
	if _, err := CatchUpTranscript(ctx, m2, tp2, false); err != nil {
		t.Fatal(err)
	}
	touch(tp2)
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	began = time.Now()
	if n, err := CatchUpEnded(short, m2, "another-session"); err != nil || n != 0 {
		t.Errorf("past the deadline: %d, %v", n, err)
	}
	if took := time.Since(began); took >= endQuiet {
		t.Errorf("the start went on %v past its deadline", took)
	}
	if e, err := m2.Sessions().Get(ctx, basicID); err != nil || e.Status != model.StatusActive {
		t.Errorf("left for the next start, the session is %+v, %v", e.Session, err)
	}
}

// TestPickAcrossSegments: a prompt that starts a segment and picks from
// what the agent offered at the end of the one before ("go with the
// table") is summarised with the option it picks, also when the session
// ended in between and was resumed (claude -p --resume does that for
// every prompt).
func TestPickAcrossSegments(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	at := func(i int) transcript.Meta { return transcript.Meta{Time: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)} }
	offer := "Stripe redelivers events it thinks failed. What I'd do:\n\n" +
		"1. A `stripe_events` table with a unique index on the event id, so a redelivery is a no-op.\n" +
		"2. A Redis SETNX key per event id with a TTL of a few days.\n\nWhich do you prefer?"
	batches := [][]transcript.Event{
		{{Kind: transcript.KindUserPrompt, Text: "Customers get two receipts for one invoice. Why?", Meta: at(0)},
			{Kind: transcript.KindAssistantText, Text: offer, Meta: at(1)}},
		{{Kind: transcript.KindUserPrompt, Text: "Redis gets wiped on every deploy. Go with the table.", Meta: at(2)},
			{Kind: transcript.KindAssistantText, Text: "Done: the migration and the model are in.", Meta: at(3)}},
	}
	for i, events := range batches {
		if _, err := Capture(ctx, m, Batch{Session: "s1", Key: fmt.Sprintf("k%d", i), Trigger: "stop", Events: events}); err != nil {
			t.Fatal(err)
		}
		if _, err := Capture(ctx, m, Batch{Session: "s1", Key: fmt.Sprintf("end%d", i), Trigger: "session-end", Final: true,
			Events: []transcript.Event{{Kind: transcript.KindSessionEnd}}}); err != nil {
			t.Fatal(err)
		}
	}
	e, _ := m.Sessions().Get(ctx, "s1")
	sum := readRepo(t, m, e.File(model.SummaryFile))
	if e.Summarized.Segments != 2 {
		t.Fatalf("want the prompts in two segments, got %d:\n%s", e.Summarized.Segments, sum)
	}
	if !strings.Contains(sum, "Go with the table: A `stripe_events` table with a unique index on the event id") {
		t.Errorf("the decision does not say what it picked:\n%s", sum)
	}
}

// TestPromptBeforeTranscript: a daemon runs the UserPromptSubmit job
// before Claude Code has written the prompt to the transcript, so the
// prompt is recorded from the hook; the transcript's first read must not
// record it again.
func TestPromptBeforeTranscript(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := basicID
	tp := followedTranscript(t, m, nil)
	os.Remove(tp) // not written yet
	prompt := "Step 1: make the retry queue handle case 1."
	hook := func(event, extra string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/tidepool","hook_event_name":%q%s}`, id, tp, event, extra))
	}
	if _, err := CaptureHook(ctx, m, hook("UserPromptSubmit", fmt.Sprintf(`,"prompt":%q`, prompt))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tp, []byte(claudeLines(id, 1, time.Now())), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := CaptureHook(ctx, m, hook("Stop", "")); err != nil {
		t.Fatal(err)
	}
	e, err := m.Sessions().Find(id)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(m.Dir, e.Dir, model.PromptsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), prompt); n != 1 || e.Session.Prompts != 1 {
		t.Errorf("the prompt is recorded %d times (session says %d prompts):\n%s", n, e.Session.Prompts, data)
	}
}

// TestPromptHead: prompts.md is split at the renderer's headings only, so
// a prompt with Markdown headings of its own stays one prompt.
func TestPromptHead(t *testing.T) {
	data := "# Prompts of session s1\n\n## 1 · 2026-12-02 01:13:43 UTC\n\nFix the retry.\n\n## Plan\n\nfirst the test\n\n## 2\n\nThanks.\n"
	got := promptHead.Split(data, -1)[1:]
	if len(got) != 2 || !strings.Contains(got[0], "## Plan") || strings.TrimSpace(got[1]) != "Thanks." {
		t.Errorf("prompts %q", got)
	}
}
