package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
)

// memoryAt makes a memory in the project folder project (created), and
// returns it with the warnings it gives.
func memoryAt(t *testing.T, project string) (*memory.Memory, *[]string) {
	t.Helper()
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warns []string
	m, _, err := memory.Init(context.Background(), project, memory.Options{
		Identity: memory.Identity{Name: "test", Email: "test@example.com"},
		Warn: func(s string) {
			mu.Lock()
			warns = append(warns, s)
			mu.Unlock()
			t.Log("warn: " + s)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, &warns
}

// sessionIn is a Claude Code transcript of a session run in cwd.
func sessionIn(cwd, prompt string) string {
	return `{"type":"file-history-snapshot","messageId":"m1","snapshot":{}}` + "\n" +
		fmt.Sprintf(`{"parentUuid":null,"cwd":%q,"sessionId":"s1","type":"user","message":{"role":"user","content":%q},"uuid":"u1","timestamp":"2026-01-05T10:00:00.000Z"}`, cwd, prompt) + "\n"
}

// codexLines is a Codex rollout of a session run in cwd.
func codexLines(cwd string) string {
	return fmt.Sprintf(`{"timestamp":"2026-01-05T10:00:00.000Z","type":"session_meta","payload":{"id":"019ac9f0-0000-7000-8000-000000000001","cwd":%q}}`, cwd) + "\n"
}

// A transcript is read only when it is the project's: in its own folder
// under ~/.claude/projects (named as Claude Code names it, also for a
// path with dots, underscores and spaces), in another folder there only
// when its session ran in the project or below it, a Codex rollout only
// of a session run there, a Gemini chat only in the project's folder, or
// a path cairn.yaml allows; never through a symbolic link, never in the
// memory's state. Each refusal names the path and why.
func TestOpenTranscript(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	project := filepath.Join(t.TempDir(), "src", "my_proj.v2 (copy)")
	m, _ := memoryAt(t, project)
	m.Config.Capture.Transcripts = append(slices.Clone(config.DefaultTranscripts), "~/allowed/*.jsonl")

	projects := filepath.Join(home, ".claude", "projects")
	own := filepath.Join(projects, follow.ClaudeProjectName(project))
	if want := strings.NewReplacer("/", "-", "_", "-", ".", "-", " ", "-", "(", "-", ")", "-").Replace(project); filepath.Base(own) != want {
		t.Fatalf("project folder %q, want %q", filepath.Base(own), want)
	}
	elsewhere := t.TempDir()
	write := func(p, data string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, p string) string {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	secret := write(filepath.Join(elsewhere, "secret.jsonl"), sessionIn(project, "a secret from elsewhere"))
	others := write(filepath.Join(projects, "-other-proj", "other.jsonl"), sessionIn("/other/proj", "another project's prompt"))
	write(filepath.Join(elsewhere, "s9", "subagents", "agent-a.jsonl"), sessionIn(project, "x"))
	os.MkdirAll(filepath.Join(own, "dir.jsonl"), 0o755)
	gemini := filepath.Join(home, ".gemini", "tmp")
	codex := filepath.Join(home, ".codex", "sessions", "2026", "01", "05")

	for _, tc := range []struct {
		name, path string
		want       string // "" when read; else what the refusal says
	}{
		{"this project's session", write(filepath.Join(own, "s1.jsonl"), sessionIn(project, "hi")), ""},
		{"this project's subagent", write(filepath.Join(own, "s1", "subagents", "agent-a.jsonl"), sessionIn(project, "hi")), ""},
		{"this project's, not written yet", filepath.Join(own, "s2.jsonl"), "no such file"},
		{"a session started in a subfolder", write(filepath.Join(projects, follow.ClaudeProjectName(filepath.Join(project, "web", "ui")), "s3.jsonl"), sessionIn(filepath.Join(project, "web", "ui"), "hi")), ""},
		{"another project's", others, "is not a transcript cairn follows: it lies in another project's Claude Code folder (its session ran in /other/proj"},
		{"a sibling whose folder name begins with this one's", write(filepath.Join(projects, follow.ClaudeProjectName(project+"-old"), "s4.jsonl"), sessionIn(project+"-old", "hi")), "another project's Claude Code folder"},
		{"another folder, no working folder yet", write(filepath.Join(projects, "-other-proj", "new.jsonl"), `{"type":"summary","summary":"x"}`+"\n"), "does not say yet where its session ran"},
		{"a link in this project's folder to a file elsewhere", link(secret, filepath.Join(own, "s5.jsonl")), filepath.Join(own, "s5.jsonl") + " is a symbolic link"},
		{"a link in this project's folder to another project's", link(others, filepath.Join(own, "s6.jsonl")), "symbolic link"},
		{"a subagent through a linked folder", link(filepath.Join(elsewhere, "s9"), filepath.Join(own, "s9")) + "/subagents/agent-a.jsonl", filepath.Join(own, "s9") + " is a symbolic link"},
		{"a folder named as a transcript", filepath.Join(own, "dir.jsonl"), "not a regular file"},
		{"no transcript's name", write(filepath.Join(own, "notes.txt"), "x"), "none of the project's transcript folders"},
		{"this project's Codex session", write(filepath.Join(codex, "rollout-2026-01-05T10-00-00-a.jsonl"), codexLines(project)), ""},
		{"a Codex session in a subfolder", write(filepath.Join(codex, "rollout-2026-01-05T10-00-00-b.jsonl"), codexLines(filepath.Join(project, "cmd"))), ""},
		{"another project's Codex session", write(filepath.Join(codex, "rollout-2026-01-05T10-00-00-c.jsonl"), codexLines("/other/proj")), "its Codex session ran in /other/proj"},
		{"a link among Codex's rollouts", link(filepath.Join(codex, "rollout-2026-01-05T10-00-00-a.jsonl"), filepath.Join(codex, "rollout-2026-01-05T10-00-00-d.jsonl")), "symbolic link"},
		{"this project's Gemini chat", write(filepath.Join(gemini, follow.GeminiProjectName(home, project), "chats", "session-2026-01-05T10-00-aaaa.jsonl"), "{}\n"), ""},
		{"another project's Gemini chat", write(filepath.Join(gemini, "0123abcd", "chats", "session-2026-01-05T10-00-bbbb.jsonl"), "{}\n"), "another project's Gemini CLI folder"},
		{"a path cairn.yaml allows", write(filepath.Join(home, "allowed", "t.jsonl"), sessionIn("/anywhere", "hi")), ""},
		{"a link where cairn.yaml allows", link(secret, filepath.Join(home, "allowed", "l.jsonl")), "symbolic link"},
		{"the summarizer's own", write(filepath.Join(m.Dir, ".state", "summarize", "claude", "projects", "x", "s.jsonl"), sessionIn(project, "x")), "the memory's own state"},
		{"outside every folder", "/etc/passwd", "none of the project's transcript folders"},
		{"a relative path", "s1.jsonl", "not an absolute, clean path"},
		{"an unclean path", own + "/../" + filepath.Base(own) + "/s1.jsonl", "not an absolute, clean path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := follow.Open(m, tc.path)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				defer f.Close()
				if off, _ := f.Seek(0, io.SeekCurrent); off != 0 {
					t.Errorf("opened at %d, not at its start", off)
				}
				if !follow.Allowed(m, tc.path) {
					t.Error("follow.Allowed says no")
				}
				return
			}
			if err == nil {
				f.Close()
				t.Fatalf("read, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q in it", err, tc.want)
			}
			if refused := strings.Contains(tc.want, " "); refused && strings.Contains(err.Error(), "is not a transcript cairn follows") {
				if !errors.Is(err, follow.ErrRefused) || !strings.HasPrefix(err.Error(), tc.path+" ") || strings.Contains(err.Error(), "\n") {
					t.Errorf("refusal %q: not one line naming the path first", err)
				}
			}
			if follow.Allowed(m, tc.path) {
				t.Error("follow.Allowed says yes")
			}
		})
	}
}

// A hook payload that names another project's transcript, or a link in
// the project's folder, captures the payload's own events, not the file:
// the other project's prompts never reach this memory, and one warning
// names the path and why.
func TestCaptureHookOtherProjectsTranscript(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	project := filepath.Join(t.TempDir(), "proj_a.git")
	m, warns := memoryAt(t, project)
	ctx := context.Background()
	data := basicFixture(t) // a session run in /home/dev/src/tidepool
	others := filepath.Join(home, ".claude", "projects", "-home-dev-src-tidepool", basicID+".jsonl")
	os.MkdirAll(filepath.Dir(others), 0o755)
	os.WriteFile(others, data, 0o644)
	own := filepath.Join(home, ".claude", "projects", follow.ClaudeProjectName(project))
	os.MkdirAll(own, 0o755)
	linked := filepath.Join(own, "s-link.jsonl")
	if err := os.Symlink(others, linked); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ session, path, why string }{
		{"sother", others, "another project's Claude Code folder"},
		{"slink", linked, "is a symbolic link"},
	} {
		*warns = nil
		payload := fmt.Sprintf(`{"session_id":%q,"hook_event_name":"Stop","transcript_path":%q,"cwd":"/home/dev/src/tidepool","last_assistant_message":"done here"}`, tc.session, tc.path)
		res, err := CaptureHook(ctx, m, []byte(payload))
		if err != nil {
			t.Fatalf("%s: %v", tc.session, err)
		}
		e, err := m.Sessions().Find(tc.session)
		if err != nil {
			t.Fatalf("%s: the payload's own events were not captured: %v", tc.session, err)
		}
		if src := e.Session.SourceNamed(filepath.Base(tc.path), false); src != nil || res.Events != 1 {
			t.Errorf("%s: the transcript was read: source %+v, %d events", tc.session, src, res.Events)
		}
		if got := strings.Join(*warns, "\n"); len(*warns) != 1 || !strings.HasPrefix(got, tc.path+" is not a transcript cairn follows: ") || !strings.Contains(got, tc.why) {
			t.Errorf("%s: warnings %q, want one naming %s and %q", tc.session, *warns, tc.path, tc.why)
		}
	}
	out, err := exec.Command("git", "-C", m.Dir, "grep", "-i", "TestRetryQueue", "HEAD").CombinedOutput()
	if err == nil || len(out) != 0 {
		t.Errorf("the other project's prompt is in the memory:\n%s", out)
	}
	// A transcript-delta job naming it fails for good, saying why.
	if _, err := CatchUpTranscript(ctx, m, others, true); !IsPermanent(err) || !errors.Is(err, follow.ErrRefused) {
		t.Errorf("catch up of another project's transcript: %v", err)
	}
}
