package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/model"
)

// TestOwnConfigInvalid: a memory whose own cairn.yaml was broken by hand
// still opens and writes, with the defaults for the bad keys (the good
// ones kept) and one warning naming them.
func TestOwnConfigInvalid(t *testing.T) {
	ctx := context.Background()
	m0 := testMemory(t)
	dir := m0.Dir
	m0.Close()
	bad := "schema: 1\nsearch:\n  context_budget: 900\ncapture:\n  redact:\n    rules: [{kind: x, pattern: '(unclosed'}]\nsummarize:\n  daily_tokens: -7\nmystery: 1\n"
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var warns []string
	m, err := Open(ctx, dir, Options{Identity: gitstore.Identity{Name: "test", Email: "test@example.com"}, Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(warns) != 1 {
		t.Fatalf("warnings %q, want one", warns)
	}
	for _, want := range []string{"line 6: capture.redact.rules[1]", "line 8: summarize.daily_tokens", "line 9: mystery: unknown key", "using the defaults for the invalid keys"} {
		if !strings.Contains(warns[0], want) {
			t.Errorf("warning %q lacks %q", warns[0], want)
		}
	}
	if m.Config.Search.ContextBudget != 900 || m.Config.Summarize.DailyTokens != 0 || len(m.Config.Capture.Redact.Rules) != 0 {
		t.Errorf("config %+v", m.Config)
	}
	it := model.NewItem(model.Fact, "Still writes", m.Now())
	it.Body = "The key is AKIA2E0A8F3B244C9986."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatalf("a write with a broken cairn.yaml: %v", err)
	}
	if got := gitc(t, m.Dir, "show", "HEAD:"+it.Path()); strings.Contains(got, "AKIA2E0A8F3B244C9986") {
		t.Errorf("not redacted:\n%s", got)
	}
}
