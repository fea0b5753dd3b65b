package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitsync"
	"github.com/cairn-mem/cairn/internal/mdtext"
)

// LogEntry is one checkpoint, in the shape `cairn log --json` prints.
type LogEntry struct {
	Commit       string    `json:"commit"`
	Time         time.Time `json:"time"`
	Subject      string    `json:"subject"`
	Session      string    `json:"session"`
	Event        string    `json:"event"`
	CodeCommit   string    `json:"code_commit"`
	FilesChanged int       `json:"files_changed"`
	Tags         []string  `json:"tags,omitempty"`
}

// LogOptions filter Log.
type LogOptions struct {
	N       int
	Session string // only checkpoints of this session (id or prefix)
	Code    string // only checkpoints made while the code was at this commit (id or prefix)
	Files   bool   // count changed files (reads each commit's trees)
}

// Log lists checkpoints, newest first.
func (m *Memory) Log(ctx context.Context, opts LogOptions) ([]LogEntry, error) {
	commits, err := m.store.Log(ctx, gitstore.LogOptions{N: opts.N, Match: func(c *gitstore.Commit) bool {
		if opts.Session != "" && !strings.HasPrefix(c.Trailer(TrailerSession), opts.Session) {
			return false
		}
		if opts.Code != "" && !gitstore.HasPrefixFold(c.Trailer(TrailerCodeCommit), opts.Code) {
			return false
		}
		return true
	}})
	if err != nil {
		return nil, err
	}
	out := make([]LogEntry, 0, len(commits))
	for _, c := range commits {
		e := LogEntry{
			Commit:     c.Hash,
			Time:       c.Time,
			Subject:    c.Subject,
			Session:    c.Trailer(TrailerSession),
			Event:      c.Trailer(TrailerEvent),
			CodeCommit: c.Trailer(TrailerCodeCommit),
			Tags:       c.Tags,
		}
		if opts.Files {
			fcs, err := m.store.ChangedFiles(ctx, c.Hash)
			if err != nil {
				return nil, err
			}
			e.FilesChanged = len(fcs)
		}
		out = append(out, e)
	}
	return out, nil
}

// Diff compares checkpoints, or a checkpoint and the work tree.
func (m *Memory) Diff(ctx context.Context, opts gitstore.DiffOptions) ([]gitstore.FileDiff, error) {
	return m.store.Diff(ctx, opts)
}

// RestoreResult says what a restore did.
type RestoreResult struct {
	From       string // the full commit id restored from
	Saved      *gitstore.Checkpoint
	Checkpoint *gitstore.Checkpoint // nil when the memory already was as at From
	Changes    []gitstore.FileChange
}

// Restore brings back the memory (or paths of it) as it was at rev, as a
// new checkpoint. Changes not yet checkpointed are checkpointed first, so
// that a restore never loses anything.
func (m *Memory) Restore(ctx context.Context, rev string, paths []string) (*RestoreResult, error) {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	from, err := m.store.Resolve(rev)
	if err != nil {
		return nil, err
	}
	res := &RestoreResult{From: from}
	saved, err := m.checkpoint(ctx, CheckpointOptions{
		Message: "checkpoint: before restoring " + from[:10],
		Event:   "pre-restore",
		Paths:   pathsOrNil(paths),
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return nil, err
	}
	res.Saved = saved
	fcs, err := m.store.Restore(ctx, from, paths)
	if err != nil && m.repairFromRemotes(ctx) { // sync.go: objects missing here, fetched from a remote
		fcs, err = m.store.Restore(ctx, from, paths)
	}
	if err != nil {
		return nil, err
	}
	res.Changes = fcs
	if len(fcs) == 0 {
		return res, nil
	}
	changed := make([]string, len(fcs))
	for i, fc := range fcs {
		changed[i] = fc.Path
	}
	subject := "restore: memory as of " + from[:10]
	if c, err := m.store.Commit(ctx, from); err == nil {
		subject += " (" + mdtext.Truncate(c.Subject, 50) + ")"
	}
	if len(paths) > 0 {
		subject += " for " + strings.Join(paths, ", ")
	}
	cp, err := m.checkpoint(ctx, CheckpointOptions{
		Message: subject,
		Event:   "restore",
		Paths:   changed,
		Extra:   []gitstore.Trailer{{Key: "Cairn-Restored-From", Value: from}},
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return nil, err
	}
	res.Checkpoint = cp
	return res, nil
}

// CheckpointForCode finds the newest checkpoint made while the project's
// code was at sha or at a commit in sha's history: the memory as it was
// when the code was at sha.
func (m *Memory) CheckpointForCode(ctx context.Context, sha string) (string, error) {
	history, err := gitstore.CodeHistory(ctx, m.Project, sha)
	if err != nil {
		// Without the project repository, only an exact match can be found.
		log, lerr := m.Log(ctx, LogOptions{N: 1, Code: sha})
		if lerr == nil && len(log) == 1 {
			return log[0].Commit, nil
		}
		return "", err
	}
	known := make(map[string]bool, len(history))
	for _, h := range history {
		known[h] = true
	}
	found, err := m.store.Log(ctx, gitstore.LogOptions{N: 1, Match: func(c *gitstore.Commit) bool {
		return known[c.Trailer(TrailerCodeCommit)]
	}})
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		return "", fmt.Errorf("no checkpoint was made while the code was at %s or before it: %w", sha, gitstore.ErrUnknownRev)
	}
	return found[0].Hash, nil
}

func pathsOrNil(p []string) []string {
	if len(p) == 0 {
		return nil
	}
	return p
}

// Tag names the checkpoint rev.
func (m *Memory) Tag(ctx context.Context, name, rev string) error {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return m.store.Tag(ctx, name, rev)
}

// repairFromRemotes looks for missing or corrupt objects and fetches them
// from the remotes, for an operation that failed reading history. It
// reports whether it repaired any. The caller holds the lock.
func (m *Memory) repairFromRemotes(ctx context.Context) bool {
	rs, err := gitsync.Remotes(m.store)
	if err != nil || len(rs) == 0 {
		return false
	}
	res, err := gitsync.Verify(ctx, m.store)
	if err != nil || len(res.Problems) == 0 {
		return false
	}
	fixed := 0
	for _, r := range rs {
		n, err := gitsync.Repair(ctx, m.store, r.Name, res.Problems, os.Getenv)
		if err != nil {
			m.warn(err.Error())
		}
		fixed += n
		if fixed == len(res.Problems) {
			break
		}
	}
	if fixed > 0 {
		m.warn(fmt.Sprintf("fetched %d missing or corrupt objects from the remotes", fixed))
	}
	return fixed > 0
}
