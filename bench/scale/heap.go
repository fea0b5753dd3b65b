package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
)

// heapProfile does in this process what a daemon does on its first
// search of a memory without an index (server's lazySearch: open the
// index, which catches up with HEAD, then search), with the daemon's GC
// settings, and writes a heap profile of what stays in use to out, for
// `go tool pprof -sample_index=inuse_space`. It prints the RSS then.
// While the index is built it also keeps the heap profile of the largest
// live heap seen (as of the collection that measured it) and writes it
// to out+".peak": what the build's peak is made of.
func heapProfile(ctx context.Context, project, out string) error {
	start := time.Now()
	m, err := memory.Open(ctx, filepath.Join(project, ".cairn"), memory.Options{})
	if err != nil {
		return err
	}
	defer m.Close()
	// The daemon's GC settings (cairn daemon run): GC percent 100 and
	// daemon.memory_limit_mib, unless GOMEMLIMIT says otherwise.
	server.DaemonGC(m.Config.Daemon.MemoryLimit(), os.Getenv)
	stop := make(chan struct{})
	peak := make(chan peakHeap)
	go watchPeak(stop, peak)
	// The daemon's build settings for the build (cairn daemon run).
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{BuildGC: func() func() { return indexer.GCForBuild(os.Getenv) }})
	close(stop)
	p := <-peak
	if err != nil {
		return err
	}
	defer x.Close()
	built := time.Since(start)
	if err := os.WriteFile(out+".peak", p.profile, 0o644); err != nil {
		return err
	}
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
	fmt.Printf("built in %.1f s; peak live heap %.1f MiB at %.1f s (%s.peak); heap in use %.1f MiB, heap objects %d, Go sys %.1f MiB; VmRSS %.1f MiB (anonymous %.1f, files %.1f), VmHWM %.1f MiB\n",
		built.Seconds(), float64(p.live)/(1<<20), p.at.Sub(start).Seconds(), out,
		float64(ms.HeapInuse)/(1<<20), ms.HeapObjects, float64(ms.Sys)/(1<<20), v.rss, v.anon, v.file, v.hwm)
	return nil
}

// peakHeap is the heap profile of the largest live heap watchPeak saw.
type peakHeap struct {
	live    uint64
	at      time.Time
	profile []byte
}

// watchPeak reads the live heap (as the last collection measured it)
// every 20 ms until stop is closed, takes a heap profile each time it
// grew by more than 2% over the largest so far, and then sends the last
// one on peak.
func watchPeak(stop <-chan struct{}, peak chan<- peakHeap) {
	var p peakHeap
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			peak <- p
			return
		case <-t.C:
		}
		metrics.Read(s)
		if live := s[0].Value.Uint64(); live > p.live+p.live/50 {
			var b bytes.Buffer
			if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
				p = peakHeap{live: live, at: time.Now(), profile: b.Bytes()}
			}
		}
	}
}
