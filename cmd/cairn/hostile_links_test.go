package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 12, item 1: the hostile work tree, symbolic links. A link inside
// .cairn/ to a file outside it, a linked folder under core/ and a linked
// session folder must put nothing of what they point at into any output
// or any commit: cairn never follows a link where it reads memory, never
// commits one, and verify and doctor name them.

// plantedToken is the secret the links point at. It looks like no
// secret the redactor knows, so that only not following the links keeps
// it out (a redacted leak would hide the hole, not close it).
const plantedToken = "PLANTED-token-7f3a9c1e5b"

const linkedSession = "9a8b7c6d-link-0001"

// hostileLinks makes a project whose memory holds a real item and three
// links to files outside it, each holding plantedToken:
// core/facts/env.md (a file), core/linked/ (a folder) and
// sessions/<linkedSession>/ (a session folder). It returns the project.
func hostileLinks(t *testing.T) string {
	t.Helper()
	p := project(t)
	ok(t, p, "init")
	ok(t, p, "remember", "--kind", "fact", "Integration tests need PostgreSQL on port 5433")
	mem := filepath.Join(p, ".cairn")
	outside := t.TempDir()
	item := "---\nid: 01HZZZZZZZZZZZZZZZZZZZZZZZ\nkind: fact\ntitle: outside " + plantedToken + "\nimportance: 1\n---\n# outside\n\nTOKEN=" + plantedToken + "\n"
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "env.md"), item)
	write(filepath.Join(outside, "dir", "leaked.md"), strings.Replace(item, "01HZZZZZZZZZZZZZZZZZZZZZZZ", "01HYYYYYYYYYYYYYYYYYYYYYYY", 1))
	write(filepath.Join(outside, "sess", "session.yaml"), "id: "+linkedSession+"\nstatus: active\ngoal: "+plantedToken+"\nupdated: 2030-01-01T00:00:00Z\n")
	write(filepath.Join(outside, "sess", "summary.md"), "# Summary\n\n"+plantedToken+"\n")
	link(filepath.Join(outside, "env.md"), filepath.Join(mem, "core", "facts", "env.md"))
	link(filepath.Join(outside, "dir"), filepath.Join(mem, "core", "linked"))
	link(filepath.Join(outside, "sess"), filepath.Join(mem, "sessions", linkedSession))
	return p
}

// noToken fails the test when plantedToken is in any of outs.
func noToken(t *testing.T, what string, outs ...string) {
	t.Helper()
	for _, o := range outs {
		if strings.Contains(o, plantedToken) {
			t.Fatalf("%s: the planted token leaked:\n%s", what, o)
		}
	}
}

// noTokenInHistory checks every commit of mem, and that no link is
// recorded (mode 120000).
func noTokenInHistory(t *testing.T, mem string) {
	t.Helper()
	noToken(t, "git log -p --all", gitc(t, mem, "log", "-p", "--all"))
	if files := gitc(t, mem, "ls-files", "-s"); strings.Contains(files, "120000 ") {
		t.Errorf("a symbolic link is committed:\n%s", files)
	}
}

