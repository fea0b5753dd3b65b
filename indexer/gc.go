package indexer

import (
	"runtime/debug"
	"sync"
)

// gcBuild is the state GCForBuild keeps: how many builds run, and the
// settings the first of them found.
var gcBuild struct {
	sync.Mutex
	builds  int
	percent int
	limit   int64
}

// mappedRoom is what of BuildMemory the Go runtime leaves to the pages
// of the index's files that Bleve maps (its segments, read as they are
// merged): no Go setting bounds those, and at 100,000 files they reached
// 30 to 80 MiB of a build's RSS, most near its end.
const mappedRoom = 96 << 20

// GCForBuild sets the process's garbage collector for building an index
// from scratch and returns a function that puts back the settings it
// found; every process that builds one calls it, for the build alone (a
// `cairn reindex`, a daemon's or a command's first search). The GC
// percent becomes BuildGC, and the soft memory limit BuildMemory less
// the room left for the index's mapped files (so that the process's RSS,
// not the Go heap alone, stays within BuildMemory), unless
// the process has a lower one (a daemon's daemon.memory_limit_mib) or
// GOMEMLIMIT is set in its environment (getenv), which wins. Builds that
// overlap share the settings: the last to end puts back the first's.
func GCForBuild(getenv func(string) string) (restore func()) {
	gcBuild.Lock()
	defer gcBuild.Unlock()
	if gcBuild.builds == 0 {
		gcBuild.percent = debug.SetGCPercent(BuildGC)
		gcBuild.limit = debug.SetMemoryLimit(-1) // -1 reads it
		if getenv("GOMEMLIMIT") == "" && gcBuild.limit > BuildMemory-mappedRoom {
			debug.SetMemoryLimit(BuildMemory - mappedRoom)
		}
	}
	gcBuild.builds++
	var once sync.Once
	return func() {
		once.Do(func() {
			gcBuild.Lock()
			defer gcBuild.Unlock()
			if gcBuild.builds--; gcBuild.builds == 0 {
				debug.SetGCPercent(gcBuild.percent)
				debug.SetMemoryLimit(gcBuild.limit)
			}
		})
	}
}
