package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/watcher"
)

// exchange is the Claude Code transcript lines of one prompt and its
// answer, in session id.
func exchange(id string, n int, prompt, answer string) string {
	at := time.Date(2026, 3, 4, 9, n, 0, 0, time.UTC)
	u := fmt.Sprintf("%08d-0000-4000-8000-00000000000%d", n, 1)
	a := fmt.Sprintf("%08d-0000-4000-8000-00000000000%d", n, 2)
	env := func(typ, uuid string, msg any, at time.Time) string {
		data, _ := json.Marshal(map[string]any{
			"isSidechain": false, "userType": "external", "cwd": "/home/dev/src/shop", "sessionId": id,
			"version": "2.0.76", "gitBranch": "main", "type": typ, "message": msg, "uuid": uuid,
			"timestamp": at.Format(time.RFC3339Nano),
		})
		return string(data) + "\n"
	}
	return env("user", u, map[string]any{"role": "user", "content": prompt}, at) +
		env("assistant", a, map[string]any{"model": "claude-sonnet-4-5-20250929", "id": "msg_" + a, "type": "message", "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": answer}}, "stop_reason": "end_turn"}, at.Add(5*time.Second))
}

// TestClearLosesNothing plays what /clear and quick restarts do: the last
// prompt's Stop, then SessionEnd and SessionStart back to back, the
// payloads written by the installed capture script, with no pause; and
// what claude -p does, exiting before its last hooks (or any) write. The
// new session's start captures all of the last session first, and ends
// it, with and without a daemon.
func TestClearLosesNothing(t *testing.T) {
	scenarios := []struct {
		name string // short: the daemon's socket lives under the test's folder
		// hooks fired after the session's first and second exchange
		first, last []string
	}{
		{"clear", []string{"SessionStart", "UserPromptSubmit", "Stop"}, []string{"UserPromptSubmit", "Stop", "SessionEnd"}},
		{"p-end-killed", []string{"SessionStart", "UserPromptSubmit", "Stop"}, []string{"UserPromptSubmit", "-Stop", "-SessionEnd"}},
		{"p-all-killed", []string{"-SessionStart", "-UserPromptSubmit", "-Stop"}, []string{"-UserPromptSubmit", "-Stop", "-SessionEnd"}},
	}
	for _, sc := range scenarios {
		for _, withDaemon := range []bool{false, true} {
			t.Run(sc.name+map[bool]string{false: "-nod", true: "-d"}[withDaemon], func(t *testing.T) {
				playClear(t, withDaemon, sc.first, sc.last)
			})
		}
	}
}

// playClear plays one scenario of TestClearLosesNothing. A hook named
// "-Event" is killed after its write and before its rename, as an agent
// that exits at once kills it: it leaves an empty temporary file.
func playClear(t *testing.T, withDaemon bool, first, last []string) {
	var m *memory.Memory
	if withDaemon {
		d, _, _ := startDaemon(t)
		m = d.Mem
	} else {
		m = newMemory(t)
		t.Cleanup(func() { m.Close() })
	}
	ctx, cancel := context.WithTimeout(context.Background(), hooks.Deadline(model.HookSessionStart))
	defer cancel()
	if _, err := hooks.Install(filepath.Join(m.Dir, "hooks")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(follow.Globs(m)[0])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const old, next = "a1b2c3d4-0000-4000-8000-000000000001", "a1b2c3d4-0000-4000-8000-000000000002"
	tp := filepath.Join(dir, old+".jsonl")
	prompts := []string{"Add the orders endpoint.", "Which router should the new service use?"}
	killed := 0
	hook := func(event string, n int) {
		t.Helper()
		extra := map[string]string{
			"SessionStart":     `,"source":"startup"`,
			"UserPromptSubmit": fmt.Sprintf(`,"prompt":%q`, prompts[n]),
			"SessionEnd":       `,"reason":"clear"`,
		}
		if strings.HasPrefix(event, "-") {
			killed++
			if err := os.MkdirAll(filepath.Join(m.Dir, "inbox"), 0o700); err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Join(m.Dir, "inbox", fmt.Sprintf(".hook-%d-%d.tmp", time.Now().UnixNano(), killed))
			if err := os.WriteFile(tmp, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
		payload := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/shop","hook_event_name":%q%s}`, old, tp, event, extra[event])
		cmd := exec.Command("sh", filepath.Join(m.Dir, "hooks", "capture.sh"))
		cmd.Env = append(os.Environ(), "CAIRN_DIR="+m.Dir)
		cmd.Stdin = strings.NewReader(payload)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Fatalf("capture.sh %s: %v %s", event, err, out)
		}
	}
	write := func(s string) {
		t.Helper()
		f, err := os.OpenFile(tp, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	answers := []string{"The orders endpoint is in place and its tests pass.", "We use go-chi for the HTTP router, because its handlers stay plain net/http."}
	for n, hs := range [][]string{first, last} {
		write(exchange(old, n+1, prompts[n], answers[n]))
		for _, h := range hs {
			hook(h, n)
		}
	}
	if killed > 0 {
		// The agent exited a moment before the next one starts.
		at := time.Now().Add(-1500 * time.Millisecond)
		os.Chtimes(tp, at, at)
	}

	out, err := SessionStart(ctx, m, []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/shop","hook_event_name":"SessionStart","source":"clear"}`, next, filepath.Join(dir, next+".jsonl"))), nil)
	if err != nil {
		t.Fatalf("SessionStart: %v", err)
	}
	e, err := m.Sessions().Get(context.Background(), old)
	if err != nil {
		t.Fatalf("the last session was not captured before the pack: %v", err)
	}
	if e.Status != model.StatusSuspended || e.Prompts != 2 || e.Summarized.Segments != 1 || e.Summarized.Turns != e.Turns {
		t.Errorf("the last session at the new one's start: %s, %d prompts, %+v of %d turns", e.Status, e.Prompts, e.Summarized, e.Turns)
	}
	data, err := os.ReadFile(filepath.Join(m.Dir, e.File(model.SummaryFile)))
	if err != nil || !strings.Contains(string(data), "go-chi") {
		t.Errorf("summary.md lacks the last answer: %v\n%s", err, data)
	}
	left, _ := filepath.Glob(filepath.Join(m.Dir, "inbox", "hook-*.json"))
	if len(left) != 0 {
		t.Errorf("payloads left in the inbox: %v", left)
	}
	if out == nil || out.Specific == nil || !strings.Contains(out.Specific.AdditionalContext, "go-chi") {
		t.Errorf("the pack lacks the last session's last answer: %+v", out)
	}
	if out != nil && strings.Contains(out.SystemMessage, "deadline") {
		t.Errorf("system message: %s", out.SystemMessage)
	}
}

func TestLeftNote(t *testing.T) {
	for _, tc := range []struct {
		n    capture.Worked
		want string
	}{
		{capture.Worked{Left: true, Pending: 3}, "the session-start deadline came first: 3 queued events are left, so this context may miss the end of the last session; later"},
		{capture.Worked{Left: true, Pending: 2, Waiting: []watcher.Wait{{Reason: watcher.WaitRetry}}}, "the session-start deadline came first: 1 queued event is left, so this context may miss the end of the last session; later"},
		{capture.Worked{Left: true}, "the session-start deadline came first: ending the sessions whose last hooks never wrote is left, so this context may miss the end of the last session; later"},
	} {
		if got := leftNote(tc.n, "later"); got != tc.want {
			t.Errorf("leftNote(%+v) =\n%s\nwant\n%s", tc.n, got, tc.want)
		}
	}
}
