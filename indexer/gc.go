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

// GCForBuild sets the process's garbage collector for building an index
// from scratch and returns a function that puts back the settings it
// found; every process that builds one calls it, for the build alone (a
// `cairn reindex`, a daemon's or a command's first search). The GC
// percent becomes BuildGC, and the soft memory limit BuildMemory, unless
// the process has a lower one (a daemon's daemon.memory_limit_mib) or
// GOMEMLIMIT is set in its environment (getenv), which wins. Builds that
// overlap share the settings: the last to end puts back the first's.
func GCForBuild(getenv func(string) string) (restore func()) {
	gcBuild.Lock()
	defer gcBuild.Unlock()
	if gcBuild.builds == 0 {
		gcBuild.percent = debug.SetGCPercent(BuildGC)
		gcBuild.limit = debug.SetMemoryLimit(-1) // -1 reads it
		if getenv("GOMEMLIMIT") == "" && gcBuild.limit > BuildMemory {
			debug.SetMemoryLimit(BuildMemory)
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
