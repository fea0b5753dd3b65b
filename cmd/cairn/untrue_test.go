package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A model summarizer is shown what the memory holds from older sessions,
// numbered, and names what the new session made untrue: a change in
// wording no rule of the pack reads ("every Monday" once "on Fridays").
// The older session's bullet leaves the pack, the core item made of it
// is retired, and summary.md quotes it under "**No longer true**".
func TestModelSaysWhatNoLongerHolds(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	const monday = "Deploys go out every Monday at 09:00 from the release branch."
	// Offered as the session's bullet or as the core item's title, the
	// same statement: the title comes first when the pack shows it.
	numbered := regexp.MustCompile(`(?m)^\[(\d+)\] ` + regexp.QuoteMeta(strings.TrimSuffix(monday, ".")) + `\.?$`)
	var calls, offered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		var body struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
			t.Errorf("request body: %+v, %v", body, err)
			return
		}
		prompt := body.Messages[len(body.Messages)-1].Content
		head := regexp.MustCompile(`(?m)^## Segment \d+[^\n]*$`).FindString(prompt)
		var answer string
		if m := numbered.FindStringSubmatch(prompt); m != nil {
			offered.Add(1)
			if !strings.Contains(prompt, `**No longer true** "- [n]"`) {
				t.Errorf("the prompt lists older statements but does not ask which no longer hold:\n%s", prompt)
			}
			answer = head + "\n\n**Request**\n- Move the deploy day.\n\n**Decisions**\n- Deploys now go out on Fridays after the code freeze lifts — Monday releases kept colliding with the weekly planning.\n\n" +
				"**No longer true**\n- [" + m[1] + "]\n- [999]\n\n```json\n" +
				`{"items": [{"kind": "decision", "subject": "deploy day", "title": "Deploys go out on Fridays after the code freeze lifts", "body": "Monday releases kept colliding with the weekly planning.", "importance": 0.8}]}` + "\n```\n"
		} else {
			if strings.Contains(prompt, "<earlier>") {
				t.Errorf("older statements offered without the Monday one:\n%s", prompt)
			}
			answer = head + "\n\n**Request**\n- Set up the deploys.\n\n**Environment**\n- " + monday + "\n\n```json\n" +
				`{"items": [{"kind": "fact", "subject": "deploy schedule", "title": "` + strings.TrimSuffix(monday, ".") + `", "body": "", "importance": 0.7, "tags": ["environment"]}]}` + "\n```\n"
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 900, "completion_tokens": 120},
		})
	}))
	defer srv.Close()
	useModel(t, p, srv.URL, "")

	ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"))
	if pack := ok(t, p, "context"); !strings.Contains(pack, "every Monday") {
		t.Fatalf("the first session's schedule is not in the pack:\n%s", pack)
	}
	ok(t, p, "ingest", filepath.Join(transcripts, "claude/compact.jsonl"))
	if offered.Load() == 0 {
		t.Fatalf("%d calls; none offered the Monday statement", calls.Load())
	}
	pack := ok(t, p, "context")
	if strings.Contains(pack, "Monday at 09:00") || !strings.Contains(pack, "on Fridays") {
		t.Errorf("the pack after the change:\n%s", pack)
	}
	sum, err := os.ReadFile(filepath.Join(p, ".cairn", "sessions", "c4d7e9f1-2b3a-4c5d-8e6f-7a8b9c0d1e2f", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "**No longer true**\n- "+strings.TrimSuffix(monday, ".")) || strings.Contains(string(sum), "[999]") {
		t.Errorf("summary.md of the second session:\n%s", sum)
	}
	if list := ok(t, p, "list"); strings.Contains(list, "every Monday") || !strings.Contains(list, "on Fridays") {
		t.Errorf("core memory after the change:\n%s", list)
	}
	checkGit(t, p)
}

// twoSessions is a project whose memory holds two ingested sessions:
// 3f1c9a52 (a flaky test fixed), then c4d7e9f1 (backoff), the newest.
func twoSessions(t *testing.T) string {
	t.Helper()
	p := project(t)
	ok(t, p, "init")
	ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"), filepath.Join(transcripts, "claude/compact.jsonl"))
	return p
}

