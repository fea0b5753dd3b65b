package anchor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// proj is a project under test: a real git repository whose code
// changes under a real memory in its .cairn folder.
type proj struct {
	t   testing.TB
	dir string
	m   *memory.Memory
}

func newProj(t testing.TB, files map[string]string) *proj {
	t.Helper()
	p := &proj{t: t, dir: t.TempDir()}
	p.git("init", "-q", "-b", "main")
	p.write(files)
	p.commit("first")
	m, _, err := memory.Init(context.Background(), p.dir, memory.Options{
		Identity: memory.Identity{Name: "test", Email: "test@example.com"},
		Warn:     func(s string) { t.Log("warn: " + s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p.m = m
	return p
}

func (p *proj) git(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", p.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// write writes files of the project; "" removes one.
func (p *proj) write(files map[string]string) {
	p.t.Helper()
	for name, body := range files {
		f := filepath.Join(p.dir, filepath.FromSlash(name))
		if body == "" {
			if err := os.Remove(f); err != nil {
				p.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *proj) commit(msg string) {
	p.t.Helper()
	p.git("add", "-A", ".")
	p.git("commit", "-q", "--allow-empty", "-m", msg)
}

// remember writes an item; its id is made from its title, for the tests
// to name it.
func (p *proj) remember(title, body string) *model.Item {
	p.t.Helper()
	it := model.NewItem(model.Fact, title, p.m.Now())
	it.Body = body
	if _, err := p.m.Remember(context.Background(), it); err != nil {
		p.t.Fatal(err)
	}
	return it
}

// lines makes a file of n numbered lines, with the given ones replaced.
func lines(n int, repl map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := repl[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		fmt.Fprintf(&b, "// line %d\n", i)
	}
	return b.String()
}

const retryGo = `package queue

// Backoff is how long to wait before try n.
func Backoff(n int) int {
	return n * 2
}

// Limit is how many tries a job gets.
func Limit() int {
	return 3
}
`

// listOf lists what a report says, one line a change: "title: what
// anchor", the gone ones with "gone " in front.
func listOf(r *Report) []string {
	var out []string
	for _, s := range r.Stale {
		for _, c := range s.Changes {
			out = append(out, fmt.Sprintf("%s: %s %s%s", s.Title, c.What, c.Anchor, arrow(c.To)))
		}
	}
	for _, s := range r.Gone {
		for _, c := range s.Changes {
			out = append(out, fmt.Sprintf("gone %s: %s %s%s", s.Title, c.What, c.Anchor, arrow(c.To)))
		}
	}
	slices.Sort(out)
	return out
}

func arrow(to string) string {
	if to == "" {
		return ""
	}
	return " -> " + to
}

// The code changes under the memory; each case says which memories are
// stale afterwards, and why.
func TestStale(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"internal/queue/retry.go": retryGo,
		"internal/queue/other.go": "package queue\n\nfunc other() {}\n",
		"docs/notes.txt":          lines(20, nil),
		"cmd/main.go":             "package main\n\nfunc main() {}\n",
	}
	items := [][2]string{
		{"path", "Retries live in `internal/queue/retry.go`."},
		{"folder", "The queue is `internal/queue/`."},
		{"line", "See docs/notes.txt:5 for the why."},
		{"symbol", "`Backoff` doubles the wait."},
		{"bare symbol", "We call queue.Limit() before each retry; notesFor is not code."},
		{"unrelated", "The main package is small: cmd/main.go."},
	}
	tests := []struct {
		name   string
		change map[string]string
		mv     [2]string // git mv from, to
		want   []string
	}{
		{name: "nothing changed"},
		{
			name:   "edit at a path and in its folder",
			change: map[string]string{"internal/queue/retry.go": retryGo + "\n// more\n"},
			want: []string{
				"folder: changed internal/queue",
				"path: changed internal/queue/retry.go",
			},
		},
		{
			name:   "edit at the line",
			change: map[string]string{"docs/notes.txt": lines(20, map[int]string{5: "five"})},
			want:   []string{"line: changed docs/notes.txt:5"},
		},
		{
			name:   "edit away from the line",
			change: map[string]string{"docs/notes.txt": lines(20, map[int]string{15: "fifteen"})},
		},
		{
			name:   "edit inside the symbol",
			change: map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "n * 2", "n * 3", 1)},
			want: []string{
				"folder: changed internal/queue",
				"path: changed internal/queue/retry.go",
				"symbol: changed Backoff (internal/queue/retry.go)",
			},
		},
		{
			name:   "edit of another function of the symbol's file",
			change: map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "return 3", "return 4", 1)},
			want: []string{
				"bare symbol: changed Limit (internal/queue/retry.go)",
				"folder: changed internal/queue",
				"path: changed internal/queue/retry.go",
			},
		},
		{
			name: "symbol moves to another file",
			change: map[string]string{
				"internal/queue/retry.go": strings.Replace(retryGo, "// Backoff is how long to wait before try n.\nfunc Backoff(n int) int {\n\treturn n * 2\n}\n", "", 1),
				"internal/queue/wait.go":  "package queue\n\nfunc Backoff(n int) int {\n\treturn n * 2\n}\n",
			},
			want: []string{
				"folder: changed internal/queue",
				"path: changed internal/queue/retry.go",
				"symbol: moved Backoff (internal/queue/retry.go) -> internal/queue/wait.go",
			},
		},
		{
			name:   "symbol deleted",
			change: map[string]string{"internal/queue/retry.go": strings.Replace(retryGo, "func Limit() int {\n\treturn 3\n}\n", "", 1)},
			want: []string{
				"folder: changed internal/queue",
				"gone bare symbol: vanished Limit (internal/queue/retry.go)",
				"path: changed internal/queue/retry.go",
			},
		},
		{
			name: "file renamed",
			mv:   [2]string{"internal/queue/retry.go", "internal/queue/retries.go"},
			want: []string{
				"bare symbol: moved Limit (internal/queue/retry.go) -> internal/queue/retries.go",
				"folder: changed internal/queue",
				"gone path: renamed internal/queue/retry.go -> internal/queue/retries.go",
				"symbol: moved Backoff (internal/queue/retry.go) -> internal/queue/retries.go",
			},
		},
		{
			name:   "file deleted",
			change: map[string]string{"docs/notes.txt": ""},
			want:   []string{"gone line: deleted docs/notes.txt:5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			p := newProj(t, base)
			for _, it := range items {
				p.remember(it[0], it[1])
			}
			p.write(tt.change)
			if tt.mv[0] != "" {
				p.git("mv", tt.mv[0], tt.mv[1])
			}
			p.commit("change")
			p.commit("later") // so that ages count
			r, err := Check(ctx, p.m)
			if err != nil {
				t.Fatal(err)
			}
			if got := listOf(r); !slices.Equal(got, tt.want) {
				t.Errorf("stale:\n got %q\nwant %q", got, tt.want)
			}
			if r.Anchored != len(items) {
				t.Errorf("anchored %d, want %d", r.Anchored, len(items))
			}
			for _, s := range r.Stale {
				if s.Ago != 2 {
					t.Errorf("%s: written %d commits ago, want 2", s.Title, s.Ago)
				}
				for _, c := range s.Changes {
					if c.Ago != 1 {
						t.Errorf("%s: %s changed %d commits ago, want 1", s.Title, c.Anchor, c.Ago)
					}
				}
			}
			// A second look comes from the cache and says the same.
			again, err := Check(ctx, p.m)
			if err != nil {
				t.Fatal(err)
			}
			if got := listOf(again); !slices.Equal(got, tt.want) {
				t.Errorf("from the cache:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// When the project moves on, only the anchors the new commits touched
// are checked again; the others' results grow older. Each step's report
// is the one a cache rebuilt from nothing gives.
func TestHeadMoves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProj(t, map[string]string{"a.go": "package a\n", "b.txt": lines(10, nil), "c.go": "package a\n", "d/e.go": "package d\n\nfunc Gone() {}\n"})
	p.remember("a", "About `a.go`.")
	p.remember("b", "About b.txt:2.")
	p.remember("gone", "About `Gone`.")
	steps := []struct {
		change map[string]string
		want   []string // "title: anchor ago"
	}{
		{map[string]string{"a.go": "package a\n// 1\n"}, []string{"a: a.go 0 (base 1)"}},
		{map[string]string{"c.go": "package a\n// 1\n"}, []string{"a: a.go 1 (base 2)"}},
		{map[string]string{"b.txt": lines(10, map[int]string{2: "two"})}, []string{"a: a.go 2 (base 3)", "b: b.txt:2 0 (base 3)"}},
		{map[string]string{"b.txt": lines(10, map[int]string{2: "two", 9: "nine"})}, []string{"a: a.go 3 (base 4)", "b: b.txt:2 0 (base 4)"}},
		{map[string]string{"d/e.go": "package d\n"}, []string{"a: a.go 4 (base 5)", "b: b.txt:2 1 (base 5)", "gone: Gone (d/e.go) -1 (base 5)"}},
	}
	ages := func(r *Report) []string {
		var out []string
		for _, s := range append(r.Stale, r.Gone...) {
			for _, c := range s.Changes {
				out = append(out, fmt.Sprintf("%s: %s %d (base %d)", s.Title, c.Anchor, c.Ago, s.Ago))
			}
		}
		slices.Sort(out)
		return out
	}
	if _, err := Check(ctx, p.m); err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		p.write(st.change)
		p.commit(fmt.Sprint("step ", i))
		r, err := Check(ctx, p.m)
		if err != nil {
			t.Fatal(err)
		}
		if got := ages(r); !slices.Equal(got, st.want) {
			t.Errorf("step %d, moved on:\n got %q\nwant %q", i, got, st.want)
		}
		for _, f := range []string{cacheFile, reportFile} {
			os.Remove(p.m.StatePath(f))
		}
		if r, err = Check(ctx, p.m); err != nil {
			t.Fatal(err)
		}
		if got := ages(r); !slices.Equal(got, st.want) {
			t.Errorf("step %d, rebuilt:\n got %q\nwant %q", i, got, st.want)
		}
	}
	// Another branch, where HEAD is no descendant of the last check's:
	// everything is checked again (b.txt is as it was there).
	p.git("checkout", "-q", "-b", "other", "HEAD~3")
	p.write(map[string]string{"c.go": "package a\n// other\n"})
	p.commit("other")
	r, err := Check(ctx, p.m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ages(r), []string{"a: a.go 2 (base 3)"}; !slices.Equal(got, want) {
		t.Errorf("on another branch:\n got %q\nwant %q", got, want)
	}
}

// An agent leaves its edits for the user to commit: a memory written
// while the work tree held them is about the edited code, so the commit
// that takes them later changes nothing under it. What comes after it
// does, and so does a commit that took more than the edit.
func TestStaleUncommittedEdit(t *testing.T) {
	t.Parallel()
	edited := strings.Replace(retryGo, "n * 2", "n * 3", 1)
	item := [2]string{"session", "Backoff now triples: `Backoff` in internal/queue/retry.go (line internal/queue/retry.go:5), in the folder `internal/queue/`."}
	tests := []struct {
		name   string
		stage  bool              // git add the edit before the memory is written
		commit map[string]string // what the user commits after
		later  map[string]string // and what a commit after that changes
		want   []string
	}{
		{name: "the edit committed as it was", commit: map[string]string{"internal/queue/retry.go": edited}},
		{
			name:   "then changed again",
			commit: map[string]string{"internal/queue/retry.go": edited},
			later:  map[string]string{"internal/queue/retry.go": strings.Replace(edited, "n * 3", "n * 4", 1)},
			want: []string{
				"session: changed Backoff (internal/queue/retry.go)",
				"session: changed internal/queue",
				"session: changed internal/queue/retry.go",
				"session: changed internal/queue/retry.go:5",
			},
		},
		{
			name:   "committed with more than the edit",
			commit: map[string]string{"internal/queue/retry.go": strings.Replace(edited, "return 3", "return 5", 1)},
			want: []string{
				// The edit was never staged: it is compared with HEAD's.
				"session: changed Backoff (internal/queue/retry.go)",
				"session: changed internal/queue",
				"session: changed internal/queue/retry.go",
				"session: changed internal/queue/retry.go:5",
			},
		},
		{
			name:   "staged, then committed with more",
			stage:  true,
			commit: map[string]string{"internal/queue/retry.go": strings.Replace(edited, "return 3", "return 5", 1)},
			want: []string{
				"session: changed internal/queue",
				"session: changed internal/queue/retry.go",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newProj(t, map[string]string{"internal/queue/retry.go": retryGo, "README": "queue\n"})
			p.write(map[string]string{"internal/queue/retry.go": edited})
			if tt.stage {
				p.git("add", "internal/queue/retry.go")
			}
			p.remember(item[0], item[1])
			p.write(tt.commit)
			p.commit("take the edit")
			if tt.later != nil {
				p.write(tt.later)
				p.commit("later")
			}
			r, err := Check(context.Background(), p.m)
			if err != nil {
				t.Fatal(err)
			}
			if got := listOf(r); !slices.Equal(got, tt.want) {
				t.Errorf("stale:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// A memory that names only a symbol ("`Backoff` now triples") does not name
// its file, so its checkpoint records no edit of it; a check made before
// the project's next commit (the daemon's, seconds after the checkpoint)
// sees the edit in the work tree at the symbol's file. A check made only
// after the commit cannot tell the edit from a later one.
func TestStaleUncommittedSymbolEdit(t *testing.T) {
	t.Parallel()
	edited := strings.Replace(retryGo, "n * 2", "n * 3", 1)
	for _, early := range []bool{true, false} {
		t.Run(fmt.Sprintf("checked before the commit %v", early), func(t *testing.T) {
			t.Parallel()
			p := newProj(t, map[string]string{"internal/queue/retry.go": retryGo})
			p.write(map[string]string{"internal/queue/retry.go": edited})
			p.remember("session", "`Backoff` now triples the wait.")
			if early {
				if _, err := Check(context.Background(), p.m); err != nil {
					t.Fatal(err)
				}
			}
			p.commit("take the edit")
			r, err := Check(context.Background(), p.m)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if !early {
				want = []string{"session: changed Backoff (internal/queue/retry.go)"}
			}
			if got := listOf(r); !slices.Equal(got, want) {
				t.Errorf("stale:\n got %q\nwant %q", got, want)
			}
			// What changes after the commit is a change under it.
			p.write(map[string]string{"internal/queue/retry.go": strings.Replace(edited, "n * 3", "n * 4", 1)})
			p.commit("later")
			if r, err = Check(context.Background(), p.m); err != nil {
				t.Fatal(err)
			}
			if got, want := listOf(r), []string{"session: changed Backoff (internal/queue/retry.go)"}; !slices.Equal(got, want) {
				t.Errorf("after a later change:\n got %q\nwant %q", got, want)
			}
		})
	}
}
