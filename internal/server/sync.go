package server

import (
	"log/slog"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
)

// SyncPart is the daemon's syncing: a memsync.Loop on the memory in dir
// (opened with opts) with the schedule of cairn.yaml's sync section,
// reporting to the daemon's log what each sync merged or pushed.
func SyncPart(dir string, opts memory.Options, log *slog.Logger) Part {
	return Part{Name: "sync", Service: &memsync.Loop{
		Dir:     dir,
		Options: opts,
		Report: func(res *memsync.SyncResult, err error) {
			if err != nil {
				log.Warn("sync", "err", err)
				return
			}
			for _, r := range res.Remotes {
				if r.Merge != "up-to-date" || r.Pushed {
					log.Info("synced", "remote", r.Remote, "merge", r.Merge, "changes", r.Changes, "conflicts", len(r.Conflicts), "pushed", r.Pushed, "commit", r.Commit)
				}
			}
		},
	}}
}
