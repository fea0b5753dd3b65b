package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/model"
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

const journalName = "capture/journal.json"

// Writes collects the changes of one batch.
type Writes struct {
	moves  []fileMove
	writes []fileWrite
}

type fileMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type fileWrite struct {
	Path string `json:"path"`
	// Append adds Data to the file's content as it was (Base bytes) when
	// the batch started; otherwise Data replaces the content.
	Append bool   `json:"append,omitempty"`
	Base   int64  `json:"base,omitempty"`
	Data   []byte `json:"data,omitempty"`
	Remove bool   `json:"remove,omitempty"`
	// Old is the content before a rewrite or removal, for undoing it; nil
	// when the file did not exist (Existed false).
	Old     []byte `json:"old,omitempty"`
	Existed bool   `json:"existed,omitempty"`
}

type journal struct {
	Schema  int         `json:"schema"`
	Parent  string      `json:"parent"` // HEAD before the batch
	Moves   []fileMove  `json:"moves,omitempty"`
	Writes  []fileWrite `json:"writes"`
	Session string      `json:"session,omitempty"`
	Event   string      `json:"event,omitempty"`
	Message string      `json:"message,omitempty"`
	Paths   []string    `json:"paths"`
	// NoCommit marks a batch written without a checkpoint
	// (checkpoint.auto: false): HEAD tells nothing of how far it got, so
	// recovery undoes it.
	NoCommit bool `json:"no_commit,omitempty"`
	// Restore, when set, is a restore (history.go) rather than a batch of
	// writes: the content is in history, so the journal names commits
	// instead of holding bytes, and recovery rolls it forward.
	Restore *restoreOp `json:"restore,omitempty"`
}

func (b *Writes) Empty() bool { return len(b.moves) == 0 && len(b.writes) == 0 }

// move renames a folder (or file) from one repository path to another.
// Writes added after it name the new place.
func (b *Writes) Move(from, to string) {
	b.moves = append(b.moves, fileMove{From: from, To: to})
}

// put replaces a file's content.
func (b *Writes) Put(p string, data []byte) {
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p {
			*w = fileWrite{Path: p, Data: data}
			return
		}
	}
	b.writes = append(b.writes, fileWrite{Path: p, Data: data})
}

// add appends to a file (making it when missing).
func (b *Writes) Add(p string, data []byte) {
	if len(data) == 0 {
		return
	}
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p && !w.Remove {
			w.Data = append(w.Data, data...)
			return
		}
	}
	b.writes = append(b.writes, fileWrite{Path: p, Append: true, Data: append([]byte(nil), data...)})
}

// drop takes back the batch's writes to p.
func (b *Writes) Drop(p string) {
	out := b.writes[:0]
	for _, w := range b.writes {
		if w.Path != p {
			out = append(out, w)
		}
	}
	b.writes = out
}

// remove deletes a file.
func (b *Writes) Remove(p string) {
	b.writes = append(b.writes, fileWrite{Path: p, Remove: true})
}

// writeSession adds a session's session.yaml to the batch.
func (b *Writes) WriteSession(e *model.SessionEntry) error {
	data, err := e.Marshal()
	if err != nil {
		return err
	}
	b.Put(e.File(model.SessionFile), data)
	return nil
}

