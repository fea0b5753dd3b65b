package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/resume"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/cairn-mem/cairn/watcher"
)

// transcripts is the folder of sample transcripts, made absolute at
// start: commands run in the project folder.
var transcripts = func() string {
	d, err := filepath.Abs("../../testdata/transcripts")
	if err != nil {
		panic(err)
	}
	return d
}()

func TestIngestCommand(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	var files []string
	for _, g := range []string{"claude/*.jsonl", "codex/*.jsonl", "chat/*.jsonl", "markdown/*.md"} {
		m, _ := filepath.Glob(filepath.Join(transcripts, g))
		files = append(files, m...)
	}
	if len(files) < 9 {
		t.Fatalf("fixtures: %v", files)
	}
	out := ok(t, p, append([]string{"ingest"}, files...)...)
	if n := strings.Count(out, "\n"); n != len(files) {
		t.Errorf("%d lines for %d files:\n%s", n, len(files), out)
	}
	for _, want := range []string{
		"basic.jsonl: session 3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14 (claude, claude-code): new, 15 events, 2 prompts, 1 summary",
		"session 0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6 (codex, codex): new",
		"session chat-2025-12-03-standup (chat, chat): new",
		"session 2d9e6b1a-4c3f-4e8d-9a7b-6c5d4e3f2a1b (markdown, markdown): new",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ingest output lacks %q:\n%s", want, out)
		}
	}
	checkGit(t, p)
	mem := filepath.Join(p, ".cairn")
	for _, f := range []string{"session.yaml", "prompts.md", "transcript.md", "observations.md", "summary.md"} {
		gitc(t, mem, "cat-file", "-e", "HEAD:sessions/3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14/"+f)
	}
	msg := gitc(t, mem, "log", "-1", "--format=%B", "--", "sessions/3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14")
	for _, want := range []string{"capture: session 3f1c9a52 ingest (15 events, 2 prompts, 1 summary", "Cairn-Session: 3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14", "Cairn-Event: ingest"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit lacks %q:\n%s", want, msg)
		}
	}

	// Again: nothing new, no commit.
	head := gitc(t, mem, "rev-parse", "HEAD")
	out = ok(t, p, append([]string{"ingest"}, files...)...)
	if strings.Count(out, "nothing new") != len(files) || gitc(t, mem, "rev-parse", "HEAD") != head {
		t.Errorf("second ingest:\n%s", out)
	}
	checkGit(t, p)

	// A bad file: one line, exit 1, nothing committed for it; the good
	// file next to it is ingested.
	dir := t.TempDir()
	bad := filepath.Join(dir, "notes.txt")
	os.WriteFile(bad, []byte("not a transcript\n"), 0o644)
	good := filepath.Join(dir, "s-good.md")
	os.WriteFile(good, []byte("## User\n\nShould we vendor the parser?\n\n## Assistant\n\nNo: we decided to keep it a module.\n"), 0o644)
	r := cairn(t, p, "", "ingest", bad, good)
	if r.code != 1 || !strings.Contains(r.stderr, "notes.txt: not a transcript") || !strings.Contains(r.stdout, "s-good.md: session s-good") {
		t.Errorf("bad file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); len(lines) != 2 {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	checkGit(t, p)
	fails(t, p, 2, "ingest needs at least one FILE", "ingest")
	fails(t, p, 1, "invalid session id", "ingest", "--session", "../../etc", good)
	fails(t, p, 1, "invalid session id", "session", "show", "../x")
}

// plantedSecrets reads the redact package's corpus: the secrets and the
// text they sit in.
func plantedSecrets(t *testing.T) (secrets, contexts []string) {
	t.Helper()
	f, err := os.Open("../../internal/redact/testdata/planted.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unescape := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", "@@", "")
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("planted.tsv: %q", line)
		}
		s := unescape.Replace(cols[1])
		secrets = append(secrets, s)
		contexts = append(contexts, strings.ReplaceAll(unescape.Replace(cols[2]), "{S}", s))
	}
	return secrets, contexts
}

// claudeWriter writes a Claude Code transcript.
type claudeWriter struct {
	session, cwd string
	n            int
	lines        []string
	t0           time.Time
}

