package server

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"
)

// ErrReplaced is why a daemon stopped when the program file it runs from
// was replaced: an upgrade (go install, a package) leaves the running
// daemon on the old code while every hook runs the new one. Its next
// start, a hook's autostart or the service manager's restart, runs the
// new program.
var ErrReplaced = errors.New("daemon: the cairn program was replaced; stopped so that the next start runs the new one")

// exeWatch stops the daemon (stop) once the file at path is another file
// or was rewritten: a stat every interval, nothing more.
type exeWatch struct {
	path     string
	interval time.Duration
	stop     context.CancelCauseFunc
	log      *slog.Logger
}

func (w exeWatch) Serve(ctx context.Context) error {
	was, err := os.Stat(w.path)
	if err != nil {
		return nil // nothing to watch: the daemon runs on
	}
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		now, err := os.Stat(w.path)
		if err != nil {
			continue // between the old file's removal and the new one's rename
		}
		if !os.SameFile(was, now) || !now.ModTime().Equal(was.ModTime()) || now.Size() != was.Size() {
			w.log.Info("the cairn program was replaced; stopping", "path", w.path)
			w.stop(ErrReplaced)
			return nil
		}
	}
}