// pending returns what a file will hold once the batch is applied, as far
// as the batch knows: its content in the work tree (where it was before
// any move) plus what the batch adds, or what it puts.
func (m *Memory) PendingContent(b *Writes, p string) ([]byte, error) {
	for _, w := range b.writes {
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
	for _, w := range b.writes {
		if w.Path == p && w.Append {
			cur = append(cur, w.Data...)
		}
	}
	return cur, nil
}

// before maps a path named after the batch's moves to where the file is
// before them.
func (b *Writes) Before(p string) string {
	for i := len(b.moves) - 1; i >= 0; i-- {
		mv := b.moves[i]
		if p == mv.To || strings.HasPrefix(p, mv.To+"/") {
			p = mv.From + p[len(mv.To):]
		}
	}
	return p
}

// paths are the repository paths the batch touches, for the checkpoint.
func (b *Writes) Paths() []string {
	set := map[string]bool{}
	for _, mv := range b.moves {
		set[mv.From], set[mv.To] = true, true
	}
	for _, w := range b.writes {
		set[w.Path] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
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
	j := &journal{Schema: 1, Parent: head, Moves: b.moves, NoCommit: opts == nil}
	if opts != nil {
		j.Session, j.Event, j.Message = opts.Session, opts.Event, opts.Message
	}
	for _, w := range b.writes {
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
	if err := m.journal().write(j); err != nil {
		return nil, err
	}
	fail := func(err error) (*gitstore.Checkpoint, error) {
		if rerr := m.journal().undo(j); rerr != nil {
			return nil, fmt.Errorf("%w (and undoing the batch failed: %v; the next writer tries again)", err, rerr)
		}
		m.journal().remove()
		return nil, err
	}
	if err := m.journal().redo(j); err != nil {
		return fail(err)
	}
	m.pause("applied")
	if opts == nil {
		m.journal().remove()
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
	m.journal().remove()
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

// what names a journal's batch in messages.
func (j *journal) what() string {
	switch {
	case j.Message != "":
		return j.Message
	case j.Event != "":
		return j.Event
	case len(j.Paths) > 0:
		return j.Paths[0]
	}
	return "no description"
}

func (jf journalFile) write(j *journal) error {
	m := jf.m
	data, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := safefile.Write(m.store.StatePath(journalName), data, 0o600); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return nil
}

func (jf journalFile) remove() {
	m := jf.m
	_ = os.Remove(m.store.StatePath(journalName))
}

// LockSettled takes the writer lock and settles a batch a killed process
// left half written (recoverJournal), so that what follows reads the
// memory as it was committed.
func (m *Memory) LockSettled(ctx context.Context) (unlock func(), err error) {
	if unlock, err = m.Lock(ctx); err != nil {
		return nil, err
	}
	if err := m.journal().recover(ctx); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// recover finishes or undoes a batch a dead process left behind.
// The caller holds the lock.
func (jf journalFile) recover(ctx context.Context) error {
	m := jf.m
	data, err := os.ReadFile(m.store.StatePath(journalName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		// A journal is written whole (temporary file and rename) before
		// any change: one that does not parse was never acted on.
		m.warn(fmt.Sprintf("write journal %s is damaged (%v); set aside", m.store.StatePath(journalName), err))
		_ = os.Rename(m.store.StatePath(journalName), m.store.StatePath(journalName)+".damaged")
		return nil
	}
	head, err := m.store.Resolve("HEAD")
	if err != nil {
		return err
	}
	if j.Restore != nil {
		return m.History().finishRestore(ctx, &j)
	}
	if head == j.Parent || j.NoCommit {
		if err := m.journal().undo(&j); err != nil {
			return fmt.Errorf("undo an interrupted batch (%s): %w", j.what(), err)
		}
		m.warn(fmt.Sprintf("undid a batch of writes (%s) a stopped process left uncommitted", j.what()))
		m.journal().remove()
		return nil
	}
	if err := m.journal().redo(&j); err != nil {
		return fmt.Errorf("finish an interrupted batch (%s): %w", j.what(), err)
	}
	_, err = m.checkpoint(ctx, CheckpointOptions{Message: j.Message, Session: j.Session, Event: j.Event, Paths: j.Paths})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToDo) {
		return fmt.Errorf("finish an interrupted batch (%s): %w", j.what(), err)
	}
	m.warn(fmt.Sprintf("finished a batch of writes (%s) a stopped process left", j.what()))
	m.journal().remove()
	return nil
}

// redo makes the work tree what the batch wants. It can run again on a
// work tree where it ran in part or in full.
func (jf journalFile) redo(j *journal) error {
	m := jf.m
	for _, mv := range j.Moves {
		from, err := m.store.Abs(mv.From)
		if err != nil {
			return err
		}
		to, err := m.store.Abs(mv.To)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(from); err != nil {
			continue // moved already
		}
		if _, err := os.Lstat(to); err == nil {
			return fmt.Errorf("move %s to %s: %s exists", mv.From, mv.To, mv.To)
		}
		if err := os.MkdirAll(filepath.Dir(to), gitstore.DirPerm); err != nil {
			return err
		}
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("move %s: %w", mv.From, err)
		}
		m.journal().removeEmptyParents(filepath.Dir(from))
	}
	for _, w := range j.Writes {
		switch {
		case w.Remove:
			if err := m.store.Remove(w.Path); err != nil && !errors.Is(err, gitstore.ErrNotFound) {
				return err
			}
		case w.Append:
			cur, err := m.store.ReadFile(w.Path)
			if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
				return err
			}
			if int64(len(cur)) > w.Base {
				cur = cur[:w.Base]
			}
			data := append(cur, w.Data...)
			if err := m.store.WriteFile(w.Path, data); err != nil {
				return err
			}
		default:
			if err := m.store.WriteFile(w.Path, w.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

// undo puts back what the batch changed, in reverse order. It can run on
// a work tree where the batch ran in part.
func (jf journalFile) undo(j *journal) error {
	m := jf.m
	for i := len(j.Writes) - 1; i >= 0; i-- {
		w := j.Writes[i]
		switch {
		case w.Append && w.Existed:
			cur, err := m.store.ReadFile(w.Path)
			if errors.Is(err, gitstore.ErrNotFound) {
				continue // under its folder's old name still
			}
			if err != nil {
				return err
			}
			if int64(len(cur)) > w.Base {
				if err := m.store.WriteFile(w.Path, cur[:w.Base]); err != nil {
					return err
				}
			}
		case !w.Existed:
			if err := m.store.Remove(w.Path); err != nil && !errors.Is(err, gitstore.ErrNotFound) {
				return err
			}
		default:
			cur, err := m.store.ReadFile(w.Path)
			if err == nil && bytes.Equal(cur, w.Old) {
				continue
			}
			if err := m.store.WriteFile(w.Path, w.Old); err != nil {
				return err
			}
		}
	}
	for i := len(j.Moves) - 1; i >= 0; i-- {
		mv := j.Moves[i]
		from, err := m.store.Abs(mv.From)
		if err != nil {
			return err
		}
		to, err := m.store.Abs(mv.To)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(to); err != nil {
			continue
		}
		if _, err := os.Lstat(from); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(from), gitstore.DirPerm); err != nil {
			return err
		}
		if err := os.Rename(to, from); err != nil {
			return fmt.Errorf("move %s back: %w", mv.To, err)
		}
		m.journal().removeEmptyParents(filepath.Dir(to))
	}
	return nil
}

// removeEmptyParents removes dir and its parents while they are empty,
// up to the memory's root.
func (jf journalFile) removeEmptyParents(dir string) {
	m := jf.m
	for d := dir; len(d) > len(m.Dir) && strings.HasPrefix(d, m.Dir+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// Prepend puts head before what the batch writes to p: at the start of
// the file it creates or of what it appends.
func (b *Writes) Prepend(p string, head []byte) {
	for i := range b.writes {
		if w := &b.writes[i]; w.Path == p {
			w.Data = append(head, w.Data...)
			return
		}
	}
	b.Add(p, head)
}

// JournalPending reports whether a batch that a killed process left half
// written waits to be settled (LockSettled settles it).
func (m *Memory) JournalPending() bool {
	_, err := os.Stat(m.store.StatePath(journalName))
	return err == nil
}

// journalFile is the crash journal at .state/capture/journal.json: one
// batch of writes at a time, written before the batch's files and removed
// after its commit, so that the next writer can undo or finish a batch a
// killed process left.
type journalFile struct{ m *Memory }

func (m *Memory) journal() journalFile { return journalFile{m} }
