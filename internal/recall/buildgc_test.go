package recall

import (
	"context"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/cairn-mem/cairn/indexer"
)

// TestBuildGC checks that a first build runs with the build's garbage
// collector settings and gives the process its own back when it ends, as
// a daemon's first search does, and that opening a built index changes
// nothing.
func TestBuildGC(t *testing.T) {
	m, _ := newTestMemory(t)
	files := map[string]string{}
	n := fillBatch + 50 // two windows: progress is reported during the build
	for i := range n {
		files["core/notes/n"+strconv.Itoa(i)+".md"] = "Note number " + strconv.Itoa(i) + " about lemurs.\n"
	}
	writeFiles(t, m, files)

	// A daemon's settings (server.DaemonGC): GC percent 100, 200 MiB.
	const daemonLimit = 200 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(daemonLimit))
	builds := 0
	opts := IndexOptions{
		BuildGC: func() func() {
			builds++
			return indexer.GCForBuild(func(string) string { return "" })
		},
		Progress: func(done, total int) {
			if done == 0 {
				return // before the build starts
			}
			p := gcPercent()
			if l := debug.SetMemoryLimit(-1); p != indexer.BuildGC || l != daemonLimit {
				t.Errorf("during the build (%d of %d files): GC percent %d, limit %d; want %d, %d (the daemon's lower limit)", done, total, p, l, indexer.BuildGC, daemonLimit)
			}
		},
	}
	x, err := OpenIndex(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	check := func(when string) {
		t.Helper()
		if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || l != daemonLimit {
			t.Errorf("%s: GC percent %d, limit %d; want the daemon's 100, %d", when, p, l, daemonLimit)
		}
	}
	check("after the build")
	if builds != 1 {
		t.Errorf("BuildGC called %d times for one build", builds)
	}
	x, err = OpenIndex(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	check("after opening the built index")
	if builds != 1 {
		t.Errorf("BuildGC called %d times in all, want once: the second open built nothing", builds)
	}
}

// gcPercent reads the GC percent (debug.SetGCPercent sets it as it reads it).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
