package usermem_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/usermem"
)

var ident = memory.Identity{Name: "test", Email: "test@example.com"}

func TestDir(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"CAIRN_USER_DIR first", map[string]string{"CAIRN_USER_DIR": "/u/mem", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/u/mem"},
		{"XDG_DATA_HOME next", map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/cairn"},
		{"a relative XDG_DATA_HOME is ignored", map[string]string{"XDG_DATA_HOME": "x", "HOME": "/h"}, "/h/.local/share/cairn"},
		{"HOME last", map[string]string{"HOME": "/h"}, "/h/.local/share/cairn"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := usermem.Dir(func(k string) string { return tt.env[k] })
			if got != filepath.FromSlash(tt.want) {
				t.Errorf("Dir = %q, want %q", got, tt.want)
			}
		})
	}
}

// listing is every file under dir with its contents, to tell that nothing
// was written.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		data := ""
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			data = string(b)
		}
		files[p] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestNotMemory(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(dir string)
	}{
		{"a folder of notes", func(dir string) { os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine\n"), 0o644) }},
		{"another git repository", func(dir string) {
			exec.Command("git", "init", "-q", dir).Run()
			os.WriteFile(filepath.Join(dir, "README"), []byte("dotfiles\n"), 0o644)
		}},
		{"a file", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cairn")
			if tt.setup == nil {
				os.WriteFile(dir, []byte("not a folder\n"), 0o644)
			} else {
				os.Mkdir(dir, 0o755)
				tt.setup(dir)
			}
			before := listing(t, filepath.Dir(dir))
			_, err := usermem.Open(ctx, dir, memory.Options{Identity: ident}, true)
			if !errors.Is(err, usermem.ErrNotMemory) {
				t.Fatalf("Open: %v, want ErrNotMemory", err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, dir) {
				t.Errorf("error %q: want one line naming %s", msg, dir)
			}
			items, warns := usermem.Layer(ctx, dir, nil)
			if len(items) != 0 || len(warns) != 1 || !strings.Contains(warns[0], "is not a cairn memory") {
				t.Errorf("Layer = %v, %q; want no items and one warning", items, warns)
			}
			if after := listing(t, filepath.Dir(dir)); !mapsEqual(before, after) {
				t.Errorf("something was written:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestOpenCreates(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"absent", "empty"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "share", "cairn")
			if name == "empty" {
				os.MkdirAll(dir, 0o755)
			}
			if _, err := usermem.Open(ctx, dir, memory.Options{Identity: ident}, false); !errors.Is(err, memory.ErrNoMemory) {
				t.Fatalf("Open without create: %v, want ErrNoMemory", err)
			}
			if items, warns := usermem.Layer(ctx, dir, nil); len(items)+len(warns) != 0 {
				t.Errorf("Layer of no memory = %v, %q", items, warns)
			}
			m, err := usermem.Open(ctx, dir, memory.Options{Identity: ident}, true)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Dir != dir || commits(t, dir) != 1 {
				t.Errorf("made %s with %d commits, want %s with 1", m.Dir, commits(t, dir), dir)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".git")); err == nil {
				t.Errorf("a repository was made around the user memory")
			}
		})
	}
}

func commits(t testing.TB, dir string) int {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-list", "--count", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-list in %s: %v", dir, err)
	}
	n := 0
	for _, c := range strings.TrimSpace(string(out)) {
		n = n*10 + int(c-'0')
	}
	return n
}

// memories makes a project memory whose pack layers the user memory
// under it, and the user memory.
func memories(t testing.TB) (proj, user *memory.Memory) {
	t.Helper()
	ctx := context.Background()
	t.Setenv("HOME", t.TempDir())
	udir := filepath.Join(t.TempDir(), "user")
	user, err := usermem.Open(ctx, udir, memory.Options{Identity: ident}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { user.Close() })
	proj, _, err = memory.Init(ctx, filepath.Join(t.TempDir(), "proj"), memory.Options{Identity: ident, UserDir: udir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proj.Close() })
	return proj, user
}

func remember(t testing.TB, m *memory.Memory, k model.Kind, title, body string) *model.Item {
	t.Helper()
	it := model.NewItem(k, title, m.Now())
	it.Body = body
	if _, err := m.Remember(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	return it
}

func TestPromote(t *testing.T) {
	ctx := context.Background()
	proj, user := memories(t)
	pref := remember(t, proj, model.Preference, "Prefers table-driven tests", "Cases in a slice of structs, one t.Run each.")
	dec := remember(t, proj, model.Decision, "Use PostgreSQL for the job queue", "")
	pc, uc := commits(t, proj.Dir), commits(t, user.Dir)

	p, err := usermem.Promote(ctx, proj, user, pref.ID[len(pref.ID)-8:], false)
	if err != nil {
		t.Fatal(err)
	}
	if commits(t, proj.Dir) != pc+1 || commits(t, user.Dir) != uc+1 {
		t.Errorf("commits: project %d→%d, user %d→%d; want one more in each", pc, commits(t, proj.Dir), uc, commits(t, user.Dir))
	}
	got, err := user.Get(ctx, p.To.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Item.Title != pref.Title || got.Item.Kind != model.Preference ||
		!strings.Contains(got.Item.Body, "one t.Run each") || !strings.Contains(got.Item.Body, pref.ID) || !strings.Contains(got.Item.Body, proj.Project) {
		t.Errorf("user copy %+v: want the title, the body and the provenance (%s, %s)", got.Item, proj.Project, pref.ID)
	}
	out, _ := exec.Command("git", "-C", user.Dir, "log", "-1", "--format=%B").Output()
	for _, want := range []string{usermem.TrailerFromProject + ": " + proj.Project, usermem.TrailerFromItem + ": " + pref.ID} {
		if !strings.Contains(string(out), want) {
			t.Errorf("user memory's checkpoint %q: want %q", out, want)
		}
	}
	orig, err := proj.Get(ctx, pref.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(orig.Item.Tags, usermem.PromotedTag) || orig.Item.Body != pref.Body {
		t.Errorf("project item after promote: %+v; want it kept, tagged %q", orig.Item, usermem.PromotedTag)
	}
	if _, err := usermem.Promote(ctx, proj, user, pref.ID, false); err == nil || !strings.Contains(err.Error(), "promoted already") {
		t.Errorf("promoting again: %v, want promoted already", err)
	}

	pc, uc = commits(t, proj.Dir), commits(t, user.Dir)
	if _, err := usermem.Promote(ctx, proj, user, dec.ID, false); !errors.Is(err, usermem.ErrKind) || !strings.Contains(err.Error(), "decision") {
		t.Errorf("promoting a decision: %v, want ErrKind naming the kind", err)
	}
	if commits(t, proj.Dir) != pc || commits(t, user.Dir) != uc {
		t.Errorf("a refused promote committed")
	}
	if _, err := usermem.Promote(ctx, proj, user, dec.ID, true); err != nil {
		t.Errorf("promoting a decision with force: %v", err)
	}
}
