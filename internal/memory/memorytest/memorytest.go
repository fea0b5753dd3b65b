// Package memorytest makes memories for the tests of the packages above
// internal/memory: a real repository in a temporary project.
package memorytest

import (
	"context"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
)

// New makes a memory in a new project, with a home folder of its own (for
// the transcript globs), closed when the test ends. Warnings go to the
// test's log.
func New(t testing.TB) *memory.Memory {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	m, _, err := memory.Init(context.Background(), t.TempDir(), memory.Options{
		Identity: memory.Identity{Name: "test", Email: "test@example.com"},
		Warn:     func(s string) { t.Log("warn: " + s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// Head returns the commit the memory's HEAD names.
func Head(t testing.TB, m *memory.Memory) string {
	t.Helper()
	h, err := m.History().Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return h
}
