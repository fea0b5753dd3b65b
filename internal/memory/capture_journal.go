package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/journal"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// This is the write model: every change of the memory's files (remember,
// update, forget, capture, session changes, sharing, restore) is a batch
// written under the writer lock (.state/lock) and a journal, and lands as
// one commit or not at all. A batch changes several files (a session's
// logs, its session.yaml, core items) and may move a session's folder.
// Before the first change, .state/capture/journal.json records every
// change (appends as the size they start at and the bytes added, rewrites
// with the old content, moves) and the commit HEAD was at. After the
// commit the journal goes. If a process dies in between, the next writer
// (LockSettled, Begin) finds the journal under the lock and either undoes
// the changes (HEAD has not moved: nothing was committed) or redoes them
// and commits (HEAD moved: the commit was made, or someone committed part
// of the batch). Either way the work tree and history hold the batch once
// or not at all, and a capture job that was not marked done runs again and
// dedupes. The journal keeps its name under capture/, where capture first
// used it, so that one a previous version left is still found.
//
// Redaction happens here too (writeBatch), so that no writer can forget
// it.

// Writes collects the changes of one batch (journal.Writes).
type Writes = journal.Writes

// pending returns what a file will hold once the batch is applied, as far
// as the batch knows: its content in the work tree (where it was before
// any move) plus what the batch adds, or what it puts.
func (m *Memory) PendingContent(b *Writes, p string) ([]byte, error) {
	for _, w := range b.Changes() {
		if w.Path == p && !w.Append {
			if w.Remove {
				return nil, nil
			}
			return w.Data, nil
		}
	}
	cur, err := m.store.ReadFile(b.Before(p))
	if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
		return nil, err
	}
	for _, w := range b.Changes() {
		if w.Path == p && w.Append {
			cur = append(cur, w.Data...)
		}
	}
	return cur, nil
}

// CommitWrites applies b and checkpoints the paths it touched, as one
// commit, under a journal. The caller holds the lock (LockSettled). It
// returns nil when the batch changed nothing.
func (m *Memory) CommitWrites(ctx context.Context, b *Writes, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	return m.writeBatch(ctx, b, &opts)
}

