package shortheap

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
)

// A command lives for milliseconds and allocates most of what it needs up
// front (a stat cache of 100,000 entries is 10 MB): collecting garbage
// less often is cheaper than collecting it at all. The daemon lives for
// hours: `cairn daemon run` sets its own (server.DaemonGC), as does an
// index build (indexer.GCForBuild).
const (
	// ShortGCPercent is the GC percent until the first collection: the
	// runtime's first goal is 4 MB times it over 100, so 64 MB, which a
	// pack at 100,000 files stays under (its one collection, at 16 MB,
	// cost a cold pack 3-5 ms of CPU). A command that grows past it
	// collects then and from there on at CommandGCPercent.
	ShortGCPercent = 1600
	// CommandGCPercent is the GC percent of a command once it collected:
	// its heap may grow to five times what it keeps.
	CommandGCPercent = 400
)

// Start sets the collector of a short command: none until the heap
// reaches 64 MB, then at CommandGCPercent. The first collection runs a
// cleanup that lowers the percent (SettleGC); it is held off until the
// settle function Start returns is called, which first puts the heap in
// huge pages when huge says the command is worth it. Called again, or
// never, settle does nothing more.
func Start() (settle func(huge func() bool)) {
	debug.SetGCPercent(ShortGCPercent)
	first := new([64]byte) // not a tiny allocation, whose cleanup may never run
	runtime.AddCleanup(first, func(struct{}) { SettleGC() }, struct{}{})
	return func(huge func() bool) {
		if first == nil {
			return
		}
		if huge() {
			hugeHeap()
		}
		runtime.KeepAlive(first)
		first = nil
	}
}

// SettleGC lowers a short command's opening GC percent to
// CommandGCPercent, and leaves any other setting (a daemon's, a running
// build's) as it is.
func SettleGC() {
	if p := debug.SetGCPercent(CommandGCPercent); p != ShortGCPercent {
		debug.SetGCPercent(p)
	}
}

// LargeCore is the size of the core items' catalogue from which a
// command's heap is worth putting in huge pages: about 2,000 core items.
// A pack at 10,000 files (500 core items, 150 KB) lost 2.4 ms of CPU by
// it, one at 100,000 (5,000, 1.4 MB) won 11.
const LargeCore = 512 << 10

// Large tells whether the core catalogue at path is of a large memory.
func Large(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Size() >= LargeCore
}

// Reads tells whether the command of that top-level name, with args
// after it, reads much and exits: those that read the catalogue, the
// packs' caches or the index (context, search, list, session, stale,
// stats), and the hooks that make a pack (session-start,
// user-prompt-submit). Not a long-running one (a daemon, the MCP server,
// the web viewer, the mounted view, an index build): the kernel's
// khugepaged would fill its sparse regions, and the daemon's memory is
// measured (issue 15).
func Reads(name string, args []string) bool {
	switch name {
	case "context", "search", "list", "session", "stale", "stats":
		return true
	case "hook":
		return slices.ContainsFunc(args, func(a string) bool { return a == "session-start" || a == "user-prompt-submit" })
	}
	return false
}
