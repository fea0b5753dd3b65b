package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
)

// heapProfile does in this process what a daemon does on its first
// search of a memory without an index (server's lazySearch: open the
// index, which catches up with HEAD, then search), with the daemon's GC
// settings, and writes a heap profile of what stays in use to out, for
// `go tool pprof -sample_index=inuse_space`. It prints the RSS then.
func heapProfile(ctx context.Context, project, out string) error {
	// The daemon's GC percent; no memory limit unless GOMEMLIMIT says
	// one, to see what the heap holds on its own.
	server.DaemonGC(math.MaxInt64, os.Getenv)
	m, err := memory.Open(ctx, filepath.Join(project, ".cairn"), memory.Options{})
	if err != nil {
		return err
	}
	defer m.Close()
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
	if err != nil {
		return err
	}
	defer x.Close()
	if _, err := x.Search(ctx, "queue worker", recall.SearchOptions{}); err != nil {
		return err
	}
	runtime.GC()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	v, err := procStatus(os.Getpid())
	if err != nil {
		return err
	}
	fmt.Printf("heap in use %.1f MiB, heap objects %d, Go sys %.1f MiB; VmRSS %.1f MiB (anonymous %.1f, files %.1f), VmHWM %.1f MiB\n",
		float64(ms.HeapInuse)/(1<<20), ms.HeapObjects, float64(ms.Sys)/(1<<20), v.rss, v.anon, v.file, v.hwm)
	return nil
}
