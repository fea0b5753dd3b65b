package memory_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/go-git/go-git/v5"
)

// describeAll is the catalogue made the slow way: every relevant file of
// the work tree read and described (the archive keeps its items, sessions'
// state and summaries only).
func describeAll(t *testing.T, m *memory.Memory) []*catalog.Row {
	t.Helper()
	var out []*catalog.Row
	for _, root := range model.ItemRoots {
		err := filepath.WalkDir(filepath.Join(m.Dir, root), func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			rel, _ := filepath.Rel(m.Dir, name)
			p := filepath.ToSlash(rel)
			if d.IsDir() || !catalog.Relevant(p) {
				return nil
			}
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			r := catalog.Describe(p, data)
			if root == "archive" && r.Type == catalog.Other && path.Base(p) != "summary.md" {
				return nil
			}
			out = append(out, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// parseAll is List as it was before the catalogue: every Markdown file
// under the item folders parsed.
func parseAll(t *testing.T, m *memory.Memory) (items []string, problems []string) {
	t.Helper()
	for _, r := range describeAll(t, m) {
		switch r.Type {
		case catalog.Item:
			data, err := os.ReadFile(filepath.Join(m.Dir, r.Path))
			if err != nil {
				t.Fatal(err)
			}
			it, err := model.Parse(r.Path, data)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, entryLine(model.Entry{Item: it, Path: r.Path, Layer: model.LayerOf(r.Path)}))
		case catalog.Broken:
			data, _ := os.ReadFile(filepath.Join(m.Dir, r.Path))
			_, err := model.Parse(r.Path, data)
			problems = append(problems, err.Error())
		}
	}
	slices.Sort(items)
	slices.Sort(problems)
	return items, problems
}

func entryLine(e model.Entry) string {
	it := e.Item
	return fmt.Sprintf("%s %s %s %q %q %q %s %s %v %v %v %d %s", e.Path, e.Layer, it.ID, it.Kind, it.Title, it.Tags, it.Session,
		it.Created.UTC().Format(time.RFC3339Nano)+"/"+it.Updated.UTC().Format(time.RFC3339Nano), it.Importance, it.Confidence, it.Pinned, it.Schema, "")
}

// checkCatalog compares List and Catalog with a full parse of the files.
func checkCatalog(t *testing.T, m *memory.Memory, step string) {
	t.Helper()
	ctx := context.Background()
	wantItems, wantProblems := parseAll(t, m)
	list, problems, err := m.List(ctx, memory.Filter{})
	if err != nil {
		t.Fatalf("%s: List: %v", step, err)
	}
	var gotItems, gotProblems []string
	for _, e := range list {
		gotItems = append(gotItems, entryLine(e))
	}
	for _, p := range problems {
		gotProblems = append(gotProblems, p.Error())
	}
	slices.Sort(gotItems)
	slices.Sort(gotProblems)
	if !slices.Equal(gotItems, wantItems) || !slices.Equal(gotProblems, wantProblems) {
		t.Fatalf("%s: List differs from a full parse:\ngot  %q\n     %q\nwant %q\n     %q", step, gotItems, gotProblems, wantItems, wantProblems)
	}
	rows, err := m.Catalog(ctx)
	if err != nil {
		t.Fatalf("%s: Catalog: %v", step, err)
	}
	want := describeAll(t, m)
	if len(rows) != len(want) {
		t.Fatalf("%s: %d rows, want %d:\n%s\nwant\n%s", step, len(rows), len(want), rowPaths(rows), rowPaths(want))
	}
	for i, r := range rows {
		got := *r
		got.MTime = 0
		if w := *want[i]; !reflect.DeepEqual(fmtRow(&got), fmtRow(&w)) {
			t.Fatalf("%s: row %s\ngot  %+v\nwant %+v", step, r.Path, fmtRow(&got), fmtRow(&w))
		}
	}
}

// fmtRow prints a row with its times as instants, so that two readings of
// one time in different zones compare equal.
func fmtRow(r *catalog.Row) string {
	s := *r
	ts := []string{s.Created.UTC().String(), s.Updated.UTC().String(), s.Activity.UTC().String()}
	s.Created, s.Updated, s.Activity = time.Time{}, time.Time{}, time.Time{}
	if len(s.Tags) == 0 {
		s.Tags = nil
	}
	return fmt.Sprintf("%+v %v", s, ts)
}

func rowPaths(rows []*catalog.Row) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s %c\n", r.Path, r.Type)
	}
	return b.String()
}

// TestCatalogFollows runs random writes, checkpoints, hand edits,
// restores and sync pulls, and compares the catalogue with a full parse
// of the files after each.
func TestCatalogFollows(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { catalogFollows(t, seed) })
	}
}