func TestHostileLinkList(t *testing.T) {
	p := hostileLinks(t)
	r := cairn(t, p, "", "list")
	if r.code != 0 {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	noToken(t, "list", r.stdout, r.stderr)
	if !strings.Contains(r.stdout, "PostgreSQL") {
		t.Errorf("list lost the real item:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "core/facts/env.md is a symbolic link") {
		t.Errorf("list does not name the link:\n%s", r.stderr)
	}
	r = cairn(t, p, "", "list", "--json")
	noToken(t, "list --json", r.stdout, r.stderr)
	r = cairn(t, p, "", "session", "list")
	noToken(t, "session list", r.stdout, r.stderr)
}

func TestHostileLinkShow(t *testing.T) {
	p := hostileLinks(t)
	for _, ref := range []string{"core/facts/env.md", "core/linked/leaked.md", "01HZZZZZZZZZ", "sessions/" + linkedSession + "/summary.md"} {
		r := cairn(t, p, "", "show", ref)
		noToken(t, "show "+ref, r.stdout, r.stderr)
		if r.code == 0 {
			t.Errorf("show %s: exit 0\n%s", ref, r.stdout)
		}
	}
	r := cairn(t, p, "", "show", "core/facts/env.md")
	if first, _, _ := strings.Cut(r.stderr, "\n"); !strings.Contains(first, "core/facts/env.md is a symbolic link") {
		t.Errorf("show: the error does not name the link: %q", r.stderr)
	}
	r = cairn(t, p, "", "show", "core/linked/leaked.md")
	if !strings.Contains(r.stderr, "core/linked is a symbolic link") {
		t.Errorf("show through a linked folder: the error does not name it: %q", r.stderr)
	}
}

func TestHostileLinkContext(t *testing.T) {
	p := hostileLinks(t)
	r := cairn(t, p, "", "context")
	noToken(t, "context", r.stdout, r.stderr)
	r = cairn(t, p, "", "context", "--session", linkedSession, "-q", "outside TOKEN")
	noToken(t, "context --session", r.stdout, r.stderr)
	r = cairn(t, p, `{"session_id":"5e1d2c3b-eeee","hook_event_name":"SessionStart","source":"startup"}`, "hook", "session-start")
	noToken(t, "hook session-start", r.stdout, r.stderr)
	if !strings.Contains(r.stdout, "PostgreSQL") {
		t.Errorf("session-start pack lost the real item:\n%s", r.stdout)
	}
}

func TestHostileLinkSearch(t *testing.T) {
	p := hostileLinks(t)
	r := cairn(t, p, "", "reindex")
	noToken(t, "reindex", r.stdout, r.stderr)
	// Not the token itself: search says what it looked for.
	for _, q := range []string{"PLANTED", "7f3a9c1e5b", "TOKEN outside", "outside", "PostgreSQL"} {
		r := cairn(t, p, "", "search", q)
		noToken(t, "search "+q, r.stdout, r.stderr)
		r = cairn(t, p, "", "search", "--json", q)
		noToken(t, "search --json "+q, r.stdout, r.stderr)
	}
	if out := ok(t, p, "search", "PostgreSQL"); !strings.Contains(out, "PostgreSQL") {
		t.Errorf("search lost the real item:\n%s", out)
	}
	// A file indexed as it was, then swapped for a link: the hit's text
	// is read from the work tree, never through the link.
	mem := filepath.Join(p, ".cairn")
	ok(t, p, "remember", "--kind", "fact", "Swapped runbook lives in the wiki")
	out := ok(t, p, "list", "--json")
	_, rest, _ := strings.Cut(out, `"path": "core/facts/`)
	name, _, _ := strings.Cut(rest, `"`)
	ok(t, p, "search", "Swapped runbook")
	swapped := filepath.Join(mem, "core", "facts", name)
	os.Remove(swapped)
	secret := filepath.Join(t.TempDir(), "swap.md")
	os.WriteFile(secret, []byte("# Swapped runbook lives in the wiki "+plantedToken+"\n\nSwapped runbook "+plantedToken+"\n"), 0o600)
	os.Symlink(secret, swapped)
	for _, args := range [][]string{{"search", "Swapped runbook"}, {"search", "--json", "Swapped runbook"}, {"context", "-q", "Swapped runbook"}} {
		r := cairn(t, p, "", args...)
		noToken(t, strings.Join(args, " ")+" after a swap", r.stdout, r.stderr)
	}
}

func TestHostileLinkMCPGet(t *testing.T) {
	p := hostileLinks(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(binary, "-C", p, "mcp")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	refs := []string{"core/facts/env.md", "core/linked/leaked.md", "01HZZZZZZZZZ", "01HYYYYYYYYY", "sessions/" + linkedSession + "/summary.md", "sessions/" + linkedSession + "/session.yaml"}
	for _, ref := range refs {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get", Arguments: map[string]any{"ids": []string{ref}}})
		if err != nil {
			t.Fatalf("get %s: %v", ref, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		noToken(t, "mcp get "+ref, b.String())
		if !res.IsError {
			t.Errorf("mcp get %s: not an error: %s", ref, b.String())
		}
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{{"search", map[string]any{"query": "outside TOKEN"}}, {"context", map[string]any{}}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.name, Arguments: tool.args})
		if err != nil {
			t.Fatalf("%s: %v", tool.name, err)
		}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				noToken(t, "mcp "+tool.name, tc.Text)
			}
		}
	}
	cs.Close()
	noToken(t, "mcp stderr", stderr.String())
}

func TestHostileLinkShare(t *testing.T) {
	p := hostileLinks(t)
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	ok(t, other, "init")
	r := cairn(t, p, "", "share", "--to", other, "--what", "full")
	noToken(t, "share --to", r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("share: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	noTokenInHistory(t, filepath.Join(other, ".cairn"))
	r = cairn(t, other, "", "list")
	noToken(t, "list in the other project", r.stdout, r.stderr)
	if !strings.Contains(r.stdout, "PostgreSQL") {
		t.Errorf("share did not copy the real item:\n%s", r.stdout)
	}
}

func TestHostileLinkCheckpoint(t *testing.T) {
	p := hostileLinks(t)
	mem := filepath.Join(p, ".cairn")
	os.WriteFile(filepath.Join(mem, "core", "facts", "hand.md"), []byte("# Hand edit\n\nwritten by hand\n"), 0o600)
	r := cairn(t, p, "", "status")
	noToken(t, "status", r.stdout, r.stderr)
	r = cairn(t, p, "", "checkpoint", "-m", "hand edit")
	noToken(t, "checkpoint", r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("checkpoint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"core/facts/env.md is a symbolic link", "core/linked is a symbolic link", "sessions/" + linkedSession + " is a symbolic link"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("checkpoint does not say %q:\n%s", want, r.stderr)
		}
	}
	if files := gitc(t, mem, "ls-files", "-s"); !strings.Contains(files, "core/facts/hand.md") {
		t.Errorf("the hand edit was not committed:\n%s", files)
	}
	// Nothing left: the links stay out of every later checkpoint too.
	r = cairn(t, p, "", "checkpoint")
	noToken(t, "checkpoint again", r.stdout, r.stderr)
	ok(t, p, "remember", "--kind", "decision", "Use sqlc for queries")
	noTokenInHistory(t, mem)
}

func TestHostileLinkVerify(t *testing.T) {
	p := hostileLinks(t)
	r := cairn(t, p, "", "verify")
	noToken(t, "verify", r.stdout, r.stderr)
	if r.code == 0 {
		t.Errorf("verify: exit 0 with links in the memory\n%s", r.stdout)
	}
	for _, want := range []string{"core/facts/env.md", "core/linked", "sessions/" + linkedSession, "rm "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify does not say %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
}

func TestHostileLinkDoctor(t *testing.T) {
	p := hostileLinks(t)
	r := cairn(t, p, "", "doctor")
	noToken(t, "doctor", r.stdout, r.stderr)
	if r.code == 0 {
		t.Errorf("doctor: exit 0 with links in the memory\n%s", r.stdout)
	}
	for _, want := range []string{"links", "core/facts/env.md", "core/linked", "sessions/" + linkedSession, "fix: remove them"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, r.stdout)
		}
	}
}

// A link HEAD already records (an old cairn's commit, or one made with
// git) is reported by verify, and removing it and checkpointing clears it.
func TestHostileLinkCommittedVerify(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	os.MkdirAll(filepath.Join(mem, "core", "facts"), 0o700)
	if err := os.Symlink("/etc/hostname", filepath.Join(mem, "core", "facts", "host.md")); err != nil {
		t.Fatal(err)
	}
	gitc(t, mem, "add", "core/facts/host.md")
	gitc(t, mem, "commit", "-qm", "a link, committed with git")
	r := cairn(t, p, "", "verify")
	if r.code == 0 || !strings.Contains(r.stdout, "core/facts/host.md (a symbolic link HEAD records") {
		t.Errorf("verify of a committed link: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.Remove(filepath.Join(mem, "core", "facts", "host.md"))
	ok(t, p, "checkpoint", "-m", "remove the link")
	if files := gitc(t, mem, "ls-files", "-s"); strings.Contains(files, "120000 ") {
		t.Errorf("the link is still committed:\n%s", files)
	}
	if out := ok(t, p, "verify", "--no-index"); !strings.Contains(out, "ok") {
		t.Errorf("verify after the fix:\n%s", out)
	}
}
