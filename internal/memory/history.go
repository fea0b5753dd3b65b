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
	"github.com/cairn-mem/cairn/internal/codegit"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory/journal"
)

// LogEntry is one checkpoint, in the shape `cairn log --json` prints.
type LogEntry struct {
	Commit     string    `json:"commit"`
	Time       time.Time `json:"time"`
	Subject    string    `json:"subject"`
	Session    string    `json:"session"`
	Event      string    `json:"event"`
	CodeCommit string    `json:"code_commit"`
	// CodeDirty is, by path, the blob of each file the checkpoint's
	// memory files name that held an edit CodeCommit did not.
	CodeDirty    map[string]string `json:"code_dirty,omitempty"`
	FilesChanged int               `json:"files_changed"`
	Tags         []string          `json:"tags,omitempty"`
}

// LogOptions filter Log.
type LogOptions struct {
	N       int
	Session string // only checkpoints of this session (id or prefix)
	Code    string // only checkpoints made while the code was at this commit (id or prefix)
	Files   bool   // count changed files (reads each commit's trees)
}

// Log lists checkpoints, newest first.
func (h History) Log(ctx context.Context, opts LogOptions) ([]LogEntry, error) {
	m := h.m
	commits, err := m.store.Log(ctx, gitstore.LogOptions{N: opts.N, Match: func(c *gitstore.Commit) bool {
		if opts.Session != "" && !strings.HasPrefix(c.Trailer(TrailerSession), opts.Session) {
			return false
		}
		if opts.Code != "" && !codegit.HasPrefixFold(c.Trailer(TrailerCodeCommit), opts.Code) {
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
			CodeDirty:  codeDirty(&c),
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
func (h History) Diff(ctx context.Context, opts gitstore.DiffOptions) ([]gitstore.FileDiff, error) {
	m := h.m
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
//
// A restore goes through the write model's lock and journal, but not
// through Writes: it may rewrite every file of the memory, and a Writes
// journal would hold each one's old and new bytes. The content is in
// history already, so its journal names the commit restored from instead,
// and a restore a killed process left is rolled forward (finishRestore):
// writing rev's content again gives the same files, and HEAD before the
// restore still has what it replaced. Nor is it redacted: it brings back
// committed text, which is in history whatever it holds.
func (h History) Restore(ctx context.Context, rev string, paths []string) (*RestoreResult, error) {
	m := h.m
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
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
	head, err := m.store.Resolve("HEAD")
	if err != nil {
		return nil, fmt.Errorf("restore %s: %w", rev, err)
	}
	subject := "restore: memory as of " + from[:10]
	if c, err := m.store.Commit(ctx, from); err == nil {
		subject += " (" + mdtext.Truncate(c.Subject, 50) + ")"
	}
	if len(paths) > 0 {
		subject += " for " + strings.Join(paths, ", ")
	}
	j := &journal.Journal{Schema: 1, Parent: head, Event: "restore", Message: subject, Paths: pathsOrNil(paths),
		Restore: &journal.RestoreOp{From: from, Paths: pathsOrNil(paths)}}
	if err := m.journal().Write(j); err != nil {
		return nil, err
	}
	res.Changes, res.Checkpoint, err = h.restoreFrom(ctx, j)
	if err != nil {
		// Rolling forward failed here, and would fail again in the next
		// writer, which would then stop every writer: the journal goes,
		// and the error says what is left.
		m.journal().Remove()
		return nil, fmt.Errorf("%w (files may be restored in part; restore again to finish, or checkpoint to keep them)", err)
	}
	m.journal().Remove()
	return res, nil
}

// restoreFrom writes the content of j's commit over the work tree and
// checkpoints it. Run again after a partial run, it writes the same files
// (the changes are those between the trees of HEAD and the commit, not of
// the work tree) and commits them; run after the commit, it finds nothing
// to do. The caller holds the lock.
func (h History) restoreFrom(ctx context.Context, j *journal.Journal) ([]gitstore.FileChange, *gitstore.Checkpoint, error) {
	m := h.m
	from, paths := j.Restore.From, j.Restore.Paths
	fcs, err := m.store.Restore(ctx, from, paths)
	if err != nil && h.repairFromRemotes(ctx) { // sync.go: objects missing here, fetched from a remote
		fcs, err = m.store.Restore(ctx, from, paths)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(fcs) == 0 {
		return nil, nil, nil
	}
	m.pause("restored")
	changed := make([]string, len(fcs))
	for i, fc := range fcs {
		changed[i] = fc.Path
	}
	cp, err := m.checkpoint(ctx, CheckpointOptions{
		Message: j.Message,
		Event:   "restore",
		Paths:   changed,
		Extra:   []gitstore.Trailer{{Key: "Cairn-Restored-From", Value: from}},
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return nil, nil, err
	}
	return fcs, cp, nil
}

// finishRestore rolls forward a restore a killed process left, whether or
// not its commit was made. The caller holds the lock.
func (h History) finishRestore(ctx context.Context, j *journal.Journal) error {
	m := h.m
	if _, _, err := h.restoreFrom(ctx, j); err != nil {
		return fmt.Errorf("finish an interrupted restore from %s: %w", j.Restore.From, err)
	}
	m.warn(fmt.Sprintf("settled a restore from %s a stopped process left unfinished", j.Restore.From[:min(10, len(j.Restore.From))]))
	m.journal().Remove()
	return nil
}

// CheckpointForCode finds the newest checkpoint made while the project's
// code was at sha or at a commit in sha's history: the memory as it was
// when the code was at sha.
func (h History) CheckpointForCode(ctx context.Context, sha string) (string, error) {
	m := h.m
	history, err := codegit.History(ctx, m.Project, sha)
	if err != nil {
		// Without the project repository, only an exact match can be found.
		log, lerr := h.Log(ctx, LogOptions{N: 1, Code: sha})
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
func (h History) Tag(ctx context.Context, name, rev string) error {
	m := h.m
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
func (h History) repairFromRemotes(ctx context.Context) bool {
	m := h.m
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

// History is a memory's past: its checkpoints, what they changed, named
// checkpoints, and restoring one. It is a view of the Memory it came from.
type History struct{ m *Memory }

// History returns the memory's history.
func (m *Memory) History() History { return History{m} }
