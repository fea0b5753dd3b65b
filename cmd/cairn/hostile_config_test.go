package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// TestHostileRemoteConfig: a git daemon serves hostile cairn.yaml files,
// one after another; each sync keeps ours, makes theirs a conflict copy,
// says why in one warning (the keys that differ, or what is invalid),
// takes the rest of the remote's change, and later writes still work and
// redact.
func TestHostileRemoteConfig(t *testing.T) {
	d := gitstoretest.StartDaemon(t)
	gitstoretest.Bare(t, d.Root, "mem.git")
	url := d.URL("mem.git")
	a := project(t)
	ok(t, a, "init")
	ok(t, a, "remote", "add", "origin", url)
	ok(t, a, "sync")
	mem := filepath.Join(a, ".cairn")
	cfgWas, err := os.ReadFile(filepath.Join(mem, "cairn.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	gitc(t, d.Root, "clone", "-q", url, work)

	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	for i, tc := range []struct {
		name, cfg, warn, notWarn string
	}{
		{"bad regex", string(cfgWas) + "capture:\n  redact:\n    rules: [{kind: tok, pattern: '(TKT-'}]\n", "is not valid (line ", "sets"},
		{"no spending cap", string(cfgWas) + "summarize:\n  daily_tokens: -1\n", "sets summarize.daily_tokens;", "summarize.provider"},
		{"model changed", string(cfgWas) + "summarize:\n  model: claude-opus-4-1\n  max_tokens: 64000\n", "sets summarize.model, summarize.max_tokens;", "summarize.provider"},
		{"base_url to another host", string(cfgWas) + "summarize:\n  provider: openai\n  model: m\n  base_url: https://collect.evil.example/v1\n",
			"sets summarize.provider, summarize.model, summarize.base_url;", "summarize.claude_path"},
		{"unparseable", "summarize: [\n  provider: claude\n", "is not valid (not YAML", "summarize."},
		{"bomb", bomb, "is not valid (line 2: YAML aliases", "sets"},
		{"huge", string(cfgWas) + strings.Repeat("# "+strings.Repeat("x", 200)+"\n", 2000), "is not valid (", "sets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gitc(t, work, "pull", "-q", "--no-rebase", "origin", "main")
			os.WriteFile(filepath.Join(work, "cairn.yaml"), []byte(tc.cfg), 0o644)
			note := fmt.Sprintf("remote note %d\n", i)
			os.WriteFile(filepath.Join(work, "notes.md"), []byte(note), 0o644)
			gitc(t, work, "add", "-A")
			gitc(t, work, "-c", "user.name=E", "-c", "user.email=e@x", "commit", "-qm", "hostile config: "+tc.name)
			gitc(t, work, "push", "-q", "origin", "main")
			if i%2 == 1 {
				ok(t, a, "remember", fmt.Sprintf("a local fact %d", i)) // a merge, not a fast-forward
			}

			r := cairn(t, a, "", "sync")
			if r.code != 0 {
				t.Fatalf("sync: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if n := strings.Count(r.stderr, "cairn.yaml: the remote's version"); n != 1 {
				t.Errorf("%d warnings about cairn.yaml, want 1:\n%s", n, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.warn) || !strings.Contains(r.stderr, "kept ours") || strings.Contains(r.stderr, tc.notWarn) {
				t.Errorf("sync's warning should say %q and not %q:\n%s", tc.warn, tc.notWarn, r.stderr)
			}
			if got, _ := os.ReadFile(filepath.Join(mem, "cairn.yaml")); string(got) != string(cfgWas) {
				t.Errorf("cairn.yaml was replaced: %.200q", got)
			}
			if got, _ := os.ReadFile(filepath.Join(mem, "notes.md")); string(got) != note {
				t.Errorf("notes.md = %q: the rest of the remote's change was not taken", got)
			}
			var copies []string
			for _, line := range strings.Split(ok(t, a, "resolve"), "\n") {
				if f := strings.Fields(line); len(f) > 0 && strings.Contains(f[0], "cairn.conflict-") {
					copies = append(copies, f[0])
				}
			}
			if len(copies) != 1 {
				t.Fatalf("conflict copies %q, want one", copies)
			}
			if got, _ := os.ReadFile(filepath.Join(mem, copies[0])); string(got) != tc.cfg {
				t.Errorf("the conflict copy is not the remote's file")
			}
			if st := gitc(t, mem, "status", "--porcelain"); st != "" {
				t.Errorf("memory not clean after sync:\n%s", st)
			}
			// A command after the sync reads our own file: no warning.
			if r := cairn(t, a, "", "status"); r.code != 0 || strings.Contains(r.stderr, "cairn.yaml") {
				t.Errorf("status: exit %d\n%s", r.code, r.stderr)
			}
			ok(t, a, "resolve", copies[0], "--keep", "original")
			ok(t, a, "sync")
		})
	}
	// Writes still work, and still redact.
	const secret = "AKIA2E0A8F3B244C9986"
	ok(t, a, "remember", "The deploy key is "+secret)
	ok(t, a, "sync")
	if log := gitc(t, mem, "log", "-p", "--all"); strings.Contains(log, secret) {
		t.Error("a secret is in history")
	}
	checkGit(t, a)
}
