package memory_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
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
		s := model.NewSession(id, "claude-code", now)
		s.Status = st
		data, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
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
