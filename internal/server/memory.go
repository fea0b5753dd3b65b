package server

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// DaemonGC sets the garbage collector of a process that is to run a
// daemon. Short commands collect less often (cmd/cairn collects nothing
// until 64 MB, then at a GC percent of 400: they exit before the heap
// matters); a daemon lives for hours, so
// it goes back to Go's default of 100 and gets a soft memory limit of
// limit bytes, unless GOMEMLIMIT is set in its environment (getenv), which
// the Go runtime has applied already and which wins. It returns the limit
// in force.
func DaemonGC(limit int64, getenv func(string) string) int64 {
	debug.SetGCPercent(100)
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1) // -1 reads it
	}
	debug.SetMemoryLimit(limit)
	return limit
}

// releaser returns freed heap memory to the system once the daemon is
// quiet after a burst of work (a first index build, a large checkpoint or
// capture batch). The runtime's own scavenger does it too, but over
// minutes; a daemon idle at its peak RSS is what users see in top.
type releaser struct {
	every time.Duration // how often it looks; 0 means 2 seconds
	// read returns the bytes allocated since the start and the heap's
	// free bytes not yet returned; nil means runtime/metrics.
	read func() (allocs, free uint64)
	// release is called when the daemon has gone quiet with at least
	// releaseMinFree bytes of heap free; nil means debug.FreeOSMemory.
	release func()
}

const (
	// releaseMinFree is the free heap worth a forced collection.
	releaseMinFree = 16 << 20
	// quietAllocs is what the daemon may allocate in one look and still
	// count as quiet.
	quietAllocs = 4 << 20
)

func (r releaser) Serve(ctx context.Context) error {
	every, read, release := r.every, r.read, r.release
	if every <= 0 {
		every = 2 * time.Second
	}
	if read == nil {
		read = heapMetrics
	}
	if release == nil {
		release = debug.FreeOSMemory
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var last uint64
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		allocs, free := read()
		quiet := allocs-last < quietAllocs
		last = allocs
		if quiet && free >= releaseMinFree {
			release()
		}
	}
}

func heapMetrics() (allocs, free uint64) {
	s := []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}