func (w *claudeWriter) line(typ string, msg any, extra string) string {
	w.n++
	b, _ := json.Marshal(msg)
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", w.n)
	parent := "null"
	if w.n > 1 {
		parent = fmt.Sprintf("%q", fmt.Sprintf("00000000-0000-4000-8000-%012d", w.n-1))
	}
	l := fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":%q,"message":%s,"uuid":%q,"timestamp":%q,"sessionId":%q,"cwd":%q,"version":"2.0.76","gitBranch":"main"%s}`,
		parent, typ, b, id, w.t0.Add(time.Duration(w.n)*time.Second).UTC().Format(time.RFC3339Nano), w.session, w.cwd, extra)
	w.lines = append(w.lines, l)
	return l
}

func (w *claudeWriter) prompt(text string) {
	w.line("user", map[string]any{"role": "user", "content": text}, "")
}

func (w *claudeWriter) say(text string) {
	w.line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", w.n), "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{map[string]any{"type": "text", "text": text}}}, "")
}

func (w *claudeWriter) bash(command, output string, exit int) {
	id := fmt.Sprintf("toolu_%d", w.n)
	w.line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", w.n), "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": command}}}}, "")
	if exit != 0 {
		output = fmt.Sprintf("Exit code %d\n%s", exit, output)
	}
	w.line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": output, "is_error": exit != 0}}}, "")
}

