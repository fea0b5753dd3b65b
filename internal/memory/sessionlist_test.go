package memory_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/model"
)

// Listing the active sessions skips those the catalogue says are of
// another status, and finds what reading every session.yaml finds: after
// a status changed by hand in place (same size, within the second the
// catalogue was taken), with a session.yaml that does not parse, and one
// added since.
func TestListByStatusIsRead(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	write := func(id string, st model.SessionStatus) {
		t.Helper()
		data := sessionYAML(t, id, st, now)
		dir := filepath.Join(m.Dir, "sessions", id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "session.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(l []*model.SessionEntry) []string {
		var out []string
		for _, e := range l {
			out = append(out, e.ID)
		}
		return out
	}
	// read lists the active sessions by reading them all.
	read := func() []string {
		t.Helper()
		all, _, err := m.Sessions().List(ctx, memory.SessionFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return ids(slices.DeleteFunc(all, func(e *model.SessionEntry) bool { return e.Status != model.StatusActive }))
	}
	check := func(when string) {
		t.Helper()
		got, problems, err := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusActive})
		if err != nil {
			t.Fatal(err)
		}
		if want := read(); !slices.Equal(ids(got), want) {
			t.Errorf("%s: active %v, want %v (problems %v)", when, ids(got), want, problems)
		}
	}
	for i := range 6 {
		st := model.StatusSuspended
		if i%3 == 0 {
			st = model.StatusActive
		}
		write(fmt.Sprintf("s%d", i), st)
	}
	check("first")
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "sessions"}); err != nil {
		t.Fatal(err)
	}
	check("committed")
	// suspended -> active, in place: "active" is shorter, so pad it.
	name := filepath.Join(m.Dir, "sessions", "s1", "session.yaml")
	data, _ := os.ReadFile(name)
	edited := strings.Replace(string(data), "status: suspended", "status: active   ", 1)
	if len(edited) != len(data) {
		t.Fatal("not the same size")
	}
	if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	check("edited in place")
	if err := os.WriteFile(filepath.Join(m.Dir, "sessions", "s2", "session.yaml"), []byte("status: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("s9", model.StatusActive)
	check("broken and added")
}

// Listing sessions of a status finds its session.yaml files from the
// catalogue's rows where the others are globbed: it must find what the
// glob finds, sessions and problems alike, whether the catalogue is up to
// date, missing, or an older one brought up to date, for folders the
// rows cannot speak for (linked, without a session.yaml, one that is a
// folder) as well as for plain ones.
func TestListByStatusFromCatalogue(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	session := func(t *testing.T, id string, st model.SessionStatus) []byte {
		t.Helper()
		return sessionYAML(t, id, st, now)
	}
	write := func(t *testing.T, name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changes := []struct {
		name   string
		change func(t *testing.T, m *memory.Memory)
	}{
		{"status edited", func(t *testing.T, m *memory.Memory) {
			write(t, filepath.Join(m.Dir, "sessions", "s1", "session.yaml"), session(t, "s1", model.StatusActive))
			write(t, filepath.Join(m.Dir, "sessions", "s0", "session.yaml"), session(t, "s0", model.StatusSuspended))
		}},
		{"added and removed", func(t *testing.T, m *memory.Memory) {
			write(t, filepath.Join(m.Dir, "sessions", "s9", "session.yaml"), session(t, "s9", model.StatusActive))
			if err := os.RemoveAll(filepath.Join(m.Dir, "sessions", "s3")); err != nil {
				t.Fatal(err)
			}
		}},
		{"does not parse", func(t *testing.T, m *memory.Memory) {
			write(t, filepath.Join(m.Dir, "sessions", "s2", "session.yaml"), []byte("status: [\n"))
		}},
		{"no session.yaml", func(t *testing.T, m *memory.Memory) {
			write(t, filepath.Join(m.Dir, "sessions", "s7", "log.md"), []byte("- user: hello\n"))
			if err := os.Remove(filepath.Join(m.Dir, "sessions", "s4", "session.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
		{"session.yaml a folder", func(t *testing.T, m *memory.Memory) {
			if err := os.MkdirAll(filepath.Join(m.Dir, "sessions", "s8", "session.yaml"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"linked", func(t *testing.T, m *memory.Memory) {
			out := t.TempDir()
			write(t, filepath.Join(out, "session.yaml"), session(t, "ln", model.StatusActive))
			if err := os.Symlink(out, filepath.Join(m.Dir, "sessions", "ln")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(m.Dir, "sessions", "lf"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(out, "session.yaml"), filepath.Join(m.Dir, "sessions", "lf", "session.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
		{"not a session folder", func(t *testing.T, m *memory.Memory) {
			write(t, filepath.Join(m.Dir, "sessions", "notes.md"), []byte("# notes\n"))
			write(t, filepath.Join(m.Dir, "sessions", "a", "b", "session.yaml"), session(t, "b", model.StatusActive))
			write(t, filepath.Join(m.Dir, "sessions", ".hidden", "session.yaml"), session(t, ".hidden", model.StatusActive))
		}},
	}
	catalogues := []string{"kept", "missing", "older"}
	for _, c := range changes {
		for _, cat := range catalogues {
			for _, commit := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/commit=%v", c.name, cat, commit), func(t *testing.T) {
					m := memorytest.New(t)
					for i := range 6 {
						st := model.StatusSuspended
						if i%3 == 0 {
							st = model.StatusActive
						}
						id := fmt.Sprintf("s%d", i)
						write(t, filepath.Join(m.Dir, "sessions", id, "session.yaml"), session(t, id, st))
					}
					if _, _, err := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusActive}); err != nil {
						t.Fatal(err)
					}
					if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "sessions"}); err != nil {
						t.Fatal(err)
					}
					part := m.StatePath(catalog.FileName("sessions"))
					older, err := os.ReadFile(part)
					if err != nil {
						t.Fatal(err)
					}
					c.change(t, m)
					if commit {
						// A link or a folder alone is nothing to checkpoint.
						if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: c.name}); err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
							t.Fatal(err)
						}
					}
					switch cat {
					case "missing":
						os.Remove(part)
						os.Remove(catalog.DirsName(part))
					case "older":
						write(t, part, older)
					}
					got, gotProblems, err := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusActive})
					if err != nil {
						t.Fatal(err)
					}
					// The glob's answer: every session.yaml read.
					all, wantProblems, err := m.Sessions().List(ctx, memory.SessionFilter{})
					if err != nil {
						t.Fatal(err)
					}
					want := slices.DeleteFunc(all, func(e *model.SessionEntry) bool { return e.Status != model.StatusActive })
					if !reflect.DeepEqual(got, want) {
						t.Errorf("active sessions:\n got %v\nwant %v", entryDirs(got), entryDirs(want))
					}
					if g, w := fmt.Sprint(gotProblems), fmt.Sprint(wantProblems); g != w {
						t.Errorf("problems:\n got %s\nwant %s", g, w)
					}
				})
			}
		}
	}
}

func entryDirs(l []*model.SessionEntry) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Dir+":"+string(e.Status))
	}
	return out
}

// sessionYAML is a session.yaml of a session of this id and status.
func sessionYAML(t *testing.T, id string, st model.SessionStatus, now time.Time) []byte {
	t.Helper()
	s := model.NewSession(id, "claude-code", now)
	s.Status = st
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