func catalogFollows(t *testing.T, seed uint64) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 15))
	m := memorytest.New(t)
	m2, err := memory.Open(ctx, m.Dir, memory.Options{Warn: func(s string) { t.Log("warn: " + s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	other := memorytest.New(t)
	bare := filepath.Join(t.TempDir(), "shared.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	for _, mm := range []*memory.Memory{m, other} {
		if _, err := memsync.AddRemote(ctx, mm, "origin", bare, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := memsync.Sync(ctx, other, memsync.SyncOptions{Host: "other"}); err != nil {
		t.Fatal(err)
	}
	if _, err := memsync.Sync(ctx, m, memsync.SyncOptions{Host: "this", AllowUnrelated: true}); err != nil {
		t.Fatal(err)
	}
	kinds := model.Kinds()
	words := []string{"queue", "index", "cache", "retry", "schema", "deploy"}
	title := func() string {
		return words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))] + fmt.Sprint(" ", rng.IntN(1000))
	}
	var commits []string
	corePaths := func() []string {
		var ps []string
		filepath.WalkDir(filepath.Join(m.Dir, "core"), func(name string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(name, ".md") {
				ps = append(ps, name)
			}
			return nil
		})
		return ps
	}
	sid := "0f3c9a52-1111-4e2b-9c1d-000000000001"
	steps := []struct {
		name string
		do   func(mm *memory.Memory) error
	}{
		{"remember", func(mm *memory.Memory) error {
			it := model.NewItem(kinds[rng.IntN(len(kinds))], title(), time.Now())
			it.Tags = []string{words[rng.IntN(len(words))]}
			it.Pinned = rng.IntN(4) == 0
			_, err := mm.Remember(ctx, it)
			return err
		}},
		{"hand edit", func(*memory.Memory) error {
			ps := corePaths()
			if len(ps) == 0 {
				return nil
			}
			p := ps[rng.IntN(len(ps))]
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			data = bytes.Replace(data, []byte("title: "), []byte("title: "+words[rng.IntN(len(words))]+"\t"), 1)
			return os.WriteFile(p, data, 0o644)
		}},
		{"hand edit, same size", func(*memory.Memory) error {
			ps := corePaths()
			if len(ps) == 0 {
				return nil
			}
			p := ps[rng.IntN(len(ps))]
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if i := bytes.Index(data, []byte("importance: 0.")); i >= 0 {
				data[i+len("importance: 0.")] = byte('1' + rng.IntN(8))
			}
			return os.WriteFile(p, data, 0o644)
		}},
		{"break by hand", func(*memory.Memory) error {
			p := filepath.Join(m.Dir, "core", "notes", "broken--"+fmt.Sprint(rng.IntN(5))+".md")
			os.MkdirAll(filepath.Dir(p), 0o755)
			return os.WriteFile(p, []byte("---\ntitle: [unclosed\n---\nbody\n"), 0o644)
		}},
		{"add by hand", func(*memory.Memory) error {
			p := filepath.Join(m.Dir, "core", "facts", fmt.Sprintf("hand-%d.md", rng.IntN(50)))
			os.MkdirAll(filepath.Dir(p), 0o755)
			return os.WriteFile(p, []byte("---\nkind: fact\ntitle: "+title()+"\ntags: [hand]\n---\nWritten by hand.\n"), 0o644)
		}},
		{"delete by hand", func(*memory.Memory) error {
			if ps := corePaths(); len(ps) > 0 {
				return os.Remove(ps[rng.IntN(len(ps))])
			}
			return nil
		}},
		{"session", func(*memory.Memory) error {
			dir := filepath.Join(m.Dir, "sessions", sid)
			os.MkdirAll(dir, 0o755)
			y := fmt.Sprintf("schema: 1\nid: %s\nagent: claude\nstatus: active\ntitle: %s\nprompts: 1\nturns: 2\nstarted: 2026-12-01T10:00:00Z\nupdated: 2026-12-01T10:0%d:00Z\n", sid, title(), rng.IntN(10))
			if err := os.WriteFile(filepath.Join(dir, model.SessionFile), []byte(y), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "summary.md"), []byte("---\nkind: summary\ntitle: "+title()+"\nsession: "+sid+"\n---\n## Request\n- x\n"), 0o644)
		}},
		{"archive item", func(mm *memory.Memory) error {
			p := filepath.Join(m.Dir, "archive", "2026-11", "facts", fmt.Sprintf("old-%d.md", rng.IntN(5)))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("---\nkind: fact\ntitle: "+title()+"\n---\nOld.\n"), 0o644); err != nil {
				return err
			}
			_, err := mm.Checkpoint(ctx, memory.CheckpointOptions{Message: "archive"})
			if err == memory.ErrNothingToDo {
				err = nil
			}
			return err
		}},
		{"checkpoint", func(mm *memory.Memory) error {
			_, err := mm.Checkpoint(ctx, memory.CheckpointOptions{})
			if err == memory.ErrNothingToDo {
				err = nil
			}
			return err
		}},
		{"restore", func(mm *memory.Memory) error {
			if len(commits) == 0 {
				return nil
			}
			_, err := mm.History().Restore(ctx, commits[rng.IntN(len(commits))], nil)
			return err
		}},
		{"sync pull", func(mm *memory.Memory) error {
			it := model.NewItem(model.Decision, "from elsewhere "+title(), time.Now())
			if _, err := other.Remember(ctx, it); err != nil {
				return err
			}
			if _, err := memsync.Sync(ctx, other, memsync.SyncOptions{Host: "other"}); err != nil {
				return err
			}
			_, err := memsync.Sync(ctx, mm, memsync.SyncOptions{Host: "this"})
			return err
		}},
		{"age", func(*memory.Memory) error {
			// Old enough that the folders' times are trusted (worktreePart).
			return ageTree(m.Dir, time.Now().Add(-time.Hour))
		}},
		{"damage", func(*memory.Memory) error {
			name := m.StatePath("catalog-" + model.ItemRoots[rng.IntN(3)] + ".tsv")
			data, err := os.ReadFile(name)
			if err != nil {
				return nil
			}
			if rng.IntN(2) == 0 {
				return os.WriteFile(name, data[:rng.IntN(len(data))], 0o600)
			}
			return os.WriteFile(name, []byte("garbage\n"), 0o600)
		}},
	}
	for i := range 60 {
		s := steps[rng.IntN(len(steps))]
		mm := m
		if rng.IntN(3) == 0 {
			mm = m2 // another process, reading the file the first one wrote
		}
		if err := s.do(mm); err != nil {
			t.Fatalf("step %d %s: %v", i, s.name, err)
		}
		commits = append(commits, memorytest.Head(t, m))
		checkCatalog(t, mm, fmt.Sprintf("step %d %s", i, s.name))
	}
	for _, name := range []string{"catalog-core.tsv", "catalog-sessions.tsv", "catalog-archive.tsv"} {
		fi, err := os.Stat(m.StatePath(name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
}

// ageTree sets the time of every file and folder under the memory's item
// folders to at, as if written long ago.
func ageTree(dir string, at time.Time) error {
	for _, root := range model.ItemRoots {
		err := filepath.WalkDir(filepath.Join(dir, root), func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			return os.Chtimes(name, at, at)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// The catalogue trusts a folder whose time has not moved since its files
// were listed to hold the same names, and still looks at each file: an
// edit in place, a rename, an addition and a deletion by hand are each
// seen. What it trusts is shown by a file added behind a folder whose
// time is then put back: unseen until the folder's time moves.
func TestCatalogFolderTimes(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	for i := range 6 {
		it := model.NewItem(model.Fact, fmt.Sprintf("fact number %d about the queue", i), time.Now())
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := filepath.Glob(filepath.Join(m.Dir, "core", "facts", "*.md"))
	if err != nil || len(paths) != 6 {
		t.Fatalf("items %q: %v", paths, err)
	}
	old := time.Now().Add(-time.Hour)
	if err := ageTree(m.Dir, old); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "aged") // lists every folder again, at their old times
	checkCatalog(t, m, "trusted")
	facts := filepath.Dir(paths[0])
	data, err := os.ReadFile(catalog.DirsName(m.StatePath("catalog-core.tsv")))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("\ncore/facts\t%d\n", old.UnixNano()); !strings.Contains(string(data), want) {
		t.Fatalf("the catalogue keeps no trusted time of core/facts:\n%s", data)
	}

	edit := func(p string, from, to string) {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(from), []byte(to), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fiBefore, _ := os.Stat(facts)
	edit(paths[0], "fact number 0", "fact number zero")
	if fi, _ := os.Stat(facts); !fi.ModTime().Equal(fiBefore.ModTime()) {
		t.Fatal("an edit in place moved its folder's time: the test tests nothing")
	}
	checkCatalog(t, m, "edited in place")
	edit(paths[1], "fact number 1", "fact number 9") // same size
	checkCatalog(t, m, "edited in place, same size")
	if err := os.Rename(paths[2], filepath.Join(facts, "renamed--by-hand.md")); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "renamed")
	if err := os.WriteFile(filepath.Join(facts, "added-by-hand.md"), []byte("---\nkind: fact\ntitle: Added by hand\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "added")
	if err := os.Remove(paths[3]); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "deleted")

	// Behind the folder's back: its time put back after an addition.
	if err := ageTree(m.Dir, old); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "aged again")
	hidden := filepath.Join(facts, "hidden-by-hand.md")
	if err := os.WriteFile(hidden, []byte("---\nkind: fact\ntitle: Hidden\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(facts, old, old); err != nil {
		t.Fatal(err)
	}
	rows, err := m.Catalog(ctx, "core")
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(rows, func(r *catalog.Row) bool { return strings.HasSuffix(r.Path, "hidden-by-hand.md") }) {
		t.Fatal("the folder was listed although its time had not moved: its time is not what decides")
	}
	now := time.Now()
	if err := os.Chtimes(facts, now, now); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "the folder's time moved")
}

// A damaged catalogue is rebuilt with one warning, never an error.
func TestCatalogDamaged(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	var warned []string
	m2, err := memory.Open(ctx, m.Dir, memory.Options{Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if _, err := m.Remember(ctx, model.NewItem(model.Fact, "A fact", time.Now())); err != nil {
		t.Fatal(err)
	}
	checkCatalog(t, m, "first")
	name := m.StatePath("catalog-core.tsv")
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, data string }{
		{"empty", ""},
		{"truncated", string(good[:len(good)-3])},
		{"cut at a line", string(good[:bytes.LastIndexByte(good[:len(good)-1], '\n')+1])},
		{"garbage", "\x00\x01 not a catalogue"},
		{"bad row", strings.Replace(string(good), "\ti\t", "\tq\t", 1)},
		{"unknown commit", "cairn-catalog 1 core " + strings.Repeat("ab", 20) + " " + strings.Repeat("cd", 20) + " 0\nend 0\n"},
	} {
		warned = nil
		if err := os.WriteFile(name, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		checkCatalog(t, m2, tc.name)
		if len(warned) != 1 || !strings.Contains(warned[0], "catalogue of core/ rebuilt") {
			t.Errorf("%s: warnings %q, want one", tc.name, warned)
		}
	}
}

// Readers in two processes (two Memory values) and a writer run at once;
// run with -race.
func TestCatalogConcurrent(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	m2, err := memory.Open(ctx, m.Dir, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for _, mm := range []*memory.Memory{m, m, m2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, _, err := mm.List(ctx, memory.Filter{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 15 {
		if _, err := m.Remember(ctx, model.NewItem(model.Note, fmt.Sprint("note ", i), time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkCatalog(t, m, "after")
	checkCatalog(t, m2, "after, other")
}