func (w *claudeWriter) write(t *testing.T, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.Join(w.lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Secrets planted everywhere in a transcript (prompts, assistant text,
// commands, tool output, failures) and in session variables reach no git
// object.
func TestSecretsNeverCommitted(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	secrets, contexts := plantedSecrets(t)
	w := &claudeWriter{session: "7f3c2a10-0000-4000-8000-000000000001", cwd: p, t0: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
	// Each secret's text starts a line, as in the corpus.
	for i, c := range contexts {
		switch i % 4 {
		case 0:
			w.prompt("Please use this:\n" + c)
		case 1:
			w.say("I'll remember that. We decided:\n" + c)
		case 2:
			if !strings.Contains(c, "\n") {
				w.bash(c, "done", 0)
			} else {
				w.bash("cat config", c, 0)
			}
		case 3:
			w.bash("./deploy.sh", strings.Repeat("log line\n", 50)+c+"\nerror: deploy failed", 1)
		}
	}
	w.prompt("Thanks. <private>my own note: " + secrets[0] + "</private> That's all.")
	name := filepath.Join(t.TempDir(), w.session+".jsonl")
	w.write(t, name)
	out := ok(t, p, "ingest", name)
	if !strings.Contains(out, "secrets redacted") {
		t.Errorf("ingest: %s", out)
	}
	ok(t, p, "session", "set", w.session, "db_url=postgres://app:"+secrets[5]+"@db/app", "note=ok")
	checkGit(t, p)

	mem := filepath.Join(p, ".cairn")
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = mem
	objects, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(objects) < 10000 {
		t.Fatalf("only %d bytes of objects", len(objects))
	}
	for i, s := range secrets {
		if strings.Contains(string(objects), s) {
			t.Errorf("planted secret %d (%.12s…) is in a git object", i, s)
		}
	}
	if strings.Contains(string(objects), "my own note") {
		t.Error("<private> text is in a git object")
	}
	if !strings.Contains(string(objects), "[REDACTED:") {
		t.Error("no redaction marker in any object")
	}
}

// useModel points project p's summaries at the OpenAI-compatible server
// at url (model "tiny", more summarize settings in extra) and commits it.
func useModel(t *testing.T, p, url, extra string) {
	t.Helper()
	cfg := filepath.Join(p, ".cairn", "cairn.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, fmt.Sprintf("\nsummarize:\n  provider: openai\n  base_url: %s\n  model: tiny\n%s", url, extra)...)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, p, "checkpoint", "-m", "use a local model")
}

// A summarizer that fails (HTTP 500) gives way to the built-in one.
func TestSummarizerFallback(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		var body struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Model != "tiny" || len(body.Messages) == 0 {
			t.Errorf("request body: %+v, %v", body, err)
		}
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
	}))
	defer srv.Close()
	useModel(t, p, srv.URL, "  attempts: 2\n  backoff: 10ms\n")
	out := ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"))
	if !strings.Contains(out, "1 summary (built-in summarizer:") || !strings.Contains(out, "500") {
		t.Errorf("ingest: %s", out)
	}
	if calls.Load() != 2 {
		t.Errorf("%d calls, want 2 tries", calls.Load())
	}
	sum, _ := os.ReadFile(filepath.Join(p, ".cairn", "sessions", "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14", "summary.md"))
	if !strings.Contains(string(sum), "## Segment 1") || !strings.Contains(string(sum), "**Request**") {
		t.Errorf("summary.md:\n%s", sum)
	}
	checkGit(t, p)
}

func TestSessionCommand(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"), filepath.Join(transcripts, "markdown/headings.md"), filepath.Join(transcripts, "claude/compact.jsonl"))
	var list []ui.Session
	if err := json.Unmarshal([]byte(ok(t, p, "session", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Status != "active" || list[0].Prompts == 0 || list[0].MemorySession == "" {
		t.Fatalf("list = %+v", list)
	}
	basic := "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"
	if out := ok(t, p, "session", "show", "3f1c"); !strings.Contains(out, "memory_session: ") || !strings.Contains(out, "## Segment 1") {
		t.Errorf("show:\n%s", out)
	}
	ok(t, p, "session", "set", "3f1c9a52", "ticket=OPS-42", "stage=fix")
	ok(t, p, "session", "set", "3f1c9a52", "stage=")
	ok(t, p, "session", "progress", "3f1c9a52", "2/5")
	fails(t, p, 2, "not DONE/TOTAL", "session", "progress", "3f1c9a52", "6/5")
	fails(t, p, 1, "no such session", "session", "show", "nope-nope")
	checkGit(t, p)
	out := ok(t, p, "session", "suspend", basic)
	if !strings.Contains(out, "suspended") {
		t.Errorf("suspend: %s", out)
	}
	out = ok(t, p, "session", "archive", basic)
	if !strings.Contains(out, "archive/2025/11/"+basic) {
		t.Errorf("archive: %s", out)
	}
	gitc(t, mem, "cat-file", "-e", "HEAD:archive/2025/11/"+basic+"/summary.md")
	if out := ok(t, p, "session", "list", "--status", "archived"); !strings.Contains(out, basic) {
		t.Errorf("archived list:\n%s", out)
	}
	checkGit(t, p)
	text := ok(t, p, "session", "resume", "--activate", basic)
	for _, want := range []string{"# Session " + basic, "Progress: 2 of 5", "`ticket`: OPS-42", "## Summary", "## Last prompts", "Commit it with a short message"} {
		if !strings.Contains(text, want) {
			t.Errorf("resume lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "stage") || len(text) > resume.MaxChars {
		t.Errorf("resume:\n%s", text)
	}
	gitc(t, mem, "cat-file", "-e", "HEAD:sessions/"+basic+"/session.yaml")
	checkGit(t, p)

	// Share the decisions of the compaction session with the first one.
	var shared struct {
		Items []model.ItemChange `json:"items"`
	}
	if err := json.Unmarshal([]byte(ok(t, p, "session", "share", "c4d7e9f1", basic, "--json")), &shared); err != nil {
		t.Fatal(err)
	}
	if len(shared.Items) == 0 {
		t.Fatal("nothing shared")
	}
	var item ui.Item
	if err := json.Unmarshal([]byte(ok(t, p, "show", "--json", shared.Items[0].ID)), &item); err != nil {
		t.Fatal(err)
	}
	if item.Confidence != 0.8 || item.Session != basic || item.Kind != "decision" {
		t.Errorf("shared item: %+v", item)
	}
	if out := ok(t, p, "session", "share", "c4d7e9f1", basic); !strings.Contains(out, "nothing to share") {
		t.Errorf("share again: %s", out)
	}
	fails(t, p, 2, "--what", "session", "share", "c4d7e9f1", basic, "--what", "everything")
	checkGit(t, p)
}

// Sessions untouched for longer than capture.archive_after move to
// archive/ when sessions are listed.
func TestSessionsArchiveAfterInactivity(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"))
	ok(t, p, "ingest", filepath.Join(transcripts, "chat/session.jsonl"))
	// A person (or a week) passes: the chat session was last seen in 2020.
	yml := filepath.Join(mem, "sessions", "chat-2025-12-03-standup", "session.yaml")
	b, _ := os.ReadFile(yml)
	s := string(b)
	for _, k := range []string{"updated", "last_activity"} {
		i := strings.Index(s, "\n"+k+": ")
		j := strings.Index(s[i+1:], "\n")
		s = s[:i+1] + k + ": 2020-01-15T10:00:00Z" + s[i+1+j:]
	}
	os.WriteFile(yml, []byte(s), 0o644)
	out := ok(t, p, "session", "list")
	if !regexp.MustCompile(`(?m)^chat-2025-12-03-standup +archived `).MatchString(out) {
		t.Errorf("list:\n%s", out)
	}
	gitc(t, mem, "cat-file", "-e", "HEAD:archive/2020/01/chat-2025-12-03-standup/prompts.md")
	if _, err := os.Stat(filepath.Join(mem, "sessions", "chat-2025-12-03-standup")); !os.IsNotExist(err) {
		t.Error("sessions/chat-… still there")
	}
	if subj := gitc(t, mem, "log", "-1", "--format=%s"); !strings.Contains(subj, "archive: session chat-202") {
		t.Errorf("subject %q", subj)
	}
	checkGit(t, p)
}

func TestQueueCommand(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	inbox := filepath.Join(mem, "inbox")
	if out := ok(t, p, "queue"); !strings.Contains(out, "pending 0, processing 0, failed 0") {
		t.Errorf("queue: %s", out)
	}
	m, err := memory.Open(context.Background(), mem, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A transcript the daemon would watch grows; its delta is queued.
	home := os.Getenv("HOME")
	id := "9a8b7c6d-0000-4000-8000-00000000abcd"
	name := filepath.Join(home, ".claude", "projects", follow.ClaudeProjectName(p), id+".jsonl")
	w := &claudeWriter{session: id, cwd: p, t0: time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)}
	w.prompt("Make the build reproducible.")
	w.bash("make build", "ok", 0)
	w.say("We decided to pin the toolchain in go.mod.")
	w.write(t, name)
	fi, _ := os.Stat(name)
	if _, err := q.Enqueue(context.Background(), watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &watcher.Range{Path: name, To: fi.Size()}}); err != nil {
		t.Fatal(err)
	}
	// A hook payload as a job, and one dropped as a plain file.
	hook := func(event, extra string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"hook-sess-1","cwd":%q,"hook_event_name":%q%s}`, p, event, extra))
	}
	if _, err := q.Enqueue(context.Background(), watcher.Job{Kind: capture.JobHook, Payload: hook("UserPromptSubmit", `,"prompt":"Rename the flag to --output."`)}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(inbox, "hook-stop.json"), hook("Stop", `,"last_assistant_message":"Renamed."`), 0o644)
	// A transcript dropped into the inbox.
	md, _ := os.ReadFile(filepath.Join(transcripts, "markdown/bold.md"))
	os.WriteFile(filepath.Join(inbox, "old-chat.md"), md, 0o644)
	// Something that is no transcript.
	os.WriteFile(filepath.Join(inbox, "photo.txt"), []byte("holiday photos, not a transcript\n"), 0o644)
	old := time.Now().Add(-time.Minute)
	for _, f := range []string{"hook-stop.json", "old-chat.md", "photo.txt"} {
		os.Chtimes(filepath.Join(inbox, f), old, old) // settled
	}
	m.Close()

	r := cairn(t, p, "", "queue", "run")
	if r.code != 1 || !strings.Contains(r.stdout, "4 job(s) done, 1 failed") || !strings.Contains(r.stderr, "photo.txt is neither a hook payload nor a transcript") {
		t.Errorf("queue run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkGit(t, p)
	gitc(t, mem, "cat-file", "-e", "HEAD:sessions/"+id+"/transcript.md")
	if pr := gitc(t, mem, "show", "HEAD:sessions/hook-sess-1/prompts.md"); !strings.Contains(pr, "Rename the flag") {
		t.Errorf("hook prompts:\n%s", pr)
	}
	if tr := gitc(t, mem, "show", "HEAD:sessions/hook-sess-1/transcript.md"); !strings.Contains(tr, "Renamed.") {
		t.Errorf("hook transcript:\n%s", tr)
	}
	if pr := gitc(t, mem, "show", "HEAD:sessions/old-chat/prompts.md"); !strings.Contains(pr, "Should the job queue live in Redis or PostgreSQL?") {
		t.Errorf("inbox transcript prompts:\n%s", pr)
	}
	if out := ok(t, p, "queue", "status"); !strings.Contains(out, "pending 0, processing 0, failed 1") {
		t.Errorf("status: %s", out)
	}
	var jobs []ui.Job
	if err := json.Unmarshal([]byte(ok(t, p, "queue", "list", "--state", "failed", "--json")), &jobs); err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].Origin != "photo.txt" || !strings.Contains(jobs[0].LastError, "not a transcript") {
		t.Fatalf("failed jobs: %+v", jobs)
	}
	// The watcher's cursor moved past the delta.
	cur, err := watcher.OpenCursors(filepath.Join(mem, ".state", "cursors"))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := cur.Load(name); err != nil || c == nil || c.Offset != fi.Size() {
		t.Errorf("cursor: %+v, %v", c, err)
	}

	// The transcript grows; the same delta again and the new one: each
	// event once.
	w.prompt("Also pin the linter.")
	w.write(t, name)
	fi2, _ := os.Stat(name)
	m, _ = memory.Open(context.Background(), mem, memory.Options{})
	q, _ = capture.Queue(m, watcher.QueueOptions{})
	q.Enqueue(context.Background(), watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &watcher.Range{Path: name, To: fi.Size()}})
	q.Enqueue(context.Background(), watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &watcher.Range{Path: name, From: fi.Size(), To: fi2.Size()}})
	// A pointer at a file that is no watched transcript is refused.
	q.Enqueue(context.Background(), watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &watcher.Range{Path: "/etc/passwd", To: 100}})
	m.Close()
	r = cairn(t, p, "", "queue", "run")
	if r.code != 1 || !strings.Contains(r.stdout, "2 job(s) done, 1 failed") || !strings.Contains(r.stderr, "/etc/passwd is not a transcript cairn follows") {
		t.Errorf("queue run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	pr := gitc(t, mem, "show", "HEAD:sessions/"+id+"/prompts.md")
	if strings.Count(pr, "Make the build reproducible") != 1 || strings.Count(pr, "Also pin the linter") != 1 {
		t.Errorf("prompts.md:\n%s", pr)
	}
	checkGit(t, p)

	// Retry and drop the failed ones.
	if err := json.Unmarshal([]byte(ok(t, p, "queue", "list", "--state", "failed", "--json")), &jobs); err != nil || len(jobs) != 2 {
		t.Fatalf("failed jobs: %+v, %v", jobs, err)
	}
	ok(t, p, "queue", "drop", jobs[1].ID)
	ok(t, p, "queue", "retry", jobs[0].ID)
	if _, err := os.Stat(filepath.Join(inbox, jobs[0].ID+".json")); err != nil {
		t.Errorf("retry did not put the job back: %v", err)
	}
	if out := ok(t, p, "queue", "status", "--json"); !strings.Contains(out, `"dropped": 1`) || !strings.Contains(out, `"pending": 1`) {
		t.Errorf("status: %s", out)
	}
	fails(t, p, 1, "not a failed job", "queue", "drop", jobs[1].ID)
	fails(t, p, 2, "job ids or --all", "queue", "retry")
	checkGit(t, p)
}

// kill -9 at random instants of an ingest, then the ingest again: the
// session's files are what one clean ingest makes, history is sound and
// the work tree is clean.
func TestIngestKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("process kills")
	}
	w := &claudeWriter{session: "kill-0000-4000-8000-000000000001", cwd: "/src/app", t0: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := 0; w.n < 800; i++ {
		w.prompt(fmt.Sprintf("Step %d: keep job %d when the worker restarts.", i, i))
		w.say(fmt.Sprintf("We decided to write job %d before acknowledging it.", i))
		w.bash("go test ./internal/queue/", strings.Repeat("=== RUN TestRetry\n", 30)+"ok", 0)
		w.bash("go vet ./...", "retry.go:12: unreachable code", 1)
	}
	name := filepath.Join(t.TempDir(), w.session+".jsonl")
	w.write(t, name)
	files := []string{"prompts.md", "transcript.md", "observations.md", "summary.md"}
	ref := project(t)
	ok(t, ref, "init")
	start := time.Now()
	if out, err := cairnProc(ref, "", "ingest", name).CombinedOutput(); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	took := time.Since(start) // of a whole process, which the kills fall within
	want := map[string]string{}
	for _, f := range files {
		want[f] = gitc(t, filepath.Join(ref, ".cairn"), "show", "HEAD:sessions/"+w.session+"/"+f)
	}
	killed, recovered, journals := 0, 0, 0
	for i := 0; i < 4; i++ {
		p := project(t)
		ok(t, p, "init")
		for try := 0; try < 2; try++ {
			cmd := cairnProc(p, "", "ingest", name)
			cmd.Env = os.Environ()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Mostly in the second half, where the files are written and
			// committed.
			time.Sleep(took/3 + time.Duration(rand.Int64N(int64(took))*2/3))
			if cmd.Process.Signal(syscall.SIGKILL) == nil {
				killed++
			}
			cmd.Wait()
			if _, err := os.Stat(filepath.Join(p, ".cairn", ".state", "capture", "journal.json")); err == nil {
				journals++
			}
		}
		r := cairn(t, p, "", "ingest", name)
		if r.code != 0 {
			t.Fatalf("run %d: ingest after kills: exit %d\n%s%s", i, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stderr, "batch of writes") {
			recovered++
		}
		mem := filepath.Join(p, ".cairn")
		for _, f := range files {
			if got := gitc(t, mem, "show", "HEAD:sessions/"+w.session+"/"+f); got != want[f] {
				t.Errorf("run %d: %s differs from one clean ingest (%d bytes, want %d)", i, f, len(got), len(want[f]))
			}
		}
		if _, err := os.Stat(filepath.Join(mem, ".state", "capture", "journal.json")); !os.IsNotExist(err) {
			t.Errorf("run %d: journal left: %v", i, err)
		}
		if out := ok(t, p, "ingest", name); !strings.Contains(out, "nothing new") {
			t.Errorf("run %d: again: %s", i, out)
		}
		gitc(t, mem, "fsck", "--full", "--strict", "--no-dangling")
		// A kill between a commit and the git index's update leaves the
		// index behind until the next commit (gitstore does not write back
		// a cache it repaired); as in TestCrash, one more commit first.
		ok(t, p, "remember", "after the kills")
		checkGit(t, p)
	}
	t.Logf("%d kills within %s left %d journals; %d last runs found one", killed, took, journals, recovered)
}

// A hook payload naming another project's transcript, or a link in the
// project's own Claude Code folder, does not bring what it points at into
// the memory: the queue captures the payload's own events and says in one
// line which path it refused and why.
func TestHookOtherProjectsTranscript(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init", "--claude")
	projects := filepath.Join(os.Getenv("HOME"), ".claude", "projects")
	// A sibling project, whose folder name begins with this one's.
	others := filepath.Join(projects, follow.ClaudeProjectName(p)+"-other", "sother.jsonl")
	w := &claudeWriter{session: "sother", cwd: p + "-other", t0: time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)}
	w.prompt("Ship the other project's unreleased plan.")
	w.say("Done.")
	w.write(t, others)
	linked := filepath.Join(projects, follow.ClaudeProjectName(p), "slink.jsonl")
	os.MkdirAll(filepath.Dir(linked), 0o755)
	if err := os.Symlink(others, linked); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ session, path string }{{"sother", others}, {"slink", linked}} {
		payload := fmt.Sprintf(`{"session_id":%q,"hook_event_name":"Stop","transcript_path":%q,"cwd":%q,"last_assistant_message":"Finished here."}`, c.session, c.path, p)
		cmd := exec.Command("sh", filepath.Join(p, ".cairn", "hooks", "capture.sh"))
		cmd.Dir, cmd.Stdin = p, strings.NewReader(payload)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+p)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Fatalf("capture script: %v %q", err, out)
		}
	}
	r := cairn(t, p, "", "queue", "run")
	if r.code != 0 || !strings.Contains(r.stdout, "2 job(s) done") {
		t.Fatalf("queue run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		others + " is not a transcript cairn follows: it lies in another project's Claude Code folder (its session ran in " + p + "-other;",
		linked + " is not a transcript cairn follows: " + linked + " is a symbolic link",
	} {
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr lacks one %q:\n%s", want, r.stderr)
		}
	}
	mem := filepath.Join(p, ".cairn")
	if log := gitc(t, mem, "log", "-p"); strings.Contains(log, "unreleased plan") || strings.Count(log, "Finished here.") < 2 {
		t.Errorf("the memory holds the other project's prompt, or lacks the hooks' own events:\n%s", log)
	}
}