// writeBatch is the write model: it redacts what b writes, records the
// batch in the journal, applies it, commits it when opts is not nil, and
// removes the journal. With opts nil (cairn.yaml checkpoint.auto: false)
// the files are written and left for the next checkpoint; the journal then
// only makes the batch's files change together: a batch cut short is
// undone by the next writer, since nobody was told it was written.
func (m *Memory) writeBatch(ctx context.Context, b *Writes, opts *CheckpointOptions) (*gitstore.Checkpoint, error) {
	m.dropPurged(b)
	if b.Empty() {
		return nil, nil
	}
	// Memory gets pushed: whoever writes (the command line, MCP, the
	// HTTP API, capture, sharing), secrets go before anything reaches the
	// disk. The redactor is a fixed point, so text its callers redacted
	// already comes through unchanged.
	red, err := m.Redactor()
	if err != nil {
		return nil, err
	}
	head, err := m.store.Resolve("HEAD")
	if err != nil {
		return nil, fmt.Errorf("write batch: %w", err)
	}
	j := &journal.Journal{Schema: 1, Parent: head, Moves: b.Moves(), NoCommit: opts == nil}
	if opts != nil {
		j.Session, j.Event, j.Message = opts.Session, opts.Event, opts.Message
	}
	for _, w := range b.Changes() {
		if !w.Remove && len(w.Data) > 0 {
			if out, found := red.Redact(string(w.Data)); len(found) > 0 {
				w.Data = []byte(out)
			}
		}
		name, err := m.store.Abs(b.Before(w.Path))
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(m.Dir, name)
		rel = filepath.ToSlash(rel)
		// Neither the undo copy nor the append's base is taken through
		// a symbolic link: a link in the way is an error naming it.
		if w.Append {
			fi, err := safefile.LstatInRoot(m.Dir, rel)
			if err == nil && !fi.Mode().IsRegular() {
				err = fmt.Errorf("%s: not a regular file", name)
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			if w.Existed = err == nil; w.Existed {
				w.Base = fi.Size()
			}
		} else {
			prev, err := safefile.ReadInRoot(m.Dir, rel)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			if w.Existed = err == nil; w.Existed {
				w.Old = prev
			}
		}
		j.Writes = append(j.Writes, w)
	}
	j.Paths = b.Paths()
	if err := m.journal().Write(j); err != nil {
		return nil, err
	}
	fail := func(err error) (*gitstore.Checkpoint, error) {
		if rerr := m.journal().Undo(j); rerr != nil {
			return nil, fmt.Errorf("%w (and undoing the batch failed: %v; the next writer tries again)", err, rerr)
		}
		m.journal().Remove()
		return nil, err
	}
	if err := m.journal().Redo(j); err != nil {
		return fail(err)
	}
	m.pause("applied")
	if opts == nil {
		m.journal().Remove()
		return nil, nil
	}
	o := *opts
	o.Paths = j.Paths
	cp, err := m.checkpoint(ctx, o)
	if errors.Is(err, gitstore.ErrNothingToDo) {
		cp, err = nil, nil
	}
	if err == nil {
		err = m.uncommitted(ctx, j.Paths, cp)
	}
	if err != nil {
		return fail(err)
	}
	m.pause("committed")
	m.journal().Remove()
	return cp, nil
}

// uncommitted makes a write that did not reach a commit an error, never
// a success: a batch path (a file, or a moved folder) the checkpoint cp
// (nil when it had nothing to do) left out must hold what HEAD holds,
// else something (a .gitignore from a remote, a name git cannot take)
// kept it out.
func (m *Memory) uncommitted(ctx context.Context, paths []string, cp *gitstore.Checkpoint) error {
	var changed []string
	if cp != nil {
		for _, c := range cp.Changes {
			changed = append(changed, c.Path)
		}
	}
	var left []string
	same := func(p string) {
		work, werr := m.store.ReadFile(p)
		head, herr := m.store.ReadFileAt(ctx, "HEAD", p)
		switch {
		case errors.Is(werr, gitstore.ErrNotFound) && errors.Is(herr, gitstore.ErrNotFound):
		case werr == nil && herr == nil && bytes.Equal(work, head):
		default:
			left = append(left, p)
		}
	}
	for _, p := range paths {
		if slices.ContainsFunc(changed, func(c string) bool { return c == p || strings.HasPrefix(c, p+"/") }) {
			continue
		}
		name, err := m.store.Abs(p)
		if err != nil {
			return err
		}
		if fi, err := os.Lstat(name); err != nil || !fi.IsDir() {
			same(p)
			continue
		}
		_ = filepath.WalkDir(name, func(f string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if rel, err := filepath.Rel(name, f); err == nil {
					same(p + "/" + filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	if len(left) == 0 {
		return nil
	}
	return fmt.Errorf("write %s: not committed (is it ignored by %s?)", strings.Join(left, ", "), filepath.Join(m.Dir, ".gitignore"))
}

// LockSettled takes the writer lock and settles a batch a killed process
// left half written (recoverJournal), so that what follows reads the
// memory as it was committed.
func (m *Memory) LockSettled(ctx context.Context) (unlock func(), err error) {
	if unlock, err = m.Lock(ctx); err != nil {
		return nil, err
	}
	if err := m.recoverJournal(ctx); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// recoverJournal finishes or undoes a batch a dead process left behind.
// The caller holds the lock.
func (m *Memory) recoverJournal(ctx context.Context) error {
	j, err := m.journal().Read()
	var damaged *journal.DamagedError
	if errors.As(err, &damaged) {
		m.warn(fmt.Sprintf("write journal %s is damaged (%v); set aside", m.journal().Path, damaged.Err))
		m.journal().SetAside()
		return nil
	}
	if err != nil || j == nil {
		return err
	}
	head, err := m.store.Resolve("HEAD")
	if err != nil {
		return err
	}
	if j.Restore != nil {
		return m.History().finishRestore(ctx, j)
	}
	if head == j.Parent || j.NoCommit {
		if err := m.journal().Undo(j); err != nil {
			return fmt.Errorf("undo an interrupted batch (%s): %w", j.What(), err)
		}
		m.warn(fmt.Sprintf("undid a batch of writes (%s) a stopped process left uncommitted", j.What()))
		m.journal().Remove()
		return nil
	}
	if err := m.journal().Redo(j); err != nil {
		return fmt.Errorf("finish an interrupted batch (%s): %w", j.What(), err)
	}
	_, err = m.checkpoint(ctx, CheckpointOptions{Message: j.Message, Session: j.Session, Event: j.Event, Paths: j.Paths})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return fmt.Errorf("finish an interrupted batch (%s): %w", j.What(), err)
	}
	m.warn(fmt.Sprintf("finished a batch of writes (%s) a stopped process left", j.What()))
	m.journal().Remove()
	return nil
}

// JournalPending reports whether a batch that a killed process left half
// written waits to be settled (LockSettled settles it).
func (m *Memory) JournalPending() bool { return m.journal().Pending() }

// journal is the crash journal at .state/capture/journal.json, changing
// the work tree through m's store.
func (m *Memory) journal() journal.File {
	return journal.File{Path: m.store.StatePath(journal.Name), Dir: m.Dir, Tree: journalTree{m.store}, DirPerm: gitstore.DirPerm}
}

// journalTree is the store as the journal sees it: a missing file is
// fs.ErrNotExist as well as gitstore.ErrNotFound.
type journalTree struct{ s *gitstore.Store }

func (t journalTree) Abs(p string) (string, error)          { return t.s.Abs(p) }
func (t journalTree) WriteFile(p string, data []byte) error { return t.s.WriteFile(p, data) }

func (t journalTree) ReadFile(p string) ([]byte, error) {
	data, err := t.s.ReadFile(p)
	return data, notExist(err)
}

func (t journalTree) Remove(p string) error { return notExist(t.s.Remove(p)) }

func notExist(err error) error {
	if errors.Is(err, gitstore.ErrNotFound) {
		return fmt.Errorf("%w (%w)", err, fs.ErrNotExist)
	}
	return err
}
