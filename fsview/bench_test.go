package fsview_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-mem/cairn/fsview"
	"github.com/cairn-mem/cairn/fsview/fusetest"
	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// benchStore makes a committed memory with a folder of n items,
// core/decisions, and returns it opened.
func benchStore(b *testing.B, n int) *gitstore.Store {
	b.Helper()
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	b.Setenv("HOME", b.TempDir())
	dir := filepath.Join(b.TempDir(), ".cairn")
	if err := os.MkdirAll(filepath.Join(dir, "core", "decisions"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf("---\nkind: decision\ntitle: decision %d\n---\nWe chose option %d because postgres.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, "core", "decisions", fmt.Sprintf("decision-%d--01JDXK3V9M2Q7Y8Z4T6R5W%04d.md", i, i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := gitstoretest.CommitAll(context.Background(), dir); err != nil {
		b.Fatal(err)
	}
	st, err := gitstore.Open(context.Background(), dir, gitstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

func benchMount(b *testing.B, st *gitstore.Store, mnt string) *fsview.Server {
	b.Helper()
	v, err := fsview.New(context.Background(), st, fsview.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv, err := fsview.Mount(context.Background(), mnt, v, fsview.MountOptions{})
	if err != nil {
		fusetest.Unavailable(b, err)
	}
	return srv
}

// BenchmarkLsCheckpoint1000 is what ls -l does, in process, the first
// time a checkpoint folder of 1,000 entries is listed after mounting:
// read the folder, lstat every entry.
func BenchmarkLsCheckpoint1000(b *testing.B) {
	fusetest.Need(b)
	st := benchStore(b, 1000)
	mnt := b.TempDir()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		srv := benchMount(b, st, mnt)
		b.StartTimer()
		dir := filepath.Join(mnt, "checkpoints", "latest", "core", "decisions")
		es, err := os.ReadDir(dir)
		if err != nil || len(es) != 1000 {
			b.Fatalf("%d entries, %v", len(es), err)
		}
		for _, e := range es {
			if _, err := os.Lstat(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		srv.Unmount()
		b.StartTimer()
	}
}

// BenchmarkMount is the time from opening the view to a mounted folder
// that answers, in process.
func BenchmarkMount(b *testing.B) {
	fusetest.Need(b)
	st := benchStore(b, 1000)
	mnt := b.TempDir()
	b.ResetTimer()
	for range b.N {
		srv := benchMount(b, st, mnt)
		if _, err := os.Stat(filepath.Join(mnt, "core")); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		srv.Unmount()
		b.StartTimer()
	}
}

// BenchmarkLsNative1000 is the same listing on the native checkout, the
// baseline in the same run.
func BenchmarkLsNative1000(b *testing.B) {
	st := benchStore(b, 1000)
	dir := filepath.Join(st.Dir(), "core", "decisions")
	b.ResetTimer()
	for range b.N {
		es, err := os.ReadDir(dir)
		if err != nil || len(es) != 1000 {
			b.Fatalf("%d entries, %v", len(es), err)
		}
		for _, e := range es {
			if _, err := os.Lstat(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
}