// cairn outdated takes back an older session's statement given as the
// pack showed it, and the core item cut from it; what names nothing, or
// the newest session's own statement, is a usage error that changes
// nothing.
func TestOutdated(t *testing.T) {
	t.Parallel()
	p := twoSessions(t)
	const line = "- Decision: The test slept a fixed 10ms and raced with the worker goroutine; it now waits on `q.Done()` with a 5s timeout."
	if pack := ok(t, p, "context"); !strings.Contains(pack, line+"\n") {
		t.Fatalf("the pack lacks the older session's decision:\n%s", pack)
	}
	head := gitc(t, filepath.Join(p, ".cairn"), "rev-parse", "HEAD")
	fails(t, p, 2, "no statement of the memory says that", "outdated", "Deploys go out on Mondays")
	fails(t, p, 2, "only the newest session says that", "outdated", "--", "- The worker now sleeps `backoff(job.Attempts, rand.Float64)` between attempts.")
	fails(t, p, 2, "only the newest session says that", "outdated", "- The worker now sleeps `backoff(job.Attempts, rand.Float64)` between attempts.", "--json")
	if now := gitc(t, filepath.Join(p, ".cairn"), "rev-parse", "HEAD"); now != head {
		t.Errorf("a refused outdated committed %s", now)
	}

	out := ok(t, p, "outdated", line) // a pack's line, its bullet and all
	if !strings.Contains(out, "no longer shown: The test slept a fixed 10ms") || !strings.Contains(out, `retired decision "The test slept a fixed 10ms and raced with the worker goroutine"`) {
		t.Errorf("outdated:\n%s", out)
	}
	pack := ok(t, p, "context")
	if strings.Contains(pack, "slept a fixed 10ms") || !strings.Contains(pack, "Committed as `4f2a9c1`.") {
		t.Errorf("the pack after outdated:\n%s", pack)
	}
	if list := ok(t, p, "list"); strings.Contains(list, "slept a fixed 10ms") {
		t.Errorf("core memory after outdated:\n%s", list)
	}
	sum, err := os.ReadFile(filepath.Join(p, ".cairn", "sessions", "c4d7e9f1-2b3a-4c5d-8e6f-7a8b9c0d1e2f", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "\n**No longer true**\n- The test slept a fixed 10ms and raced with the worker goroutine; it now waits on `q.Done()` with a 5s timeout.\n") {
		t.Errorf("summary.md of the newest session:\n%s", sum)
	}
	checkGit(t, p)
}

// The agent takes back a line of its pack through the MCP tool, as
// Claude Code calls it; a line that names nothing is a tool error.
func TestMCPOutdated(t *testing.T) {
	t.Parallel()
	p := twoSessions(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, _, stderr := startMCP(ctx, t, p)
	defer cs.Close()
	call := func(text string) (string, bool) {
		t.Helper()
		return callTool(ctx, t, cs, stderr, "outdated", map[string]any{"text": text})
	}
	if out, isErr := call("Deploys go out on Mondays"); !isErr || !strings.Contains(out, "no statement of the memory says that") {
		t.Errorf("a text naming nothing: %v %q", isErr, out)
	}
	out, isErr := call("- Request: Commit it with a short message. (session 3f1c9a52)")
	if isErr || !strings.Contains(out, "No longer shown: Commit it with a short message.") {
		t.Fatalf("outdated: %v %q", isErr, out)
	}
	if pack := ok(t, p, "context"); strings.Contains(pack, "Commit it with a short message") || !strings.Contains(pack, "The TestRetryQueue test is flaky on CI.") {
		t.Errorf("the pack after outdated:\n%s", pack)
	}
	checkGit(t, p)
}

// A line of a list is an argument of cairn outdated, not a run of
// one-letter flags; other commands' arguments, flag values and what
// follows "--" are left as they are.
func TestBulletArgs(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"outdated", "- Deploys go out on Mondays", "--json"}, []string{"outdated", "Deploys go out on Mondays", "--json"}},
		{[]string{"-C", "proj", "outdated", "-\tA tab after the dash"}, []string{"-C", "proj", "outdated", "A tab after the dash"}},
		{[]string{"outdated", "-C", "- odd folder", "- line"}, []string{"outdated", "-C", "- odd folder", "line"}},
		{[]string{"outdated", "--", "- kept as it is"}, []string{"outdated", "--", "- kept as it is"}},
		{[]string{"remember", "-t", "- Deploys go out on Fridays", "body"}, []string{"remember", "-t", "- Deploys go out on Fridays", "body"}},
		{[]string{"checkpoint", "-m", "- fix"}, []string{"checkpoint", "-m", "- fix"}},
		{[]string{"-C", "outdated", "remember", "- a"}, []string{"-C", "outdated", "remember", "- a"}},
		{[]string{"list", "-n", "5"}, []string{"list", "-n", "5"}},
	} {
		if got := bulletArgs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("bulletArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
