package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// Name is where the journal is under the memory's .state folder. It keeps
// its name under capture/, where capture first used it, so that one a
// previous version left is still found.
const Name = "capture/journal.json"

// FileMove is a move of a folder (or file) the batch makes.
type FileMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// FileWrite is a change of one file the batch makes.
type FileWrite struct {
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

// Journal is one batch as the journal file records it.
type Journal struct {
	Schema  int         `json:"schema"`
	Parent  string      `json:"parent"` // HEAD before the batch
	Moves   []FileMove  `json:"moves,omitempty"`
	Writes  []FileWrite `json:"writes"`
	Session string      `json:"session,omitempty"`
	Event   string      `json:"event,omitempty"`
	Message string      `json:"message,omitempty"`
	Paths   []string    `json:"paths"`
	// NoCommit marks a batch written without a checkpoint
	// (checkpoint.auto: false): HEAD tells nothing of how far it got, so
	// recovery undoes it.
	NoCommit bool `json:"no_commit,omitempty"`
	// Restore, when set, is a restore (internal/memory's history.go)
	// rather than a batch of writes: the content is in history, so the
	// journal names commits instead of holding bytes, and recovery rolls
	// it forward.
	Restore *RestoreOp `json:"restore,omitempty"`
}

// RestoreOp is a restore as the journal records it.
type RestoreOp struct {
	From  string   `json:"from"`            // the commit restored from
	Paths []string `json:"paths,omitempty"` // nil means the whole memory
}

// What names a journal's batch in messages.
func (j *Journal) What() string {
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

// Tree is the memory's work tree as the journal changes it, by
// repository path. ReadFile and Remove report a missing file with an
// error matching fs.ErrNotExist.
type Tree interface {
	Abs(p string) (string, error)
	ReadFile(p string) ([]byte, error)
	WriteFile(p string, data []byte) error
	Remove(p string) error
}

// File is the crash journal at .state/capture/journal.json: one batch of
// writes at a time, written before the batch's files and removed after
// its commit, so that the next writer can undo or finish a batch a
// killed process left.
type File struct {
	Path    string      // the journal file
	Dir     string      // the memory's root, where removing empty folders stops
	Tree    Tree        // the work tree the batch changes
	DirPerm fs.FileMode // for the folders a move makes
}

// DamagedError is a journal file that does not parse. A journal is
// written whole (temporary file and rename) before any change: one that
// does not parse was never acted on.
type DamagedError struct{ Err error }

func (e *DamagedError) Error() string { return e.Err.Error() }
func (e *DamagedError) Unwrap() error { return e.Err }

func (jf File) Write(j *Journal) error {
	data, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := safefile.Write(jf.Path, data, 0o600); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return nil
}

func (jf File) Remove() { _ = os.Remove(jf.Path) }

// Pending reports whether a journal file is there.
func (jf File) Pending() bool {
	_, err := os.Stat(jf.Path)
	return err == nil
}

// Read reads the journal: nil when there is none, a *DamagedError when it
// does not parse.
func (jf File) Read() (*Journal, error) {
	data, err := os.ReadFile(jf.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("write journal: %w", err)
	}
	var j Journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, &DamagedError{err}
	}
	if p := j.outside(); p != "" {
		// Never written so: a hand-made or damaged journal that every
		// writer would try, and fail, to act on.
		return nil, &DamagedError{fmt.Errorf("it names %q, not a path in the memory", p)}
	}
	return &j, nil
}

// outside returns the first path of j that is not a local, slash-separated
// repository path, or "".
func (j *Journal) outside() string {
	bad := func(p string) bool {
		return p == "" || strings.Contains(p, "\\") || !filepath.IsLocal(filepath.FromSlash(p)) || path.Clean(p) != p
	}
	for _, mv := range j.Moves {
		if bad(mv.From) {
			return mv.From
		}
		if bad(mv.To) {
			return mv.To
		}
	}
	for _, w := range j.Writes {
		if bad(w.Path) {
			return w.Path
		}
	}
	for _, p := range j.Paths {
		if bad(p) {
			return p
		}
	}
	if j.Restore != nil {
		for _, p := range j.Restore.Paths {
			if bad(p) {
				return p
			}
		}
	}
	return ""
}

// SetAside renames a damaged journal out of the way.
func (jf File) SetAside() { _ = os.Rename(jf.Path, jf.Path+".damaged") }

// Redo makes the work tree what the batch wants. It can run again on a
// work tree where it ran in part or in full.
func (jf File) Redo(j *Journal) error {
	t := jf.Tree
	for _, mv := range j.Moves {
		from, err := t.Abs(mv.From)
		if err != nil {
			return err
		}
		to, err := t.Abs(mv.To)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(from); err != nil {
			continue // moved already
		}
		if _, err := os.Lstat(to); err == nil {
			return fmt.Errorf("move %s to %s: %s exists", mv.From, mv.To, mv.To)
		}
		if err := os.MkdirAll(filepath.Dir(to), jf.DirPerm); err != nil {
			return err
		}
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("move %s: %w", mv.From, err)
		}
		jf.removeEmptyParents(filepath.Dir(from))
	}
	for _, w := range j.Writes {
		switch {
		case w.Remove:
			if err := t.Remove(w.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		case w.Append:
			cur, err := t.ReadFile(w.Path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if int64(len(cur)) > w.Base {
				cur = cur[:w.Base]
			}
			data := append(cur, w.Data...)
			if err := t.WriteFile(w.Path, data); err != nil {
				return err
			}
		default:
			if err := t.WriteFile(w.Path, w.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

// Undo puts back what the batch changed, in reverse order. It can run on
// a work tree where the batch ran in part.
func (jf File) Undo(j *Journal) error {
	t := jf.Tree
	for i := len(j.Writes) - 1; i >= 0; i-- {
		w := j.Writes[i]
		switch {
		case w.Append && w.Existed:
			cur, err := t.ReadFile(w.Path)
			if errors.Is(err, fs.ErrNotExist) {
				continue // under its folder's old name still
			}
			if err != nil {
				return err
			}
			if int64(len(cur)) > w.Base {
				if err := t.WriteFile(w.Path, cur[:w.Base]); err != nil {
					return err
				}
			}
		case !w.Existed:
			if err := t.Remove(w.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		default:
			cur, err := t.ReadFile(w.Path)
			if err == nil && bytes.Equal(cur, w.Old) {
				continue
			}
			if err := t.WriteFile(w.Path, w.Old); err != nil {
				return err
			}
		}
	}
	for i := len(j.Moves) - 1; i >= 0; i-- {
		mv := j.Moves[i]
		from, err := t.Abs(mv.From)
		if err != nil {
			return err
		}
		to, err := t.Abs(mv.To)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(to); err != nil {
			continue
		}
		if _, err := os.Lstat(from); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(from), jf.DirPerm); err != nil {
			return err
		}
		if err := os.Rename(to, from); err != nil {
			return fmt.Errorf("move %s back: %w", mv.To, err)
		}
		jf.removeEmptyParents(filepath.Dir(to))
	}
	return nil
}

// removeEmptyParents removes dir and its parents while they are empty,
// up to the memory's root.
func (jf File) removeEmptyParents(dir string) {
	for d := dir; len(d) > len(jf.Dir) && strings.HasPrefix(d, jf.Dir+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}
