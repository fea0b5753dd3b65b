package indexer

import (
	"math"
	"runtime/debug"
	"testing"
)

// noLimit is the memory limit of a process that has none.
const noLimit = math.MaxInt64

// TestGCForBuild checks that a build gets BuildGC and BuildMemory, keeps
// a lower limit or one GOMEMLIMIT set, and that the process gets its own
// settings back when the last of overlapping builds ends.
func TestGCForBuild(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(noLimit))
	noEnv := func(string) string { return "" }
	for _, c := range []struct {
		name         string
		percent      int
		limit, build int64
		getenv       func(string) string
	}{
		{"a command", 400, noLimit, BuildMemory - mappedRoom, noEnv},
		{"a daemon", 100, 200 << 20, 200 << 20, noEnv},
		{"GOMEMLIMIT above", 100, 1 << 30, 1 << 30, func(k string) string {
			if k == "GOMEMLIMIT" {
				return "1GiB"
			}
			return ""
		}},
	} {
		debug.SetGCPercent(c.percent)
		debug.SetMemoryLimit(c.limit)
		restore := GCForBuild(c.getenv)
		if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != BuildGC || l != c.build {
			t.Errorf("%s: during the build GC percent %d, limit %d; want %d, %d", c.name, p, l, BuildGC, c.build)
		}
		inner := GCForBuild(c.getenv) // a build that overlaps the first
		restore()
		if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != BuildGC || l != c.build {
			t.Errorf("%s: while a second build runs GC percent %d, limit %d; want %d, %d", c.name, p, l, BuildGC, c.build)
		}
		restore() // twice is once
		inner()
		if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != c.percent || l != c.limit {
			t.Errorf("%s: after the builds GC percent %d, limit %d; want %d, %d", c.name, p, l, c.percent, c.limit)
		}
	}
}

// gcPercent reads the GC percent (debug.SetGCPercent sets it as it reads it).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
