package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/refs"
)

// contextMemory makes a memory with pinned and core items, a current
// session, an older session and archived ones.
func contextMemory(t *testing.T) *memory.Memory {
	t.Helper()
	m, _ := newTestMemory(t)
	item := func(kind model.Kind, title, body string, imp float64, pinned bool) (string, string) {
		it := model.NewItem(kind, title, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
		it.Body, it.Importance, it.Pinned = body, imp, pinned
		data, err := it.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return it.Path(), string(data)
	}
	files := map[string]string{}
	add := func(p, data string) { files[p] = data }
	add(item(model.Preference, "Answer in British English", "The user wants British spelling in code comments and docs.", 0.5, true))
	add(item(model.Decision, "Use PostgreSQL for the job queue", "We chose PostgreSQL over Redis because enqueueing must commit with the data.", 0.9, false))
	add(item(model.Fact, "Deploys go through Kubernetes", "Helm charts live in deploy/; rollbacks use helm rollback.", 0.7, false))
	add(item(model.Note, "Lunch order", "Someone likes pizza.", 0.1, false))
	add("core/facts/broken--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", "---\nimportance: [\n---\nThe build cache lives in /var/cache/build.\n")
	add("sessions/aaaa1111-old/session.yaml", "id: aaaa1111-old\nstatus: suspended\nupdated: 2026-11-01T00:00:00Z\n")
	add("sessions/aaaa1111-old/summary.md", "## Segment 1\n\nThe agent profiled the importer and found the hot loop.\n")
	add("sessions/bbbb2222-new/session.yaml", "schema: 1\nid: bbbb2222-new\nmemory_session: 01JDXK3V9M2Q7Y8Z4T6R5W1HBD\nstatus: active\ntitle: Fix flaky checkout tests\nprompts: 4\nprogress: {done: 2, total: 5}\nvariables:\n  branch: fix/e2e\nsources:\n  - path: /home/x/.claude/projects/p/s.jsonl\n    offset: 1234\n")
	add("sessions/bbbb2222-new/summary.md", "## Segment 1\n\nFixed sleeps in the checkout spec were replaced by waiting for the order summary.\n")
	add("archive/2025/04/cccc3333-arch/summary.md", "## Segment 1\n\nThe quarterly invoice export was rewritten to stream CSV rows.\n")
	add("archive/2025/05/dddd4444-arch/summary.md", "## Segment 1\n\nThe importer now batches inserts of 500 rows.\n")
	writeFiles(t, m, files)
	// The newest session is the one whose folder changed last.
	old := time.Now().Add(-time.Hour)
	chtimes(t, m, "sessions/aaaa1111-old", old)
	return m
}

func TestContextPack(t *testing.T) {
	m := contextMemory(t)
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	p, err := x.Context(ctx, ContextOptions{Query: "invoice export csv"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pack (%d tokens, %d characters):\n%s", p.UsedTokens, len(p.Text), p.Text)
	if p.BudgetTokens != DefaultContextBudget || p.UsedTokens != indexer.EstimateTokens(p.Text) || p.UsedTokens > p.BudgetTokens {
		t.Errorf("budget %d used %d, text has %d", p.BudgetTokens, p.UsedTokens, indexer.EstimateTokens(p.Text))
	}
	// In order: pinned, core by importance, the latest sessions, retrieved.
	order := []string{
		"## Pinned", "Answer in British English",
		"## Core memory", "Use PostgreSQL for the job queue", "Deploys go through Kubernetes", "Lunch order",
		"## Latest sessions", "### Fix flaky checkout tests", "(session bbbb2222)", "Progress: 2 of 5 steps done", "Variable branch: fix/e2e", "Fixed sleeps",
		"(session aaaa1111)", "profiled the importer",
		"## Related to: invoice export csv", "quarterly invoice export",
	}
	at := 0
	for _, want := range order {
		i := strings.Index(p.Text[at:], want)
		if i < 0 {
			t.Fatalf("pack lacks %q after offset %d", want, at)
		}
		at += i + len(want)
	}
	for _, not := range []string{"memory_session", "offset: 1234", "sources", "status: active"} {
		if strings.Contains(p.Text, not) {
			t.Errorf("pack holds %q", not)
		}
	}
	if !strings.Contains(p.Text, "build cache lives in /var/cache/build") {
		t.Errorf("broken item left out of the pack")
	}
	seen := map[string]bool{}
	for _, it := range p.Items {
		if seen[it.Path] {
			t.Errorf("%s packed twice", it.Path)
		}
		seen[it.Path] = true
	}
	if !seen["archive/2025/04/cccc3333-arch/summary.md"] {
		t.Errorf("retrieved summary not in items %+v", p.Items)
	}
	if n := refs.Load(m)["archive/2025/04/cccc3333-arch/summary.md"]; n != 1 {
		t.Errorf("reference count %d, want 1", n)
	}
	if n := refs.Load(m)["sessions/bbbb2222-new/summary.md"]; n != 0 {
		t.Errorf("the session's own summary counted %d references", n)
	}

	// A named session comes first; an unknown one is said and skipped.
	p, err = x.Context(ctx, ContextOptions{Session: "aaaa"})
	if err != nil || !strings.Contains(p.Text, "(session aaaa1111, current)") || strings.Index(p.Text, "aaaa1111") > strings.Index(p.Text, "bbbb2222") {
		t.Errorf("named session: %v\n%s", err, p.Text)
	}
	p, err = x.Context(ctx, ContextOptions{Session: "zzzz"})
	if err != nil || len(p.Warnings) != 1 || strings.Contains(p.Text, "current)") {
		t.Errorf("unknown session: %v %q", err, p.Warnings)
	}
	if _, err := x.Context(ctx, ContextOptions{Budget: -5}); err == nil {
		t.Error("negative budget accepted")
	}

	// Without an index: everything but the retrieval, with a warning.
	p, err = Context(ctx, m, ContextOptions{Query: "invoice"})
	if err != nil || len(p.Warnings) != 1 || strings.Contains(p.Text, "quarterly invoice") || !strings.Contains(p.Text, "Use PostgreSQL") {
		t.Errorf("without an index: %v %q\n%s", err, p.Warnings, p.Text)
	}
}

// bigMemory makes a memory larger than any budget: many core items with
// long bodies, and sessions.
func bigMemory(t testing.TB, items int) *memory.Memory {
	t.Helper()
	m, _ := newTestMemory(t)
	rng := rand.New(rand.NewPCG(5, 6))
	words := strings.Fields("the queue worker retries failed jobs with exponential backoff while postgres keeps the rows and the handler maps errors to status codes after review of migrations and deploys")
	text := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(words[rng.IntN(len(words))])
			if i%12 == 11 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	files := map[string]string{}
	for i := range items {
		it := model.NewItem(model.Kinds()[i%5], fmt.Sprintf("Item %d about %s", i, words[i%len(words)]), time.Now())
		it.Body, it.Importance, it.Pinned = text(50+rng.IntN(400)), float64(rng.IntN(11))/10, i%40 == 0
		data, _ := it.Marshal()
		files[it.Path()] = string(data)
	}
	for i := range 5 {
		files[fmt.Sprintf("sessions/s%d/summary.md", i)] = "## Segment\n\n" + text(800)
		files[fmt.Sprintf("sessions/s%d/transcript.md", i)] = "**User**: " + text(600)
		files[fmt.Sprintf("sessions/s%d/session.yaml", i)] = "status: active\nprogress: {done: 1, total: 3}\nvariables: {a: " + strings.Repeat("x", 2000) + "}\n"
	}
	writeFiles(t, m, files)
	return m
}

func TestContextBudget(t *testing.T) {
	m := bigMemory(t, 200)
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	smallest := 1 << 30
	for _, budget := range []int{0, 1, 5, 12, 20, 40, 80, 150, 300, 700, 1500, 4000} {
		for _, q := range []string{"", "postgres retries backoff"} {
			p, err := x.Context(ctx, ContextOptions{Query: q, Budget: budget})
			if err != nil {
				t.Fatalf("budget %d: %v", budget, err)
			}
			got := indexer.EstimateTokens(p.Text)
			if got > p.BudgetTokens || got != p.UsedTokens {
				t.Errorf("budget %d query %q: text has %d tokens, says %d", p.BudgetTokens, q, got, p.UsedTokens)
			}
			sum := 0
			for _, it := range p.Items {
				sum += it.Tokens
				smallest = min(smallest, it.Tokens)
			}
			if sum > p.BudgetTokens {
				t.Errorf("budget %d: items add up to %d tokens", p.BudgetTokens, sum)
			}
			if len(p.LeftOut) == 0 {
				t.Errorf("budget %d: nothing left out of 200 items", p.BudgetTokens)
			}
			if budget >= 80 && !strings.Contains(p.Text, "Left out") {
				t.Errorf("budget %d: no manifest:\n%s", budget, p.Text)
			}
			if budget == 0 {
				// The default must leave Claude Code's 10,000-character
				// hook limit far behind.
				t.Logf("default budget, query %q: %d tokens, %d characters, %d items, %d left out", q, p.UsedTokens, len(p.Text), len(p.Items), len(p.LeftOut))
				if len(p.Text) > 9000 {
					t.Errorf("default pack is %d characters", len(p.Text))
				}
				if len(p.Items) < 10 {
					t.Errorf("default pack holds only %d items", len(p.Items))
				}
			}
			if budget > 0 && budget <= 5 && p.Text != "" {
				t.Errorf("budget %d gave %q", budget, p.Text)
			}
		}
	}
	t.Logf("smallest packed item: %d tokens", smallest)
}

func TestContextEmptyMemory(t *testing.T) {
	m, _ := newTestMemory(t)
	x := mustOpenIndex(t, m)
	p, err := x.Context(context.Background(), ContextOptions{Query: "anything"})
	if err != nil || p.Text != "" || len(p.Items) != 0 || len(p.LeftOut) != 0 || p.UsedTokens != 0 {
		t.Errorf("empty memory: %+v %v", p, err)
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED. Workers never block.", []string{"Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED.", "Workers never block."}},
		{"Edit main.go, e.g. the handler. Then run `go test ./...`. Done!", []string{"Edit main.go, e.g. the handler.", "Then run `go test ./...`.", "Done!"}},
		{"Is it v1.2? Yes. It is… fine.", []string{"Is it v1.2?", "Yes.", "It is… fine."}},
		{"Call `a. B` now. ok then.", []string{"Call `a. B` now.", "ok then."}},
		{"Log is in logs/deploy.log. we deploy by hand, e.g. the app.", []string{"Log is in logs/deploy.log.", "we deploy by hand, e.g. the app."}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := digest.Sentences(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("digest.Sentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	s := "The bug was that minutes were multiplied by time.Hour. The fix divides first. Tests pass."
	for _, n := range []int{1, 5, 12, 20, 50} {
		got := digest.Shorten(s, n)
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Errorf("digest.Shorten(%d) = %q: not a start of the text", n, got)
		}
		if indexer.EstimateTokens(got) > 2*n && n >= 12 {
			t.Errorf("digest.Shorten(%d) = %q: %d tokens", n, got, indexer.EstimateTokens(got))
		}
	}
	two := "The bug was that minutes were multiplied by time.Hour. The fix divides first."
	if got := digest.Shorten(s, indexer.EstimateTokens(two)); got != two {
		t.Errorf("digest.Shorten(%d) = %q", indexer.EstimateTokens(two), got)
	}
	long := strings.Repeat("word ", 200) + "end."
	if got := digest.Shorten(long, 20); !strings.HasSuffix(got, "…") || indexer.EstimateTokens(got) > 20 {
		t.Errorf("shorten of a long sentence = %q", got)
	}
}

func chtimes(t *testing.T, m *memory.Memory, p string, when time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(m.Dir, filepath.FromSlash(p)), when, when); err != nil {
		t.Fatal(err)
	}
}

// TestCoreCache checks that the cached ranking keys of core items follow
// checkpoints (from the diff), hand commits and a damaged cache.
func TestCoreCache(t *testing.T) {
	m, _ := newTestMemory(t)
	ctx := context.Background()
	a := remember(t, m, model.Fact, "Alpha fact", "alpha")
	pack := func() string {
		t.Helper()
		p, err := Context(ctx, m, ContextOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return p.Text
	}
	if !strings.Contains(pack(), "Alpha fact") {
		t.Fatal("first pack lacks the item")
	}
	b := model.NewItem(model.Preference, "Beta preference", time.Now())
	b.Pinned = true
	if _, err := m.Remember(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := pack(); !strings.Contains(got, "## Pinned\n- **Beta preference**") {
		t.Errorf("new pinned item not packed first:\n%s", got)
	}
	if _, _, err := m.Forget(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if got := pack(); strings.Contains(got, "Alpha fact") {
		t.Errorf("forgotten item packed:\n%s", got)
	}
	os.WriteFile(m.StatePath("catalog-core.tsv"), []byte("{broken"), 0o644)
	if got := pack(); !strings.Contains(got, "Beta preference") {
		t.Errorf("after a damaged cache:\n%s", got)
	}
	// A catalogue naming a commit this repository lacks is rebuilt too.
	os.WriteFile(m.StatePath("catalog-core.tsv"), []byte("cairn-catalog 1 core "+strings.Repeat("ab", 20)+" "+strings.Repeat("cd", 20)+" 0\nend 0\n"), 0o644)
	if got := pack(); !strings.Contains(got, "Beta preference") {
		t.Errorf("after a cache of an unknown commit:\n%s", got)
	}
}

// BenchmarkContext packs the default budget from a memory of 200 core
// items and five sessions: what a session start costs before the hook
// prints (the retirement of changed statements compares every older
// sentence with every newer statement).
func BenchmarkContext(b *testing.B) {
	m := bigMemory(b, 200)
	x := mustOpenIndex(b, m)
	ctx := context.Background()
	for b.Loop() {
		if _, err := x.Context(ctx, ContextOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
