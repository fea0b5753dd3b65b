package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// Benchmarks of a checkpoint of 1 modified + 1 new file in generated
// memory repositories, against git add -A && git commit on an identical
// repository in the same run. Compare ratios, not times: these machines
// are noisy. bench/checkpoint.sh compares whole processes.

var benchSizes = []int{10_000, 100_000}

var (
	benchOnce  = map[int]*sync.Once{}
	benchRepos = map[int]string{}
	benchErr   = map[int]error{}
	benchMu    sync.Mutex
)

// benchRepo generates, once per size, a committed repository and returns
// a fresh copy of it.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	benchMu.Lock()
	once, ok := benchOnce[n]
	if !ok {
		once = &sync.Once{}
		benchOnce[n] = once
	}
	benchMu.Unlock()
	once.Do(func() {
		dir, err := os.MkdirTemp("", fmt.Sprintf("cairn-bench-%d-", n))
		if err == nil {
			err = gitstoretest.Generate(dir, gitstoretest.LayoutFor(n), 1)
		}
		if err == nil {
			err = gitstoretest.CommitAll(context.Background(), dir)
		}
		benchMu.Lock()
		benchRepos[n], benchErr[n] = dir, err
		benchMu.Unlock()
	})
	benchMu.Lock()
	src, err := benchRepos[n], benchErr[n]
	benchMu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	dst := filepath.Join(b.TempDir(), "repo")
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		b.Fatalf("copy: %v: %s", err, out)
	}
	return dst
}

// mutate modifies one session file and adds one core item, as a hook's
// batch of work does.
func mutate(b *testing.B, dir string, i int) []string {
	b.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "observations.md"))
	if len(matches) == 0 {
		b.Fatal("no session to modify")
	}
	mod := matches[(i+len(matches))%len(matches)]
	f, err := os.OpenFile(mod, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(f, "- observation %d: ran go test ./... (exit 0)\n", i)
	f.Close()
	add := filepath.Join(dir, "core", "decisions", fmt.Sprintf("bench-%d--01JDXK3V9M2Q7Y8Z4T6R5W%04d.md", i+1, i+1))
	if err := os.WriteFile(add, []byte(fmt.Sprintf("---\nkind: decision\ntitle: bench %d\n---\nbody\n", i)), 0o644); err != nil {
		b.Fatal(err)
	}
	r1, _ := filepath.Rel(dir, mod)
	r2, _ := filepath.Rel(dir, add)
	return []string{filepath.ToSlash(r1), filepath.ToSlash(r2)}
}

// BenchmarkCheckpoint measures one checkpoint in a running process:
//   - paths: the changed paths are known (hooks, the daemon, remember);
//   - paths+index: the same, writing the stat cache and git index each time
//     (what a one-shot command does when it releases the lock);
//   - scan: a whole-tree checkpoint that finds hand edits (cairn checkpoint).
func BenchmarkCheckpoint(b *testing.B) {
	for _, n := range benchSizes {
		for _, mode := range []string{"paths", "paths+index", "scan"} {
			b.Run(fmt.Sprintf("files=%d/%s", n, mode), func(b *testing.B) {
				dir := benchRepo(b, n)
				ctx := context.Background()
				s, err := Open(ctx, dir, Options{DeferIndex: mode != "paths+index"})
				if err != nil {
					b.Fatal(err)
				}
				unlock, err := s.Lock(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				// Warm up: the first checkpoint hashes every file once to
				// fill the stat cache of a repository made by git.
				mutate(b, dir, -1)
				if _, err := s.Checkpoint(ctx, CheckpointOptions{}); err != nil {
					b.Fatal(err)
				}
				unlock()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					paths := mutate(b, dir, i)
					if mode == "scan" {
						paths = nil
					}
					b.StartTimer()
					unlock, err := s.Lock(ctx, 0)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := s.Checkpoint(ctx, CheckpointOptions{Subject: "bench", Paths: paths}); err != nil {
						b.Fatal(err)
					}
					unlock()
				}
			})
		}
	}
}

// BenchmarkGitCLI is the baseline: git add -A && git commit on an
// identical repository.
func BenchmarkGitCLI(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := benchRepo(b, n)
			ctx := context.Background()
			mutate(b, dir, -1)
			gitstoretest.Git(ctx, dir, "add", "-A")
			gitstoretest.Git(ctx, dir, "commit", "-qm", "warm")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				mutate(b, dir, i)
				b.StartTimer()
				if _, err := gitstoretest.Git(ctx, dir, "add", "-A"); err != nil {
					b.Fatal(err)
				}
				if _, err := gitstoretest.Git(ctx, dir, "commit", "-qm", "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
