package fsview

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// testMemory makes a memory with three checkpoints beyond the first, a
// tag, items of two kinds with tags, and a session file.
func testMemory(t testing.TB) *memory.Memory {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	ctx := context.Background()
	m, _, err := memory.Init(ctx, t.TempDir(), memory.Options{
		Identity: memory.Identity{Name: "test", Email: "test@example.com"},
		Warn:     func(s string) { t.Log("warn: " + s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	now := time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC)
	for i, x := range []struct {
		kind        model.Kind
		title, body string
		tags        []string
	}{
		{model.Decision, "Use PostgreSQL for the job queue", "We chose postgres over Redis because the queue must survive restarts.", []string{"db", "queue"}},
		{model.Fact, "CI runs on two cores", "The CI machine has 2 vCPUs; keep tests lean.", []string{"ci"}},
		{model.Decision, "Logs are JSON lines", "Every log line is one JSON object.", []string{"logging", "db"}},
	} {
		it := model.NewItem(x.kind, x.title, now.Add(time.Duration(i)*time.Minute))
		it.Body, it.Tags = x.body, x.tags
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.History().Tag(ctx, "v1", "HEAD~1"); err != nil {
		t.Fatal(err)
	}
	if err := m.History().Tag(ctx, "release/first", "HEAD~2"); err != nil {
		t.Fatal(err)
	}
	return m
}

// indexed opens the memory's index as the view's searcher.
func indexed(t testing.TB, m *memory.Memory) Searcher {
	t.Helper()
	x, err := recall.OpenIndex(context.Background(), m, recall.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func newView(t testing.TB, m *memory.Memory, s Searcher) *View {
	t.Helper()
	v, err := New(context.Background(), m.Store(), Options{Searcher: s, Warn: func(s string) { t.Log("warn: " + s) }})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFS(t *testing.T) {
	m := testMemory(t)
	v := newView(t, m, indexed(t, m))
	// Look a search up first: search/ lists nothing, so TestFS would not
	// go there on its own.
	if _, err := fs.Stat(v, "search/postgres queue"); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(v, "CONTEXT.md", "core", "checkpoints/latest", "tags/v1", "tags/release/first", "kinds/decision", "tagged/db"); err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(v, "search/postgres queue")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "01-use-postgresql-for-the-job-queue.md"); err != nil {
		t.Fatal(err)
	}
}

func TestLayout(t *testing.T) {
	m := testMemory(t)
	v := newView(t, m, indexed(t, m))
	log, err := m.Store().Log(context.Background(), memory.GitLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cps, err := fs.ReadDir(v, "checkpoints")
	if err != nil {
		t.Fatal(err)
	}
	if len(cps) != len(log)+1 {
		t.Fatalf("checkpoints/ has %d entries, want %d commits and latest", len(cps), len(log))
	}
	latest, err := v.ReadLink("checkpoints/latest")
	if err != nil {
		t.Fatal(err)
	}
	if want := CheckpointDir(&log[0]); latest != want {
		t.Errorf("latest -> %q, want %q", latest, want)
	}
	if !strings.HasPrefix(latest, log[0].Time.UTC().Format("2006-01-02T150405")+"-"+log[0].Hash[:7]+"-") {
		t.Errorf("checkpoint folder %q", latest)
	}
	info, err := fs.Stat(v, "checkpoints/"+latest)
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(log[0].Time) {
		t.Errorf("checkpoint mtime %v, want the commit time %v", info.ModTime(), log[0].Time)
	}

	items, _, err := m.List(context.Background(), memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range items {
		live, err := v.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		disk, err := m.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		if string(live) != string(disk) {
			t.Errorf("%s differs from the work tree", e.Path)
		}
		dir := "kinds/" + string(e.Item.Kind) + "/"
		b, err := v.ReadFile(dir + path.Base(e.Path))
		if err != nil || string(b) != string(disk) {
			t.Errorf("%s: %v", dir+path.Base(e.Path), err)
		}
	}
	tagged, err := fs.ReadDir(v, "tagged/db")
	if err != nil || len(tagged) != 2 {
		t.Errorf("tagged/db: %v %v", tagged, err)
	}
	// The tag v1 is HEAD~1: two items in core.
	des, err := fs.Glob(v, "tags/v1/core/*/*.md")
	if err != nil || len(des) != 2 {
		t.Errorf("tags/v1 items: %v %v", des, err)
	}
	ctx, err := v.ReadFile("CONTEXT.md")
	if err != nil || !strings.Contains(string(ctx), "PostgreSQL") || !strings.Contains(string(ctx), "tokens") {
		t.Errorf("CONTEXT.md: %v\n%s", err, ctx)
	}
}

func TestSearchNames(t *testing.T) {
	m := testMemory(t)
	v := newView(t, m, indexed(t, m))
	for _, tc := range []struct {
		name string
		want error
	}{
		{"search/why postgres", nil},
		{"search/" + strings.Repeat("x", MaxQueryBytes+1), fs.ErrInvalid},
		{"search/bad\x01name", fs.ErrInvalid},
		{"search/\xff\xfe", fs.ErrInvalid},
		{"search/   ", fs.ErrNotExist},
		{"search/.git", fs.ErrNotExist},
		{"search/why/postgres", fs.ErrNotExist},
	} {
		_, err := v.Stat(tc.name)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("Stat(%q) = %v, want %v", tc.name, err, tc.want)
		}
	}
	es, err := fs.ReadDir(v, "search/no such words anywhere zzz")
	if err != nil || len(es) != 0 {
		t.Errorf("search with no hits: %v %v", es, err)
	}
	b, err := fs.ReadFile(v, "search/why postgres/01-use-postgresql-for-the-job-queue.md")
	if err != nil || !strings.Contains(string(b), "survive restarts") {
		t.Errorf("search hit: %v %q", err, b)
	}
}

func TestRefresh(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	v := newView(t, m, nil)
	before, err := fs.ReadDir(v, "core/decisions")
	if err != nil {
		t.Fatal(err)
	}
	prev, _ := m.Store().Commit(ctx, "HEAD")
	ch, err := v.Refresh(ctx)
	if err != nil || ch != nil {
		t.Fatalf("Refresh with nothing new: %v %v", ch, err)
	}
	it := model.NewItem(model.Decision, "Cache the tree listings", time.Now())
	it.Body = "Trees never change."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	ch, err = v.Refresh(ctx)
	if err != nil || ch == nil || !ch.Head {
		t.Fatalf("Refresh after a checkpoint: %+v %v", ch, err)
	}
	want := []string{"core", "core/decisions", it.Path()}
	if strings.Join(ch.Paths, " ") != strings.Join(want, " ") {
		t.Errorf("changed paths %q, want %q", ch.Paths, want)
	}
	after, err := fs.ReadDir(v, "core/decisions")
	if err != nil || len(after) != len(before)+1 {
		t.Errorf("core/decisions after a checkpoint: %d entries, want %d (%v)", len(after), len(before)+1, err)
	}
	// An unchanged file keeps its time; the new one has the new commit's.
	head, _ := m.Store().Commit(ctx, "HEAD")
	for _, e := range after {
		info, _ := e.Info()
		want := prev.Time
		if e.Name() == path.Base(it.Path()) {
			want = head.Time
		}
		if !info.ModTime().Equal(want) {
			t.Errorf("%s: mtime %v, want %v", e.Name(), info.ModTime(), want)
		}
	}
}

// kinds/ and tagged/ read from the catalogue list what parsing every
// blob lists, a hand edit not yet committed included (its blob is not
// HEAD's, so HEAD's is parsed).
func TestViewsFromCatalog(t *testing.T) {
	m := testMemory(t)
	items, _, err := m.List(context.Background(), memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.ReadFile(items[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "tags:", "tags:\n  - edited", 1)
	if err := os.WriteFile(filepath.Join(m.Dir, items[0].Path), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	list := func(v *View) []string {
		var out []string
		for _, root := range []string{"kinds", "tagged"} {
			fs.WalkDir(v, root, func(p string, d fs.DirEntry, err error) error {
				if err == nil {
					out = append(out, p)
				}
				return nil
			})
		}
		return out
	}
	parsed := list(newView(t, m, nil))
	v, err := New(context.Background(), m.Store(), Options{Catalog: m.Catalog, Warn: func(s string) { t.Log("warn: " + s) }})
	if err != nil {
		t.Fatal(err)
	}
	v.seedItems(context.Background())
	if len(v.items) != len(items) {
		t.Errorf("%d items seeded from the catalogue, want %d", len(v.items), len(items))
	}
	got := list(v)
	if !slices.Equal(got, parsed) || !slices.Contains(got, "tagged/db") {
		t.Errorf("with the catalogue:\n%q\nparsing:\n%q", got, parsed)
	}
	if slices.Contains(got, "tagged/edited") {
		t.Errorf("the view shows HEAD, not the work tree: %q", got)
	}
}
