package anchor

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
)

// A check, then an edit of the item or cairn stale --confirm: either
// clears the mark, and the code changing again at the anchor brings it
// back.
func TestConfirmAndEditClear(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProj(t, map[string]string{"internal/queue/retry.go": retryGo})
	a := p.remember("confirmed", "Retries: `internal/queue/retry.go`.")
	b := p.remember("edited", "`Backoff` doubles.")
	p.write(map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "n * 2", "n * 4", 1)})
	p.commit("change")
	r, err := Check(ctx, p.m)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Stale) != 2 {
		t.Fatalf("stale before: %q", listOf(r))
	}
	if _, err := Confirm(ctx, p.m, strings.ToLower(a.ID)); err != nil {
		t.Fatal(err)
	}
	e, err := p.m.Get(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.Item.Body = "`Backoff` quadruples."
	if _, err := p.m.Update(ctx, e, "edit"); err != nil {
		t.Fatal(err)
	}
	if r, err = Check(ctx, p.m); err != nil || len(r.Stale)+len(r.Gone) != 0 {
		t.Fatalf("after confirm and edit: %q, %v", listOf(r), err)
	}
	// The check is in history: a cache rebuilt from nothing agrees.
	for _, f := range []string{cacheFile, reportFile} {
		if err := os.Remove(p.m.StatePath(f)); err != nil {
			t.Fatal(err)
		}
	}
	if r, err = Check(ctx, p.m); err != nil || len(r.Stale)+len(r.Gone) != 0 {
		t.Fatalf("rebuilt: %q, %v", listOf(r), err)
	}
	p.write(map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "n * 2", "n * 5", 1)})
	p.commit("again")
	r, err = Check(ctx, p.m)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"confirmed: changed internal/queue/retry.go", "edited: changed Backoff (internal/queue/retry.go)"}
	if got := listOf(r); !slices.Equal(got, want) {
		t.Errorf("after another change: %q, want %q", got, want)
	}
	if _, err := Confirm(ctx, p.m, "ZZZZZZ"); err == nil {
		t.Error("confirming an unknown id: no error")
	}
}

// Paths outside the project are no anchors: each is said in one line,
// ../ and absolute paths elsewhere as well as a link out of the project;
// bare ones in prose are passed over.
func TestOutsideProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProj(t, map[string]string{"main.go": "package main\n"})
	if err := os.Symlink("/etc", filepath.Join(p.dir, "etc")); err != nil {
		t.Fatal(err)
	}
	p.commit("link")
	p.remember("outside", "Not ours: `../secrets.txt`, `/etc/passwd`, `etc/hosts`, ../x.go:3; see /usr/bin/env or ../readme.md. Ours: `"+filepath.Join(p.dir, "main.go")+"`.")
	p.write(map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	p.commit("edit")
	r, err := Check(ctx, p.m)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rj := range r.Rejected {
		got = append(got, rj.Path+": "+rj.Reason)
	}
	want := []string{
		"../secrets.txt: outside the project",
		"/etc/passwd: an absolute path outside the project",
		"etc/hosts: a symbolic link out of the project",
		"../x.go: outside the project",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rejected:\n got %q\nwant %q", got, want)
	}
	if s := listOf(r); !slices.Equal(s, []string{"outside: changed main.go"}) {
		t.Errorf("stale: %q", s)
	}
	var b bytes.Buffer
	if err := WriteText(&b, r, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "not an anchor"); n != len(want) {
		t.Errorf("%d lines of rejection, want %d:\n%s", n, len(want), b.String())
	}
}

// A project that is no git repository has nothing anchored: no error,
// no warning, an empty report.
func TestNoRepository(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var warned []string
	m, _, err := memory.Init(ctx, t.TempDir(), memory.Options{
		Identity: memory.Identity{Name: "test", Email: "test@example.com"},
		Warn:     func(s string) { warned = append(warned, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p := &proj{t: t, m: m}
	p.remember("no repo", "See `main.go` and `Backoff`.")
	r, err := Check(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Head != "" || r.Anchored != 0 || len(r.Stale)+len(r.Gone)+len(r.Unknown)+len(r.Rejected) != 0 || len(warned) != 0 {
		t.Errorf("report %+v, warnings %q", r, warned)
	}
	if marks, current := Known(m); len(marks) != 0 || !current {
		t.Errorf("marks %v, current %v", marks, current)
	}
}

// A shallow clone lacks the commit a memory was written at: the memory
// is counted as not checked, once, and the others are still checked.
func TestShallowClone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	up := newProj(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	up.remember("old", "About `a.go`.")
	for _, s := range []string{"1", "2", "3"} {
		up.write(map[string]string{"b.go": "package a\n// " + s + "\n"})
		up.commit("c" + s)
	}
	up.remember("new", "About `b.go`.")
	up.write(map[string]string{"b.go": "package a\n// 4\n"})
	up.commit("c4")
	up.write(map[string]string{"a.go": "package a\n// changed\n"})
	up.commit("c5")

	// The clone: depth 2, the memory copied along (as a sync would).
	clone := filepath.Join(t.TempDir(), "clone")
	out, err := exec.Command("git", "clone", "-q", "--depth", "3", "file://"+up.dir, clone).CombinedOutput()
	if err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(up.dir, ".cairn"), clone).CombinedOutput(); err != nil {
		t.Fatalf("copy the memory: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(clone, ".cairn", ".state", cacheFile))
	os.Remove(filepath.Join(clone, ".cairn", ".state", reportFile))
	m, err := memory.Open(ctx, filepath.Join(clone, ".cairn"), memory.Options{Warn: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := Check(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Unknown) != 1 {
		t.Errorf("unknown %q, want the old item", r.Unknown)
	}
	if s := listOf(r); !slices.Equal(s, []string{"new: changed b.go"}) {
		t.Errorf("stale %q", s)
	}
}

// A session's summary is anchored like an item, under the session's id.
func TestSummaryAnchored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProj(t, map[string]string{"internal/queue/retry.go": retryGo})
	name := filepath.Join(p.m.Dir, "sessions", "s-1", "summary.md")
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name, []byte("---\nkind: summary\ntitle: Fixed the retries\n---\n## Outcome\n- `Backoff` in internal/queue/retry.go:5 now doubles\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := p.m.Checkpoint(ctx, memory.CheckpointOptions{Message: "summary"}); err != nil {
		t.Fatal(err)
	}
	p.write(map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "n * 2", "n * 3", 1)})
	p.commit("triple")
	r, err := Check(ctx, p.m)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Fixed the retries: changed Backoff (internal/queue/retry.go)", "Fixed the retries: changed internal/queue/retry.go:5"}
	if got := listOf(r); !slices.Equal(got, want) || r.Stale[0].ID != "s-1" {
		t.Errorf("got %q (%+v), want %q", got, r.Stale, want)
	}
}

// A check cut short says so, and the next one still gives the whole
// answer.
func TestCutShort(t *testing.T) {
	t.Parallel()
	p := newProj(t, map[string]string{"a.go": "package a\n"})
	p.remember("a", "About `a.go`.")
	p.write(map[string]string{"a.go": "package a\n// 1\n"})
	p.commit("edit")
	cut, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Check(cut, p.m); err == nil {
		t.Error("a cancelled check: no error")
	}
	r, err := Check(context.Background(), p.m)
	if err != nil {
		t.Fatal(err)
	}
	if got := listOf(r); !slices.Equal(got, []string{"a: changed a.go"}) {
		t.Errorf("after a cut: %q", got)
	}
}
