package codegit

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchRepo is a project of n files in 20 folders, committed, with the
// first file edited and not committed.
func benchRepo(b *testing.B, n int) (dir string, named []string) {
	b.Helper()
	dir = b.TempDir()
	for i := range n {
		f := filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%20, i))
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, fmt.Appendf(nil, "package pkg\n\n// File %d.\nfunc F%d() int { return %d }\n", i, i, i), 0o644)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-qm", "code"}} {
		gitIn(b, dir, args...)
	}
	os.WriteFile(filepath.Join(dir, "pkg00/file0000.go"), []byte("package pkg\n\nfunc F0() int { return -1 }\n"), 0o644)
	return dir, []string{"pkg00/file0000.go", "pkg01/file0001.go", "pkg02/file0002.go", "no/such.go"}
}

// What a checkpoint that writes a summary naming four files pays for
// the trailers (State), against what every checkpoint paid before (Head):
// go test -run XX -bench 'Head|State' ./internal/codegit
func BenchmarkHead(b *testing.B) {
	dir, _ := benchRepo(b, 2000)
	for b.Loop() {
		Head(dir)
	}
}

func BenchmarkState(b *testing.B) {
	dir, named := benchRepo(b, 2000)
	if _, d := State(dir, named); len(d) != 1 {
		b.Fatalf("dirty %v, want the one edit", d)
	}
	for b.Loop() {
		State(dir, named)
	}
}
